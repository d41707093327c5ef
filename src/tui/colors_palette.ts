/**
 * The xterm 256-colour palette: its sRGB values, and the nearest palette entry to an sRGB colour
 * (how pi-tui 1.6.0 quantises truecolor themes for 256-colour terminals).
 *
 * @module
 */
import type { RgbColor } from "./terminal_colors.ts";

// xterm's default palette for 0-15 (the user's theme may differ), the 6×6×6 cube, the gray ramp.
const ANSI_16: readonly RgbColor[] = [
  { r: 0, g: 0, b: 0 },
  { r: 128, g: 0, b: 0 },
  { r: 0, g: 128, b: 0 },
  { r: 128, g: 128, b: 0 },
  { r: 0, g: 0, b: 128 },
  { r: 128, g: 0, b: 128 },
  { r: 0, g: 128, b: 128 },
  { r: 192, g: 192, b: 192 },
  { r: 128, g: 128, b: 128 },
  { r: 255, g: 0, b: 0 },
  { r: 0, g: 255, b: 0 },
  { r: 255, g: 255, b: 0 },
  { r: 0, g: 0, b: 255 },
  { r: 255, g: 0, b: 255 },
  { r: 0, g: 255, b: 255 },
  { r: 255, g: 255, b: 255 },
];

/** The channel levels of the 256-colour palette's 6×6×6 cube (indices 16-231). */
const CUBE_LEVELS: readonly number[] = [0, 95, 135, 175, 215, 255];

/** The sRGB value of palette entry `index` (0-255; 0-15 as xterm's defaults). */
export function paletteToRgb(index: number): RgbColor {
  if (index < 16) return { ...ANSI_16[index] };
  if (index < 232) {
    const cube = index - 16;
    return {
      r: CUBE_LEVELS[Math.floor(cube / 36)],
      g: CUBE_LEVELS[Math.floor((cube % 36) / 6)],
      b: CUBE_LEVELS[cube % 6],
    };
  }
  const gray = 8 + (index - 232) * 10;
  return { r: gray, g: gray, b: gray };
}

/** The index in `levels` nearest to `target`; the first of equally near ones wins. */
function nearestLevel(levels: readonly number[], target: number): number {
  let nearest = 0;
  let nearestDistance = Infinity;
  for (let i = 0; i < levels.length; i++) {
    const distance = Math.abs(target - levels[i]);
    if (distance < nearestDistance) {
      nearest = i;
      nearestDistance = distance;
    }
  }
  return nearest;
}

/** Squared distance weighted by the channels' luma (BT.601), so greens count most. */
function lumaDistance(a: RgbColor, b: RgbColor): number {
  const dr = a.r - b.r;
  const dg = a.g - b.g;
  const db = a.b - b.b;
  return dr * dr * 0.299 + dg * dg * 0.587 + db * db * 0.114;
}

let grayLevels: number[] | undefined;

/** The gray ramp's levels (indices 232-255), built on first use. */
function grayRamp(): number[] {
  return grayLevels ??= Array.from({ length: 24 }, (_, i) => 8 + i * 10);
}

/**
 * The palette index (16-255) nearest to an sRGB colour: the nearest cube corner, or the nearest
 * gray when the colour is nearly neutral (channel spread under 10) and that gray is closer.
 */
export function rgbToPaletteIndex(color: RgbColor): number {
  const ri = nearestLevel(CUBE_LEVELS, color.r);
  const gi = nearestLevel(CUBE_LEVELS, color.g);
  const bi = nearestLevel(CUBE_LEVELS, color.b);
  const cube = { r: CUBE_LEVELS[ri], g: CUBE_LEVELS[gi], b: CUBE_LEVELS[bi] };
  const ramp = grayRamp();
  const luma = Math.round(0.299 * color.r + 0.587 * color.g + 0.114 * color.b);
  const grayIndex = nearestLevel(ramp, luma);
  const level = ramp[grayIndex];
  const spread = Math.max(color.r, color.g, color.b) - Math.min(color.r, color.g, color.b);
  if (spread < 10 && lumaDistance(color, { r: level, g: level, b: level }) < lumaDistance(color, cube)) {
    return 232 + grayIndex;
  }
  return 16 + 36 * ri + 6 * gi + bi;
}
