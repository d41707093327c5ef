/**
 * Colours and attributes as SGR escape sequences, the second half of pi-tui 1.6.0's `colors.js`:
 * truecolor or 256-colour foreground/background codes, and `styleText`, which closes each attribute
 * with its own reset so styled text nests inside other styles.
 *
 * @module
 */
import {
  type Color,
  colorToRgb,
  type TerminalColorMode,
  type TextAttributes,
  type TextStyle,
} from "./colors_values.ts";
import { rgbToPaletteIndex } from "./colors_palette.ts";

function colorCode(color: Color, mode: TerminalColorMode, background: boolean): string {
  const lead = background ? 48 : 38;
  // Palette colours stay palette colours in every mode: they follow the user's theme.
  if (color.kind === "indexed") return `\x1b[${lead};5;${color.index}m`;
  const rgb = colorToRgb(color);
  if (mode === "truecolor") {
    return `\x1b[${lead};2;${Math.round(rgb.r)};${Math.round(rgb.g)};${Math.round(rgb.b)}m`;
  }
  return `\x1b[${lead};5;${rgbToPaletteIndex(rgb)}m`;
}

/** The SGR sequence that sets `color` as the foreground (`38;2;r;g;b` or `38;5;n`). */
export function foregroundAnsi(color: Color, mode: TerminalColorMode): string {
  return colorCode(color, mode, false);
}

/** The SGR sequence that sets `color` as the background (`48;2;r;g;b` or `48;5;n`). */
export function backgroundAnsi(color: Color, mode: TerminalColorMode): string {
  return colorCode(color, mode, true);
}

/** `text` in the colours and attributes of `options`, each reset after it (not with `\x1b[0m`). */
export function styleText(text: string, options: TextStyle, mode: TerminalColorMode): string {
  return styleTextWithAnsi(
    text,
    options.fg && foregroundAnsi(options.fg, mode),
    options.bg && backgroundAnsi(options.bg, mode),
    options,
  );
}

/**
 * Like `styleText()`, but with precomputed color escape sequences, e.g. cached theme colors.
 * Colors in `options` are ignored.
 */
export function styleTextWithAnsi(
  text: string,
  fgAnsi: string | undefined,
  bgAnsi: string | undefined,
  options: TextAttributes,
): string {
  // Resets go in front of the suffix, so they close in the reverse order of the openings.
  let open = "";
  let close = "";
  if (fgAnsi) {
    open += fgAnsi;
    close = "\x1b[39m";
  }
  if (bgAnsi) {
    open += bgAnsi;
    close = "\x1b[49m" + close;
  }
  if (options.bold) open += "\x1b[1m";
  if (options.dim) open += "\x1b[2m";
  // Bold and dim share one reset (22).
  if (options.bold || options.dim) close = "\x1b[22m" + close;
  const toggles: [boolean | undefined, string, string][] = [
    [options.italic, "\x1b[3m", "\x1b[23m"],
    [options.underline, "\x1b[4m", "\x1b[24m"],
    [options.inverse, "\x1b[7m", "\x1b[27m"],
    [options.strikethrough, "\x1b[9m", "\x1b[29m"],
  ];
  for (const [on, start, end] of toggles) {
    if (on) {
      open += start;
      close = end + close;
    }
  }
  return open + text + close;
}
