/**
 * The theme behind the helpers pi 1.6.0's `@earendil-works/pi-coding-agent` exports without a
 * theme argument (`getMarkdownTheme()`, `keyHint()`, `DynamicBorder`'s default colour): 1.6.0
 * reads its global theme; here the interactive mode names the theme it draws with, and any other
 * mode gets the default theme on first use.
 *
 * @module
 */
import { loadTheme, type Theme } from "./theme.ts";

let current: Theme | undefined;

/** Makes `theme` the one the exported helpers colour with (the interactive mode's, at start). */
export function setExportTheme(theme: Theme): void {
  current = theme;
}

/** The theme the exported helpers colour with. */
export function currentExportTheme(): Theme {
  return current ??= loadTheme();
}
