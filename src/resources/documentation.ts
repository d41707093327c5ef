/**
 * Where pi's own documentation lives, for the system prompt and the auth guidance texts. Every
 * path the prompt names must exist wherever pi runs:
 *
 * - from a source checkout, the package root (this module's `../../`) holds README.md, docs/ and
 *   examples/, and those are used in place;
 * - a bundle (`deno task bundle`), a compiled binary (`deno compile`) or a remote import has no
 *   source tree next to it, so the same files, generated into documentation_bundle.ts by
 *   scripts/gen_docs.ts, are written once into `<agentDir>/pi-docs/<content hash>/` and the prompt
 *   points there. The bundle module is imported only then (compile-safe: a literal import); the
 *   hash comes from the small documentation_hash.ts.
 *
 * @module
 */
import { getAgentDir } from "../config/paths.ts";
import { existsSync } from "../util/fs.ts";
import { dirname, fileUrlToPath, join } from "../util/path.ts";
import { DOCUMENTATION_HASH } from "./documentation_hash.ts";
import type { DocumentationPaths } from "./system_prompt.ts";

/** The package root (the folder with README.md, docs/ and examples/) this module was loaded from. */
export function getPackageDir(): string {
  const url = new URL("../../", import.meta.url);
  return url.protocol === "file:" ? fileUrlToPath(url).replace(/\/$/, "") : url.pathname.replace(/\/$/, "");
}

function pathsUnder(root: string): DocumentationPaths {
  return { readme: join(root, "README.md"), docs: join(root, "docs"), examples: join(root, "examples") };
}

/** The package root when it really holds the documentation (a source checkout). */
function sourceRoot(): string | undefined {
  if (new URL(import.meta.url).protocol !== "file:") return undefined;
  const root = getPackageDir();
  const ok = ["README.md", "docs/skills.md", "examples/README.md"].every((p) => existsSync(join(root, p)));
  return ok ? root : undefined;
}

/** Marks a fully written copy; written last, so a copy interrupted halfway is written again. */
const COMPLETE_MARKER = ".complete";

let pending: Promise<string> | undefined;

/**
 * Writes the bundled documentation into the agent dir (once per content hash) and returns its
 * root. Resolves even when the folder cannot be written (the prompt then names missing files,
 * which the model reports; nothing else depends on them).
 *
 * The files are written synchronously once the texts are loaded: with an `await` per file, a
 * short `-p` run could reach `Deno.exit` halfway and leave the folders named last (examples/)
 * missing until the next run.
 */
export function materializeDocumentation(agentDir: string = getAgentDir()): Promise<string> {
  pending ??= (async () => {
    const root = join(agentDir, "pi-docs", DOCUMENTATION_HASH);
    if (existsSync(join(root, COMPLETE_MARKER))) return root;
    const { DOCUMENTATION_FILES } = await import("./documentation_bundle.ts");
    try {
      for (const [path, text] of Object.entries(DOCUMENTATION_FILES)) {
        const file = join(root, path);
        Deno.mkdirSync(dirname(file), { recursive: true });
        Deno.writeTextFileSync(file, text);
      }
      Deno.writeTextFileSync(join(root, COMPLETE_MARKER), "");
    } catch {
      // A read-only agent dir: leave the prompt's paths as they are.
    }
    return root;
  })();
  return pending;
}

/**
 * README, docs and examples paths for the system prompt. From a source checkout they are the
 * checkout's own; otherwise the agent-dir copy, whose writing starts here (it is done long before
 * the model could ask to read it).
 */
export function getDocumentationPaths(): DocumentationPaths {
  const root = sourceRoot();
  if (root) return pathsUnder(root);
  void materializeDocumentation();
  return pathsUnder(join(getAgentDir(), "pi-docs", DOCUMENTATION_HASH));
}
