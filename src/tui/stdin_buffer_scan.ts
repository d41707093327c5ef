/**
 * Splitting terminal input into complete sequences: one character (a whole code point), or one
 * escape sequence (CSI, SS3, OSC, DCS, APC, X10 and SGR mouse reports, ESC + key), with an
 * incomplete tail kept for the next chunk.
 *
 * @module
 */

const ESC = "\x1b";
const BEL = "\x07";
const CAN = "\x18";
const SUB = "\x1a";

/**
 * Headers of replies the terminal sends to our queries (OSC 10/11 colours, OSC 4 palette, the
 * program-status reply, XTVERSION, kitty graphics). Until a header is complete, the bytes may as
 * well be batched Alt keystrokes (Alt+] then "1"), so only a full header marks a delimited string.
 */
const REPLY_HEADER = /(?:\](?:1[01];|4;\d{1,3};|7501;\?)|P>\||_G(?:[a-z]=\d+,)*[a-z]=\d+;)/y;

/** Whether `data` has a complete terminal-reply header at `start` (see REPLY_HEADER). */
export function isTerminalReplyHeader(data: string, start = 0): boolean {
  if (data[start] !== ESC) return false;
  REPLY_HEADER.lastIndex = start + 1;
  return REPLY_HEADER.test(data);
}

/** OSC, DCS or APC: strings that run until a terminator rather than a final byte. */
export function isControlString(data: string): boolean {
  return data.startsWith(`${ESC}]`) || data.startsWith(`${ESC}P`) || data.startsWith(`${ESC}_`);
}

/** An SGR mouse report's parameters and final byte, after `ESC [`. */
const SGR_MOUSE = /<\d+;\d+;\d+[Mm]/y;

/** Length of the code point at `i` (2 for a surrogate pair). */
function charLength(s: string, i: number): number {
  const c = s.charCodeAt(i);
  if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
    const d = s.charCodeAt(i + 1);
    if (d >= 0xdc00 && d <= 0xdfff) return 2;
  }
  return 1;
}

/** The outcome for the escape sequence at the start of a buffer's tail. */
type EscapeScan =
  | { kind: "sequence"; end: number }
  | { kind: "dropped"; end: number }
  | { kind: "incomplete" };

const INCOMPLETE: EscapeScan = { kind: "incomplete" };

/** A CSI sequence starting at `start` (ESC [ …): ends at the first final byte 0x40–0x7E. */
function scanCsi(s: string, start: number): EscapeScan {
  if (s[start + 2] === "M") {
    // X10 mouse: ESC [ M and three raw bytes.
    return start + 6 <= s.length ? { kind: "sequence", end: start + 6 } : INCOMPLETE;
  }
  if (s[start + 2] === "<") {
    // SGR mouse: the final M/m ends it only after three numeric parameters.
    SGR_MOUSE.lastIndex = start + 2;
    return SGR_MOUSE.test(s) ? { kind: "sequence", end: SGR_MOUSE.lastIndex } : INCOMPLETE;
  }
  for (let i = start + 2; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x40 && c <= 0x7e) return { kind: "sequence", end: i + 1 };
  }
  return INCOMPLETE;
}

/**
 * An OSC, DCS or APC string starting at `start`: it ends with ST (ESC \), or BEL for OSC. A
 * recognised reply is abandoned at CAN/SUB (which cancel it) or at an ESC that starts something
 * other than ST, so a lost terminator cannot swallow later keystrokes.
 */
function scanControlString(s: string, start: number): EscapeScan {
  const reply = isTerminalReplyHeader(s, start);
  const osc = s[start + 1] === "]";
  for (let i = start + 2; i < s.length; i++) {
    const ch = s[i];
    if (reply) {
      if (ch === CAN || ch === SUB) return { kind: "dropped", end: i + 1 };
      if (ch === ESC && i + 1 < s.length && s[i + 1] !== "\\") return { kind: "dropped", end: i };
    }
    if ((osc && ch === BEL) || (ch === "\\" && s[i - 1] === ESC && i - 1 > start + 1)) {
      return { kind: "sequence", end: i + 1 };
    }
  }
  return INCOMPLETE;
}

/** The escape sequence at `start` (which holds ESC). */
function scanEscape(s: string, start: number): EscapeScan {
  if (start + 1 >= s.length) return INCOMPLETE;
  const next = s[start + 1];
  switch (next) {
    case "[":
      return start + 2 < s.length ? scanCsi(s, start) : INCOMPLETE;
    case "]":
    case "P":
    case "_":
      return scanControlString(s, start);
    case "O":
      return start + 2 < s.length
        ? { kind: "sequence", end: start + 2 + charLength(s, start + 2) }
        : INCOMPLETE;
    case ESC:
      // WezTerm sends the Escape press as a raw ESC and its release as CSI u right after it: ESC ESC [
      // is the lone Escape followed by a new sequence, not Alt+Escape followed by text.
      if ("[]OP_".includes(s[start + 2] ?? "x")) return { kind: "sequence", end: start + 1 };
      return { kind: "sequence", end: start + 2 };
  }
  // ESC and one key: Alt+key in legacy terminals.
  return { kind: "sequence", end: start + 1 + charLength(s, start + 1) };
}

/** The complete sequences at the front of `buffer`, and the incomplete tail left to wait for more. */
export function extractCompleteSequences(buffer: string): { sequences: string[]; remainder: string } {
  const sequences: string[] = [];
  let pos = 0;
  while (pos < buffer.length) {
    if (buffer[pos] !== ESC) {
      const end = pos + charLength(buffer, pos);
      sequences.push(buffer.slice(pos, end));
      pos = end;
      continue;
    }
    const scan = scanEscape(buffer, pos);
    if (scan.kind === "incomplete") return { sequences, remainder: buffer.slice(pos) };
    if (scan.kind === "sequence") sequences.push(buffer.slice(pos, scan.end));
    pos = scan.end;
  }
  return { sequences, remainder: "" };
}
