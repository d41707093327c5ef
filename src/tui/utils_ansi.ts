/**
 * Terminal escape sequences inside rendered text: finding them, removing them, and reading OSC 8
 * hyperlinks out of them. Every width and wrap function in the kit skips sequences through
 * {@link ansiCodeLength}, so what counts as a sequence is decided here once.
 *
 * Recognised: CSI sequences ending in one of `m G K H J` (styles, cursor column, erase), OSC
 * (`ESC ]`, hyperlinks, titles, prompt marks) and APC (`ESC _`, the cursor marker), both ended by
 * BEL or ST (`ESC \`). Anything else starting with ESC is visible text, as in pi-tui.
 *
 * @module
 */

const ESC = 0x1b;
const BEL = 0x07;

/** Length of the escape sequence starting at `pos`, or 0 when none starts there. */
export function ansiCodeLength(str: string, pos: number): number {
  if (str.charCodeAt(pos) !== ESC) return 0;
  const kind = str.charCodeAt(pos + 1);
  if (kind === 0x5b /* [ */) {
    // pi-tui ends a CSI at the first of its five final letters, whatever comes between.
    for (let j = pos + 2; j < str.length; j++) {
      switch (str.charCodeAt(j)) {
        case 0x6d: /* m */
        case 0x47: /* G */
        case 0x4b: /* K */
        case 0x48: /* H */
        case 0x4a: /* J */
          return j + 1 - pos;
      }
    }
    return 0;
  }
  if (kind === 0x5d /* ] */ || kind === 0x5f /* _ */) {
    for (let j = pos + 2; j < str.length; j++) {
      const c = str.charCodeAt(j);
      if (c === BEL) return j + 1 - pos;
      if (c === ESC && str.charCodeAt(j + 1) === 0x5c /* \ */) return j + 2 - pos;
    }
  }
  return 0;
}

/**
 * Extract ANSI escape sequences from a string at the given position.
 */
export function extractAnsiCode(str: string, pos: number): { code: string; length: number } | null {
  const length = ansiCodeLength(str, pos);
  return length > 0 ? { code: str.substring(pos, pos + length), length } : null;
}

/**
 * Where the visible text run starting at `from` ends: the next position where a recognised
 * sequence starts, or the string's length. A lone ESC belongs to the run.
 */
export function textRunEnd(str: string, from: number): number {
  let esc = str.indexOf("\x1b", from);
  while (esc !== -1 && ansiCodeLength(str, esc) === 0) esc = str.indexOf("\x1b", esc + 1);
  return esc === -1 ? str.length : esc;
}

/**
 * Walks a line piece by piece: `onCode` gets each escape sequence, `onRun` each stretch of visible
 * text between them. Either returns `false` to stop the walk.
 */
export function walkRuns(
  line: string,
  onCode: (code: string) => boolean | void,
  onRun: (run: string) => boolean | void,
): void {
  for (let i = 0; i < line.length;) {
    const codeLength = ansiCodeLength(line, i);
    if (codeLength > 0) {
      if (onCode(line.substring(i, i + codeLength)) === false) return;
      i += codeLength;
    } else {
      const end = textRunEnd(line, i + 1);
      if (onRun(line.slice(i, end)) === false) return;
      i = end;
    }
  }
}

/** Remove ANSI, OSC, and APC control sequences while preserving visible text. */
export function stripTerminalSequences(str: string): string {
  let esc = str.indexOf("\x1b");
  if (esc === -1) return str;
  let out = "";
  let copyFrom = 0;
  while (esc !== -1) {
    const length = ansiCodeLength(str, esc);
    if (length > 0) {
      out += str.slice(copyFrom, esc);
      copyFrom = esc + length;
      esc = str.indexOf("\x1b", copyFrom);
    } else {
      esc = str.indexOf("\x1b", esc + 1);
    }
  }
  return out + str.slice(copyFrom);
}

/** Only the escape sequences of `str`, in order, without the text between them. */
export function collectAnsiCodes(str: string): string {
  let out = "";
  let esc = str.indexOf("\x1b");
  while (esc !== -1) {
    const length = ansiCodeLength(str, esc);
    if (length > 0) out += str.substring(esc, esc + length);
    esc = str.indexOf("\x1b", esc + Math.max(length, 1));
  }
  return out;
}

// deno-lint-ignore no-control-regex -- matching control characters is the point
const CONTROL_RUNS = /[\u0000-\u001f\u007f-\u009f]+/g;

/** Replace each run of C0 and C1 control characters (ESC, BEL, newlines, ...) with one space. */
export function replaceControlCharacters(str: string): string {
  return str.replace(CONTROL_RUNS, " ");
}

/** An open OSC 8 hyperlink: its parameters, target and the terminator it was written with. */
export interface Osc8Link {
  params: string;
  url: string;
  /** BEL or ST; kept because some terminals only make BEL-terminated links clickable. */
  terminator: string;
}

/**
 * Reads an escape sequence as OSC 8: the link it opens, `null` when it closes the link (empty
 * target), `undefined` when it is not a well-formed OSC 8 at all.
 */
export function parseOsc8(code: string): Osc8Link | null | undefined {
  if (!code.startsWith("\x1b]8;")) return undefined;
  const terminator = code.endsWith("\x07") ? "\x07" : "\x1b\\";
  const body = code.slice(4, code.length - terminator.length);
  const split = body.indexOf(";");
  if (split === -1) return undefined;
  const url = body.slice(split + 1);
  return url ? { params: body.slice(0, split), url, terminator } : null;
}

/** The sequence that opens `link` again. */
export function osc8Open(link: Osc8Link): string {
  return `\x1b]8;${link.params};${link.url}${link.terminator}`;
}

/** The sequence that closes a link, with the terminator the link was opened with. */
export function osc8Close(terminator: string): string {
  return `\x1b]8;;${terminator}`;
}

/** The close sequence for a hyperlink still open at the end of `text`, or "". */
export function openOsc8CloseAt(text: string): string {
  if (!text.includes("\x1b]8;")) return "";
  let open: Osc8Link | null = null;
  let esc = text.indexOf("\x1b");
  while (esc !== -1) {
    const length = ansiCodeLength(text, esc);
    if (length > 0) {
      const link = parseOsc8(text.substring(esc, esc + length));
      if (link !== undefined) open = link;
    }
    esc = text.indexOf("\x1b", esc + Math.max(length, 1));
  }
  return open ? osc8Close(open.terminator) : "";
}
