/**
 * Text: word-wrapped multi-line text with padding and an optional background, as in pi-tui 1.6.0's
 * `components/text`.
 *
 * @module
 */
import type { Component } from "../tui_component.ts";
import { applyBackgroundToLine, flattenLines, visibleWidth, wrapTextWithAnsi } from "../utils_text.ts";

/** A tab is drawn as three spaces (terminals would jump to the next tab stop instead). */
const TAB_AS_SPACES = "   ";

/** Multi-line text, wrapped to the width, padded on every side, rendered lines cached per width. */
export class Text implements Component {
  private text: string;
  private paddingX: number;
  private paddingY: number;
  private customBgFn?: (text: string) => string;
  private cachedText?: string;
  private cachedWidth?: number;
  private cachedLines?: string[];

  /** `paddingX` columns left and right, `paddingY` blank rows above and below. */
  constructor(text = "", paddingX = 1, paddingY = 1, customBgFn?: (text: string) => string) {
    this.text = text;
    this.paddingX = paddingX;
    this.paddingY = paddingY;
    this.customBgFn = customBgFn;
  }

  /** Replaces the text; setting the same text keeps the wrapped lines (renderers do it every frame). */
  setText(text: string): void {
    if (text === this.text) return;
    this.text = text;
    this.dropCache();
  }

  /** Sets or removes the function that paints each full-width row's background. */
  setCustomBgFn(customBgFn?: (text: string) => string): void {
    this.customBgFn = customBgFn;
    this.dropCache();
  }

  /** Changes the left/right padding. */
  setPaddingX(paddingX: number): void {
    this.paddingX = paddingX;
    this.invalidate();
  }

  /** Drops the cached lines. */
  invalidate(): void {
    this.dropCache();
  }

  /**
   * Not {@link Text.invalidate}: subclasses override that (Loader rebuilds its text there), and a
   * text change must not call back into them.
   */
  private dropCache(): void {
    this.cachedText = undefined;
    this.cachedWidth = undefined;
    this.cachedLines = undefined;
  }

  /** The padded, wrapped rows; no rows at all for blank text. */
  render(width: number): readonly string[] {
    if (this.cachedLines && this.cachedText === this.text && this.cachedWidth === width) {
      return this.cachedLines;
    }
    const lines = this.text.trim() === "" ? [] : this.layout(width);
    flattenLines(lines);
    this.cachedText = this.text;
    this.cachedWidth = width;
    this.cachedLines = lines;
    return lines.length > 0 || this.text.trim() === "" ? lines : [""];
  }

  private layout(width: number): string[] {
    // Padding shrinks on narrow widths so that at least one column of content remains.
    const padX = Math.min(this.paddingX, Math.max(0, Math.floor((width - 1) / 2)));
    const contentWidth = Math.max(1, width - padX * 2);
    const margin = " ".repeat(padX);
    const bg = this.customBgFn;
    const content: string[] = [];
    for (const wrapped of wrapTextWithAnsi(this.text.replace(/\t/g, TAB_AS_SPACES), contentWidth)) {
      const row = margin + wrapped + margin;
      content.push(
        bg ? applyBackgroundToLine(row, width, bg) : row + " ".repeat(Math.max(0, width - visibleWidth(row))),
      );
    }
    const blank = " ".repeat(width);
    const padding: string[] = [];
    for (let i = 0; i < this.paddingY; i++) {
      padding.push(bg ? applyBackgroundToLine(blank, width, bg) : blank);
    }
    return [...padding, ...content, ...padding];
  }
}
