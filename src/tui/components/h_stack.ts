/**
 * Children side by side, sharing the width by their stack options.
 *
 * @module
 */
import { compositeTuiLine } from "../tui_overlay_layout.ts";
import { visibleWidth } from "../utils_text.ts";
import {
  allocateStackSizes,
  Stack,
  type StackChild,
  type StackOptions,
  visibleStackEntries,
} from "./stack.ts";

/**
 * A horizontal stack. Rendered inline, each child is first measured at the full width (its widest
 * line is its intrinsic width), then the widths are allocated and each child is rendered into its
 * column; the row count is the tallest child's, and `align` places shorter children vertically.
 */
export class HStack extends Stack {
  /** Lays children out side by side. */
  protected readonly layoutType = "hstack" as const;

  /** `children` from left to right; `options` set the gap and the vertical alignment. */
  constructor(children: StackChild[] = [], options: StackOptions = {}) {
    super(children, options);
  }

  /** The children composited into columns at `width`. */
  override render(width: number): string[] {
    const totalWidth = Math.max(1, width);
    const entries = visibleStackEntries(this.entries, { width: totalWidth, height: Number.MAX_SAFE_INTEGER });
    if (entries.length === 0) return [];
    const intrinsic = entries.map((entry) => widestLine(entry.component.render(totalWidth)));
    const widths = allocateStackSizes(entries, intrinsic, totalWidth, this.gap);
    const columns = entries.map((entry, index) =>
      widths[index] === 0 ? [] : entry.component.render(widths[index])
    );
    const height = columns.reduce((max, lines) => Math.max(max, lines.length), 0);
    const result: string[] = new Array(height).fill("");
    let x = 0;
    for (let index = 0; index < columns.length; index++) {
      const lines = columns[index];
      const offset = this.align === "center"
        ? Math.floor((height - lines.length) / 2)
        : this.align === "end"
        ? height - lines.length
        : 0;
      for (let row = 0; row < lines.length; row++) {
        const target = row + offset;
        if (target < 0 || target >= height) continue;
        result[target] = compositeTuiLine(result[target], lines[row], x, widths[index], totalWidth);
      }
      x += widths[index] + this.gap;
    }
    return result;
  }
}

function widestLine(lines: readonly string[]): number {
  let widest = 0;
  for (const line of lines) widest = Math.max(widest, visibleWidth(line));
  return widest;
}
