/**
 * 1.6.0 pi-coding-agent's documentation paths for extensions: where pi's README, docs and examples
 * are — the same paths the system prompt names (a source checkout's own files, or the copy a
 * bundle or binary writes into the agent dir; src/resources/documentation.ts).
 *
 * @module
 */
import { getDocumentationPaths } from "../../resources/documentation.ts";
import { dirname } from "../../util/path.ts";

/** The folder holding pi's README.md, docs/ and examples/. */
export function getPackageDir(): string {
  return dirname(getDocumentationPaths().readme);
}

/** pi's README.md. */
export function getReadmePath(): string {
  return getDocumentationPaths().readme;
}

/** pi's docs folder. */
export function getDocsPath(): string {
  return getDocumentationPaths().docs;
}

/** pi's examples folder. */
export function getExamplesPath(): string {
  return getDocumentationPaths().examples;
}
