/**
 * Text measurement and layout for terminal lines: pi-tui 1.6.0's `utils` module, split by concern
 * into `utils_*.ts` (escape sequences, widths, styles, wrapping, slicing, columns, characters).
 *
 * @module
 */
export { extractAnsiCode, replaceControlCharacters, stripTerminalSequences } from "./utils_ansi.ts";
export {
  autocompleteBoundaryRegex,
  autocompleteSeparatorRegex,
  cjkBreakRegex,
  cjkPunctuationRegex,
  isPunctuationChar,
  isWhitespaceChar,
  PUNCTUATION_REGEX,
} from "./utils_chars.ts";
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
