/**
 * Text measurement and layout for terminal lines: pi-tui 1.6.0's `utils` module, split by concern
 * into `utils_*.ts` (escape sequences, widths, styles, wrapping, slicing, columns, characters).
 *
 * The kit's own modules import `utils_text.ts` instead: this module builds pi-tui's four character-class
 * regexes as it loads (Unicode property classes, about 2.5 ms), which the kit builds on first use.
 *
 * @module
 */
import {
  autocompleteBoundaryRegex as buildAutocompleteBoundary,
  autocompleteSeparatorRegex as buildAutocompleteSeparator,
  cjkBreakRegex as buildCjkBreak,
  cjkPunctuationRegex as buildCjkPunctuation,
} from "./utils_chars.ts";

export * from "./utils_text.ts";

/** Characters that may start a new line on their own: Han, kana, Hangul and Bopomofo (each is a word). */
export const cjkBreakRegex: RegExp = buildCjkBreak();

/**
 * CJK punctuation, plus the fullwidth ASCII punctuation CJK prose uses. CJK letters stay parts of
 * words and paths; only punctuation separates prose from a completion.
 */
export const cjkPunctuationRegex: RegExp = buildCjkPunctuation();

/** What separates an autocomplete token from the text before it: whitespace or CJK punctuation. */
export const autocompleteSeparatorRegex: RegExp = buildAutocompleteSeparator();

/** Where an autocomplete token may start: the text's start or right after a separator. */
export const autocompleteBoundaryRegex: RegExp = buildAutocompleteBoundary();
