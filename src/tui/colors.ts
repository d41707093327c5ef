/**
 * Colours for themes and components, pi-tui 1.6.0's `colors.js`: values, parsing, conversions and
 * mixing (`colors_values.ts`), escape sequences and `styleText` (`colors_ansi.ts`).
 *
 * @module
 */
export {
  type Color,
  type ColorMixSpace,
  colorToHex,
  colorToOkhsl,
  colorToOklch,
  colorToRgb,
  type IndexedColor,
  indexedColor,
  mixColors,
  type OkhslChannels,
  okhslColor,
  type OklchChannels,
  oklchColor,
  type OklchColorValue,
  parseColor,
  rgbColor,
  type RgbColorValue,
  type TerminalColorMode,
  type TextAttributes,
  type TextStyle,
} from "./colors_values.ts";
export { backgroundAnsi, foregroundAnsi, styleText, styleTextWithAnsi } from "./colors_ansi.ts";
