/**
 * Text measurement and layout for terminal lines, as the kit's own modules import it: pi-tui 1.6.0's `utils`
 * module without the four CJK and autocomplete character-class values, which `utils.ts` adds for callers of
 * that module. Inside the kit those classes come from `utils_chars.ts`, built on first use.
 *
 * @module
 */
export { extractAnsiCode, replaceControlCharacters, stripTerminalSequences } from "./utils_ansi.ts";
export { isPunctuationChar, isWhitespaceChar, PUNCTUATION_REGEX } from "./utils_chars.ts";
export { getGraphemeCellRange, getOsc8LinkAtColumn, normalizeTerminalOutput } from "./utils_columns.ts";
export {
  applyBackgroundToLine,
  extractSegments,
  sliceByColumn,
  sliceWithWidth,
  truncateToWidth,
} from "./utils_slice.ts";
export { getActiveBackgroundAnsi } from "./utils_style.ts";
export { getGraphemeSegmenter, getWordSegmenter } from "./utils_graphemes.ts";
export { visibleWidth } from "./utils_width.ts";
export { flattenLines, wrapTextWithAnsi } from "./utils_wrap.ts";
