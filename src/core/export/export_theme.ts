/**
 * The colours of the HTML export: a theme's colours as CSS variables, as pi 1.6.0 writes them, and
 * the page, card and info backgrounds (the theme's `export` section, else derived from the
 * user-message background as 1.6.0 derives them). Without a theme, or with 1.6.0's generated
 * `system` theme, the page gets 1.6.0's default export palette (the system theme, which follows
 * the terminal's 16 ANSI colours, resolved to the hex values 1.6.0 writes when no terminal reported
 * its colours).
 *
 * @module
 */
import type { ThemeColorValue, ThemeJson } from "../../resources/themes/theme_schema.ts";
import { THEME_TOKENS, type ThemeTokenName } from "../../resources/themes/theme_tokens.ts";
import { resolveThemeVar } from "../../resources/themes/theme_vars.ts";
import { type Color, colorToHex, colorToOklch, indexedColor, parseColor } from "../../tui/colors_values.ts";

/** 1.6.0's name of its generated default theme, which has no file. */
export const SYSTEM_THEME_NAME = "system";

/** Token → CSS colour, in the order 1.6.0 writes them into the page's `:root`. */
export const EXPORT_THEME_COLORS: ReadonlyArray<readonly [string, string]> = [
  ["accent", "#800080"],
  ["borderAccent", "#800080"],
  ["customMessageLabel", "#800080"],
  ["mdCode", "#800080"],
  ["mdListBullet", "#800080"],
  ["syntaxType", "#800080"],
  ["border", "#000080"],
  ["mdLink", "#000080"],
  ["syntaxKeyword", "#000080"],
  ["syntaxVariable", "#008080"],
  ["success", "#008000"],
  ["mdCodeBlock", "#008000"],
  ["toolDiffAdded", "#008000"],
  ["bashMode", "#008000"],
  ["syntaxNumber", "#800080"],
  ["error", "#800000"],
  ["toolDiffRemoved", "#800000"],
  ["warning", "#808000"],
  ["mdHeading", "#808000"],
  ["syntaxFunction", "#808000"],
  ["syntaxString", "#008000"],
  ["thinkingMinimal", "#000080"],
  ["thinkingLow", "#000080"],
  ["thinkingMedium", "#008080"],
  ["thinkingHigh", "#800080"],
  ["thinkingXhigh", "#ff00ff"],
  ["thinkingMax", "#800000"],
  ["text", "#e5e5e7"],
  ["userMessageText", "#e5e5e7"],
  ["customMessageText", "#727273"],
  ["toolTitle", "#e5e5e7"],
  ["syntaxOperator", "#727273"],
  ["syntaxPunctuation", "#727273"],
  ["muted", "#727273"],
  ["dim", "#727273"],
  ["thinkingText", "#727273"],
  ["toolOutput", "#727273"],
  ["mdLinkUrl", "#727273"],
  ["mdQuote", "#727273"],
  ["mdQuoteBorder", "#727273"],
  ["mdHr", "#727273"],
  ["mdCodeBlockBorder", "#727273"],
  ["toolDiffContext", "#727273"],
  ["syntaxComment", "#727273"],
  ["scrollbarTrack", "#727273"],
  ["scrollbarThumb", "#727273"],
  ["searchMatchText", "#727273"],
  ["borderMuted", "#727273"],
  ["thinkingOff", "#727273"],
  ["selectedBg", "#000000"],
  ["searchMatchBg", "#000000"],
  ["userMessageBg", "#000000"],
  ["customMessageBg", "#000000"],
  ["toolPendingBg", "#000000"],
  ["toolSuccessBg", "#000000"],
  ["toolErrorBg", "#000000"],
];

/** The page (body), card and info-box backgrounds. */
export interface ExportBackgrounds {
  /** The page behind everything. */
  pageBg: string;
  /** Header, sidebar and card backgrounds. */
  cardBg: string;
  /** Compaction and branch-summary boxes. */
  infoBg: string;
}

interface Rgb {
  r: number;
  g: number;
  b: number;
}

function parseRgb(color: string): Rgb | undefined {
  const hex = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(color);
  if (hex) return { r: parseInt(hex[1], 16), g: parseInt(hex[2], 16), b: parseInt(hex[3], 16) };
  const rgb = /^rgb\s*\(\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*\)$/.exec(color);
  if (rgb) return { r: Number(rgb[1]), g: Number(rgb[2]), b: Number(rgb[3]) };
  return undefined;
}

/** sRGB relative luminance, 0 (black) to 1 (white). */
function luminance({ r, g, b }: Rgb): number {
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

const clamp = (value: number) => Math.min(255, Math.max(0, value));
const scaled = ({ r, g, b }: Rgb, factor: number) =>
  `rgb(${clamp(Math.round(r * factor))}, ${clamp(Math.round(g * factor))}, ${clamp(Math.round(b * factor))})`;

/**
 * The backgrounds for a theme whose user messages sit on `base`: a dark base gets a darker page
 * and card, a light one a slightly darker page; the info box leans warm. An unreadable colour gets
 * 1.6.0's fixed dark fallback.
 */
export function deriveExportBackgrounds(base: string): ExportBackgrounds {
  const rgb = parseRgb(base);
  if (!rgb) return { pageBg: "rgb(24, 24, 30)", cardBg: "rgb(30, 30, 36)", infoBg: "rgb(60, 55, 40)" };
  if (luminance(rgb) > 0.5) {
    return {
      pageBg: scaled(rgb, 0.96),
      cardBg: base,
      infoBg: `rgb(${clamp(rgb.r + 10)}, ${clamp(rgb.g + 5)}, ${clamp(rgb.b - 20)})`,
    };
  }
  return {
    pageBg: scaled(rgb, 0.7),
    cardBg: scaled(rgb, 0.85),
    infoBg: `rgb(${clamp(rgb.r + 20)}, ${clamp(rgb.g + 15)}, ${rgb.b})`,
  };
}

/** The terminal colours 1.6.0 assumes for `""` tokens when no terminal reported its own. */
const GUESSED_DEFAULTS = {
  dark: { foreground: "#e5e5e7", background: "#000000" },
  light: { foreground: "#000000", background: "#ffffff" },
} as const;

/** Mean OKLCH lightness of the colours that do not follow the terminal's palette (indexes 0-15). */
function averageLightness(colors: readonly Color[]): number | undefined {
  const fixed = colors.filter((color) => color.kind !== "indexed" || color.index >= 16);
  if (fixed.length === 0) return undefined;
  return fixed.reduce((sum, color) => sum + colorToOklch(color).l, 0) / fixed.length;
}

/** The background a theme is made for, from its own colours when it does not say (1.6.0's guess). */
function appearanceOf(theme: ThemeJson, foregrounds: readonly Color[], backgrounds: readonly Color[]) {
  if (theme.appearance) return theme.appearance;
  const fg = averageLightness(foregrounds);
  const bg = averageLightness(backgrounds);
  if (fg !== undefined && bg !== undefined) return bg < fg ? "dark" : "light";
  if (bg !== undefined) return bg < 0.5 ? "dark" : "light";
  if (fg !== undefined) return fg > 0.5 ? "dark" : "light";
  // 1.6.0 asks the terminal here; with nothing reported it takes the terminal to be dark.
  return "dark";
}

/**
 * Every token of `theme` as `#rrggbb`, in the order 1.6.0 writes them: the tokens with a colour of
 * their own (foregrounds, then backgrounds, each in the file's order with left-out optional tokens
 * after), then the `""` ones (the terminal's default colours, assumed from the appearance).
 */
export function resolvedThemeColors(theme: ThemeJson): Array<[ThemeTokenName, string]> {
  const vars = theme.vars ?? {};
  const values = new Map<ThemeTokenName, ThemeColorValue>();
  for (const [token, value] of Object.entries(theme.colors)) {
    if (value !== undefined) values.set(token as ThemeTokenName, resolveThemeVar(value, vars));
  }
  for (const [token, info] of Object.entries(THEME_TOKENS) as [ThemeTokenName, { fallback?: string }][]) {
    if (values.has(token) || !info.fallback) continue;
    const fallback = values.get(info.fallback as ThemeTokenName);
    if (fallback !== undefined) values.set(token, fallback);
  }
  const concrete: Record<"foreground" | "background", Array<[ThemeTokenName, Color]>> = {
    foreground: [],
    background: [],
  };
  const terminal: Record<"foreground" | "background", ThemeTokenName[]> = { foreground: [], background: [] };
  for (const [token, value] of values) {
    const slot = THEME_TOKENS[token].slot;
    if (value === "") {
      terminal[slot].push(token);
      continue;
    }
    let color: Color;
    try {
      color = parseColor(value);
    } catch {
      throw new Error(`Invalid color value for "${token}": ${value}`);
    }
    concrete[slot].push([token, color]);
  }
  const appearance = appearanceOf(
    theme,
    concrete.foreground.map(([, color]) => color),
    concrete.background.map(([, color]) => color),
  );
  const guess = GUESSED_DEFAULTS[appearance];
  return [
    ...[...concrete.foreground, ...concrete.background].map(([token, color]): [ThemeTokenName, string] => [
      token,
      colorToHex(color),
    ]),
    ...terminal.foreground.map((token): [ThemeTokenName, string] => [token, guess.foreground]),
    ...terminal.background.map((token): [ThemeTokenName, string] => [token, guess.background]),
  ];
}

/**
 * The theme's own `export` backgrounds, as 1.6.0 puts them into CSS: variables resolved, palette
 * numbers and `okhsl()` as hex, hex and `oklch()` as written, `""` left out. A section that cannot
 * be resolved counts as absent, as in 1.6.0.
 */
function themeExportBackgrounds(theme: ThemeJson): Partial<ExportBackgrounds> {
  const section = theme.export;
  if (!section) return {};
  const vars = theme.vars ?? {};
  const resolve = (value: ThemeColorValue | undefined): string | undefined => {
    if (value === undefined) return undefined;
    const resolved = resolveThemeVar(value, vars);
    if (typeof resolved === "number") return colorToHex(indexedColor(resolved));
    if (resolved === "") return undefined;
    if (/^okhsl\(/i.test(resolved)) return colorToHex(parseColor(resolved));
    return resolved;
  };
  try {
    return {
      pageBg: resolve(section.pageBg),
      cardBg: resolve(section.cardBg),
      infoBg: resolve(section.infoBg),
    };
  } catch {
    return {};
  }
}

/**
 * The `:root` declarations of the page: every colour token plus the three export backgrounds.
 * `theme` is the theme in use (its file's contents); none, or 1.6.0's `system` theme, gives the
 * default export palette. A theme whose colours cannot be resolved throws (as in 1.6.0, the
 * export then fails).
 */
export function exportThemeVars(
  theme?: ThemeJson,
): { declarations: string; backgrounds: ExportBackgrounds } {
  const custom = theme !== undefined && theme.name !== SYSTEM_THEME_NAME;
  const colors = custom ? resolvedThemeColors(theme) : EXPORT_THEME_COLORS;
  const own = custom ? themeExportBackgrounds(theme) : {};
  const userBg = colors.find(([token]) => token === "userMessageBg")?.[1] || "#343541";
  const derived = deriveExportBackgrounds(userBg);
  const backgrounds: ExportBackgrounds = {
    pageBg: own.pageBg ?? derived.pageBg,
    cardBg: own.cardBg ?? derived.cardBg,
    infoBg: own.infoBg ?? derived.infoBg,
  };
  const lines = colors.map(([token, value]) => `--${token}: ${value};`);
  lines.push(`--exportPageBg: ${backgrounds.pageBg};`);
  lines.push(`--exportCardBg: ${backgrounds.cardBg};`);
  lines.push(`--exportInfoBg: ${backgrounds.infoBg};`);
  return { declarations: lines.join("\n      "), backgrounds };
}
