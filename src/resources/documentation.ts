/**
 * Where pi's own documentation lives, for the system prompt and the auth guidance texts.
 * Paths are resolved from this module's location (the package root holds README.md and docs/).
 *
 * @module
 */
import { fileUrlToPath, join } from "../util/path.ts";
import type { DocumentationPaths } from "./system_prompt.ts";

/** The package root (the folder with README.md, docs/ and examples/). */
export function getPackageDir(): string {
  const url = new URL("../../", import.meta.url);
  return url.protocol === "file:" ? fileUrlToPath(url).replace(/\/$/, "") : url.pathname.replace(/\/$/, "");
}

/** README, docs and examples paths for the system prompt. */
export function getDocumentationPaths(): DocumentationPaths {
  const root = getPackageDir();
  return { readme: join(root, "README.md"), docs: join(root, "docs"), examples: join(root, "examples") };
}
