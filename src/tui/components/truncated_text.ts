/**
 * TruncatedText: the first line of a text, cut to the width, as in pi-tui 1.6.0's
 * `components/truncated-text`.
 *
 * @module
 */
import type { Component } from "../tui_component.ts";
import { truncateToWidth, visibleWidth } from "../utils_text.ts";

/** One row of text (up to its first newline), truncated with an ellipsis and padded to the width. */
export class TruncatedText implements Component {
  private text: string;
  private paddingX: number;
  private paddingY: number;

  /** `paddingX` columns left and right, `paddingY` blank rows above and below. */
  constructor(text: string, paddingX = 0, paddingY = 0) {
    this.text = text;
    this.paddingX = paddingX;
    this.paddingY = paddingY;
  }

  /** Nothing is cached. */
  invalidate(): void {}

  /** The padded row between `paddingY` blank rows. */
  render(width: number): string[] {
    const blank = " ".repeat(width);
    const newline = this.text.indexOf("\n");
    const firstLine = newline === -1 ? this.text : this.text.slice(0, newline);
    const shown = truncateToWidth(firstLine, Math.max(1, width - this.paddingX * 2));
    const margin = " ".repeat(this.paddingX);
    const row = margin + shown + margin;
    const rows: string[] = [];
    for (let i = 0; i < this.paddingY; i++) rows.push(blank);
    rows.push(row + " ".repeat(Math.max(0, width - visibleWidth(row))));
    for (let i = 0; i < this.paddingY; i++) rows.push(blank);
    return rows;
  }
}
