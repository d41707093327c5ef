/**
 * Box: a container that pads its children and paints a background behind them, as in pi-tui 1.6.0's
 * `components/box`.
 *
 * @module
 */
import {
  type ChildLines,
  type Component,
  dispatchMouseToChildLines,
  renderChildLines,
  type TuiMouseDispatchResult,
  type TuiMouseEvent,
} from "../tui_component.ts";
import { flattenLines, visibleWidth } from "../utils_text.ts";

/** What the last render produced, and from what. */
interface BoxCache {
  childLines: readonly string[];
  width: number;
  bgSample: string | undefined;
  lines: string[];
}

/** Stacks its children vertically inside padding, every row padded to the width and painted by `bgFn`. */
export class Box implements Component {
  /** The children, top to bottom. */
  children: Component[] = [];
  private paddingX: number;
  private paddingY: number;
  private bgFn?: (text: string) => string;
  private cache?: BoxCache;
  private childLines?: ChildLines;

  /** `paddingX` columns left (children get `width - 2 * paddingX`), `paddingY` rows above and below. */
  constructor(paddingX = 1, paddingY = 1, bgFn?: (text: string) => string) {
    this.paddingX = paddingX;
    this.paddingY = paddingY;
    this.bgFn = bgFn;
  }

  /** Appends a child. */
  addChild(component: Component): void {
    this.children.push(component);
    this.invalidateCache();
  }

  /** Removes a child if present. */
  removeChild(component: Component): void {
    const index = this.children.indexOf(component);
    if (index === -1) return;
    this.children.splice(index, 1);
    this.invalidateCache();
  }

  /** Removes every child. */
  clear(): void {
    this.children = [];
    this.invalidateCache();
  }

  /**
   * Sets the background. The cache is kept: a render samples `bgFn` and redraws when its output
   * differs, which also catches a theme change behind the same function.
   */
  setBgFn(bgFn?: (text: string) => string): void {
    this.bgFn = bgFn;
  }

  /** Changes the left/right padding. */
  setPaddingX(paddingX: number): void {
    this.paddingX = paddingX;
    this.invalidateCache();
  }

  private invalidateCache(): void {
    this.cache = undefined;
    this.childLines = undefined;
  }

  /** Drops this box's cache and its children's. */
  invalidate(): void {
    this.invalidateCache();
    for (const child of this.children) child.invalidate?.();
  }

  /** Forwards an event inside the padding to the child drawn on that row. */
  handleMouse(event: TuiMouseEvent): TuiMouseDispatchResult | undefined {
    const contentWidth = Math.max(1, event.width - this.paddingX * 2);
    const x = event.x - this.paddingX;
    const y = event.y - this.paddingY;
    if (y < 0 || x < 0 || x >= contentWidth) return undefined;
    const layout = this.childLines?.width === contentWidth
      ? this.childLines
      : renderChildLines(this.children, contentWidth, undefined);
    return dispatchMouseToChildLines(layout, { ...event, x, y, width: contentWidth });
  }

  /** The children's rows, padded and painted; nothing when no child draws anything. */
  render(width: number): readonly string[] {
    if (this.children.length === 0) return [];
    const contentWidth = Math.max(1, width - this.paddingX * 2);
    // Children's lines stay unpadded, so an unchanged frame is recognised by array identity alone.
    this.childLines = renderChildLines(this.children, contentWidth, this.childLines);
    const childLines = this.childLines.lines;
    if (childLines.length === 0) return [];
    const bgSample = this.bgFn ? this.bgFn("test") : undefined;
    const cache = this.cache;
    if (cache && cache.childLines === childLines && cache.width === width && cache.bgSample === bgSample) {
      return cache.lines;
    }
    const leftPad = " ".repeat(this.paddingX);
    const lines: string[] = [];
    for (let i = 0; i < this.paddingY; i++) lines.push(this.applyBg("", width));
    for (const line of childLines) lines.push(this.applyBg(leftPad + line, width));
    for (let i = 0; i < this.paddingY; i++) lines.push(this.applyBg("", width));
    flattenLines(lines);
    this.cache = { childLines, width, bgSample, lines };
    return lines;
  }

  /** Pads to the width, then paints the whole row at once. */
  private applyBg(line: string, width: number): string {
    const padded = line + " ".repeat(Math.max(0, width - visibleWidth(line)));
    return this.bgFn ? this.bgFn(padded) : padded;
  }
}
