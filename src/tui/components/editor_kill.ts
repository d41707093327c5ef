/**
 * Emacs-style kills and yanks of the Editor. Consecutive kills accumulate into one kill-ring entry
 * (backward kills prepend, forward kills append); a kill across a line end kills the newline.
 *
 * @module
 */
import type { EditorModel } from "./editor_model.ts";
import { wordBackwardCol, wordForwardCol } from "./editor_motion.ts";

/** Records killed text, joining it to the previous entry when the last action was a kill too. */
function kill(m: EditorModel, text: string, backward: boolean, accumulate = m.lastAction === "kill"): void {
  m.killRing.push(text, { prepend: backward, accumulate });
  m.lastAction = "kill";
}

/** ctrl+u: kills from the line start to the cursor, or the newline before it at column 0. */
export function killToLineStart(m: EditorModel): void {
  m.exitHistoryBrowsing();
  const line = m.currentLine();
  if (m.state.cursorCol > 0) {
    m.pushUndoSnapshot();
    kill(m, line.slice(0, m.state.cursorCol), true);
    m.state.lines[m.state.cursorLine] = line.slice(m.state.cursorCol);
    m.setCursorCol(0);
  } else if (m.state.cursorLine > 0) {
    m.pushUndoSnapshot();
    kill(m, "\n", true);
    m.joinWithPreviousLine();
  }
  m.notifyChange();
}

/** ctrl+k: kills from the cursor to the line end, or the newline after it at the end. */
export function killToLineEnd(m: EditorModel): void {
  m.exitHistoryBrowsing();
  const line = m.currentLine();
  if (m.state.cursorCol < line.length) {
    m.pushUndoSnapshot();
    kill(m, line.slice(m.state.cursorCol), false);
    m.state.lines[m.state.cursorLine] = line.slice(0, m.state.cursorCol);
  } else if (m.state.cursorLine < m.state.lines.length - 1) {
    m.pushUndoSnapshot();
    kill(m, "\n", false);
    m.joinWithNextLine();
  }
  m.notifyChange();
}

/** ctrl+w / alt+backspace: kills the word before the cursor, or the newline before it at column 0. */
export function killWordBackward(m: EditorModel): void {
  m.exitHistoryBrowsing();
  const line = m.currentLine();
  if (m.state.cursorCol === 0) {
    if (m.state.cursorLine > 0) {
      m.pushUndoSnapshot();
      kill(m, "\n", true);
      m.joinWithPreviousLine();
    }
  } else {
    m.pushUndoSnapshot();
    const accumulate = m.lastAction === "kill";
    const from = wordBackwardCol(m, line);
    kill(m, line.slice(from, m.state.cursorCol), true, accumulate);
    m.state.lines[m.state.cursorLine] = line.slice(0, from) + line.slice(m.state.cursorCol);
    m.setCursorCol(from);
  }
  m.notifyChange();
}

/** alt+d: kills the word after the cursor, or the newline after it at the line end. */
export function killWordForward(m: EditorModel): void {
  m.exitHistoryBrowsing();
  const line = m.currentLine();
  if (m.state.cursorCol >= line.length) {
    if (m.state.cursorLine < m.state.lines.length - 1) {
      m.pushUndoSnapshot();
      kill(m, "\n", false);
      m.joinWithNextLine();
    }
  } else {
    m.pushUndoSnapshot();
    const accumulate = m.lastAction === "kill";
    const to = wordForwardCol(m, line);
    kill(m, line.slice(m.state.cursorCol, to), false, accumulate);
    m.state.lines[m.state.cursorLine] = line.slice(0, m.state.cursorCol) + line.slice(to);
    // The cursor stays, but like every horizontal edit it drops the sticky column.
    m.setCursorCol(m.state.cursorCol);
  }
  m.notifyChange();
}

/** Inserts killed text (maybe several lines) at the cursor. */
function insertYanked(m: EditorModel, text: string): void {
  m.exitHistoryBrowsing();
  m.spliceAtCursor(text);
  m.notifyChange();
}

/** Removes the text the last yank inserted (the newest ring entry, ending at the cursor). */
function removeYanked(m: EditorModel): void {
  const yanked = m.killRing.peek();
  if (!yanked) return;
  const parts = yanked.split("\n");
  if (parts.length === 1) {
    const line = m.currentLine();
    m.state.lines[m.state.cursorLine] = line.slice(0, m.state.cursorCol - yanked.length) +
      line.slice(m.state.cursorCol);
    m.setCursorCol(m.state.cursorCol - yanked.length);
  } else {
    const startLine = m.state.cursorLine - (parts.length - 1);
    const startCol = (m.state.lines[startLine] || "").length - (parts[0] || "").length;
    const after = m.currentLine().slice(m.state.cursorCol);
    const before = (m.state.lines[startLine] || "").slice(0, startCol);
    m.state.lines.splice(startLine, parts.length, before + after);
    m.state.cursorLine = startLine;
    m.setCursorCol(startCol);
  }
  m.notifyChange();
}

/** ctrl+y: inserts the newest kill-ring entry. */
export function yank(m: EditorModel): void {
  if (m.killRing.length === 0) return;
  m.pushUndoSnapshot();
  insertYanked(m, m.killRing.peek()!);
  m.lastAction = "yank";
}

/** alt+y right after a yank: replaces the yanked text with the next older entry. */
export function yankPop(m: EditorModel): void {
  if (m.lastAction !== "yank" || m.killRing.length <= 1) return;
  m.pushUndoSnapshot();
  removeYanked(m);
  m.killRing.rotate();
  insertYanked(m, m.killRing.peek()!);
  m.lastAction = "yank";
}
