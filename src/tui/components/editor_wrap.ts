/**
 * Word wrapping of the Editor's logical lines into visual lines: the chunks a line is drawn in, the
 * map from visual lines back to logical positions (for cursor moves and clicks), and the layout the
 * renderer draws with the cursor position inside it.
 *
 * @module
 */
import { isCjkBreak } from "../utils_chars.ts";
import { getGraphemeSegmenter, isWhitespaceChar, visibleWidth } from "../utils_text.ts";
import { isPasteMarker } from "./editor_paste.ts";

/**
 * Represents a chunk of text for word-wrap layout.
 * Tracks both the text content and its position in the original line.
 */
export interface TextChunk {
  /** The chunk's text. */
  text: string;
  /** Where it starts in the line (UTF-16 units). */
  startIndex: number;
  /** Where it ends in the line; the next chunk starts here. */
  endIndex: number;
}

/**
 * Split a line into word-wrapped chunks.
 * Wraps at word boundaries when possible, falling back to character-level
 * wrapping for words longer than the available width.
 *
 * @param line - The text line to wrap
 * @param maxWidth - Maximum visible width per chunk
 * @param preSegmented - Optional pre-segmented graphemes (e.g. with paste-marker awareness).
 *                       When omitted the default Intl.Segmenter is used.
 * @returns Array of chunks with text and position information
 */
export function wordWrapLine(line: string, maxWidth: number, preSegmented?: Intl.SegmentData[]): TextChunk[] {
  if (!line || maxWidth <= 0) return [{ text: "", startIndex: 0, endIndex: 0 }];
  if (visibleWidth(line) <= maxWidth) return [{ text: line, startIndex: 0, endIndex: line.length }];

  const chunks: TextChunk[] = [];
  const segs = preSegmented ?? [...getGraphemeSegmenter().segment(line)];
  const cut = (start: number, end: number) =>
    chunks.push({ text: line.slice(start, end), startIndex: start, endIndex: end });
  let width = 0;
  let start = 0;
  // The last place a break is allowed (after whitespace before a word, or beside CJK), and the
  // width of the chunk up to it; -1 when there is none in the current chunk.
  let breakAt = -1;
  let breakWidth = 0;

  for (let i = 0; i < segs.length; i++) {
    const { segment: g, index } = segs[i];
    const gWidth = isPrintableAscii(g) ? 1 : visibleWidth(g);
    const marker = isPasteMarker(g);
    const ws = !marker && isWhitespaceChar(g);

    if (width + gWidth > maxWidth) {
      if (breakAt >= 0 && width - breakWidth + gWidth <= maxWidth) {
        // Breaking at the last opportunity leaves room for this grapheme on the next line.
        cut(start, breakAt);
        start = breakAt;
        width -= breakWidth;
      } else if (start < index) {
        // No useful opportunity (one long word, or a wide grapheme that still would not fit).
        cut(start, index);
        start = index;
        width = 0;
      }
      breakAt = -1;
    }

    if (gWidth > maxWidth && hasSeveralGraphemes(g)) {
      // An atomic segment wider than a whole line (a paste marker in a narrow editor) is drawn
      // over several lines; it stays one unit for editing. (A single grapheme wider than the line,
      // such as CJK at width 1, gets a line of its own instead: pi-tui recursed on it forever.)
      const pieces = wordWrapLine(g, maxWidth);
      for (const piece of pieces.slice(0, -1)) {
        chunks.push({
          text: piece.text,
          startIndex: index + piece.startIndex,
          endIndex: index + piece.endIndex,
        });
      }
      const last = pieces[pieces.length - 1];
      start = index + last.startIndex;
      width = visibleWidth(last.text);
      breakAt = -1;
      continue;
    }

    width += gWidth;
    const next = segs[i + 1];
    if (!next) continue;
    const nextMarker = isPasteMarker(next.segment);
    if (ws && (nextMarker || !isWhitespaceChar(next.segment))) {
      // Runs of spaces stay together: the break comes after the last one.
      breakAt = next.index;
      breakWidth = width;
    } else if (!ws && !isWhitespaceChar(next.segment)) {
      const cjkHere = !marker && isCjk(g);
      const cjkNext = !nextMarker && isCjk(next.segment);
      if (cjkHere || cjkNext) {
        breakAt = next.index;
        breakWidth = width;
      }
    }
  }
  cut(start, line.length);
  return chunks;
}

/** A printable ASCII character: one column wide and never CJK (the common case, measured cheaply). */
function isPrintableAscii(g: string): boolean {
  if (g.length !== 1) return false;
  const code = g.charCodeAt(0);
  return code >= 0x20 && code < 0x7f;
}

/** Whether a grapheme allows a line break beside it as CJK text does. */
function isCjk(g: string): boolean {
  return !isPrintableAscii(g) && isCjkBreak(g);
}

/** Whether a segment holds more than one grapheme (a merged paste marker). */
function hasSeveralGraphemes(segment: string): boolean {
  const it = getGraphemeSegmenter().segment(segment)[Symbol.iterator]();
  it.next();
  return !it.next().done;
}

/** One visual line: which logical line it shows and the slice of it (in UTF-16 units). */
export interface VisualLine {
  /** Index of the logical line. */
  logicalLine: number;
  /** Where the slice starts in it. */
  startCol: number;
  /** Length of the slice. */
  length: number;
}

/** How a line's graphemes are segmented (the Editor merges its paste markers). */
export type LineSegmenter = (line: string) => Iterable<Intl.SegmentData>;

/** The chunks a logical line is drawn in (one for a line that fits). */
export type LineChunker = (line: string) => TextChunk[];

/** Wraps one logical line at `width`: the whole line when it fits, else {@link wordWrapLine}. */
export function lineChunks(line: string, width: number, segment: LineSegmenter): TextChunk[] {
  if (visibleWidth(line) <= width) return [{ text: line, startIndex: 0, endIndex: line.length }];
  return wordWrapLine(line, width, [...segment(line)]);
}

/**
 * Remembers the chunks of lines at one width and set of paste markers, so a keystroke re-wraps only
 * the line it changed. Entries of lines no longer present are dropped as the text changes.
 */
export class WrapCache {
  #key = "";
  #chunks = new Map<string, TextChunk[]>();

  /** A chunker for `lines` at `width`; `key` names what else the wrapping depends on (paste ids). */
  chunker(lines: readonly string[], width: number, key: string, segment: LineSegmenter): LineChunker {
    const fullKey = `${width}|${key}`;
    if (fullKey !== this.#key || this.#chunks.size > lines.length * 2 + 64) {
      this.#key = fullKey;
      this.#chunks = new Map();
    }
    const cache = this.#chunks;
    return (line) => {
      let chunks = cache.get(line);
      if (!chunks) {
        chunks = lineChunks(line, width, segment);
        cache.set(line, chunks);
      }
      return chunks;
    };
  }
}

/** Maps every logical line to the visual lines it wraps into. */
export function buildVisualLineMap(lines: readonly string[], chunksOf: LineChunker): VisualLine[] {
  const visual: VisualLine[] = [];
  for (let i = 0; i < lines.length; i++) {
    for (const chunk of chunksOf(lines[i] || "")) {
      visual.push({ logicalLine: i, startCol: chunk.startIndex, length: chunk.endIndex - chunk.startIndex });
    }
  }
  return visual;
}

/** Whether visual line `i` is the last one of its logical line. */
export function isLastSegmentOfLine(visual: readonly VisualLine[], i: number): boolean {
  return i === visual.length - 1 || visual[i + 1]?.logicalLine !== visual[i].logicalLine;
}

/**
 * The visual line holding logical position (line, col). Only the last visual line of a logical line
 * may hold the position just past its end; the fallback is the last visual line.
 */
export function findVisualLineAt(visual: readonly VisualLine[], line: number, col: number): number {
  for (let i = 0; i < visual.length; i++) {
    const vl = visual[i];
    if (!vl || vl.logicalLine !== line) continue;
    const offset = col - vl.startCol;
    if (offset >= 0 && (offset < vl.length || (isLastSegmentOfLine(visual, i) && offset === vl.length))) {
      return i;
    }
  }
  return visual.length - 1;
}

/** A visual line as drawn: its text and, on the cursor's line, where the cursor sits in it. */
export interface LayoutLine {
  /** The visual line's text. */
  text: string;
  /** Whether the cursor is on it. */
  hasCursor: boolean;
  /** The cursor's offset in `text` when it is. */
  cursorPos?: number;
}

/** Lays out all lines and marks the visual line that holds the cursor. */
export function layoutEditorText(
  lines: readonly string[],
  cursorLine: number,
  cursorCol: number,
  chunksOf: LineChunker,
): LayoutLine[] {
  if (lines.length === 0 || (lines.length === 1 && lines[0] === "")) {
    return [{ text: "", hasCursor: true, cursorPos: 0 }];
  }
  const layout: LayoutLine[] = [];
  for (let i = 0; i < lines.length; i++) {
    const chunks = chunksOf(lines[i] || "");
    const current = i === cursorLine;
    chunks.forEach((chunk, index) => {
      let has = false;
      let pos = 0;
      if (current) {
        if (index === chunks.length - 1) {
          has = cursorCol >= chunk.startIndex;
          pos = cursorCol - chunk.startIndex;
        } else {
          // A chunk ends before the next one starts; the cursor at its end belongs to the next.
          has = cursorCol >= chunk.startIndex && cursorCol < chunk.endIndex;
          if (has) pos = Math.min(cursorCol - chunk.startIndex, chunk.text.length);
        }
      }
      layout.push(
        has ? { text: chunk.text, hasCursor: true, cursorPos: pos } : { text: chunk.text, hasCursor: false },
      );
    });
  }
  return layout;
}
