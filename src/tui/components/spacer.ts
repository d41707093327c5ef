/**
 * Spacer: a number of empty rows, as in pi-tui 1.6.0's `components/spacer`.
 *
 * @module
 */
import type { Component } from "../tui_component.ts";

/** Renders `lines` empty rows. */
export class Spacer implements Component {
  private lines: number;

  /** One empty row unless told otherwise. */
  constructor(lines = 1) {
    this.lines = lines;
  }

  /** Changes the number of rows. */
  setLines(lines: number): void {
    this.lines = lines;
  }

  /** Nothing is cached. */
  invalidate(): void {}

  /** `lines` empty strings (none for zero or negative counts). */
  render(_width: number): string[] {
    const rows: string[] = [];
    for (let i = 0; i < this.lines; i++) rows.push("");
    return rows;
  }
}
