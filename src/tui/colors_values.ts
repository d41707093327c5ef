/**
 * Colour values, the first half of pi-tui 1.6.0's `colors.js`: indexed ANSI colours, sRGB and OKLCH
 * values, parsing (`#rgb`, `#rrggbb`, `oklch(…)`, `okhsl(…)`, palette indices), conversions and
 * perceptual mixing.
 *
 * Every colour converts to sRGB, so colour maths never fails; invalid input throws when the value is
 * built, with pi-tui's messages.
 *
 * @module
 */
import { linearSrgbToRgb, okhslToRgb, oklabToLinearSrgb, rgbToOkhsl, rgbToOklab } from "./oklab.ts";
import type { RgbColor } from "./terminal_colors.ts";
import { paletteToRgb } from "./colors_palette.ts";

/** A colour of the terminal's 256-colour palette; 0-15 follow the user's theme. */
export interface IndexedColor {
  /** Discriminant. */
  readonly kind: "indexed";
  /** Palette index, 0-255. */
  readonly index: number;
}

/** An sRGB colour, channels 0-255 (not necessarily whole numbers: mixing keeps fractions). */
export interface RgbColorValue {
  /** Discriminant. */
  readonly kind: "rgb";
  /** Red, 0-255. */
  readonly r: number;
  /** Green, 0-255. */
  readonly g: number;
  /** Blue, 0-255. */
  readonly b: number;
}

/** An OKLCH colour: lightness 0-1, chroma ≥ 0, hue in degrees [0, 360). Mapped into sRGB when drawn. */
export interface OklchColorValue {
  /** Discriminant. */
  readonly kind: "oklch";
  /** Lightness, 0-1. */
  readonly l: number;
  /** Chroma, 0 or more (about 0.4 at most inside sRGB). */
  readonly c: number;
  /** Hue in degrees, [0, 360). */
  readonly h: number;
}

/** A concrete color. Every color can be converted to sRGB, so color math never fails. */
export type Color = IndexedColor | RgbColorValue | OklchColorValue;

/** How colours are written: 24-bit escapes, or the nearest entry of the 256-colour palette. */
export type TerminalColorMode = "256color" | "truecolor";

/** The space `mixColors` interpolates in. */
export type ColorMixSpace = "oklch" | "srgb";

/** OKLCH channels: lightness 0-1, chroma, hue in degrees. */
export interface OklchChannels {
  /** Lightness, 0-1. */
  l: number;
  /** Chroma. */
  c: number;
  /** Hue in degrees, [0, 360). */
  h: number;
}

/**
 * OKHSL channels: hue in degrees, saturation and lightness 0-1. Saturation is relative to the most the
 * sRGB gamut allows at that hue and lightness, so every value is in gamut.
 */
export interface OkhslChannels {
  /** Hue in degrees (0 for grays). */
  h: number;
  /** Saturation, 0-1. */
  s: number;
  /** Lightness, 0-1. */
  l: number;
}

/** SGR attributes `styleText` can switch on (each closed by its own reset, not `\x1b[0m`). */
export interface TextAttributes {
  /** SGR 1, reset by 22. */
  bold?: boolean;
  /** SGR 2, reset by 22. */
  dim?: boolean;
  /** SGR 3, reset by 23. */
  italic?: boolean;
  /** SGR 4, reset by 24. */
  underline?: boolean;
  /** SGR 7, reset by 27. */
  inverse?: boolean;
  /** SGR 9, reset by 29. */
  strikethrough?: boolean;
}

/** Attributes plus optional foreground and background colours. */
export interface TextStyle extends TextAttributes {
  /** Foreground colour, reset by SGR 39. */
  fg?: Color;
  /** Background colour, reset by SGR 49. */
  bg?: Color;
}

function requireFinite(value: number, name: string): void {
  if (!Number.isFinite(value)) throw new Error(`${name} must be finite`);
}

/** A palette colour; `index` must be an integer 0-255. */
export function indexedColor(index: number): IndexedColor {
  if (!Number.isInteger(index) || index < 0 || index > 255) {
    throw new Error(`ANSI color index must be an integer from 0 to 255: ${index}`);
  }
  return Object.freeze({ kind: "indexed", index });
}

/** An sRGB colour; each channel must be finite and within 0-255. */
export function rgbColor(r: number, g: number, b: number): RgbColorValue {
  const channels: [string, number][] = [["r", r], ["g", g], ["b", b]];
  for (const [name, value] of channels) {
    requireFinite(value, name);
    if (value < 0 || value > 255) throw new Error(`${name} must be between 0 and 255: ${value}`);
  }
  return Object.freeze({ kind: "rgb", r, g, b });
}

/** An OKLCH colour; the hue is wrapped into [0, 360). */
export function oklchColor(l: number, c: number, h: number): OklchColorValue {
  requireFinite(l, "l");
  requireFinite(c, "c");
  requireFinite(h, "h");
  if (l < 0 || l > 1) throw new Error(`l must be between 0 and 1: ${l}`);
  if (c < 0) throw new Error(`c must not be negative: ${c}`);
  return Object.freeze({ kind: "oklch", l, c, h: ((h % 360) + 360) % 360 });
}

/**
 * An OKHSL color, converted to sRGB. Saturation is relative to the sRGB gamut at the hue and lightness,
 * so equal saturation looks equally colorful across hues and lightness.
 * @param h Hue in degrees.
 * @param s Saturation, 0-1.
 * @param l Lightness, 0-1.
 */
export function okhslColor(h: number, s: number, l: number): RgbColorValue {
  requireFinite(h, "h");
  requireFinite(s, "s");
  requireFinite(l, "l");
  if (s < 0 || s > 1) throw new Error(`s must be between 0 and 1: ${s}`);
  if (l < 0 || l > 1) throw new Error(`l must be between 0 and 1: ${l}`);
  const { r, g, b } = okhslToRgb(h, s, l);
  return rgbColor(r, g, b);
}

/** Any colour's OKHSL channels (through its sRGB value). */
export function colorToOkhsl(color: Color): OkhslChannels {
  return rgbToOkhsl(colorToRgb(color));
}

const NUMBER = String.raw`[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?`;
const HEX_COLOR = /^#([\da-f]{3}|[\da-f]{6})$/i;
const OKLCH_COLOR = new RegExp(
  `^oklch\\(\\s*(${NUMBER})(%)?\\s+(${NUMBER})\\s+(${NUMBER})(?:deg)?\\s*\\)$`,
  "i",
);
const OKHSL_COLOR = new RegExp(
  `^okhsl\\(\\s*(${NUMBER})(?:deg)?\\s+(${NUMBER})(%)?\\s+(${NUMBER})(%)?\\s*\\)$`,
  "i",
);

/**
 * A colour from a theme value: a palette index (number), `#rgb`, `#rrggbb`, `oklch(L C H)` (L as a
 * fraction or a percentage) or `okhsl(H S L)` (S and L as fractions or percentages). Throws
 * `Invalid color value: …` for anything else.
 */
export function parseColor(value: string | number): Color {
  if (typeof value === "number") return indexedColor(value);
  const hex = HEX_COLOR.exec(value);
  if (hex) {
    const digits = hex[1].length === 3 ? hex[1].replace(/./g, (digit) => digit + digit) : hex[1];
    return rgbColor(
      Number.parseInt(digits.slice(0, 2), 16),
      Number.parseInt(digits.slice(2, 4), 16),
      Number.parseInt(digits.slice(4, 6), 16),
    );
  }
  const oklch = OKLCH_COLOR.exec(value);
  if (oklch) {
    const lightness = Number.parseFloat(oklch[1]) / (oklch[2] ? 100 : 1);
    return oklchColor(lightness, Number.parseFloat(oklch[3]), Number.parseFloat(oklch[4]));
  }
  const okhsl = OKHSL_COLOR.exec(value);
  if (okhsl) {
    const saturation = Number.parseFloat(okhsl[2]) / (okhsl[3] ? 100 : 1);
    const lightness = Number.parseFloat(okhsl[4]) / (okhsl[5] ? 100 : 1);
    return okhslColor(Number.parseFloat(okhsl[1]), saturation, lightness);
  }
  throw new Error(`Invalid color value: ${value}`);
}

function inSrgbGamut(linear: readonly number[]): boolean {
  const epsilon = 1e-7;
  return linear.every((channel) => channel >= -epsilon && channel <= 1 + epsilon);
}

/** OKLCH to sRGB, lowering chroma at constant hue and lightness until the colour fits the gamut. */
function oklchToRgb({ l, c, h }: OklchColorValue): RgbColor {
  const radians = (h * Math.PI) / 180;
  const cos = Math.cos(radians);
  const sin = Math.sin(radians);
  const atChroma = (chroma: number) => oklabToLinearSrgb([l, chroma * cos, chroma * sin]);
  const direct = atChroma(c);
  if (inSrgbGamut(direct)) return linearSrgbToRgb(direct);
  // Bisect the chroma (20 steps). The gray at chroma 0 always fits, so it stands when no step does:
  // `oklch(100% 0.3 150)` is white.
  let best = atChroma(0);
  let low = 0;
  let high = c;
  for (let step = 0; step < 20; step++) {
    const chroma = (low + high) / 2;
    const candidate = atChroma(chroma);
    if (inSrgbGamut(candidate)) {
      low = chroma;
      best = candidate;
    } else {
      high = chroma;
    }
  }
  return linearSrgbToRgb(best);
}

/** The sRGB channels of any colour (palette 0-15 as xterm's defaults). */
export function colorToRgb(color: Color): RgbColor {
  switch (color.kind) {
    case "indexed":
      return paletteToRgb(color.index);
    case "rgb":
      return { r: color.r, g: color.g, b: color.b };
    case "oklch":
      return oklchToRgb(color);
  }
}

/** Any colour's OKLCH channels (an OKLCH colour's own, unmapped). */
export function colorToOklch(color: Color): OklchChannels {
  if (color.kind === "oklch") return { l: color.l, c: color.c, h: color.h };
  const [l, a, b] = rgbToOklab(colorToRgb(color));
  return { l, c: Math.hypot(a, b), h: ((Math.atan2(b, a) * 180) / Math.PI + 360) % 360 };
}

/** `#rrggbb` of any colour, channels rounded. */
export function colorToHex(color: Color): string {
  const { r, g, b } = colorToRgb(color);
  const hex = (value: number) => Math.round(value).toString(16).padStart(2, "0");
  return `#${hex(r)}${hex(g)}${hex(b)}`;
}

/**
 * The colour `amount` (0-1) of the way from `first` to `second`: channel by channel in sRGB, or in
 * OKLCH (default) along the shorter hue arc, taking a gray's hue from the other colour.
 */
export function mixColors(
  first: Color,
  second: Color,
  amount: number,
  space: ColorMixSpace = "oklch",
): Color {
  requireFinite(amount, "amount");
  if (amount < 0 || amount > 1) throw new Error(`amount must be between 0 and 1: ${amount}`);
  if (space === "srgb") {
    const a = colorToRgb(first);
    const b = colorToRgb(second);
    return rgbColor(a.r + (b.r - a.r) * amount, a.g + (b.g - a.g) * amount, a.b + (b.b - a.b) * amount);
  }
  const a = colorToOklch(first);
  const b = colorToOklch(second);
  const fromHue = a.c < 1e-7 ? b.h : a.h;
  const toHue = b.c < 1e-7 ? fromHue : b.h;
  const hueDelta = ((toHue - fromHue + 540) % 360) - 180;
  return oklchColor(a.l + (b.l - a.l) * amount, a.c + (b.c - a.c) * amount, fromHue + hueDelta * amount);
}
