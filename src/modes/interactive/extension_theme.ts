/**
 * `ctx.ui.theme` in the interactive mode: the app's theme with the rest of pi 1.6.0's `Theme`
 * surface extensions call (`inverse`, the raw escape sequences, the border colour helpers).
 *
 * @module
 */
import type { TerminalColorMode } from "../../tui/mod.ts";
import type { Theme, ThemeToken } from "./theme.ts";

/** The theme as extensions see it (1.6.0's `Theme` methods). */
export interface ExtensionTheme {
  readonly name: string;
  fg(color: string, text: string): string;
  bg(color: string, text: string): string;
  bold(text: string): string;
  italic(text: string): string;
  underline(text: string): string;
  inverse(text: string): string;
  strikethrough(text: string): string;
  getFgAnsi(color: string): string;
  getBgAnsi(color: string): string;
  getColorMode(): TerminalColorMode;
  getThinkingBorderColor(level: string): (text: string) => string;
  getBashModeBorderColor(): (text: string) => string;
}

/** The opening sequence `style` puts before a text (empty for an unknown token). */
function openingOf(style: (text: string) => string): string {
  const marker = "\u0000";
  const styled = style(marker);
  return styled.slice(0, styled.indexOf(marker));
}

/** `theme` with 1.6.0's extension-facing methods; colours follow the app's theme. */
export function extensionTheme(theme: Theme): ExtensionTheme {
  const token = (color: string) => color as ThemeToken;
  return {
    name: theme.name,
    fg: (color, text) => theme.fg(token(color), text),
    bg: (color, text) => theme.bg(token(color), text),
    bold: (text) => theme.bold(text),
    italic: (text) => theme.italic(text),
    underline: (text) => theme.underline(text),
    inverse: (text) => `\x1b[7m${text}\x1b[27m`,
    strikethrough: (text) => theme.strikethrough(text),
    getFgAnsi: (color) => openingOf((t) => theme.fg(token(color), t)),
    getBgAnsi: (color) => openingOf((t) => theme.bg(token(color), t)),
    getColorMode: () => theme.colorMode,
    getThinkingBorderColor: (level) => {
      const name = `thinking${level.charAt(0).toUpperCase()}${level.slice(1)}`;
      return (text) => theme.fg(token(name), text);
    },
    getBashModeBorderColor: () => (text) => theme.fg("bashMode", text),
  };
}
