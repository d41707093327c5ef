/**
 * Cursor motion in the Editor: graphemes, words, line ends, visual lines with a sticky column,
 * pages, character jumps, and browsing the prompt history.
 *
 * @module
 */
import { visibleWidth } from "../utils_text.ts";
import { findWordBackward, findWordForward } from "../word_navigation.ts";
import type { EditorModel } from "./editor_model.ts";
import { isPasteMarker } from "./editor_paste.ts";
import { buildVisualLineMap, findVisualLineAt, isLastSegmentOfLine, type VisualLine } from "./editor_wrap.ts";

/** The visual lines of the model's text at the width it was last drawn with. */
export function visualLinesOf(m: EditorModel): VisualLine[] {
  return buildVisualLineMap(m.state.lines, m.chunker(m.lastWidth));
}

/** Index of the visual line holding the cursor. */
export function currentVisualLine(m: EditorModel, visual: readonly VisualLine[]): number {
  return findVisualLineAt(visual, m.state.cursorLine, m.state.cursorCol);
}

/** Whether the cursor is on the first (edge = -1) or last (edge = 1) visual line. */
export function isOnVisualEdge(m: EditorModel, edge: -1 | 1): boolean {
  const visual = visualLinesOf(m);
  const index = currentVisualLine(m, visual);
  return edge < 0 ? index === 0 : index === visual.length - 1;
}

const wordOptions = (m: EditorModel) => ({
  segment: (text: string) => m.segment(text, "word"),
  isAtomicSegment: isPasteMarker,
});

/** The column one word back from the cursor in `line` (paste markers are one word). */
export function wordBackwardCol(m: EditorModel, line: string): number {
  return findWordBackward(line, m.state.cursorCol, wordOptions(m));
}

/** The column one word on from the cursor in `line`. */
export function wordForwardCol(m: EditorModel, line: string): number {
  return findWordForward(line, m.state.cursorCol, wordOptions(m));
}

/** One word back; from column 0 to the end of the previous line. */
export function moveWordBackward(m: EditorModel): void {
  m.lastAction = null;
  if (m.state.cursorCol === 0) {
    if (m.state.cursorLine > 0) {
      m.state.cursorLine--;
      m.setCursorCol(m.currentLine().length);
    }
    return;
  }
  m.setCursorCol(wordBackwardCol(m, m.currentLine()));
}

/** One word on; from a line end to the start of the next line. */
export function moveWordForward(m: EditorModel): void {
  m.lastAction = null;
  const line = m.currentLine();
  if (m.state.cursorCol >= line.length) {
    if (m.state.cursorLine < m.state.lines.length - 1) {
      m.state.cursorLine++;
      m.setCursorCol(0);
    }
    return;
  }
  m.setCursorCol(wordForwardCol(m, line));
}

/** To the start (0) or end of the cursor's line. */
export function moveToLineEdge(m: EditorModel, end: boolean): void {
  m.lastAction = null;
  m.setCursorCol(end ? m.currentLine().length : 0);
}

/**
 * The visual column to land on after a vertical move, by the sticky-column rules: a column that
 * does not fit the target line is remembered and restored on a later line that is long enough; a
 * cursor in the middle of its line (not clamped to the end) starts afresh.
 */
function verticalMoveColumn(m: EditorModel, col: number, sourceMax: number, targetMax: number): number {
  const tooShort = targetMax < col;
  if (m.preferredVisualCol === null || col < sourceMax) {
    m.preferredVisualCol = tooShort ? col : null;
    return tooShort ? targetMax : col;
  }
  if (tooShort || targetMax < m.preferredVisualCol) return targetMax;
  const preferred = m.preferredVisualCol;
  m.preferredVisualCol = null;
  return preferred;
}

/** Moves to visual line `target`, keeping the column sticky and never landing inside a paste marker. */
function moveToVisualLine(m: EditorModel, visual: readonly VisualLine[], from: number, target: number): void {
  const source = visual[from];
  const dest = visual[target];
  if (!(source && dest)) return;
  // A cursor snapped to a marker's start remembers where it would have been; measure from there.
  const col = m.snappedFromCursorCol !== null
    ? m.snappedFromCursorCol -
      visual[findVisualLineAt(visual, source.logicalLine, m.snappedFromCursorCol)].startCol
    : m.state.cursorCol - source.startCol;
  // Only the last visual line of a logical line can hold the column just past its text.
  const sourceMax = isLastSegmentOfLine(visual, from) ? source.length : Math.max(0, source.length - 1);
  const targetMax = isLastSegmentOfLine(visual, target) ? dest.length : Math.max(0, dest.length - 1);
  const moveTo = verticalMoveColumn(m, col, sourceMax, targetMax);
  m.state.cursorLine = dest.logicalLine;
  const line = m.state.lines[dest.logicalLine] || "";
  m.state.cursorCol = Math.min(dest.startCol + moveTo, line.length);

  for (const seg of m.segment(line)) {
    if (seg.index > m.state.cursorCol) break;
    if (seg.segment.length <= 1 || m.state.cursorCol >= seg.index + seg.segment.length) continue;
    if (seg.index < dest.startCol && target > from) {
      // Moving down into the rest of a marker already passed: skip to the first line after it.
      const segEnd = seg.index + seg.segment.length;
      let next = target + 1;
      while (
        next < visual.length && visual[next].logicalLine === dest.logicalLine &&
        visual[next].startCol < segEnd
      ) {
        next++;
      }
      if (next < visual.length) {
        moveToVisualLine(m, visual, from, next);
        return;
      }
    }
    m.snappedFromCursorCol = m.state.cursorCol;
    m.state.cursorCol = seg.index;
    return;
  }
  m.snappedFromCursorCol = null;
}

/** Moves by visual lines (deltaLine) and/or graphemes (deltaCol, crossing line ends). */
export function moveCursor(m: EditorModel, deltaLine: number, deltaCol: number): void {
  m.lastAction = null;
  const visual = visualLinesOf(m);
  const from = currentVisualLine(m, visual);
  if (deltaLine !== 0) {
    const target = from + deltaLine;
    if (target >= 0 && target < visual.length) moveToVisualLine(m, visual, from, target);
  }
  if (deltaCol === 0) return;
  const line = m.currentLine();
  if (deltaCol > 0) {
    if (m.state.cursorCol < line.length) {
      const first = [...m.segment(line.slice(m.state.cursorCol))][0];
      m.setCursorCol(m.state.cursorCol + (first ? first.segment.length : 1));
    } else if (m.state.cursorLine < m.state.lines.length - 1) {
      m.state.cursorLine++;
      m.setCursorCol(0);
    } else if (visual[from]) {
      // Pressing right at the very end still sets the column a later up/down aims for.
      m.preferredVisualCol = m.state.cursorCol - visual[from].startCol;
    }
  } else if (m.state.cursorCol > 0) {
    const graphemes = [...m.segment(line.slice(0, m.state.cursorCol))];
    const last = graphemes[graphemes.length - 1];
    m.setCursorCol(m.state.cursorCol - (last ? last.segment.length : 1));
  } else if (m.state.cursorLine > 0) {
    m.state.cursorLine--;
    m.setCursorCol(m.currentLine().length);
  }
}

/**
 * Puts the cursor under a click at column `x` of visual line `index`: on the grapheme covering that
 * cell, at the line end past the text (or on the last grapheme of a wrapped piece, whose end is the
 * next piece's start). Returns false when there is no such visual line.
 */
export function placeCursorAtCell(m: EditorModel, index: number, x: number): boolean {
  const visual = visualLinesOf(m);
  const vl = visual[index];
  if (!vl) return false;
  const chunk = (m.state.lines[vl.logicalLine] ?? "").slice(vl.startCol, vl.startCol + vl.length);
  let column = 0;
  let hit = chunk.length;
  let lastIndex = 0;
  for (const g of m.segment(chunk)) {
    const next = column + visibleWidth(g.segment);
    lastIndex = g.index;
    if (x < next) {
      hit = g.index;
      break;
    }
    column = next;
  }
  if (!isLastSegmentOfLine(visual, index) && hit === chunk.length && chunk.length > 0) hit = lastIndex;
  m.state.cursorLine = vl.logicalLine;
  m.setCursorCol(vl.startCol + hit);
  return true;
}

/** Moves a page of visual lines (the editor's visible height) up (-1) or down (1). */
export function pageScroll(m: EditorModel, direction: -1 | 1, pageSize: number): void {
  m.lastAction = null;
  const visual = visualLinesOf(m);
  const from = currentVisualLine(m, visual);
  moveToVisualLine(m, visual, from, Math.max(0, Math.min(visual.length - 1, from + direction * pageSize)));
}

/** Jumps to the next (or previous) occurrence of `char`, across lines; stays when there is none. */
export function jumpToChar(m: EditorModel, char: string, direction: "forward" | "backward"): void {
  m.lastAction = null;
  const forward = direction === "forward";
  const lines = m.state.lines;
  for (let i = m.state.cursorLine; forward ? i < lines.length : i >= 0; i += forward ? 1 : -1) {
    const line = lines[i] || "";
    const from = i === m.state.cursorLine ? m.state.cursorCol + (forward ? 1 : -1) : undefined;
    const found = forward ? line.indexOf(char, from) : line.lastIndexOf(char, from);
    if (found !== -1) {
      m.state.cursorLine = i;
      m.setCursorCol(found);
      return;
    }
  }
}

/**
 * Browses history: -1 goes to an older entry, 1 to a newer one; past the newest the draft typed
 * before browsing comes back.
 */
export function navigateHistory(m: EditorModel, direction: -1 | 1): void {
  m.lastAction = null;
  if (m.history.length === 0) return;
  const index = m.historyIndex - direction;
  if (index < -1 || index >= m.history.length) return;
  if (m.historyIndex === -1 && index >= 0) {
    m.pushUndoSnapshot();
    m.historyDraft = structuredClone(m.state);
  }
  m.historyIndex = index;
  if (index >= 0) {
    m.setTextInternal(m.history[index] || "", direction === -1 ? "start" : "end");
    return;
  }
  const draft = m.historyDraft;
  m.historyDraft = null;
  if (!draft) {
    m.setTextInternal("");
    return;
  }
  m.state = draft;
  m.preferredVisualCol = null;
  m.snappedFromCursorCol = null;
  m.scrollOffset = 0;
  m.notifyChange();
}
