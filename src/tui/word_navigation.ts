/**
 * Word-wise cursor motion for the editor and input (Alt+←/→, Ctrl+W, Alt+D): a motion crosses the
 * whitespace next to the cursor, then one word, or one run of punctuation, or one atomic segment
 * such as a paste marker. Words come from Intl.Segmenter, so CJK text moves by dictionary words;
 * ASCII punctuation inside a segment the segmenter calls a word ("foo.bar") still stops the motion.
 *
 * @module
 */
import { isWhitespaceChar, PUNCTUATION_REGEX } from "./utils_chars.ts";
import { getWordSegmenter } from "./utils_graphemes.ts";

/**
 * Options for word navigation functions.
 * When omitted, uses the default Intl.Segmenter word segmentation.
 */
export interface WordNavigationOptions {
  /** Custom segmenter returning word segments for the given text. */
  segment?: (text: string) => Iterable<Intl.SegmentData>;
  /** Predicate identifying atomic segments that should be treated as single units (e.g. paste markers). */
  isAtomicSegment?: (segment: string) => boolean;
}

const PUNCTUATION_ALL = new RegExp(PUNCTUATION_REGEX.source, "g");

function segmentsOf(text: string, options: WordNavigationOptions | undefined): Iterable<Intl.SegmentData> {
  return options?.segment ? options.segment(text) : getWordSegmenter().segment(text);
}

/** The three kinds of segment a motion tells apart; `atomic` wins over the others. */
function kindOf(
  seg: Intl.SegmentData,
  options: WordNavigationOptions | undefined,
): "atomic" | "space" | "word" | "other" {
  if (options?.isAtomicSegment?.(seg.segment)) return "atomic";
  if (isWhitespaceChar(seg.segment)) return "space";
  return seg.isWordLike ? "word" : "other";
}

/**
 * Find the cursor position after moving one word backward from `cursor` in `text`.
 * Skips trailing whitespace, then stops at the next word/punctuation boundary.
 *
 * Pure function - does not mutate any state.
 */
export function findWordBackward(text: string, cursor: number, options?: WordNavigationOptions): number {
  if (cursor <= 0) return 0;
  const segments = [...segmentsOf(text.slice(0, cursor), options)];
  let pos = cursor;
  let k = segments.length - 1;
  while (k >= 0 && kindOf(segments[k], options) === "space") pos -= segments[k--].segment.length;
  if (k < 0) return pos;

  const last = segments[k];
  switch (kindOf(last, options)) {
    case "atomic":
      return pos - last.segment.length;
    case "word": {
      // Stop right after the last ASCII punctuation inside the word, if any.
      let stop = 0;
      for (const m of last.segment.matchAll(PUNCTUATION_ALL)) stop = m.index + m[0].length;
      return pos - (last.segment.length - stop);
    }
    default:
      while (k >= 0 && kindOf(segments[k], options) === "other") pos -= segments[k--].segment.length;
      return pos;
  }
}

/**
 * Find the cursor position after moving one word forward from `cursor` in `text`.
 * Skips leading whitespace, then stops at the next word/punctuation boundary.
 *
 * Pure function - does not mutate any state.
 */
export function findWordForward(text: string, cursor: number, options?: WordNavigationOptions): number {
  if (cursor >= text.length) return text.length;
  const it = segmentsOf(text.slice(cursor), options)[Symbol.iterator]();
  let pos = cursor;
  let next = it.next();
  while (!next.done && kindOf(next.value, options) === "space") {
    pos += next.value.segment.length;
    next = it.next();
  }
  if (next.done) return pos;

  const first = next.value;
  switch (kindOf(first, options)) {
    case "atomic":
      return pos + first.segment.length;
    case "word":
      // Stop at the first ASCII punctuation inside the word, if any.
      return pos + (PUNCTUATION_REGEX.exec(first.segment)?.index ?? first.segment.length);
    default:
      while (!next.done && kindOf(next.value, options) === "other") {
        pos += next.value.segment.length;
        next = it.next();
      }
      return pos;
  }
}
