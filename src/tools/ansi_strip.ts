/**
 * Removing terminal escape sequences from streamed command output: CSI sequences (colours,
 * cursor moves) and OSC sequences (titles, hyperlinks), including one cut in two by a chunk
 * boundary, which is held back until the next chunk completes it.
 *
 * @module
 */

/** String terminators of an OSC sequence: BEL, ESC \, or the 8-bit ST. */
const ST = "(?:\\u0007|\\u001B\\u005C|\\u009C)";
const OSC_START = "\\u001B\\]";
const CSI_START =
  "(?:(?:\\u001B\\[|\\u009B)[<=>]|[\\u001B\\u009B][[\\]()#;?]*)(?:\\d{1,4}(?:[;:]\\d{0,4})*)?";
const CSI_FINAL = "[\\dA-PR-TZcf-nq-uy=><~]";
const ANSI = new RegExp(`(?:${OSC_START}[\\s\\S]*?${ST})|${CSI_START}${CSI_FINAL}`, "g");
const UNFINISHED_AT_END = new RegExp(
  `(?:${OSC_START}(?:[^\\u0007\\u009C\\u001B]|\\u001B(?!\\\\))*|${CSI_START})$`,
);
/** Longer unfinished "sequences" are text, not something to hold back. */
const MAX_PENDING = 256;

function hasEscape(text: string): boolean {
  return text.includes("\u001B") || text.includes("\u009B");
}

/** Removes ANSI escape sequences. */
export function stripAnsi(text: string): string {
  return hasEscape(text) ? text.replace(ANSI, "") : text;
}

/**
 * Splits streamed text into what can be stripped now and an unfinished escape sequence at its
 * end, to be put before the next chunk.
 */
export function splitIncompleteAnsiSuffix(text: string): { complete: string; pending: string } {
  if (!hasEscape(text)) return { complete: text, pending: "" };
  const windowStart = Math.max(0, text.length - MAX_PENDING);
  const match = UNFINISHED_AT_END.exec(text.slice(windowStart));
  if (!match) return { complete: text, pending: "" };
  const splitAt = windowStart + match.index;
  return { complete: text.slice(0, splitAt), pending: text.slice(splitAt) };
}
