/**
 * The `Terminal` interface: what a TUI needs of a terminal. `ProcessTerminal` implements it on the
 * process's own TTY; tests implement it over a virtual terminal.
 *
 * @module
 */
import type { ProgramStatus } from "./program_status.ts";

/** Minimal terminal interface for TUI */
export interface Terminal {
  /** Starts delivering input and resize notices. */
  start(onInput: (data: string) => void, onResize: () => void): void;
  /** Stops input and restores the modes start() changed. */
  stop(): void;
  /**
   * Synchronously restore terminal modes from a process `exit` handler when stop() did not run.
   * Writes `before`, then this terminal's own mode resets, then `after`.
   */
  restoreOnExit?(before: string, after: string): void;
  /**
   * Drain stdin before exiting to prevent Kitty key release events from
   * leaking to the parent shell over slow SSH connections.
   * @param maxMs - Maximum time to drain (default: 1000ms)
   * @param idleMs - Exit early if no input arrives within this time (default: 50ms)
   */
  drainInput(maxMs?: number, idleMs?: number): Promise<void>;
  /** Writes output to the terminal. */
  write(data: string): void;
  /** Width in columns. */
  get columns(): number;
  /** Height in rows. */
  get rows(): number;
  /** Whether the Kitty keyboard protocol is on. */
  get kittyProtocolActive(): boolean;
  /** Moves the cursor down (positive) or up (negative). */
  moveBy(lines: number): void;
  /** Hides the cursor. */
  hideCursor(): void;
  /** Shows the cursor. */
  showCursor(): void;
  /** Clears from the cursor to the end of the line. */
  clearLine(): void;
  /** Clears from the cursor to the end of the screen. */
  clearFromCursor(): void;
  /** Clears the screen and moves the cursor home. */
  clearScreen(): void;
  /** Sets the window title (OSC 0). */
  setTitle(title: string): void;
  /** Shows or clears indeterminate progress (OSC 9;4). */
  setProgress(active: boolean): void;
  /**
   * Report what the program is doing (OSC 7501). Sent only to terminals that support it; the latest
   * status is re-sent when support is confirmed or the terminal restarts.
   */
  setProgramStatus(status: ProgramStatus): void;
}
