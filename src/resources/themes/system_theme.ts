/**
 * The `system` theme (pi 1.6.0's default): colours derived from what the terminal reports about
 * itself (OSC 10/11 default foreground and background, OSC 4 palette), so pi fits any terminal
 * theme. Each token belongs to a colour family (its hue) and must reach a contrast level on the
 * surfaces it is drawn on; the lightness comes from those rules alone, hue and saturation from the
 * terminal's palette (or the family's own hue). Three tiers, by what the terminal reported:
 * background and palette; background only; nothing (ANSI palette indices and the default colours,
 * which the terminal renders in its own theme).
 *
 * The computation follows 1.6.0 step for step — the same colour maths from `src/tui`, in the same
 * order — because colours are rounded to 8-bit channels and a last-bit difference shows.
 * {@link generateSystemThemeColors} is a pure function of the reported colours, so other parts
 * (the HTML export) can resolve the theme for any terminal.
 *
 * @module
 */
import {
  colorToOkhsl,
  colorToOklch,
  colorToRgb,
  okhslColor,
  oklchColor,
  rgbColor,
} from "../../tui/colors_values.ts";
import { oklabToOkhslLightness } from "../../tui/oklab.ts";
import type { RgbColor } from "../../tui/terminal_colors.ts";
import {
  type ColorFamily,
  FAMILIES,
  type LevelName,
  LEVELS,
  TOKEN_FAMILIES,
  TOKEN_SLOTS,
} from "./system_theme_tables.ts";
import type { ThemeJson } from "./theme_schema.ts";
import type { ThemeTokenName } from "./theme_tokens.ts";

/** The name of the generated theme; it wins over a theme file of the same name. */
export const SYSTEM_THEME_NAME = "system";

/** Whether a terminal (or a theme) is dark or light. */
export type Appearance = "dark" | "light";

/** What the generator is given: the terminal's reports, and how saturated to make the colours. */
export interface SystemThemeInput {
  /** Default foreground (OSC 10). */
  foreground?: RgbColor;
  /** Default background (OSC 11); without it the theme uses palette indices. */
  background?: RgbColor;
  /** ANSI colours 0-15 (OSC 4); used only when all 16 are there. */
  palette?: RgbColor[];
  /** 0-1; 0 is grayscale (while the terminal's answer is pending). Default 1. */
  saturation?: number;
  /** The appearance to state when the terminal reported no background. */
  appearanceHint?: Appearance;
}

/**
 * The generated theme: a value per token — `#rrggbb`, a palette index (0-15), or `""` for the
 * terminal's default colour — the tokens drawn faint (SGR 2), and the appearance.
 */
export interface SystemThemeColors {
  /** Every token's colour. */
  colors: Record<ThemeTokenName, string | number>;
  /** Tokens drawn faint on top of their colour. */
  dim: ThemeTokenName[];
  /** Dark or light (undefined only when nothing was reported and no hint given). */
  appearance: Appearance | undefined;
}

type Token = ThemeTokenName | "background";
interface Rule {
  token: ThemeTokenName;
  on: readonly Token[];
  level: LevelName;
}

const TOOL_PANELS: ThemeTokenName[] = ["toolPendingBg", "toolSuccessBg", "toolErrorBg"];
const MESSAGE_PANELS: ThemeTokenName[] = ["userMessageBg", "customMessageBg"];
const PANELS: readonly ThemeTokenName[] = [
  "userMessageBg",
  "toolPendingBg",
  "toolSuccessBg",
  "toolErrorBg",
  "selectedBg",
  "searchMatchBg",
  "customMessageBg",
];
const THINKING: ThemeTokenName[] = [
  "thinkingOff",
  "thinkingMinimal",
  "thinkingLow",
  "thinkingMedium",
  "thinkingHigh",
  "thinkingXhigh",
  "thinkingMax",
];
const THINKING_LEVELS: LevelName[] = [
  "thinking0",
  "thinking1",
  "thinking2",
  "thinking3",
  "thinking4",
  "thinking5",
  "thinking6",
];
const CODE_SURFACES: Token[] = ["background", ...MESSAGE_PANELS, ...TOOL_PANELS];
const STATUS_SURFACES: Token[] = ["background", "selectedBg", ...TOOL_PANELS];
const each = (tokens: ThemeTokenName[], on: Token[], level: LevelName): Rule[] =>
  tokens.map((token) => ({ token, on, level }));

/** Which level each token needs on which surfaces (1.6.0's rules, in its order). */
const RULES: readonly Rule[] = [
  ...each([...PANELS], ["background"], "panel"),
  { token: "text", on: ["background"], level: "text" },
  { token: "text", on: ["selectedBg"], level: "textOnPanel" },
  { token: "userMessageText", on: ["userMessageBg"], level: "textOnPanel" },
  { token: "toolTitle", on: TOOL_PANELS, level: "textOnPanel" },
  ...each(["accent", "success", "error", "warning"], STATUS_SURFACES, "readable"),
  {
    token: "muted",
    on: [...STATUS_SURFACES.slice(0, 2), "customMessageBg", ...TOOL_PANELS],
    level: "readable",
  },
  { token: "dim", on: [...STATUS_SURFACES.slice(0, 2), "customMessageBg", ...TOOL_PANELS], level: "subtle" },
  { token: "thinkingText", on: ["background"], level: "readable" },
  { token: "customMessageText", on: ["customMessageBg", ...TOOL_PANELS], level: "readable" },
  {
    token: "customMessageLabel",
    on: ["background", "customMessageBg", "selectedBg", ...TOOL_PANELS],
    level: "readable",
  },
  { token: "toolOutput", on: ["background", ...TOOL_PANELS], level: "readable" },
  ...each(
    ["mdHeading", "mdLink", "mdLinkUrl", "mdCode", "mdQuote", "mdCodeBlockBorder", "mdListBullet"],
    ["background", ...MESSAGE_PANELS],
    "readable",
  ),
  { token: "mdCodeBlock", on: CODE_SURFACES, level: "readable" },
  ...each(
    ["toolDiffAdded", "toolDiffRemoved", "toolDiffContext"],
    ["background", ...TOOL_PANELS],
    "readable",
  ),
  ...each(
    [
      "syntaxComment",
      "syntaxKeyword",
      "syntaxFunction",
      "syntaxVariable",
      "syntaxString",
      "syntaxNumber",
      "syntaxType",
      "syntaxOperator",
      "syntaxPunctuation",
    ],
    CODE_SURFACES,
    "readable",
  ),
  { token: "searchMatchText", on: ["searchMatchBg"], level: "readable" },
  ...each(["bashMode", "border", "borderAccent"], ["background"], "readable"),
  { token: "borderMuted", on: ["background"], level: "subtle" },
  ...each(["mdQuoteBorder", "mdHr"], CODE_SURFACES, "readable"),
  { token: "scrollbarTrack", on: ["background"], level: "track" },
  { token: "scrollbarThumb", on: ["scrollbarTrack"], level: "thumb" },
  ...THINKING.map((token, index): Rule => ({ token, on: ["background"], level: THINKING_LEVELS[index] })),
];

/** Relaxing compresses levels stronger than this one toward it before weakening every level. */
const READABLE_FLOOR: Record<Appearance, LevelName> = { dark: "readable", light: "subtle" };
/** Body text takes the terminal's own foreground when that reaches this level. */
const FOREGROUND_LEVEL: LevelName = "emphasis";
/** The body-text tokens that may take the terminal's foreground. */
const FOREGROUND_TOKENS: readonly ThemeTokenName[] = ["text", "userMessageText", "toolTitle"];
/** The WCAG 2 contrast body text must keep on its surfaces. */
const TEXT_MINIMUM_WCAG_CONTRAST = 4.5;
const WHITE: RgbColor = { r: 255, g: 255, b: 255 };
const BLACK: RgbColor = { r: 0, g: 0, b: 0 };

/** Tokens ordered so that every surface is solved before what is drawn on it. */
const SOLVE_ORDER: readonly ThemeTokenName[] = (() => {
  const order: ThemeTokenName[] = [];
  const visit = (token: ThemeTokenName) => {
    if (order.includes(token)) return;
    for (const rule of RULES) {
      if (rule.token !== token) continue;
      for (const surface of rule.on) if (surface !== "background") visit(surface);
    }
    order.push(token);
  };
  for (const rule of RULES) visit(rule.token);
  return order;
})();

function oklabLightness(color: RgbColor): number {
  return colorToOklch(rgbColor(color.r, color.g, color.b)).l;
}

/** WCAG 2 relative luminance of an sRGB colour. */
export function relativeLuminance({ r, g, b }: RgbColor): number {
  const linear = (channel: number) => {
    const value = channel / 255;
    return value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

/** WCAG 2 contrast ratio of two colours, 1-21. */
export function wcagContrast(first: RgbColor, second: RgbColor): number {
  const a = relativeLuminance(first);
  const b = relativeLuminance(second);
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}

/**
 * Dark or light, from the terminal's colours: the direction its own foreground takes when text is
 * readable that way, else whichever of white and black text has more contrast on the background.
 */
export function terminalAppearance(background: RgbColor, foreground?: RgbColor): Appearance {
  const whiteContrast = wcagContrast(WHITE, background);
  const blackContrast = wcagContrast(BLACK, background);
  if (foreground) {
    const foregroundL = oklabLightness(foreground);
    const backgroundL = oklabLightness(background);
    if (Math.abs(foregroundL - backgroundL) > 0.05) {
      const appearance: Appearance = foregroundL > backgroundL ? "dark" : "light";
      const best = appearance === "dark" ? whiteContrast : blackContrast;
      if (best >= TEXT_MINIMUM_WCAG_CONTRAST) return appearance;
    }
  }
  return whiteContrast >= blackContrast ? "dark" : "light";
}

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

function hexOf({ r, g, b }: RgbColor): string {
  return `#${[r, g, b].map((channel) => Math.round(channel).toString(16).padStart(2, "0")).join("")}`;
}

/** 0 at black and white, 1 at mid lightness: a normalised Gaussian (centre 0.5, sigma 0.25). */
function bellWeight(lightness: number): number {
  const gaussian = (x: number) => Math.exp(-((x - 0.5) ** 2) / (2 * 0.25 ** 2));
  return (gaussian(lightness) - gaussian(0)) / (1 - gaussian(0));
}

/** A family's saturation relative to its maximum: 1 at mid lightness, `min / max` at the ends. */
function saturationCurve({ saturation: { min, max } }: ColorFamily, lightness: number): number {
  const floor = max > 0 ? min / max : 1;
  return floor + (1 - floor) * bellWeight(lightness);
}

/** The lightness a level asks for on a surface, or undefined where it cannot be reached. */
function levelTarget(level: LevelName, appearance: Appearance, surfaceL: number): number | undefined {
  const curve = LEVELS[level][appearance];
  if (surfaceL < curve.reachable[0] || surfaceL > curve.reachable[1]) return undefined;
  return (curve.coefficients as readonly number[]).reduce(
    (sum, coefficient, power) => sum + coefficient * surfaceL ** power,
    0,
  );
}

/** A palette colour as OKHSL plus its OKLCH chroma. */
interface Source {
  h: number;
  s: number;
  l: number;
  chroma: number;
}

function okhslOf({ r, g, b }: RgbColor) {
  return colorToOkhsl(rgbColor(r, g, b));
}

function sourceOf(color: RgbColor): Source {
  return { ...okhslOf(color), chroma: colorToOklch(rgbColor(color.r, color.g, color.b)).c };
}

/**
 * A source colour's hue at another OKHSL lightness. Its saturation falls off toward black and white
 * along the family's curve, and its OKLCH chroma is capped at the source's (same falloff) so that
 * pastel palettes stay pastel: equal OKHSL saturation can mean more chroma at another lightness.
 */
function anchored(source: Source, family: ColorFamily, lightness: number, saturation: number): RgbColor {
  const anchor = saturationCurve(family, source.l);
  const falloff = anchor > 0 ? Math.min(1, saturationCurve(family, lightness) / anchor) : 1;
  const color = okhslColor(source.h, source.s * falloff * saturation, lightness);
  const cap = source.chroma * falloff * saturation;
  const { l, c } = colorToOklch(color);
  return c <= cap ? color : colorToRgb(oklchColor(l, cap, source.h));
}

/** Moves a text colour toward white or black until it keeps the WCAG minimum on every surface. */
function withTextContrast(color: RgbColor, surfaces: RgbColor[], lighter: boolean): RgbColor {
  const meets = (candidate: RgbColor) =>
    surfaces.every((surface) => wcagContrast(candidate, surface) >= TEXT_MINIMUM_WCAG_CONTRAST);
  if (meets(color)) return color;
  const { h, s, l } = okhslOf(color);
  const at = (lightness: number) => okhslColor(h, s, lightness);
  const extreme = lighter ? 1 : 0;
  if (!meets(at(extreme))) return at(extreme);
  let [low, high] = [l, extreme];
  for (let index = 0; index < 20; index++) {
    const middle = (low + high) / 2;
    if (meets(at(middle))) high = middle;
    else low = middle;
  }
  return at(high);
}

/**
 * For a terminal that reported nothing: palette indices 0-15 and the default colours, which the
 * terminal draws in its own theme. Neutral tokens below body text are faint (SGR 2) rather than
 * bright black, which some themes make nearly invisible; panels get no background.
 */
function indexedColors(saturation: number, appearance: Appearance | undefined): SystemThemeColors {
  const colors = {} as Record<ThemeTokenName, string | number>;
  const dim: ThemeTokenName[] = [];
  for (
    const [token, familyName] of Object.entries(TOKEN_FAMILIES) as [ThemeTokenName, keyof typeof FAMILIES][]
  ) {
    if (PANELS.includes(token)) {
      colors[token] = "";
      continue;
    }
    const neutral = familyName === "neutral";
    colors[token] = !neutral && saturation > 0 ? (TOKEN_SLOTS[token] ?? FAMILIES[familyName].slot) : "";
    if (neutral && !FOREGROUND_TOKENS.includes(token)) dim.push(token);
  }
  return { colors, dim, appearance };
}

/** The `system` theme's colours for what the terminal reported. */
export function generateSystemThemeColors(input: SystemThemeInput): SystemThemeColors {
  const saturation = clamp(input.saturation ?? 1, 0, 1);
  const { background, foreground } = input;
  if (!background) return indexedColors(saturation, input.appearanceHint);
  const palette = input.palette?.length === 16 ? input.palette.map(sourceOf) : undefined;
  const appearance = terminalAppearance(background, foreground);
  const lighter = appearance === "dark";
  const extreme = lighter ? 1 : 0;
  const backgroundL = oklabLightness(background);

  // A token's colour at an Oklab lightness: the family's hue, or the palette colour's.
  const paint = (token: ThemeTokenName, oklabL: number): RgbColor => {
    const lightness = oklabToOkhslLightness(oklabL);
    const family: ColorFamily = FAMILIES[TOKEN_FAMILIES[token]];
    if (!palette) {
      const { min, max } = family.saturation;
      return okhslColor(family.hue, (min + (max - min) * bellWeight(lightness)) * saturation, lightness);
    }
    return anchored(palette[TOKEN_SLOTS[token] ?? family.slot], family, lightness, saturation);
  };

  // The lightness a level needs on a surface, relaxed by t: over 0-1 the levels stronger than the
  // readable floor move toward it, over 1-2 every level moves toward the surface itself.
  const target = (level: LevelName, surfaceL: number, t: number): number | undefined => {
    const reached = levelTarget(level, appearance, surfaceL);
    if (reached === undefined && t === 0) return undefined;
    const distance = (reached ?? extreme) - surfaceL;
    const floor = (levelTarget(READABLE_FLOOR[appearance], appearance, surfaceL) ?? extreme) - surfaceL;
    const compressed = Math.abs(distance) > Math.abs(floor)
      ? distance - (distance - floor) * Math.min(t, 1)
      : distance;
    return surfaceL + compressed * (1 - Math.max(0, t - 1));
  };

  // A panel stays light (or dark) enough for white (or black) text to keep the body-text minimum on
  // it; this only bites on backgrounds near mid-gray.
  const extremeText = lighter ? WHITE : BLACK;
  const readable = (color: RgbColor) => wcagContrast(extremeText, color) >= TEXT_MINIMUM_WCAG_CONTRAST;
  const limitPanel = (token: ThemeTokenName, l: number): RgbColor => {
    const color = paint(token, l);
    if (readable(color)) return color;
    let [low, high] = [backgroundL, l];
    for (let index = 0; index < 20; index++) {
      const middle = (low + high) / 2;
      if (readable(paint(token, middle))) low = middle;
      else high = middle;
    }
    return paint(token, low);
  };

  const solve = (t: number): Map<Token, RgbColor> | undefined => {
    const colors = new Map<Token, RgbColor>([["background", background]]);
    for (const token of SOLVE_ORDER) {
      const targets: number[] = [];
      for (const rule of RULES) {
        if (rule.token !== token) continue;
        for (const surface of rule.on) {
          const value = target(rule.level, oklabLightness(colors.get(surface) ?? background), t);
          if (value === undefined || value < 0 || value > 1) return undefined;
          targets.push(value);
        }
      }
      const l = lighter ? Math.max(...targets) : Math.min(...targets);
      colors.set(token, PANELS.includes(token) ? limitPanel(token, l) : paint(token, l));
    }
    return colors;
  };

  let relaxation = 0;
  let colors = solve(0);
  if (!colors) {
    // A mid-gray background cannot fit every level: relax as little as needed (2 always fits).
    let [low, high] = [0, 2];
    colors = solve(high);
    for (let index = 0; index < 20; index++) {
      const middle = (low + high) / 2;
      const attempt = solve(middle);
      if (attempt) [high, colors] = [middle, attempt];
      else low = middle;
    }
    relaxation = high;
  }
  const solved = colors ?? new Map<Token, RgbColor>();
  const surfacesOf = (token: ThemeTokenName) =>
    RULES.filter((rule) => rule.token === token).flatMap((rule) =>
      rule.on.map((surface) => solved.get(surface) ?? background)
    );

  const result = {} as Record<ThemeTokenName, string | number>;
  for (const token of Object.keys(TOKEN_FAMILIES) as ThemeTokenName[]) {
    const color = solved.get(token);
    result[token] = color ? hexOf(color) : "";
  }
  for (const token of FOREGROUND_TOKENS) {
    const surfaces = surfacesOf(token);
    // The terminal's own foreground where it is clearly stronger than muted text; else the
    // foreground's hue at just enough lightness.
    let text = solved.get(token);
    if (foreground) {
      const targets = surfaces.map((surface) =>
        target(FOREGROUND_LEVEL, oklabLightness(surface), relaxation)
      );
      if (targets.every((value) => value !== undefined && value >= 0 && value <= 1)) {
        const needed = lighter ? Math.max(...targets as number[]) : Math.min(...targets as number[]);
        const foregroundL = oklabLightness(foreground);
        if (lighter ? foregroundL >= needed : foregroundL <= needed) {
          result[token] = "";
          continue;
        }
        text = anchored(sourceOf(foreground), FAMILIES.neutral, oklabToOkhslLightness(needed), saturation);
      }
    }
    // Body text keeps 4.5:1 on its surfaces, even on a relaxed mid-gray background.
    if (text) result[token] = hexOf(withTextContrast(text, surfaces, lighter));
  }
  return { colors: result, dim: [], appearance };
}

/** The generated theme as a theme file's contents, plus its faint tokens. */
export interface SystemThemeJson {
  /** Name `system`, the appearance, and every token's colour. */
  json: ThemeJson;
  /** Tokens drawn faint (SGR 2) on top of their colour. */
  dim: ThemeTokenName[];
}

/**
 * The `system` theme for what the terminal reported, as theme-file contents: what the interactive
 * mode draws with and what an export can resolve for a given foreground and background.
 */
export function systemThemeJson(input: SystemThemeInput): SystemThemeJson {
  const generated = generateSystemThemeColors(input);
  return {
    json: {
      name: SYSTEM_THEME_NAME,
      ...(generated.appearance ? { appearance: generated.appearance } : {}),
      colors: generated.colors,
    },
    dim: generated.dim,
  };
}
