/**
 * Children one above the other, with gaps and fixed or measured heights.
 *
 * @module
 */
import {
  allocateStackSizes,
  Stack,
  type StackChild,
  type StackOptions,
  visibleStackEntries,
} from "./stack.ts";

export type { StackChild, StackEntry, StackEntryOptions, StackOptions } from "./stack.ts";

/**
 * A vertical stack. Rendered inline (outside the fullscreen layout engine) the height is unbounded,
 * so nothing grows or shrinks: each child gets its basis (or its own line count) clamped to its
 * min/max, cut or padded with empty lines to that, with `gap` empty lines between children.
 * Inside a fullscreen layout the engine shares the screen height instead.
 */
export class VStack extends Stack {
  /** Lays children out one above the other. */
  protected readonly layoutType = "vstack" as const;

  /** `children` from top to bottom; `options` set the gap (and alignment, for the layout engine). */
  constructor(children: StackChild[] = [], options: StackOptions = {}) {
    super(children, options);
  }

  /** The children's lines stacked at `width`. */
  override render(width: number): string[] {
    const viewport = { width: Math.max(1, width), height: Number.MAX_SAFE_INTEGER };
    const entries = visibleStackEntries(this.entries, viewport);
    const rendered = entries.map((entry) => entry.component.render(viewport.width));
    const sizes = allocateStackSizes(entries, rendered.map((lines) => lines.length), undefined, this.gap);
    const lines: string[] = [];
    for (let index = 0; index < entries.length; index++) {
      if (index > 0) { for (let gap = 0; gap < this.gap; gap++) lines.push(""); }
      const own = rendered[index];
      const size = sizes[index];
      for (let row = 0; row < size; row++) lines.push(row < own.length ? own[row] : "");
    }
    return lines;
  }
}
