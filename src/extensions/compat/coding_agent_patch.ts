/**
 * 1.6.0 pi-coding-agent's unified patch of a file change for extensions (the `diff` package 1.6.0
 * uses, same version). Its own file, so the differ loads only when an extension imports it.
 *
 * @module
 */
import { createTwoFilesPatch, FILE_HEADERS_ONLY } from "npm:diff@8.0.4";

/** A standard unified patch of `path` from `oldContent` to `newContent`, with `contextLines` of context. */
export function generateUnifiedPatch(
  path: string,
  oldContent: string,
  newContent: string,
  contextLines = 4,
): string {
  return createTwoFilesPatch(path, path, oldContent, newContent, undefined, undefined, {
    context: contextLines,
    headerOptions: FILE_HEADERS_ONLY,
  });
}
