/**
 * `DynamicBorder` of pi 1.6.0's `@earendil-works/pi-coding-agent`: one row of `─` as wide as the
 * screen, in the colour function it is given (extensions pass `(s) => theme.fg("accent", s)`), else
 * the current theme's border colour.
 *
 * @module
 */
import type { Component } from "../../tui/mod.ts";
import { currentExportTheme } from "./export_theme.ts";

/** A full-width horizontal rule. */
export class DynamicBorder implements Component {
  /** Colours the rule. */
  color: (text: string) => string;

  /** A rule drawn with `color` (default: the theme's `border` colour). */
  constructor(color: (text: string) => string = (text) => currentExportTheme().fg("border", text)) {
    this.color = color;
  }

  /** Nothing cached. */
  invalidate(): void {}

  /** One row of `─`, at least one column wide. */
  render(width: number): string[] {
    return [this.color("─".repeat(Math.max(1, width)))];
  }
}
