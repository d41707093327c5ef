/**
 * Text cut to a number of visual (wrapped) lines, for tool output previews: 1.6.0 pi-coding-agent's
 * `truncateToVisualLines`, which extensions import to render their own tool results.
 *
 * @module
 */
import { Text } from "../../tui/mod.ts";

/**
 * `text` as the lines a `Text` with `paddingX` draws at `width`, at most `maxVisualLines` of them:
 * the last ones (`keep` "end", the default) or the first ones, with the number left out.
 */
export function truncateToVisualLines(
  text: string,
  maxVisualLines: number,
  width: number,
  paddingX = 0,
  keep: "start" | "end" = "end",
): { visualLines: string[]; skippedCount: number } {
  if (!text) return { visualLines: [], skippedCount: 0 };
  const lines = new Text(text, paddingX, 0).render(width);
  if (lines.length <= maxVisualLines) return { visualLines: [...lines], skippedCount: 0 };
  return {
    visualLines: keep === "start" ? lines.slice(0, maxVisualLines) : lines.slice(-maxVisualLines),
    skippedCount: lines.length - maxVisualLines,
  };
}
