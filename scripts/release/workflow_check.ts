/**
 * The structural check of .github/workflows/release.yml (issue 18), beside actionlint's: that the
 * workflow builds what scripts/build.ts builds, the way deno.json's `compile` task builds it, with
 * the Deno of .ci/run, tests each binary on its own runner, and publishes exactly the assets
 * install.sh and `pi update` download. tests/scripts/release_workflow_test.ts runs it on the real
 * files and on broken copies.
 *
 * @module
 */
import { parse } from "npm:yaml@2.9.1";

/** The runner each target builds and runs on (the binary is smoke-tested where it is built). */
export const RUNNERS: Readonly<Record<string, string>> = {
  "x86_64-unknown-linux-gnu": "ubuntu-latest",
  "aarch64-unknown-linux-gnu": "ubuntu-24.04-arm",
  "x86_64-apple-darwin": "macos-15-intel",
  "aarch64-apple-darwin": "macos-14",
  "x86_64-pc-windows-msvc": "windows-latest",
};

/** What the workflow is checked against. */
export interface WorkflowContext {
  /** scripts/build.ts's TARGETS: target triple → asset name. */
  targets: Readonly<Record<string, string>>;
  /** deno.json's `compile` task. */
  compileTask: string;
  /** The Deno version .ci/run installs. */
  denoVersion: string;
}

type Json = Record<string, unknown>;

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  with?: Json;
  if?: string;
}

/** The Deno version .ci/run installs (its `DENO_VERSION=` line). */
export function ciDenoVersion(ciRun: string): string | undefined {
  return ciRun.match(/^DENO_VERSION=([0-9.]+)$/m)?.[1];
}

/** Every problem of `yamlText` against `context`, one sentence each; empty when it is sound. */
export function workflowProblems(yamlText: string, context: WorkflowContext): string[] {
  const problems: string[] = [];
  const add = (text: string) => problems.push(text);
  let doc: Json;
  try {
    doc = parse(yamlText) as Json;
  } catch (error) {
    return [`not YAML: ${(error as Error).message}`];
  }
  if (!doc || typeof doc !== "object") return ["the workflow is empty"];

  // Trigger: version tags.
  const on = doc.on as Json | undefined;
  const tags = ((on?.push as Json | undefined)?.tags ?? []) as unknown[];
  if (tags.length !== 1 || tags[0] !== "v*") {
    add(`on.push.tags must be ["v*"], found ${JSON.stringify(tags)}`);
  }
  if ((doc.permissions as Json | undefined)?.contents !== "read") {
    add("top-level permissions must be contents: read");
  }

  // Every action pinned to a commit, with the tag it was as a comment.
  for (const line of yamlText.split("\n")) {
    const uses = line.match(/^\s*(?:-\s*)?uses:\s*(\S+)(.*)$/);
    if (!uses) continue;
    if (!/^[\w.-]+\/[\w.-]+@[0-9a-f]{40}$/.test(uses[1])) {
      add(`uses: ${uses[1]} is not pinned to a full commit SHA`);
    } else if (!/#\s*v\d/.test(uses[2])) add(`uses: ${uses[1]} has no "# vX.Y.Z" comment naming its tag`);
  }

  // The Deno of .ci/run.
  const env = doc.env as Json | undefined;
  if (String(env?.DENO_VERSION) !== context.denoVersion) {
    add(`env.DENO_VERSION is ${env?.DENO_VERSION}, .ci/run installs ${context.denoVersion}`);
  }

  const jobs = (doc.jobs ?? {}) as Record<string, Json>;
  const build = jobs.build;
  if (!build) return [...problems, "no build job"];

  // One runner per target, naming the asset scripts/build.ts writes.
  const include =
    (((build.strategy as Json | undefined)?.matrix as Json | undefined)?.include ?? []) as Json[];
  const seen = new Set<string>();
  for (const entry of include) {
    const target = String(entry.target);
    seen.add(target);
    if (!(target in context.targets)) add(`matrix target ${target} is not in scripts/build.ts's TARGETS`);
    else if (entry.asset !== context.targets[target]) {
      add(
        `matrix asset of ${target} is ${entry.asset}, scripts/build.ts names it ${context.targets[target]}`,
      );
    }
    if (RUNNERS[target] && entry.runner !== RUNNERS[target]) {
      add(`${target} runs on ${entry.runner}, expected ${RUNNERS[target]}`);
    }
  }
  for (const target of Object.keys(context.targets)) {
    if (!seen.has(target)) add(`no matrix entry builds ${target}`);
  }
  if (build["runs-on"] !== "${{ matrix.runner }}") add("the build job must run on ${{ matrix.runner }}");

  const steps = (build.steps ?? []) as Step[];
  const runs = steps.map((step) => (step.run ?? "").trim());
  // The build is deno.json's compile task, nothing else.
  if (context.compileTask !== "deno run --allow-all scripts/build.ts") {
    add(`deno.json's compile task is "${context.compileTask}", not "deno run --allow-all scripts/build.ts"`);
  }
  const compiles = runs.filter((run) => /\bcompile\b/.test(run));
  if (compiles.length !== 1 || compiles[0] !== "deno task compile ${{ matrix.target }}") {
    add(
      `the build step must be exactly "deno task compile \${{ matrix.target }}", found ${
        JSON.stringify(compiles)
      }`,
    );
  }
  const install = runs.findIndex((run) => run.includes("npm i -g") && run.includes('"deno@${DENO_VERSION}"'));
  if (install < 0) add('no step installs Deno with npm i -g "deno@${DENO_VERSION}" (as .ci/run does)');
  const compileAt = runs.indexOf("deno task compile ${{ matrix.target }}");
  const smokeAt = runs.findIndex((run) =>
    run === 'deno run --allow-all scripts/smoke/smoke.ts --binary "dist/${{ matrix.asset }}"'
  );
  if (smokeAt < 0) add("no step runs scripts/smoke/smoke.ts --binary on dist/${{ matrix.asset }}");
  else if (compileAt >= 0 && smokeAt < compileAt) add("the smoke test runs before the build");
  const tagCheck = steps.find((step) => (step.run ?? "").includes("scripts/release/check_tag.ts"));
  if (!tagCheck) add("no step checks the tag against deno.json's version");
  const upload = steps.find((step) => step.uses?.startsWith("actions/upload-artifact@"));
  if (upload?.with?.path !== "dist/${{ matrix.asset }}") {
    add("the upload step must keep dist/${{ matrix.asset }}");
  }

  // The release: every asset and SHA256SUMS, only on a version tag, only after every build.
  const release = jobs.release;
  if (!release) return [...problems, "no release job"];
  if (release.needs !== "build") add("the release job must need the build job");
  if (!String(release.if ?? "").includes("refs/tags/v")) add("the release job must run on version tags only");
  if ((release.permissions as Json | undefined)?.contents !== "write") {
    add("the release job needs permissions: contents: write");
  }
  const releaseRuns = ((release.steps ?? []) as Step[]).map((step) => step.run ?? "").join("\n");
  if (!releaseRuns.includes("scripts/release/checksums.ts dist")) {
    add("the release job does not write SHA256SUMS");
  }
  if (!releaseRuns.includes("sha256sum -c SHA256SUMS")) add("the release job does not verify SHA256SUMS");
  const publish = releaseRuns.match(/gh release create[\s\S]*$/)?.[0] ?? "";
  const published = [...publish.matchAll(/dist\/(\S+)/g)].map((m) => m[1]).sort();
  const wanted = [...Object.values(context.targets), "SHA256SUMS"].sort();
  if (JSON.stringify(published) !== JSON.stringify(wanted)) {
    add(`the release attaches ${JSON.stringify(published)}, expected ${JSON.stringify(wanted)}`);
  }
  return problems;
}
