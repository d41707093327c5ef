/**
 * The interactive mode's theme: a theme file's colours ({@link ThemeJson}) resolved to escape
 * sequences for the terminal's colour mode. Components style text by token (`fg("muted", …)`),
 * never by colour, and keep the one {@link Theme} object they were given; switching themes
 * ({@link Theme.replace}) changes its colours in place, so the next frame draws in the new theme.
 *
 * @module
 */
import DARK_JSON from "../../resources/themes/dark.json" with { type: "json" };
import LIGHT_JSON from "../../resources/themes/light.json" with { type: "json" };
import type { ThemeColorValue, ThemeJson } from "../../resources/themes/theme_schema.ts";
import { resolveThemeVar } from "../../resources/themes/theme_vars.ts";
import { THEME_TOKENS, type ThemeTokenName } from "../../resources/themes/theme_tokens.ts";
import { type SystemThemeInput, systemThemeJson } from "../../resources/themes/system_theme.ts";
import { colorFgBgAppearance } from "../../resources/themes/theme_setting.ts";
import { readEnv } from "../../util/env.ts";
import {
  backgroundAnsi,
  foregroundAnsi,
  getTerminalColorMode,
  type MarkdownTheme,
  parseColor,
  type SelectListTheme,
  type TerminalColorMode,
} from "../../tui/mod.ts";

/** A theme as its file states it (pi 1.6.0's theme schema). */
export type ThemeData = ThemeJson;

/** The colour tokens of 1.6.0's theme schema. */
export type ThemeToken = ThemeTokenName;

/** pi 1.6.0's built-in `dark` theme. */
export const DARK_THEME: ThemeData = DARK_JSON as ThemeData;
/** pi 1.6.0's built-in `light` theme. */
export const LIGHT_THEME: ThemeData = LIGHT_JSON as ThemeData;

/** The built-in themes by name. */
export const BUILTIN_THEMES: Readonly<Record<string, ThemeData>> = { dark: DARK_THEME, light: LIGHT_THEME };

const RESET_FG = "\x1b[39m";
const RESET_BG = "\x1b[49m";
const FAINT = "\x1b[2m";
/** Ends a faint token: normal intensity and the default foreground. */
const RESET_FAINT_FG = "\x1b[22;39m";

/**
 * Token → opening escape sequence in its own slot, for every token (optional ones filled in); a
 * `dim` token's opening also turns on faint (SGR 2).
 */
function resolveTokens(
  data: ThemeData,
  mode: TerminalColorMode,
  dim: ReadonlySet<string>,
): Map<string, string> {
  const values: Partial<Record<ThemeToken, ThemeColorValue>> = {};
  for (const [token, value] of Object.entries(data.colors)) {
    if (value !== undefined) values[token as ThemeToken] = resolveThemeVar(value, data.vars ?? {});
  }
  const out = new Map<string, string>();
  for (
    const [token, info] of Object.entries(THEME_TOKENS) as [ThemeToken, (typeof THEME_TOKENS)[ThemeToken]][]
  ) {
    const value = values[token] ?? ("fallback" in info ? values[info.fallback as ThemeToken] : undefined);
    if (value === undefined) continue;
    const background = info.slot === "background";
    const faint = !background && dim.has(token) ? FAINT : "";
    if (value === "") {
      // The terminal's own default colour.
      out.set(token, background ? RESET_BG : RESET_FG + faint);
      continue;
    }
    let color;
    try {
      color = parseColor(value);
    } catch {
      throw new Error(`Invalid color value for "${token}": ${value}`);
    }
    out.set(token, background ? backgroundAnsi(color, mode) : foregroundAnsi(color, mode) + faint);
  }
  return out;
}

/** A resolved theme: token colours as escape sequences, plus the text attributes pi uses. */
export class Theme {
  /** The colour mode the sequences were made for. */
  readonly colorMode: TerminalColorMode;
  #data: ThemeData;
  #sourcePath?: string;
  #ansi: Map<string, string>;
  #dim: ReadonlySet<string>;
  #version = 0;

  /**
   * Resolves `data` (variables included) for `colorMode`; a bad colour or reference throws. `dim`
   * tokens are drawn faint (the `system` theme's neutral tokens when the terminal reported nothing).
   */
  constructor(
    data: ThemeData,
    colorMode: TerminalColorMode,
    sourcePath?: string,
    dim: readonly string[] = [],
  ) {
    this.colorMode = colorMode;
    this.#data = data;
    this.#sourcePath = sourcePath;
    this.#dim = new Set(dim);
    this.#ansi = resolveTokens(data, colorMode, this.#dim);
  }

  /** The theme's name. */
  get name(): string {
    return this.#data.name;
  }

  /** The file the theme came from (undefined for a built-in one). */
  get sourcePath(): string | undefined {
    return this.#sourcePath;
  }

  /** The theme file's contents. */
  get data(): ThemeData {
    return this.#data;
  }

  /**
   * How many times the colours changed ({@link Theme.replace}). Components that keep coloured text
   * compare it on `invalidate()` to know when to build their text again.
   */
  get version(): number {
    return this.#version;
  }

  /** The background the theme is made for (its `appearance`; dark when it does not say). */
  get appearance(): "dark" | "light" {
    return this.#data.appearance ?? "dark";
  }

  /**
   * Takes the colours of `data`; every component holding this object draws in them from the next
   * frame. A theme that cannot be resolved throws and leaves the current colours.
   */
  replace(data: ThemeData, sourcePath?: string, dim: readonly string[] = []): void {
    // The same theme again (start-up applying the default, a preview back to the current one): the
    // colours are already these; resolving them costs a few milliseconds on the first frame's path.
    if (data === this.#data) {
      this.#sourcePath = sourcePath;
      return;
    }
    const faint = new Set(dim);
    const ansi = resolveTokens(data, this.colorMode, faint);
    this.#data = data;
    this.#sourcePath = sourcePath;
    this.#ansi = ansi;
    this.#dim = faint;
    this.#version++;
  }

  /** The opening escape sequence of a token (empty for an unknown token). */
  ansi(token: string): string {
    return this.#ansi.get(token) ?? "";
  }

  /** `text` in the token's foreground colour. */
  fg(token: ThemeToken, text: string): string {
    const open = this.#ansi.get(token);
    if (!open) return text;
    return `${open}${text}${this.#dim.has(token) ? RESET_FAINT_FG : RESET_FG}`;
  }

  /** `text` on the token's background colour. */
  bg(token: ThemeToken, text: string): string {
    const open = this.#ansi.get(token);
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

/** A {@link Theme} of the `system` theme for what the terminal reported (nothing: palette indices). */
export function systemTheme(
  input: SystemThemeInput = {},
  colorMode: TerminalColorMode = getTerminalColorMode(),
): Theme {
  const { json, dim } = systemThemeJson(input);
  return new Theme(json, colorMode, undefined, dim);
}

/**
 * The built-in theme `name` for the terminal's colour mode. No name, `system` and any other name
 * give the `system` theme as for a terminal that has reported nothing yet (1.6.0's fallback);
 * `pending` makes it grayscale, as while the interactive mode waits for the terminal's answer.
 */
export function loadTheme(
  name?: string,
  colorMode: TerminalColorMode = getTerminalColorMode(),
  pending = false,
): Theme {
  if (name && Object.hasOwn(BUILTIN_THEMES, name)) return new Theme(BUILTIN_THEMES[name], colorMode);
  const appearanceHint = colorFgBgAppearance(readEnv("COLORFGBG")) ?? "dark";
  return systemTheme({ saturation: pending ? 0 : 1, appearanceHint }, colorMode);
}
