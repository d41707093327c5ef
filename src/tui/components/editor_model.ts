/**
 * The Editor's editable state and the primitives every edit shares: the lines and cursor, stored
 * pastes, undo snapshots, the kill ring, history browsing and the sticky column of vertical moves.
 * The edit, kill and motion modules work on one of these; the Editor class owns it.
 *
 * @module
 */
import { KillRing } from "../kill_ring.ts";
import { UndoStack } from "../undo_stack.ts";
import { getGraphemeSegmenter, getWordSegmenter } from "../utils_text.ts";
import { segmentWithMarkers } from "./editor_paste.ts";
import { type LineChunker, WrapCache } from "./editor_wrap.ts";

/** The text as logical lines and the cursor in them (column in UTF-16 units). */
export interface EditorState {
  /** The logical lines (never empty: an empty text is one empty line). */
  lines: string[];
  /** The cursor's line. */
  cursorLine: number;
  /** The cursor's column in its line. */
  cursorCol: number;
}

/** What undo restores: the text, the cursor and the stored pastes. */
interface EditorSnapshot {
  state: EditorState;
  pastes: Map<number, string>;
  pasteCounter: number;
}

/** The last edit, for undo coalescing of typed words and for kill accumulation and yank-pop. */
export type EditorLastAction = "kill" | "yank" | "type-word" | null;

/** Text made of printable ASCII only (each character a grapheme). */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** The most prompts history keeps. */
const HISTORY_LIMIT = 100;

/** Normalises text for storage: CRLF and CR become LF, a tab becomes four spaces. */
export function normalizeEditorText(text: string): string {
  return text.replace(/\r\n/g, "\n").replace(/\r/g, "\n").replace(/\t/g, "    ");
}

/** The Editor's mutable state (see the module comment). */
export class EditorModel {
  /** The text and cursor. */
  state: EditorState = { lines: [""], cursorLine: 0, cursorCol: 0 };
  /** Large pastes by id, standing in the text as `[paste #id …]` markers. */
  pastes: Map<number, string> = new Map();
  /** The id of the newest stored paste. */
  pasteCounter = 0;
  /** Killed text for yanks. */
  killRing: KillRing = new KillRing();
  /** What the last edit was (see {@link EditorLastAction}). */
  lastAction: EditorLastAction = null;
  /** Snapshots for undo. */
  undoStack: UndoStack<EditorSnapshot> = new UndoStack();
  /** Sticky visual column kept while moving up/down through shorter lines. */
  preferredVisualCol: number | null = null;
  /** Where the cursor was before a vertical move snapped it to the start of a paste marker. */
  snappedFromCursorCol: number | null = null;
  /** Submitted prompts, newest first. */
  history: string[] = [];
  /** -1 while not browsing, else the index into history shown. */
  historyIndex: number = -1;
  /** The text being written when history browsing began, restored when browsing back past it. */
  historyDraft: EditorState | null = null;
  /** First visual line shown. */
  scrollOffset = 0;
  /** The wrap width of the last render (cursor moves must wrap as it was drawn). */
  lastWidth = 80;
  #wrapCache = new WrapCache();

  /**
   * Empty state.
   *
   * @param notifyChange called after every change of the text (the Editor's onChange)
   */
  constructor(readonly notifyChange: () => void) {}

  /** The text joined with newlines. */
  text(): string {
    return this.state.lines.join("\n");
  }

  /** The line under the cursor. */
  currentLine(): string {
    return this.state.lines[this.state.cursorLine] || "";
  }

  /** Text of the cursor's line before the cursor. */
  textBeforeCursor(): string {
    return this.currentLine().slice(0, this.state.cursorCol);
  }

  /** Segments with stored paste markers merged into single units. */
  segment(text: string, mode: "grapheme" | "word" = "grapheme"): Iterable<Intl.SegmentData> {
    if (mode === "grapheme" && PRINTABLE_ASCII.test(text) && !text.includes("[paste #")) {
      // Each printable ASCII character is a grapheme of its own: no need for ICU's segmenter,
      // which is most of the cost of a keystroke in a long line.
      return Array.from(text, (segment, index) => ({ segment, index, input: text }));
    }
    const base = mode === "word" ? getWordSegmenter() : getGraphemeSegmenter();
    return segmentWithMarkers(text, base, new Set(this.pastes.keys()));
  }

  /** Wraps lines at `width` the way they are drawn (paste markers stay whole), remembering unchanged lines. */
  chunker(width: number): LineChunker {
    return this.#wrapCache.chunker(
      this.state.lines,
      width,
      [...this.pastes.keys()].join(","),
      (line) => this.segment(line),
    );
  }

  /** Sets the column for any move that is not vertical, dropping the sticky column. */
  setCursorCol(col: number): void {
    this.state.cursorCol = col;
    this.preferredVisualCol = null;
    this.snappedFromCursorCol = null;
  }

  /** Records the present text, cursor and pastes for undo. */
  pushUndoSnapshot(): void {
    this.undoStack.push({ state: this.state, pastes: this.pastes, pasteCounter: this.pasteCounter });
  }

  /** Restores the last snapshot, if any. */
  undo(): void {
    this.exitHistoryBrowsing();
    const snapshot = this.undoStack.pop();
    if (!snapshot) return;
    Object.assign(this.state, snapshot.state);
    this.pastes = snapshot.pastes;
    this.pasteCounter = snapshot.pasteCounter;
    this.lastAction = null;
    this.preferredVisualCol = null;
    this.notifyChange();
  }

  /** Leaves history browsing without touching the text. */
  exitHistoryBrowsing(): void {
    this.historyIndex = -1;
    this.historyDraft = null;
  }

  /** Adds a submitted prompt to history (trimmed; not empty; no consecutive duplicate). */
  addToHistory(text: string): void {
    const trimmed = text.trim();
    if (!trimmed || this.history[0] === trimmed) return;
    this.history.unshift(trimmed);
    if (this.history.length > HISTORY_LIMIT) this.history.pop();
  }

  /** Replaces the text (history browsing stays as it is), cursor at its start or end. */
  setTextInternal(text: string, placement: "start" | "end" = "end"): void {
    const lines = text.split("\n");
    this.state.lines = lines.length === 0 ? [""] : lines;
    this.state.cursorLine = placement === "start" ? 0 : this.state.lines.length - 1;
    this.setCursorCol(placement === "start" ? 0 : this.state.lines[this.state.cursorLine]?.length || 0);
    this.scrollOffset = 0;
    this.notifyChange();
  }

  /** Inserts text (normalised; may hold newlines) at the cursor, without an undo snapshot. */
  insertTextAtCursorInternal(text: string): void {
    if (!text) return;
    this.spliceAtCursor(normalizeEditorText(text));
    this.notifyChange();
  }

  /** Puts text as it is (may hold newlines) at the cursor; the cursor ends after it. */
  spliceAtCursor(text: string): void {
    const parts = text.split("\n");
    const line = this.currentLine();
    const before = line.slice(0, this.state.cursorCol);
    const after = line.slice(this.state.cursorCol);
    if (parts.length === 1) {
      this.state.lines[this.state.cursorLine] = before + text + after;
      this.setCursorCol(this.state.cursorCol + text.length);
      return;
    }
    const last = parts[parts.length - 1];
    this.state.lines.splice(this.state.cursorLine, 1, before + parts[0], ...parts.slice(1, -1), last + after);
    this.state.cursorLine += parts.length - 1;
    this.setCursorCol(last.length);
  }

  /** Joins the cursor's line onto the previous one; the cursor goes to the join. */
  joinWithPreviousLine(): void {
    const { lines, cursorLine } = this.state;
    const previous = lines[cursorLine - 1] || "";
    lines[cursorLine - 1] = previous + (lines[cursorLine] || "");
    lines.splice(cursorLine, 1);
    this.state.cursorLine--;
    this.setCursorCol(previous.length);
  }

  /** Joins the next line onto the cursor's line; the cursor stays. */
  joinWithNextLine(): void {
    const { lines, cursorLine } = this.state;
    lines[cursorLine] = (lines[cursorLine] || "") + (lines[cursorLine + 1] || "");
    lines.splice(cursorLine + 1, 1);
  }
}
