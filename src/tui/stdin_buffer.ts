/**
 * StdinBuffer: turns raw stdin chunks into complete input sequences.
 *
 * A read from the terminal may hold several keys at once, or half of one: the SGR mouse report
 * `ESC [ < 35 ; 20 ; 5 m` can arrive as `ESC`, `[<35` and `;20;5m`. Taken chunk by chunk, the
 * pieces would read as Escape and typed text. The buffer keeps an incomplete tail until the rest
 * comes or a short timeout says it never will, and delivers a bracketed paste as one `paste` event.
 *
 * The splitting follows OpenTUI's (https://github.com/anomalyco/opentui, MIT) as pi-tui 1.6.0 does.
 *
 * @module
 */
import { extractCompleteSequences, isControlString, isTerminalReplyHeader } from "./stdin_buffer_scan.ts";
import { TypedEventEmitter } from "./stdin_buffer_emitter.ts";

/** Options of a StdinBuffer. */
export type StdinBufferOptions = {
  /**
   * Maximum time to wait for an incomplete keyboard or mouse sequence
   * (default: 50ms). Strings with a recognized terminal reply header wait for
   * their terminator instead, so delayed replies cannot become keypresses.
   * Ambiguous legacy Alt-key input still uses this timeout.
   */
  timeout?: number;
  /**
   * Maximum time to wait after a lone ESC before treating it as Escape
   * (default: 10ms). Increase for high-latency Alt+key input (SSH).
   */
  escapeTimeout?: number;
};

/** Events of a StdinBuffer: `data` for each complete sequence, `paste` for a bracketed paste's content. */
export type StdinBufferEventMap = {
  data: [string];
  paste: [string];
};

const ESC = "\x1b";
const PASTE_START = "\x1b[200~";
const PASTE_END = "\x1b[201~";
const DEFAULT_TIMEOUT_MS = 50;
const DEFAULT_ESCAPE_TIMEOUT_MS = 10;

/** `CSI codepoint[:shifted[:base]] u` without modifiers: a kitty key press that types text. */
const PLAIN_KITTY_KEY = /^\[(\d+)(?::\d*)?(?::\d+)?u$/;

function plainKittyTextCodepoint(sequence: string): number | undefined {
  if (!sequence.startsWith(ESC)) return undefined;
  const m = PLAIN_KITTY_KEY.exec(sequence.slice(1));
  if (!m) return undefined;
  const codepoint = Number.parseInt(m[1], 10);
  return codepoint >= 32 ? codepoint : undefined;
}

/** A one-code-point sequence's code point. */
function singleCodepoint(sequence: string): number | undefined {
  const codepoint = sequence.codePointAt(0);
  if (codepoint === undefined) return undefined;
  return sequence.length === (codepoint > 0xffff ? 2 : 1) ? codepoint : undefined;
}

const utf8 = new TextDecoder("utf-8", { ignoreBOM: true });

/**
 * Buffers stdin input and emits complete sequences via the 'data' event.
 * Handles partial escape sequences that arrive across multiple chunks.
 */
export class StdinBuffer extends TypedEventEmitter<StdinBufferEventMap> {
  private buffer = "";
  private timeout: ReturnType<typeof setTimeout> | null = null;
  private readonly timeoutMs: number;
  private readonly escapeTimeoutMs: number;
  private pasteMode = false;
  /** The paste so far, in the chunks it came in: joined once, at its end, so a long paste stays linear. */
  private pasteParts: string[] = [];
  private pasteLength = 0;
  /** The paste's last few characters, where an end marker split across chunks begins. */
  private pasteTail = "";
  /** A kitty key that types text was just emitted; some terminals send the raw character after it too. */
  private pendingKittyPrintableCodepoint: number | undefined;

  /** A buffer with the given timeouts (50 ms for a split sequence, 10 ms for a lone ESC by default). */
  constructor(options: StdinBufferOptions = {}) {
    super();
    this.timeoutMs = options.timeout ?? DEFAULT_TIMEOUT_MS;
    this.escapeTimeoutMs = options.escapeTimeout ?? DEFAULT_ESCAPE_TIMEOUT_MS;
  }

  /** Feeds a chunk read from stdin; complete sequences are emitted before this returns. */
  process(data: string | Uint8Array): void {
    this.cancelTimeout();
    let text: string;
    if (typeof data === "string") text = data;
    // A lone high byte is Meta+key from a terminal that sets the eighth bit instead of sending ESC.
    else if (data.length === 1 && data[0] > 127) text = ESC + String.fromCharCode(data[0] - 128);
    else text = utf8.decode(data);

    if (text.length === 0 && this.buffer.length === 0) {
      this.emitDataSequence("");
      return;
    }
    this.buffer += text;

    if (this.pasteMode) {
      const chunk = this.buffer;
      this.buffer = "";
      this.addToPaste(chunk);
      return;
    }

    const start = this.buffer.indexOf(PASTE_START);
    if (start !== -1) {
      // Keys typed before the paste go out first; an incomplete tail before the marker is dropped.
      if (start > 0) {
        for (const sequence of extractCompleteSequences(this.buffer.slice(0, start)).sequences) {
          this.emitDataSequence(sequence);
        }
      }
      this.pendingKittyPrintableCodepoint = undefined;
      const pasted = this.buffer.slice(start + PASTE_START.length);
      this.buffer = "";
      this.pasteMode = true;
      this.pasteParts = [];
      this.pasteLength = 0;
      this.pasteTail = "";
      this.addToPaste(pasted);
      return;
    }

    const { sequences, remainder } = extractCompleteSequences(this.buffer);
    this.buffer = remainder;
    for (const sequence of sequences) this.emitDataSequence(sequence);
    if (this.buffer.length === 0) return;
    // A reply header starts a delimited string: flushing it would turn a delayed tail into text and an
    // OSC's BEL into Ctrl+G. Anything else (Alt+] and text, a lone ESC) must time out into keys.
    if (isTerminalReplyHeader(this.buffer)) return;
    const wait = this.buffer === ESC ? this.escapeTimeoutMs : this.timeoutMs;
    this.timeout = setTimeout(() => this.flushOnTimeout(), wait);
  }

  /** Adds a chunk to the paste; at the end marker, emits the paste and processes what follows it. */
  private addToPaste(chunk: string): void {
    // The end marker may straddle chunks: look in the last few characters already held plus the chunk.
    const overlap = this.pasteTail.length;
    const window = this.pasteTail + chunk;
    const at = window.indexOf(PASTE_END);
    this.pasteParts.push(chunk);
    this.pasteLength += chunk.length;
    if (at === -1) {
      this.pasteTail = window.slice(-(PASTE_END.length - 1));
      return;
    }
    const all = this.pasteParts.join("");
    const end = this.pasteLength - chunk.length - overlap + at;
    this.pasteMode = false;
    this.pasteParts = [];
    this.pasteLength = 0;
    this.pasteTail = "";
    this.pendingKittyPrintableCodepoint = undefined;
    this.emit("paste", all.slice(0, end));
    const rest = all.slice(end + PASTE_END.length);
    if (rest.length > 0) this.process(rest);
  }

  /** The wait is over: what is buffered will not complete, so it goes out as keys. */
  private flushOnTimeout(): void {
    this.timeout = null;
    for (const sequence of this.flush()) {
      if (sequence.length > 2 && isControlString(sequence)) {
        // Not a reply after all: it was Alt+]/P/_ and more keys batched behind it. Deliver the Alt
        // key and parse the rest, so text, Enter and control keys are not swallowed as one event.
        this.emitDataSequence(sequence.slice(0, 2));
        this.process(sequence.slice(2));
      } else {
        this.emitDataSequence(sequence);
      }
    }
  }

  /** Emits one sequence, unless it is the raw echo of the kitty key just emitted. */
  private emitDataSequence(sequence: string): void {
    const raw = singleCodepoint(sequence);
    if (raw !== undefined && raw === this.pendingKittyPrintableCodepoint) {
      this.pendingKittyPrintableCodepoint = undefined;
      return;
    }
    this.pendingKittyPrintableCodepoint = plainKittyTextCodepoint(sequence);
    this.emit("data", sequence);
  }

  /** Stops the pending flush timer, if any. */
  private cancelTimeout(): void {
    if (this.timeout !== null) {
      clearTimeout(this.timeout);
      this.timeout = null;
    }
  }

  /** Takes the incomplete tail out of the buffer (without emitting it) and returns it. */
  flush(): string[] {
    this.cancelTimeout();
    if (this.buffer.length === 0) return [];
    const sequences = [this.buffer];
    this.buffer = "";
    this.pendingKittyPrintableCodepoint = undefined;
    return sequences;
  }

  /** Drops everything buffered, a paste in progress included. */
  clear(): void {
    this.cancelTimeout();
    this.buffer = "";
    this.pasteMode = false;
    this.pasteParts = [];
    this.pasteLength = 0;
    this.pasteTail = "";
    this.pendingKittyPrintableCodepoint = undefined;
  }

  /** The incomplete tail waiting for more input. */
  getBuffer(): string {
    return this.buffer;
  }

  /** Stops the timer and drops the buffer. */
  destroy(): void {
    this.clear();
  }
}
