/**
 * The interactive mode's theme: a {@link ThemeData} resolved to escape sequences for the
 * terminal's colour mode. Components style text by token (`fg("muted", …)`), never by colour, so
 * a theme change is one object swap.
 *
 * @module
 */
import {
  backgroundAnsi,
  type Color,
  foregroundAnsi,
  getTerminalColorMode,
  type MarkdownTheme,
  parseColor,
  type SelectListTheme,
  type TerminalColorMode,
} from "../../tui/mod.ts";
import { DARK_THEME, type ThemeData } from "./theme_dark.ts";

/** The tokens 1.6.0's schema names, as the dark theme lists them. */
export type ThemeToken = keyof typeof DARK_THEME.colors;

const RESET_FG = "\x1b[39m";
const RESET_BG = "\x1b[49m";

/** A resolved theme: token colours as escape sequences, plus the text attributes pi uses. */
export class Theme {
  /** The theme's name. */
  readonly name: string;
  /** The colour mode the sequences were made for. */
  readonly colorMode: TerminalColorMode;
  readonly #fg = new Map<string, string>();
  readonly #bg = new Map<string, string>();

  /** Resolves `data` (variables included) for `colorMode`; an unknown colour names its token. */
  constructor(data: ThemeData, colorMode: TerminalColorMode) {
    this.name = data.name;
    this.colorMode = colorMode;
    for (const [token, value] of Object.entries(data.colors)) {
      const color = resolveColor(data, token, value);
      this.#fg.set(token, foregroundAnsi(color, colorMode));
      this.#bg.set(token, backgroundAnsi(color, colorMode));
    }
  }

  /** `text` in the token's foreground colour. */
  fg(token: ThemeToken, text: string): string {
    const open = this.#fg.get(token);
    return open ? `${open}${text}${RESET_FG}` : text;
  }

  /** `text` on the token's background colour. */
  bg(token: ThemeToken, text: string): string {
    const open = this.#bg.get(token);
    return open ? `${open}${text}${RESET_BG}` : text;
  }

  /** Bold text. */
  bold(text: string): string {
    return `\x1b[1m${text}\x1b[22m`;
  }

  /** Italic text. */
  italic(text: string): string {
    return `\x1b[3m${text}\x1b[23m`;
  }

  /** Underlined text. */
  underline(text: string): string {
    return `\x1b[4m${text}\x1b[24m`;
  }

  /** Struck-through text. */
  strikethrough(text: string): string {
    return `\x1b[9m${text}\x1b[29m`;
  }

  /** The markdown styles of 1.6.0's `getMarkdownTheme()`. */
  markdown(): MarkdownTheme {
    return {
      heading: (t) => this.fg("mdHeading", t),
      link: (t) => this.fg("mdLink", t),
      linkUrl: (t) => this.fg("mdLinkUrl", t),
      code: (t) => this.fg("mdCode", t),
      codeBlock: (t) => this.fg("mdCodeBlock", t),
      codeBlockBorder: (t) => this.fg("mdCodeBlockBorder", t),
      quote: (t) => this.fg("mdQuote", t),
      quoteBorder: (t) => this.fg("mdQuoteBorder", t),
      hr: (t) => this.fg("mdHr", t),
      listBullet: (t) => this.fg("mdListBullet", t),
      bold: (t) => this.bold(t),
      italic: (t) => this.italic(t),
      strikethrough: (t) => this.strikethrough(t),
      underline: (t) => this.underline(t),
    };
  }

  /** The select-list styles of 1.6.0's `getSelectListTheme()`. */
  selectList(): SelectListTheme {
    return {
      selectedPrefix: (t) => this.fg("accent", t),
      selectedText: (t) => this.fg("accent", t),
      description: (t) => this.fg("muted", t),
      scrollInfo: (t) => this.fg("muted", t),
      noMatch: (t) => this.fg("muted", t),
    };
  }
}

function resolveColor(data: ThemeData, token: string, value: string): Color {
  const seen = new Set<string>();
  let current = value;
  while (Object.hasOwn(data.vars, current)) {
    if (seen.has(current)) throw new Error(`Theme "${data.name}": variable "${current}" refers to itself`);
    seen.add(current);
    current = data.vars[current];
  }
  try {
    return parseColor(current);
  } catch {
    throw new Error(`Theme "${data.name}": token "${token}" has an invalid colour: ${value}`);
  }
}

/** The built-in themes by name. */
export const BUILTIN_THEMES: Readonly<Record<string, ThemeData>> = { dark: DARK_THEME };

/** The theme `name` (default dark; an unknown name falls back to dark) for the terminal's colour mode. */
export function loadTheme(name?: string, colorMode: TerminalColorMode = getTerminalColorMode()): Theme {
  const data = (name && BUILTIN_THEMES[name]) || DARK_THEME;
  return new Theme(data, colorMode);
}
