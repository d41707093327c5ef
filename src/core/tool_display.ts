/**
 * What the interactive mode needs of the tools to draw their calls and results: the output
 * limits and helpers the tools themselves use, so a row shows exactly what the tool truncated,
 * and the edit preview's diff, loaded only when the first edit row asks for it. Modes reach the
 * tools through `src/core` (docs/architecture.md), and this is that door for display code.
 *
 * @module
 */
import type { computeEditsDiff } from "../tools/edit_diff.ts";

export { stripAnsi } from "../tools/ansi_strip.ts";
export { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, formatSize, truncateTail } from "../tools/truncate.ts";

/** The edit tool's diff of `edits` against the file as it is now (what the call will change). */
export async function previewEditsDiff(
  ...args: Parameters<typeof computeEditsDiff>
): ReturnType<typeof computeEditsDiff> {
  const { computeEditsDiff } = await import("../tools/edit_diff.ts");
  return computeEditsDiff(...args);
}
