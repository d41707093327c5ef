/**
 * The SGR style and OSC 8 link in force at a point of a styled string, so that a line cut in two
 * can end its half cleanly and open the other half with the same look.
 *
 * @module
 */
import { ansiCodeLength, osc8Close, type Osc8Link, osc8Open, parseOsc8 } from "./utils_ansi.ts";

/** The on/off attributes in the order their codes are written back (1 bold … 9 strikethrough). */
const FLAG_CODES = [1, 2, 3, 4, 5, 7, 8, 9] as const;
type FlagCode = typeof FLAG_CODES[number];

/** Codes that turn attributes off, and which. */
const FLAG_OFF: Record<number, readonly FlagCode[]> = {
  21: [1],
  22: [1, 2],
  23: [3],
  24: [4],
  25: [5],
  27: [7],
  28: [8],
  29: [9],
};

// deno-lint-ignore no-control-regex -- an escape sequence is made of control characters
const SGR_PARAMS = /\x1b\[([\d;]*)m/;

/**
 * Styles in force, built by feeding escape sequences in order. Attributes are kept one by one so
 * that a line end can switch off just underline and strikethrough (which would otherwise run into
 * padding) without dropping the background.
 */
export class StyleState {
  private flags = new Set<FlagCode>();
  /** The full colour parameters, e.g. "31" or "38;5;240" or "38;2;1;2;3". */
  private fg: string | null = null;
  private bg: string | null = null;
  private link: Osc8Link | null = null;

  /** Takes one escape sequence into account; sequences other than SGR and OSC 8 change nothing. */
  process(code: string): void {
    const link = parseOsc8(code);
    if (link !== undefined) {
      this.link = link;
      return;
    }
    if (!code.endsWith("m")) return;
    const match = SGR_PARAMS.exec(code);
    if (!match) return;
    if (match[1] === "" || match[1] === "0") {
      this.resetSgr();
      return;
    }
    const parts = match[1].split(";");
    for (let i = 0; i < parts.length;) {
      const n = Number.parseInt(parts[i], 10);
      if (n === 38 || n === 48) {
        // 38;5;N / 38;2;R;G;B take their arguments along; an incomplete one falls through and its
        // arguments are read as codes of their own, as terminals (and pi-tui) do.
        const count = parts[i + 1] === "5" && parts[i + 2] !== undefined
          ? 3
          : parts[i + 1] === "2" && parts[i + 4] !== undefined
          ? 5
          : 0;
        if (count > 0) {
          const colour = parts.slice(i, i + count).join(";");
          if (n === 38) this.fg = colour;
          else this.bg = colour;
          i += count;
          continue;
        }
      }
      this.applyCode(n);
      i++;
    }
  }

  private applyCode(n: number): void {
    if (n === 0) this.resetSgr();
    else if ((FLAG_CODES as readonly number[]).includes(n)) this.flags.add(n as FlagCode);
    else if (n in FLAG_OFF) { for (const f of FLAG_OFF[n]) this.flags.delete(f); }
    else if (n === 39) this.fg = null;
    else if (n === 49) this.bg = null;
    else if ((n >= 30 && n <= 37) || (n >= 90 && n <= 97)) this.fg = String(n);
    else if ((n >= 40 && n <= 47) || (n >= 100 && n <= 107)) this.bg = String(n);
  }

  /** Forgets all SGR state; an SGR reset leaves an open hyperlink open. */
  private resetSgr(): void {
    this.flags.clear();
    this.fg = null;
    this.bg = null;
  }

  /** Forgets everything, hyperlink included, for reuse. */
  clear(): void {
    this.resetSgr();
    this.link = null;
  }

  /** The sequence that re-establishes the state: one SGR with every attribute, then the open link. */
  activeCodes(): string {
    const codes: string[] = [];
    for (const f of FLAG_CODES) if (this.flags.has(f)) codes.push(String(f));
    if (this.fg) codes.push(this.fg);
    if (this.bg) codes.push(this.bg);
    let out = codes.length > 0 ? `\x1b[${codes.join(";")}m` : "";
    if (this.link) out += osc8Open(this.link);
    return out;
  }

  /** Just the background colour in force, as an SGR sequence, or "". */
  backgroundCode(): string {
    return this.bg ? `\x1b[${this.bg}m` : "";
  }

  /**
   * What to write at a wrapped line's end: underline and strikethrough off (so they do not bleed
   * into padding) and the hyperlink closed; {@link activeCodes} opens them again on the next line.
   */
  lineEndReset(): string {
    let out = "";
    if (this.flags.has(4)) out += "\x1b[24m";
    if (this.flags.has(9)) out += "\x1b[29m";
    if (this.link) out += osc8Close(this.link.terminator);
    return out;
  }

  /** Takes every escape sequence of `text` into account, in order. */
  processText(text: string): void {
    let esc = text.indexOf("\x1b");
    while (esc !== -1) {
      const length = ansiCodeLength(text, esc);
      if (length > 0) this.process(text.substring(esc, esc + length));
      esc = text.indexOf("\x1b", esc + Math.max(length, 1));
    }
  }
}

/** Return only the background color active at the end of an ANSI-styled string. */
export function getActiveBackgroundAnsi(text: string): string {
  const state = new StyleState();
  state.processText(text);
  return state.backgroundCode();
}
