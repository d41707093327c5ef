/**
 * Colours the terminal reports about itself: OSC 10/11/4 colour replies and the colour-scheme
 * report (`CSI ? 997 ; 1|2 n`, dark or light), as pi-tui 1.6.0's `terminal-colors.js` reads them.
 *
 * @module
 */

/** An sRGB colour with 0-255 channels. */
export interface RgbColor {
  /** Red, 0-255. */
  r: number;
  /** Green, 0-255. */
  g: number;
  /** Blue, 0-255. */
  b: number;
}

/** The terminal's theme, as its colour-scheme report says. */
export type TerminalColorScheme = "dark" | "light";

/** Colors the terminal reports for its current theme. */
export interface TerminalColors {
  /** Default foreground (OSC 10). */
  foreground?: RgbColor;
  /** Default background (OSC 11). */
  background?: RgbColor;
  /** ANSI colors 0-15 (OSC 4). Only set when the terminal reported all 16. */
  palette?: RgbColor[];
}

/** What an OSC color reply reports: the default foreground (OSC 10), background (OSC 11), or a palette index (OSC 4). */
export type OscColorTarget = "foreground" | "background" | number;

// deno-lint-ignore no-control-regex
const OSC_COLOR_REPLY = /^\x1b\](?:(1[01])|4;(\d{1,3}));([^\x07\x1b]*)(?:\x07|\x1b\\)$/i;
// Several reports in one read (a terminal may answer twice) still count; the last one decides.
// deno-lint-ignore no-control-regex
const SCHEME_REPORT = /^(?:\x1b\[\?997;(1|2)n)+$/;

/** A hex channel of any length (1-4 digits in practice) scaled to 0-255, as XParseColor does. */
function scaleHexChannel(digits: string): number | undefined {
  if (!/^[0-9a-f]+$/i.test(digits)) return undefined;
  const max = 16 ** digits.length - 1;
  if (max <= 0) return undefined;
  return Math.round((parseInt(digits, 16) / max) * 255);
}

function channels(
  r: number | undefined,
  g: number | undefined,
  b: number | undefined,
): RgbColor | undefined {
  return r !== undefined && g !== undefined && b !== undefined ? { r, g, b } : undefined;
}

/** The colour text of a reply: `#rrggbb`, `#rrrrggggbbbb`, or `rgb:r/g/b` (also `rgba:`) with hex channels. */
function parseReplyColor(raw: string): RgbColor | undefined {
  const value = raw.trim();
  if (value.startsWith("#")) {
    const hex = value.slice(1);
    if (/^[0-9a-f]{6}$/i.test(hex)) {
      return {
        r: parseInt(hex.slice(0, 2), 16),
        g: parseInt(hex.slice(2, 4), 16),
        b: parseInt(hex.slice(4, 6), 16),
      };
    }
    if (/^[0-9a-f]{12}$/i.test(hex)) {
      return channels(
        scaleHexChannel(hex.slice(0, 4)),
        scaleHexChannel(hex.slice(4, 8)),
        scaleHexChannel(hex.slice(8)),
      );
    }
    return undefined;
  }
  const [red, green, blue] = value.replace(/^rgba?:/i, "").split("/");
  if (red === undefined || green === undefined || blue === undefined) return undefined;
  return channels(scaleHexChannel(red), scaleHexChannel(green), scaleHexChannel(blue));
}

/**
 * Parse an OSC 10, 11, or 4 color reply. Returns undefined when `data` is not such a reply;
 * `rgb` is undefined when it is a reply with an unparseable color.
 */
export function parseOscColorResponse(
  data: string,
): { target: OscColorTarget; rgb: RgbColor | undefined } | undefined {
  const match = OSC_COLOR_REPLY.exec(data);
  if (!match) return undefined;
  const target: OscColorTarget = match[1] === "10"
    ? "foreground"
    : match[1] === "11"
    ? "background"
    : Number.parseInt(match[2], 10);
  return { target, rgb: parseReplyColor(match[3]) };
}

/** The scheme a `CSI ? 997 ; 1 n` (dark) or `; 2 n` (light) report names; undefined for anything else. */
export function parseTerminalColorSchemeReport(data: string): TerminalColorScheme | undefined {
  const match = SCHEME_REPORT.exec(data);
  if (!match) return undefined;
  return match[1] === "2" ? "light" : "dark";
}
