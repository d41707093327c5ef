/**
 * A `Terminal` for tests backed by a real terminal emulator (`@xterm/headless`): everything a TUI
 * writes is parsed as a terminal would, and tests read the screen, the scrollback and the cursor,
 * inject input and resize.
 *
 * @module
 */
import xterm from "@xterm/headless";
import type { Terminal } from "../../src/tui/terminal_interface.ts";
import type { ProgramStatus } from "../../src/tui/program_status.ts";

type XTerm = InstanceType<typeof xterm.Terminal>;

/** The emulator's state of one cell, as a short signature (text plus non-default attributes). */
function cellSignature(
  cell: ReturnType<NonNullable<ReturnType<XTerm["buffer"]["active"]["getLine"]>>["getCell"]>,
) {
  if (!cell) return "";
  const attrs: string[] = [];
  if (cell.getFgColorMode()) attrs.push(`fg${cell.getFgColorMode()}:${cell.getFgColor()}`);
  if (cell.getBgColorMode()) attrs.push(`bg${cell.getBgColorMode()}:${cell.getBgColor()}`);
  if (cell.isBold()) attrs.push("b");
  if (cell.isItalic()) attrs.push("i");
  if (cell.isDim()) attrs.push("d");
  if (cell.isUnderline()) attrs.push("u");
  if (cell.isInverse()) attrs.push("r");
  const chars = cell.getChars() || (cell.getWidth() === 0 ? "" : " ");
  return attrs.length > 0 ? `${chars}{${attrs.join(",")}}` : chars;
}

/** A Terminal over a headless xterm.js; `flush()` waits until everything written is parsed. */
export class VirtualTerminal implements Terminal {
  /** The emulator. */
  readonly xterm: XTerm;
  /** Everything written, in order. */
  readonly writes: string[] = [];
  private onInput?: (data: string) => void;
  private onResize?: () => void;
  /** Whether start() ran without a later stop(). */
  started = false;
  /** Whether the Kitty keyboard protocol is reported active. */
  kittyProtocolActive = false;

  constructor(columns = 80, rows = 24) {
    this.xterm = new xterm.Terminal({ cols: columns, rows, allowProposedApi: true, scrollback: 10_000 });
  }

  start(onInput: (data: string) => void, onResize: () => void): void {
    this.onInput = onInput;
    this.onResize = onResize;
    this.started = true;
  }

  stop(): void {
    this.onInput = undefined;
    this.onResize = undefined;
    this.started = false;
  }

  async drainInput(): Promise<void> {}

  write(data: string): void {
    this.writes.push(data);
    const hide = data.lastIndexOf("\x1b[?25l");
    const show = data.lastIndexOf("\x1b[?25h");
    if (hide !== show) this.cursorVisible = show > hide;
    this.xterm.write(data);
  }

  /** Whether the last cursor visibility change written showed the cursor (xterm.js starts with it shown). */
  cursorVisible = true;

  /** Waits until the emulator has parsed every write so far (xterm.js parses writes in order). */
  flush(): Promise<void> {
    return new Promise<void>((resolve) => this.xterm.write("", resolve));
  }

  get columns(): number {
    return this.xterm.cols;
  }

  get rows(): number {
    return this.xterm.rows;
  }

  moveBy(lines: number): void {
    if (lines > 0) this.write(`\x1b[${lines}B`);
    else if (lines < 0) this.write(`\x1b[${-lines}A`);
  }

  hideCursor(): void {
    this.write("\x1b[?25l");
  }

  showCursor(): void {
    this.write("\x1b[?25h");
  }

  clearLine(): void {
    this.write("\x1b[K");
  }

  clearFromCursor(): void {
    this.write("\x1b[J");
  }

  clearScreen(): void {
    this.write("\x1b[2J\x1b[H");
  }

  setTitle(title: string): void {
    this.write(`\x1b]0;${title}\x07`);
  }

  setProgress(_active: boolean): void {}

  setProgramStatus(_status: ProgramStatus): void {}

  /** Delivers input as if typed. */
  sendInput(data: string): void {
    this.onInput?.(data);
  }

  /** Resizes the emulator and notifies the TUI. */
  async resize(columns: number, rows: number): Promise<void> {
    await this.flush();
    this.xterm.resize(columns, rows);
    this.onResize?.();
  }

  /** The visible rows as text (trailing spaces trimmed). */
  async viewport(): Promise<string[]> {
    await this.flush();
    const buffer = this.xterm.buffer.active;
    const lines: string[] = [];
    for (let y = 0; y < this.xterm.rows; y++) {
      lines.push(buffer.getLine(buffer.viewportY + y)?.translateToString(true) ?? "");
    }
    return lines;
  }

  /**
   * Scrollback and screen, every row as text with cell attributes, trailing blank rows dropped:
   * what a user could scroll through.
   */
  async styledBuffer(): Promise<string[]> {
    await this.flush();
    const buffer = this.xterm.buffer.active;
    const rows: string[] = [];
    for (let y = 0; y < buffer.length; y++) {
      const line = buffer.getLine(y);
      let text = "";
      if (line) {
        for (let x = 0; x < this.xterm.cols; x++) text += cellSignature(line.getCell(x));
      }
      rows.push(text.replace(/ +$/, ""));
    }
    while (rows.length > 0 && rows[rows.length - 1] === "") rows.pop();
    return rows;
  }

  /** The cursor on screen (zero-based column and row in the viewport). */
  async cursor(): Promise<{ x: number; y: number }> {
    await this.flush();
    const buffer = this.xterm.buffer.active;
    return { x: buffer.cursorX, y: buffer.cursorY + buffer.baseY - buffer.viewportY };
  }
}
