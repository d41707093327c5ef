/**
 * Terminal modes of the fullscreen TUI: the alternate screen, autowrap, mouse tracking and focus
 * reports, and the bytes that leave the alternate screen with the document printed on the main one.
 *
 * @module
 */
import { readEnv } from "../util/env.ts";
import { BEGIN_SYNCHRONIZED_OUTPUT, END_SYNCHRONIZED_OUTPUT } from "./alt_screen_frame.ts";

/** Switch to the alternate screen (saving the cursor; xterm mode 1049). */
export const ENTER_ALT_SCREEN = "\x1b[?1049h";
/** Back to the main screen. */
export const EXIT_ALT_SCREEN = "\x1b[?1049l";
/** Writing past the last column stays on the row (frames are cut to the width anyway). */
export const DISABLE_AUTOWRAP = "\x1b[?7l";
/** The terminal's default: wrap at the last column. */
export const ENABLE_AUTOWRAP = "\x1b[?7h";
/** Clicks, motion with a button down, focus reports, SGR coordinates. */
const ENABLE_BUTTON_MOTION_MOUSE = "\x1b[?1000h\x1b[?1002h\x1b[?1004h\x1b[?1006h";
/** As above plus all pointer motion (for hover). */
const ENABLE_ALL_MOTION_MOUSE = "\x1b[?1000h\x1b[?1002h\x1b[?1003h\x1b[?1004h\x1b[?1006h";
/** Every mouse mode either sequence enables, off. */
export const DISABLE_MOUSE = "\x1b[?1006l\x1b[?1004l\x1b[?1003l\x1b[?1002l\x1b[?1000l";
/** Focus report: the terminal window gained focus. */
export const FOCUS_IN = "\x1b[I";
/** Focus report: the terminal window lost focus. */
export const FOCUS_OUT = "\x1b[O";

/** Whether pointer motion should be reported only with a button down: multiplexers lag on every move. */
function prefersButtonMotion(): boolean {
  const term = readEnv("TERM")?.toLowerCase() ?? "";
  return readEnv("TMUX") !== undefined || readEnv("ZELLIJ") !== undefined || readEnv("STY") !== undefined ||
    term.startsWith("tmux") || term.startsWith("screen");
}

/** The mouse tracking to enable: button motion under multiplexers, all motion elsewhere. */
export function mouseTrackingSequence(): string {
  return prefersButtonMotion() ? ENABLE_BUTTON_MOTION_MOUSE : ENABLE_ALL_MOTION_MOUSE;
}

/**
 * Leaves the alternate screen and prints `lines` (the whole document, already cut to the width) on
 * the main screen, so the session stays in the terminal's scrollback.
 */
export function exitWithDocument(lines: readonly string[]): string {
  let buffer = `${BEGIN_SYNCHRONIZED_OUTPUT}${EXIT_ALT_SCREEN}${DISABLE_AUTOWRAP}`;
  for (let row = 0; row < lines.length; row++) {
    if (row > 0) buffer += "\r\n";
    buffer += `\r\x1b[2K${lines[row] ?? ""}`;
  }
  return buffer + `\x1b[0m${ENABLE_AUTOWRAP}\r\n\x1b[?25h${END_SYNCHRONIZED_OUTPUT}`;
}
