/**
 * Text edits of the Editor: typing, pasting, new lines and single-grapheme deletes. Each takes the
 * undo snapshot it needs and reports the change; autocomplete reactions stay with the Editor.
 *
 * @module
 */
import { isWhitespaceChar } from "../utils_text.ts";
import type { EditorModel } from "./editor_model.ts";
import { normalizeEditorText } from "./editor_model.ts";
import { isLargePaste, PASTE_MARKER_SINGLE, pasteMarkerFor, removePasteAndRenumber } from "./editor_paste.ts";

/**
 * Types one character (or a decoded key's text) at the cursor. Undo coalesces like fish: a run of
 * word characters is one unit, and each whitespace starts a new one (so undo removes the space with
 * the word after it).
 */
export function typeCharacter(m: EditorModel, char: string, skipUndoCoalescing = false): void {
  m.exitHistoryBrowsing();
  if (!skipUndoCoalescing) {
    if (isWhitespaceChar(char) || m.lastAction !== "type-word") m.pushUndoSnapshot();
    m.lastAction = "type-word";
  }
  const line = m.currentLine();
  m.state.lines[m.state.cursorLine] = line.slice(0, m.state.cursorCol) + char + line.slice(m.state.cursorCol);
  m.setCursorCol(m.state.cursorCol + char.length);
  m.notifyChange();
}

/** Turns CSI-u Ctrl+letter sequences some terminals put inside a paste back into their control byte. */
function decodeCsiUControls(text: string): string {
  // deno-lint-ignore no-control-regex -- the ESC of a CSI sequence is what is matched
  return text.replace(/\x1b\[(\d+);5u/g, (whole, code: string) => {
    const cp = Number(code);
    if (cp >= 97 && cp <= 122) return String.fromCharCode(cp - 96);
    if (cp >= 65 && cp <= 90) return String.fromCharCode(cp - 64);
    return whole;
  });
}

/**
 * Inserts a bracketed paste: control characters other than newline are dropped, a path pasted right
 * after a word gets a separating space, and a large paste is stored aside behind a marker.
 */
export function pasteText(m: EditorModel, pasted: string): void {
  m.exitHistoryBrowsing();
  m.lastAction = null;
  m.pushUndoSnapshot();
  let text = normalizeEditorText(decodeCsiUControls(pasted))
    .split("")
    .filter((ch) => ch === "\n" || ch.charCodeAt(0) >= 32)
    .join("");
  if (/^[/~.]/.test(text)) {
    const before = m.state.cursorCol > 0 ? m.currentLine()[m.state.cursorCol - 1] : "";
    if (before && /\w/.test(before)) text = ` ${text}`;
  }
  if (isLargePaste(text)) {
    const id = ++m.pasteCounter;
    m.pastes.set(id, text);
    m.insertTextAtCursorInternal(pasteMarkerFor(id, text));
    return;
  }
  m.insertTextAtCursorInternal(text);
}

/** Splits the line at the cursor; the cursor goes to the start of the new line. */
export function newLine(m: EditorModel): void {
  m.exitHistoryBrowsing();
  m.lastAction = null;
  m.pushUndoSnapshot();
  const line = m.currentLine();
  m.state.lines[m.state.cursorLine] = line.slice(0, m.state.cursorCol);
  m.state.lines.splice(m.state.cursorLine + 1, 0, line.slice(m.state.cursorCol));
  m.state.cursorLine++;
  m.setCursorCol(0);
  m.notifyChange();
}

/**
 * Deletes the grapheme before the cursor (a whole paste marker, whose paste is then forgotten and
 * later markers renumbered), or joins with the previous line at column 0.
 */
export function deleteBackward(m: EditorModel): void {
  m.exitHistoryBrowsing();
  m.lastAction = null;
  if (m.state.cursorCol > 0) {
    m.pushUndoSnapshot();
    const graphemes = [...m.segment(m.textBeforeCursor())];
    const last = graphemes[graphemes.length - 1];
    const length = last ? last.segment.length : 1;
    const marker = PASTE_MARKER_SINGLE.exec(last.segment);
    if (marker) {
      m.state.lines = removePasteAndRenumber(m.state.lines, m.pastes, Number(marker[1]));
      m.pasteCounter--;
    }
    const line = m.currentLine();
    m.state.lines[m.state.cursorLine] = line.slice(0, m.state.cursorCol - length) +
      line.slice(m.state.cursorCol);
    m.setCursorCol(m.state.cursorCol - length);
  } else if (m.state.cursorLine > 0) {
    m.pushUndoSnapshot();
    m.joinWithPreviousLine();
  }
  m.notifyChange();
}

/** Deletes the grapheme under the cursor, or joins the next line at the end of a line. */
export function deleteForward(m: EditorModel): void {
  m.exitHistoryBrowsing();
  m.lastAction = null;
  const line = m.currentLine();
  if (m.state.cursorCol < line.length) {
    m.pushUndoSnapshot();
    const first = [...m.segment(line.slice(m.state.cursorCol))][0];
    const length = first ? first.segment.length : 1;
    m.state.lines[m.state.cursorLine] = line.slice(0, m.state.cursorCol) +
      line.slice(m.state.cursorCol + length);
  } else if (m.state.cursorLine < m.state.lines.length - 1) {
    m.pushUndoSnapshot();
    m.joinWithNextLine();
  }
  m.notifyChange();
}
