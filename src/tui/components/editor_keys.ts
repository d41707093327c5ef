/**
 * Which raw inputs the Editor takes as a new line, and when plain Enter after a backslash submits.
 *
 * @module
 */
import type { KeybindingsManager } from "../keybindings.ts";
import { matchesKey } from "../keys.ts";
import type { EditorModel } from "./editor_model.ts";

/**
 * shift+enter and ctrl+j (the `tui.input.newLine` keys), and the raw forms terminals without a
 * distinct shift+enter send: LF-led chunks, ESC CR, `CSI 13;2~`, any chunk with both ESC and CR.
 */
export function isNewLineKey(data: string, kb: KeybindingsManager): boolean {
  return kb.matches(data, "tui.input.newLine") ||
    (data.charCodeAt(0) === 10 && data.length > 1) ||
    data === "\x1b\r" ||
    data === "\x1b[13;2~" ||
    (data.length > 1 && data.includes("\x1b") && data.includes("\r")) ||
    data === "\n";
}

/**
 * With shift+enter bound to submit (so Enter makes new lines), Enter right after a backslash
 * submits instead, dropping the backslash: the escape hatch of terminals that cannot send shift+enter.
 */
export function submitsOnBackslashEnter(data: string, kb: KeybindingsManager, m: EditorModel): boolean {
  if (!matchesKey(data, "enter")) return false;
  const keys = kb.getKeys("tui.input.submit");
  if (!keys.includes("shift+enter") && !keys.includes("shift+return")) return false;
  return m.state.cursorCol > 0 && m.currentLine()[m.state.cursorCol - 1] === "\\";
}
