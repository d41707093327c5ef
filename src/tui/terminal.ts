/**
 * The terminal layer, mirroring pi-tui's `terminal.js`: the `Terminal` interface and
 * `ProcessTerminal`, the real terminal of this process on Deno APIs — raw mode with
 * `Deno.stdin.setRaw`, size from `Deno.consoleSize`, resizes from SIGWINCH, the Kitty keyboard
 * protocol (with modifyOtherKeys as fallback), bracketed paste, and the modes put back on stop()
 * or, when stop() never ran, at exit.
 *
 * @module
 */
import { readEnv } from "../util/env.ts";
import { setKittyProtocolActive } from "./keys.ts";
import { isNativeModifierPressed } from "./native_modifiers.ts";
import { getNativePlatformHelper } from "./native_platform.ts";
import {
  formatProgramStatus,
  isProgramStatusReply,
  PROGRAM_STATUS_QUERY,
  type ProgramStatus,
} from "./program_status.ts";
import { StdinBuffer } from "./stdin_buffer.ts";
import {
  isAppleTerminalSession,
  isKeyboardProtocolNegotiationSequencePrefix,
  isNativeShiftEnterCandidate,
  type KeyboardProtocolNegotiationSequence,
  normalizeNativeShiftEnterInput,
  parseKeyboardProtocolNegotiationSequence,
  resolveEscapeTimeoutMs,
} from "./terminal_keyboard.ts";
import type { Terminal } from "./terminal_interface.ts";
import {
  listenSignal,
  resolveWriteLogPath,
  setStdinRaw,
  stdinRawMode,
  stdoutWrite,
} from "./terminal_process_io.ts";
import { StdinReader } from "./terminal_stdin.ts";
import { replaceControlCharacters } from "./utils_text.ts";

export type { Terminal } from "./terminal_interface.ts";
export { refreshTerminalDimensions } from "./terminal_process_io.ts";
export {
  isAppleTerminalSession,
  type KeyboardProtocolNegotiationSequence,
  normalizeAppleTerminalInput,
  normalizeNativeShiftEnterInput,
  parseKeyboardProtocolNegotiationSequence,
  resolveEscapeTimeoutMs,
} from "./terminal_keyboard.ts";

const PROGRESS_KEEPALIVE_MS = 1000;
const PROGRESS_ACTIVE = "\x1b]9;4;3\x07";
const PROGRESS_CLEAR = "\x1b]9;4;0\x07";
/** 1 disambiguate escape codes + 2 report event types + 4 report alternate keys. */
const KITTY_FLAGS = 7;
const NEGOTIATION_FRAGMENT_TIMEOUT_MS = 150;
const KITTY_QUERY = `\x1b[>${KITTY_FLAGS}u\x1b[?u`;
const DEVICE_ATTRIBUTES_QUERY = "\x1b[c";
const BRACKETED_PASTE_ON = "\x1b[?2004h";
const BRACKETED_PASTE_OFF = "\x1b[?2004l";
const KITTY_POP = "\x1b[<u";
const MODIFY_OTHER_KEYS_ON = "\x1b[>4;2m";
const MODIFY_OTHER_KEYS_OFF = "\x1b[>4;0m";
const RESIZE_POLL_MS = 500;

/**
 * One reader for the process, shared by every ProcessTerminal: stdin is one stream, and a second
 * reader's pending read would take input meant for the terminal started after it (the start-up
 * session picker's, then the interactive mode's).
 */
const PROCESS_STDIN = new StdinReader();

/** Real terminal using the process's stdin and stdout. */
export class ProcessTerminal implements Terminal {
  private wasRaw = false;
  private inputHandler?: (data: string) => void;
  private resizeHandler?: () => void;
  private _kittyProtocolActive = false;
  private _modifyOtherKeysActive = false;
  private keyboardProtocolPushed = false;
  /** DA1 replies owed to keyboard protocol queries. Later DA1 replies answer other queries and are forwarded. */
  private pendingKeyboardProtocolDeviceAttributes = 0;
  private keyboardProtocolNegotiationBuffer = "";
  private keyboardProtocolBufferFlushTimer?: ReturnType<typeof setTimeout>;
  private stdinBuffer?: StdinBuffer;
  private readonly stdin = PROCESS_STDIN;
  private progressInterval?: ReturnType<typeof setInterval>;
  /** Latest program status, kept across stop() so start() can report it again. */
  private programStatus?: ProgramStatus;
  /** Whether the terminal confirmed OSC 7501 support since the last start(), or `PI_PROGRAM_STATUS=1`. */
  private programStatusSupported = false;
  /** The support query was sent and its DA1 sentinel has not arrived yet. */
  private programStatusQueryPending = false;
  private writeLogPath = resolveWriteLogPath();
  private size: { columns: number; rows: number } | undefined;
  private resizePoll?: ReturnType<typeof setInterval>;
  private readonly sigwinch = () => {
    this.size = undefined;
    this.resizeHandler?.();
  };

  /**
   * Resize notices: SIGWINCH on POSIX. Windows has no such signal (Node polls the console for its
   * 'resize' event), so there the size is compared twice a second.
   */
  private watchResize(on: boolean): void {
    if (Deno.build.os !== "windows") {
      listenSignal("SIGWINCH", this.sigwinch, on);
      return;
    }
    clearInterval(this.resizePoll);
    this.resizePoll = undefined;
    if (!on) return;
    const poll = setInterval(() => {
      const before = this.size;
      this.size = undefined;
      const after = this.consoleSize();
      if (before && (before.columns !== after.columns || before.rows !== after.rows)) this.resizeHandler?.();
    }, RESIZE_POLL_MS);
    Deno.unrefTimer(poll);
    this.resizePoll = poll;
  }

  /** Whether the terminal confirmed the Kitty keyboard protocol. */
  get kittyProtocolActive(): boolean {
    return this._kittyProtocolActive;
  }

  /** Whether the modifyOtherKeys fallback is on. */
  get modifyOtherKeysActive(): boolean {
    return this._modifyOtherKeysActive;
  }

  /** Raw mode, bracketed paste, resize notices, keyboard protocol negotiation, input. */
  start(onInput: (data: string) => void, onResize: () => void): void {
    this.inputHandler = onInput;
    this.resizeHandler = onResize;
    this.wasRaw = stdinRawMode();
    setStdinRaw(true);
    // Bracketed paste: the terminal wraps pastes in \x1b[200~ … \x1b[201~.
    this.write(BRACKETED_PASTE_ON);
    this.watchResize(true);
    // The size may be stale after suspend/resume (SIGWINCH is lost while stopped).
    this.size = undefined;
    this.enableWindowsVTInput();
    this.queryAndEnableKittyProtocol();
  }

  /** StdinBuffer splits batched input into single sequences and reassembles pastes. */
  private setupStdinBuffer(): StdinBuffer {
    const buffer = new StdinBuffer({ escapeTimeout: resolveEscapeTimeoutMs() });
    buffer.on("data", (sequence: string) => {
      if (isProgramStatusReply(sequence)) {
        if (this.programStatusQueryPending) {
          this.programStatusQueryPending = false;
          this.programStatusSupported = true;
          this.writeProgramStatus();
        }
        return;
      }
      const negotiation = this.readKeyboardProtocolNegotiationSequence(sequence);
      if (negotiation === "pending") {
        // Wait briefly for the rest of a split reply.
        this.scheduleKeyboardProtocolNegotiationBufferFlush();
        return;
      }
      if (negotiation && this.handleKeyboardProtocolNegotiationSequence(negotiation.parsed)) return;
      this.forwardInputSequence(negotiation?.sequence ?? sequence);
    });
    // Pastes arrive as one event; wrap them again for the editor's bracketed-paste handling.
    buffer.on("paste", (content: string) => this.inputHandler?.(`\x1b[200~${content}\x1b[201~`));
    return buffer;
  }

  /**
   * Ask for the Kitty keyboard protocol: push the wanted flags, query them, and send a DA1 request
   * as sentinel. A terminal without Kitty support answers only DA1, which enables modifyOtherKeys
   * without a start-up timeout. The OSC 7501 program status query shares the sentinel;
   * `PI_PROGRAM_STATUS=1` or `0` skips it.
   */
  private queryAndEnableKittyProtocol(): void {
    const buffer = this.setupStdinBuffer();
    this.stdinBuffer = buffer;
    this.stdin.resume((text) => buffer.process(text));
    this.keyboardProtocolPushed = true;
    this.pendingKeyboardProtocolDeviceAttributes += 1;
    this.clearKeyboardProtocolNegotiationBuffer();
    const override = readEnv("PI_PROGRAM_STATUS");
    this.programStatusSupported = override === "1";
    this.programStatusQueryPending = override !== "1" && override !== "0";
    const statusQuery = this.programStatusQueryPending ? PROGRAM_STATUS_QUERY : "";
    this.write(`${KITTY_QUERY}${statusQuery}${DEVICE_ATTRIBUTES_QUERY}`);
    this.writeProgramStatus();
  }

  /** Acts on a negotiation reply; false for a DA1 reply no keyboard query is owed (it goes on as input). */
  private handleKeyboardProtocolNegotiationSequence(reply: KeyboardProtocolNegotiationSequence): boolean {
    this.clearKeyboardProtocolNegotiationBuffer();
    if (reply.type === "device-attributes") {
      if (this.pendingKeyboardProtocolDeviceAttributes === 0) return false;
      this.pendingKeyboardProtocolDeviceAttributes -= 1;
      // The last owed DA answers the latest query, which got no program status reply first.
      if (this.pendingKeyboardProtocolDeviceAttributes === 0) this.programStatusQueryPending = false;
      if (!this._kittyProtocolActive) this.enableModifyOtherKeys();
      return true;
    }
    if (reply.flags !== 0) {
      this.disableModifyOtherKeys();
      if (!this._kittyProtocolActive) {
        this._kittyProtocolActive = true;
        setKittyProtocolActive(true);
      }
    } else {
      this.enableModifyOtherKeys();
    }
    return true;
  }

  /** The parsed negotiation reply with its full (possibly reassembled) sequence. */
  private readKeyboardProtocolNegotiationSequence(
    sequence: string,
  ): { parsed: KeyboardProtocolNegotiationSequence; sequence: string } | "pending" | undefined {
    if (this.keyboardProtocolNegotiationBuffer) {
      const joined = this.keyboardProtocolNegotiationBuffer + sequence;
      const parsed = parseKeyboardProtocolNegotiationSequence(joined);
      if (parsed) {
        this.clearKeyboardProtocolNegotiationBuffer();
        return { parsed, sequence: joined };
      }
      if (isKeyboardProtocolNegotiationSequencePrefix(joined)) {
        this.setKeyboardProtocolNegotiationBuffer(joined);
        return "pending";
      }
      this.flushKeyboardProtocolNegotiationBufferAsInput();
    }
    const parsed = parseKeyboardProtocolNegotiationSequence(sequence);
    if (parsed) return { parsed, sequence };
    if (isKeyboardProtocolNegotiationSequencePrefix(sequence)) {
      this.setKeyboardProtocolNegotiationBuffer(sequence);
      return "pending";
    }
    return undefined;
  }

  /** Holds the start of a reply split across reads. */
  private setKeyboardProtocolNegotiationBuffer(sequence: string): void {
    this.clearKeyboardProtocolNegotiationBufferFlushTimer();
    this.keyboardProtocolNegotiationBuffer = sequence;
  }

  /** Drops a held reply fragment and its flush timer. */
  private clearKeyboardProtocolNegotiationBuffer(): void {
    this.clearKeyboardProtocolNegotiationBufferFlushTimer();
    this.keyboardProtocolNegotiationBuffer = "";
  }

  /** A held fragment that never completed is input after all: forward it. */
  private flushKeyboardProtocolNegotiationBufferAsInput(): void {
    if (!this.keyboardProtocolNegotiationBuffer) return;
    const sequence = this.keyboardProtocolNegotiationBuffer;
    this.clearKeyboardProtocolNegotiationBuffer();
    this.forwardInputSequence(sequence);
  }

  /** Forwards a held fragment as input if the rest does not come within 150 ms. */
  private scheduleKeyboardProtocolNegotiationBufferFlush(): void {
    if (!this.keyboardProtocolNegotiationBuffer || this.keyboardProtocolBufferFlushTimer) return;
    this.keyboardProtocolBufferFlushTimer = setTimeout(() => {
      this.keyboardProtocolBufferFlushTimer = undefined;
      this.flushKeyboardProtocolNegotiationBufferAsInput();
    }, NEGOTIATION_FRAGMENT_TIMEOUT_MS);
  }

  /** Cancels the held fragment's flush timer. */
  private clearKeyboardProtocolNegotiationBufferFlushTimer(): void {
    if (!this.keyboardProtocolBufferFlushTimer) return;
    clearTimeout(this.keyboardProtocolBufferFlushTimer);
    this.keyboardProtocolBufferFlushTimer = undefined;
  }

  /** Hands one input sequence to the TUI (Shift+Enter fixed up where the platform can tell). */
  private forwardInputSequence(sequence: string): void {
    if (!this.inputHandler) return;
    const detect = isNativeShiftEnterCandidate(sequence) &&
      (isAppleTerminalSession() || Deno.build.os === "windows");
    this.inputHandler(
      normalizeNativeShiftEnterInput(sequence, detect, detect && isNativeModifierPressed("shift")),
    );
  }

  /** Turns on xterm's modifyOtherKeys (level 2), the fallback when Kitty is not confirmed. */
  private enableModifyOtherKeys(): void {
    if (this._kittyProtocolActive || this._modifyOtherKeysActive) return;
    this.write(MODIFY_OTHER_KEYS_ON);
    this._modifyOtherKeysActive = true;
  }

  /** Turns modifyOtherKeys off again. */
  private disableModifyOtherKeys(): void {
    if (!this._modifyOtherKeysActive) return;
    this.write(MODIFY_OTHER_KEYS_OFF);
    this._modifyOtherKeysActive = false;
  }

  /** On Windows, ask the console for VT input so modified keys (Shift+Tab) arrive as sequences. */
  private enableWindowsVTInput(): void {
    if (Deno.build.os !== "windows") return;
    try {
      getNativePlatformHelper()?.enableVirtualTerminalInput?.();
    } catch {
      // No native helper: Shift+Tab is not told apart from Tab.
    }
  }

  /** Turns the keyboard protocols off first, so late key releases arrive as nothing new. */
  private popKeyboardProtocols(): void {
    const pushed = this.keyboardProtocolPushed || this._kittyProtocolActive;
    this.clearKeyboardProtocolNegotiationBuffer();
    if (pushed) {
      this.write(KITTY_POP);
      this.keyboardProtocolPushed = false;
      this._kittyProtocolActive = false;
      setKittyProtocolActive(false);
    }
    this.disableModifyOtherKeys();
  }

  /**
   * Drain stdin before exiting so Kitty key release events do not leak to the parent shell over
   * slow links: waits until no input came for `idleMs`, at most `maxMs`.
   */
  async drainInput(maxMs = 1000, idleMs = 50): Promise<void> {
    this.popKeyboardProtocols();
    const previousHandler = this.inputHandler;
    this.inputHandler = undefined;
    const started = Date.now();
    this.stdin.lastDataAt = started;
    const endTime = started + maxMs;
    try {
      while (true) {
        const now = Date.now();
        const timeLeft = endTime - now;
        if (timeLeft <= 0 || now - this.stdin.lastDataAt >= idleMs) break;
        await new Promise((resolve) => setTimeout(resolve, Math.min(idleMs, timeLeft)));
      }
    } finally {
      this.inputHandler = previousHandler;
    }
  }

  /**
   * Before a child process gets the terminal (an external editor): asks for a DA1 reply and ends the
   * read loop when it arrives, so no pending read of ours takes the child's keys. At most `timeoutMs`.
   */
  releaseInput(timeoutMs = 500): Promise<void> {
    const released = this.stdin.release(timeoutMs);
    this.write("\x1b[c");
    return released;
  }

  /** Puts every mode back (progress, program status, paste, keyboard protocols, raw mode) and stops input. */
  stop(): void {
    if (this.clearProgressInterval()) this.write(PROGRESS_CLEAR);
    // Remove the status while stopped (after exit, while suspended); start() reports it again.
    if (this.programStatusSupported && this.programStatus) {
      this.write(formatProgramStatus({ state: "clear" }));
    }
    this.programStatusSupported = false;
    this.programStatusQueryPending = false;
    this.write(BRACKETED_PASTE_OFF);
    this.popKeyboardProtocols();
    this.stdinBuffer?.destroy();
    this.stdinBuffer = undefined;
    this.inputHandler = undefined;
    this.watchResize(false);
    this.resizeHandler = undefined;
    // Stop reading before raw mode goes, so buffered input (Ctrl+D) is not read as cooked input.
    this.stdin.pause();
    setStdinRaw(this.wasRaw);
  }

  /** The restore for an exit without stop(): one synchronous write, then cooked mode. */
  restoreOnExit(before: string, after: string): void {
    let sequence = before;
    if (this.progressInterval) sequence += PROGRESS_CLEAR;
    sequence += BRACKETED_PASTE_OFF;
    if (this.keyboardProtocolPushed || this._kittyProtocolActive) sequence += KITTY_POP;
    if (this._modifyOtherKeysActive) sequence += MODIFY_OTHER_KEYS_OFF;
    sequence += after;
    stdoutWrite(sequence);
    // Deno resets the tty at exit too; this covers a restore that is not followed by an exit.
    setStdinRaw(this.wasRaw);
  }

  /** Writes to stdout (and to the PI_TUI_WRITE_LOG file). */
  write(data: string): void {
    stdoutWrite(data);
    if (!this.writeLogPath) return;
    try {
      Deno.writeTextFileSync(this.writeLogPath, data, { append: true });
    } catch {
      // Ignore logging errors
    }
  }

  /** The console size, read once and again after each resize notice. */
  private consoleSize(): { columns: number; rows: number } {
    if (this.size) return this.size;
    let size: { columns: number; rows: number } | undefined;
    try {
      if (Deno.stdout.isTerminal()) size = Deno.consoleSize();
    } catch {
      // No console size to be had.
    }
    this.size = {
      columns: size?.columns || Number(readEnv("COLUMNS")) || 80,
      rows: size?.rows || Number(readEnv("LINES")) || 24,
    };
    return this.size;
  }

  /** Width in columns: the console's, else COLUMNS, else 80. */
  get columns(): number {
    return this.consoleSize().columns;
  }

  /** Height in rows: the console's, else LINES, else 24. */
  get rows(): number {
    return this.consoleSize().rows;
  }

  moveBy(lines: number): void {
    if (lines > 0) this.write(`\x1b[${lines}B`);
    else if (lines < 0) this.write(`\x1b[${-lines}A`);
  }

  /** Hides the cursor (DECTCEM off). */
  hideCursor(): void {
    this.write("\x1b[?25l");
  }

  /** Shows the cursor (DECTCEM on). */
  showCursor(): void {
    this.write("\x1b[?25h");
  }

  /** Clears from the cursor to the end of the line. */
  clearLine(): void {
    this.write("\x1b[K");
  }

  /** Clears from the cursor to the end of the screen. */
  clearFromCursor(): void {
    this.write("\x1b[J");
  }

  /** Clears the screen and moves the cursor home. */
  clearScreen(): void {
    this.write("\x1b[2J\x1b[H");
  }

  /** OSC 0 title; control characters (from session names) would end the sequence early, so they are replaced. */
  setTitle(title: string): void {
    this.write(`\x1b]0;${replaceControlCharacters(title)}\x07`);
  }

  /** Reports the program's status (OSC 7501) where supported; kept to report again after a restart. */
  setProgramStatus(status: ProgramStatus): void {
    this.programStatus = status.state === "clear" ? undefined : status;
    if (this.programStatusSupported) this.write(formatProgramStatus(status));
  }

  /** Writes the latest status, if any and if supported. */
  private writeProgramStatus(): void {
    if (this.programStatusSupported && this.programStatus) {
      this.write(formatProgramStatus(this.programStatus));
    }
  }

  /** Indeterminate progress (OSC 9;4), repeated every second so terminals keep showing it. */
  setProgress(active: boolean): void {
    if (active) {
      this.write(PROGRESS_ACTIVE);
      if (!this.progressInterval) {
        this.progressInterval = setInterval(() => this.write(PROGRESS_ACTIVE), PROGRESS_KEEPALIVE_MS);
      }
    } else {
      this.clearProgressInterval();
      this.write(PROGRESS_CLEAR);
    }
  }

  /** Stops the progress keep-alive; whether one was running. */
  private clearProgressInterval(): boolean {
    if (!this.progressInterval) return false;
    clearInterval(this.progressInterval);
    this.progressInterval = undefined;
    return true;
  }
}
