/**
 * Text selection of the fullscreen TUI as plain functions over lines: word and line ranges for
 * double and triple clicks, the ordered bounds of a drag, the selected text and its highlight.
 *
 * Points are content cells: inside a scroll view a row counts from the view's first content line,
 * so a selection survives scrolling; elsewhere rows are screen rows.
 *
 * @module
 */
import type { ScrollView } from "./components/scroll_view.ts";
import { isImageLine } from "./terminal_image.ts";
import {
  extractAnsiCode,
  getGraphemeCellRange,
  getWordSegmenter,
  sliceByColumn,
  stripTerminalSequences,
  visibleWidth,
} from "./utils_text.ts";

/** A selection end. `boundary` marks an end that lies between cells (a word's end) rather than on one. */
export interface SelectionPoint {
  /** Content (or screen) row. */
  row: number;
  /** Column. */
  col: number;
  /** The scroll view whose content the row indexes (none: the screen). */
  scrollView?: ScrollView;
  /** Whether the point lies between cells. */
  boundary?: boolean;
}

/** A selection from `start` to `end` (in reading order). */
export interface SelectionRange {
  /** Where the selection starts. */
  start: SelectionPoint;
  /** Where it ends. */
  end: SelectionPoint;
}

/**
 * Fullscreen owns mouse selection (in the regular mode the terminal does it), so it copies iTerm2's
 * default "characters considered part of a word" set:
 * https://github.com/gnachman/iTerm2/blob/7f4ff739721f95d0b93003d8701c4523a7edf261/sources/Settings/iTermPreferences.m#L743
 */
const WORD_JOINERS = new Set(["/", "-", "+", "\\", "~", "_", "."]);

interface WordCell {
  start: number;
  end: number;
  selectable: boolean;
  joiner: boolean;
}

/** The word (paths and dotted names included) under `point` in `sourceLine`, or undefined off the text. */
export function getWordSelection(sourceLine: string, point: SelectionPoint): SelectionRange | undefined {
  const line = stripTerminalSequences(sourceLine);
  const cells: WordCell[] = [];
  let start = 0;
  for (const segment of getWordSegmenter().segment(line)) {
    const end = start + visibleWidth(segment.segment);
    const joiner = WORD_JOINERS.has(segment.segment);
    cells.push({ start, end, selectable: segment.isWordLike === true || joiner, joiner });
    start = end;
  }
  const clicked = cells.findIndex((cell) => point.col >= cell.start && point.col < cell.end);
  if (clicked < 0) return undefined;
  const joins = (left: WordCell, right: WordCell) =>
    left.selectable && right.selectable && (left.joiner || right.joiner);
  let first = clicked;
  while (first > 0 && joins(cells[first - 1], cells[first])) first--;
  let last = clicked;
  while (last < cells.length - 1 && joins(cells[last], cells[last + 1])) last++;
  return {
    start: { ...point, col: cells[first].start },
    end: { ...point, col: cells[last].end, boundary: true },
  };
}

/** The whole line under `point`. */
export function getLineSelection(sourceLine: string, point: SelectionPoint): SelectionRange {
  return {
    start: { ...point, col: 0 },
    end: { ...point, col: visibleWidth(sourceLine), boundary: true },
  };
}

/** Anchor and focus in reading order, or undefined when they coincide or lie in different views. */
export function getSelectionBounds(
  anchor: SelectionPoint | undefined,
  focus: SelectionPoint | undefined,
): SelectionRange | undefined {
  if (!anchor || !focus || anchor.scrollView !== focus.scrollView) return undefined;
  if (anchor.row === focus.row && anchor.col === focus.col) return undefined;
  const anchorFirst = anchor.row < focus.row || (anchor.row === focus.row && anchor.col < focus.col);
  return anchorFirst ? { start: anchor, end: focus } : { start: focus, end: anchor };
}

/**
 * The selected columns of `line` (row `row`) as [start, end), widened to whole graphemes at the
 * ends and kept within [`minColumn`, `maxColumn`).
 */
export function getSelectionColumns(
  line: string,
  row: number,
  selection: SelectionRange,
  minColumn = 0,
  maxColumn: number = visibleWidth(line),
): { start: number; end: number } {
  const lineWidth = visibleWidth(line);
  let start = Math.max(0, minColumn);
  let end = Math.min(lineWidth, maxColumn);
  if (row === selection.start.row) {
    start = getGraphemeCellRange(line, selection.start.col)?.start ??
      Math.min(selection.start.col, lineWidth);
  }
  if (row === selection.end.row) {
    end = selection.end.boundary
      ? Math.min(selection.end.col, lineWidth)
      : getGraphemeCellRange(line, selection.end.col)?.end ?? Math.min(selection.end.col + 1, lineWidth);
  }
  return { start: Math.max(minColumn, start), end: Math.min(maxColumn, end) };
}

/** The plain text of `selection` in `sourceLines`, trailing blanks of each row dropped. */
export function getSelectionText(
  sourceLines: readonly string[],
  selection: SelectionRange,
): string | undefined {
  const rows: string[] = [];
  for (let row = selection.start.row; row <= selection.end.row; row++) {
    const line = sourceLines[row] ?? "";
    const columns = getSelectionColumns(line, row, selection);
    const slice = sliceByColumn(line, columns.start, Math.max(0, columns.end - columns.start), true);
    rows.push(stripTerminalSequences(slice).trimEnd());
  }
  const text = rows.join("\n");
  return text.length === 0 ? undefined : text;
}

/** `text` in reverse video; reverse is re-applied after each SGR inside, which could reset it. */
function reverseVideo(text: string): string {
  let result = "\x1b[7m";
  let index = 0;
  while (index < text.length) {
    const ansi = extractAnsiCode(text, index);
    if (!ansi) {
      result += text[index];
      index += 1;
      continue;
    }
    result += ansi.code;
    if (ansi.code.endsWith("m")) result += "\x1b[7m";
    index += ansi.length;
  }
  return `${result}\x1b[27m`;
}

/** Screen rows and columns a highlight may touch (a scroll view's visible part, or the screen). */
export interface SelectionArea {
  /** First row. */
  minRow: number;
  /** Last row. */
  maxRow: number;
  /** First column. */
  minColumn: number;
  /** Column after the last. */
  maxColumn: number;
}

/** `screen` with `selection` (in screen cells) shown in reverse video within `area`. */
export function highlightSelection(
  screen: string[],
  selection: SelectionRange,
  area: SelectionArea,
): string[] {
  return screen.map((line, row) => {
    if (
      row < area.minRow || row > area.maxRow || row < selection.start.row || row > selection.end.row ||
      isImageLine(line)
    ) {
      return line;
    }
    const lineWidth = visibleWidth(line);
    const columns = getSelectionColumns(line, row, selection, area.minColumn, area.maxColumn);
    if (columns.end <= columns.start) return line;
    const before = sliceByColumn(line, 0, columns.start, true);
    const selected = sliceByColumn(line, columns.start, columns.end - columns.start, true);
    const after = sliceByColumn(line, columns.end, Math.max(0, lineWidth - columns.end), true);
    return `${before}${reverseVideo(selected)}${after}`;
  });
}
