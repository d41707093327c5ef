/**
 * Oklab and OKHSL conversions to and from sRGB, the maths under `colors.ts` (OKLCH colours, OKHSL
 * colours, perceptual mixing).
 *
 * Oklab and OKHSL are Björn Ottosson's colour spaces (https://bottosson.github.io/posts/colorpicker/,
 * reference code Copyright (c) 2021 Björn Ottosson, MIT licence). pi-tui 1.6.0 ports the same
 * reference code; the constants and the order of every floating-point operation follow it, because
 * themes quantise the results to 8-bit channels and a last-bit difference can change a channel.
 *
 * @module
 */
import type { RgbColor } from "./terminal_colors.ts";

/** Three channels: [L, a, b] in Oklab, [r, g, b] in linear sRGB. */
type Vector = [number, number, number];
/** A 3×3 matrix as three rows. */
type Matrix = readonly [Vector, Vector, Vector];

const LINEAR_SRGB_TO_LMS: Matrix = [
  [0.4122214694707629, 0.5363325372617349, 0.0514459932675022],
  [0.2119034958178251, 0.6806995506452344, 0.1073969535369405],
  [0.0883024591900564, 0.2817188391361215, 0.6299787016738222],
];
const LMS_TO_LAB: Matrix = [
  [0.210454268309314, 0.793617774702305, -0.0040720430116193],
  [1.9779985324311684, -2.42859224204858, 0.450593709617411],
  [0.0259040424655478, 0.7827717124575296, -0.8086757549230774],
];
const LAB_TO_LMS: Matrix = [
  [1, 0.3963377773761749, 0.2158037573099136],
  [1, -0.1055613458156586, -0.0638541728258133],
  [1, -0.0894841775298119, -1.2914855480194092],
];
const LMS_TO_LINEAR_SRGB: Matrix = [
  [4.0767416360759583, -3.3077115392580629, 0.2309699031821043],
  [-1.2684379732850315, 2.6097573492876882, -0.341319376002657],
  [-0.0041960761386756, -0.7034186179359362, 1.7076146940746117],
];

/**
 * For red, green and blue: the (a, b) half-plane in which that channel is the first to clip, and
 * the coefficients of the polynomial that approximates the largest saturation there.
 */
const SATURATION_FIT: readonly { plane: [number, number]; fit: readonly number[] }[] = [
  { plane: [-1.8817031, -0.80936501], fit: [1.19086277, 1.76576728, 0.59662641, 0.75515197, 0.56771245] },
  { plane: [1.8144408, -1.19445267], fit: [0.73956515, -0.45954404, 0.08285427, 0.12541073, -0.14503204] },
  { plane: [0.13110758, 1.81333971], fit: [1.35733652, -0.00915799, -1.1513021, -0.50559606, 0.00692167] },
];

// OKHSL's lightness "toe": keeps dark colours from crowding together near black.
const TOE_K1 = 0.206;
const TOE_K2 = 0.03;
const TOE_K3 = (1 + TOE_K1) / (1 + TOE_K2);

function apply(m: Matrix, v: Vector): Vector {
  const [x, y, z] = v;
  return [
    m[0][0] * x + m[0][1] * y + m[0][2] * z,
    m[1][0] * x + m[1][1] * y + m[1][2] * z,
    m[2][0] * x + m[2][1] * y + m[2][2] * z,
  ];
}

function dot3(row: Vector, v: Vector): number {
  return row[0] * v[0] + row[1] * v[1] + row[2] * v[2];
}

/** Oklab lightness to OKHSL lightness. */
export const oklabToOkhslLightness = (x: number): number =>
  0.5 * (TOE_K3 * x - TOE_K1 + Math.sqrt((TOE_K3 * x - TOE_K1) ** 2 + 4 * TOE_K2 * TOE_K3 * x));

/** OKHSL lightness back to Oklab lightness (the inverse toe). */
function okhslToOklabLightness(x: number): number {
  return (x * x + TOE_K1 * x) / (TOE_K3 * (x + TOE_K2));
}

/** The sRGB transfer curve: a linear channel (0-1) to its encoded value (0-1). */
function encodeSrgb(value: number): number {
  return value > 0.0031308 ? 1.055 * value ** (1 / 2.4) - 0.055 : 12.92 * value;
}

/** The inverse sRGB transfer curve: an encoded channel (0-1) to linear light (0-1). */
function decodeSrgb(value: number): number {
  return value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
}

/** Oklab [L, a, b] to linear sRGB [r, g, b] (0-1, may leave the gamut). */
export function oklabToLinearSrgb(lab: Vector): Vector {
  const [l, m, s] = apply(LAB_TO_LMS, lab);
  return apply(LMS_TO_LINEAR_SRGB, [l ** 3, m ** 3, s ** 3]);
}

/** sRGB channels (0-255) to Oklab [L, a, b]. */
export function rgbToOklab({ r, g, b }: RgbColor): Vector {
  const linear: Vector = [decodeSrgb(r / 255), decodeSrgb(g / 255), decodeSrgb(b / 255)];
  const [l, m, s] = apply(LINEAR_SRGB_TO_LMS, linear);
  return apply(LMS_TO_LAB, [Math.cbrt(l), Math.cbrt(m), Math.cbrt(s)]);
}

/** Linear sRGB [r, g, b] to sRGB channels (0-255, rounded), clipping out-of-gamut channels. */
export function linearSrgbToRgb(linear: Vector): RgbColor {
  const channel = (value: number) => Math.round(Math.min(1, Math.max(0, encodeSrgb(value))) * 255);
  return { r: channel(linear[0]), g: channel(linear[1]), b: channel(linear[2]) };
}

/** How fast each cube-root LMS component moves along the chroma direction (a, b). */
function lmsSlopes(a: number, b: number): Vector {
  return [
    LAB_TO_LMS[0][1] * a + LAB_TO_LMS[0][2] * b,
    LAB_TO_LMS[1][1] * a + LAB_TO_LMS[1][2] * b,
    LAB_TO_LMS[2][1] * a + LAB_TO_LMS[2][2] * b,
  ];
}

/** The largest saturation (C/L) inside sRGB for hue direction (a, b): the fit plus one Halley step. */
function maxSaturation(a: number, b: number): number {
  let channel = 2;
  for (let i = 0; i < 2; i++) {
    const [x, y] = SATURATION_FIT[i].plane;
    if (x * a + y * b > 1) {
      channel = i;
      break;
    }
  }
  const [k0, k1, k2, k3, k4] = SATURATION_FIT[channel].fit;
  const weights = LMS_TO_LINEAR_SRGB[channel];
  const guess = k0 + k1 * a + k2 * b + k3 * a * a + k4 * a * b;
  const slopes = lmsSlopes(a, b);
  let f = 0;
  let f1 = 0;
  let f2 = 0;
  for (let i = 0; i < 3; i++) {
    const base = 1 + guess * slopes[i];
    f = f + weights[i] * base ** 3;
    f1 = f1 + weights[i] * (3 * slopes[i] * base ** 2);
    f2 = f2 + weights[i] * (6 * slopes[i] ** 2 * base);
  }
  return guess - (f * f1) / (f1 * f1 - 0.5 * f * f2);
}

/** The Oklab [lightness, chroma] of the most saturated sRGB colour with hue (a, b). */
function findCusp(a: number, b: number): [number, number] {
  const saturation = maxSaturation(a, b);
  const [r, g, bl] = oklabToLinearSrgb([1, saturation * a, saturation * b]);
  const lightness = Math.cbrt(1 / Math.max(r, g, bl));
  return [lightness, lightness * saturation];
}

/** The chroma at which the line of constant `lightness` leaves the sRGB gamut. */
function gamutChroma(a: number, b: number, lightness: number, [cuspL, cuspC]: [number, number]): number {
  if (lightness <= cuspL) return (cuspC * lightness) / cuspL;
  // Above the cusp: start on the triangle's upper edge, then one Halley step per channel hitting 1.
  const t = (cuspC * (lightness - 1)) / (cuspL - 1);
  const slopes = lmsSlopes(a, b);
  const lms: Vector = [lightness + t * slopes[0], lightness + t * slopes[1], lightness + t * slopes[2]];
  const cubes: Vector = [lms[0] ** 3, lms[1] ** 3, lms[2] ** 3];
  const first: Vector = [
    3 * slopes[0] * lms[0] ** 2,
    3 * slopes[1] * lms[1] ** 2,
    3 * slopes[2] * lms[2] ** 2,
  ];
  const second: Vector = [
    6 * slopes[0] ** 2 * lms[0],
    6 * slopes[1] ** 2 * lms[1],
    6 * slopes[2] ** 2 * lms[2],
  ];
  let step = Infinity;
  for (const row of LMS_TO_LINEAR_SRGB) {
    const f = dot3(row, cubes) - 1;
    const f1 = dot3(row, first);
    const f2 = dot3(row, second);
    const u = f1 / (f1 * f1 - 0.5 * f * f2);
    step = Math.min(step, u >= 0 ? -f * u : Number.MAX_VALUE);
  }
  return t + step;
}

/** OKHSL's chroma stops at Oklab lightness `L` and hue (a, b): [c0, cMid, cMax]. */
function chromaStops(L: number, a: number, b: number): [number, number, number] {
  const cusp = findCusp(a, b);
  const cMax = gamutChroma(a, b, L, cusp);
  const k = cMax / Math.min(L * (cusp[1] / cusp[0]), (1 - L) * (cusp[1] / (1 - cusp[0])));
  const midS = 0.11516993 +
    1 /
      (7.4477897 +
        4.1590124 * b +
        a *
          (-2.19557347 +
            1.75198401 * b +
            a * (-2.13704948 - 10.02301043 * b + a * (-4.24894561 + 5.38770819 * b + 4.69891013 * a))));
  const midT = 0.11239642 +
    1 /
      (1.6132032 -
        0.68124379 * b +
        a *
          (0.40370612 +
            0.90148123 * b +
            a * (-0.27087943 + 0.6122399 * b + a * (0.00299215 - 0.45399568 * b - 0.14661872 * a))));
  const cMid = 0.9 * k * Math.sqrt(Math.sqrt(1 / (1 / (L * midS) ** 4 + 1 / ((1 - L) * midT) ** 4)));
  const c0 = Math.sqrt(1 / (1 / (L * 0.4) ** 2 + 1 / ((1 - L) * 0.8) ** 2));
  return [c0, cMid, cMax];
}

/**
 * Convert OKHSL to sRGB channels (0-255, rounded), clipping out-of-gamut channels.
 * @param hue Hue in degrees.
 * @param saturation Saturation, 0-1.
 * @param lightness Lightness, 0-1.
 */
export function okhslToRgb(hue: number, saturation: number, lightness: number): RgbColor {
  const L = okhslToOklabLightness(lightness);
  if (!(L > 0 && L < 1 && saturation > 0)) return linearSrgbToRgb(oklabToLinearSrgb([L, 0, 0]));
  const angle = (2 * Math.PI * (((hue % 360) + 360) % 360)) / 360;
  const a = Math.cos(angle);
  const b = Math.sin(angle);
  const [c0, cMid, cMax] = chromaStops(L, a, b);
  // Chroma grows from 0 through cMid (at saturation 0.8) to cMax (at 1).
  let chroma: number;
  if (saturation < 0.8) {
    const t = 1.25 * saturation;
    const k1 = 0.8 * c0;
    chroma = (t * k1) / (1 - (1 - k1 / cMid) * t);
  } else {
    const t = 5 * (saturation - 0.8);
    const k1 = (0.2 * cMid ** 2 * 1.25 ** 2) / c0;
    chroma = cMid + (t * k1) / (1 - (1 - k1 / (cMax - cMid)) * t);
  }
  return linearSrgbToRgb(oklabToLinearSrgb([L, chroma * a, chroma * b]));
}

/**
 * Convert sRGB channels (0-255) to OKHSL.
 * @returns Hue `h` in degrees (0 for grays), saturation `s` and lightness `l` 0-1.
 */
export function rgbToOkhsl(rgb: RgbColor): { h: number; s: number; l: number } {
  const [L, labA, labB] = rgbToOklab(rgb);
  const chroma = Math.hypot(labA, labB);
  const lightness = oklabToOkhslLightness(L);
  if (chroma < 1e-9 || lightness <= 0 || lightness >= 1) return { h: 0, s: 0, l: lightness };
  const hue = ((Math.atan2(labB, labA) * 180) / Math.PI + 360) % 360;
  const [c0, cMid, cMax] = chromaStops(L, labA / chroma, labB / chroma);
  let saturation: number;
  if (chroma < cMid) {
    const k1 = 0.8 * c0;
    saturation = 0.8 * (chroma / (k1 + (1 - k1 / cMid) * chroma));
  } else {
    const k1 = (0.2 * cMid ** 2 * 1.25 ** 2) / c0;
    const offset = chroma - cMid;
    saturation = 0.8 + 0.2 * (offset / (k1 + (1 - k1 / (cMax - cMid)) * offset));
  }
  return { h: hue, s: Math.min(1, Math.max(0, saturation)), l: lightness };
}
