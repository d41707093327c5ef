/**
 * Character classes the wrapper, the editor's word motions and autocomplete agree on.
 *
 * @module
 */

/** Characters that may start a new line on their own: Han, kana, Hangul and Bopomofo (each is a word). */
export const cjkBreakRegex: RegExp =
  /[\p{Script_Extensions=Han}\p{Script_Extensions=Hiragana}\p{Script_Extensions=Katakana}\p{Script_Extensions=Hangul}\p{Script_Extensions=Bopomofo}]/u;

/**
 * CJK punctuation, plus the fullwidth ASCII punctuation CJK prose uses. CJK letters stay parts of
 * words and paths; only punctuation separates prose from a completion.
 */
export const cjkPunctuationRegex: RegExp = new RegExp(
  `(?:(?=\\p{Punctuation})${cjkBreakRegex.source}|[，．：；！？（）［］｛｝“”‘’…—])`,
  "u",
);

/** What separates an autocomplete token from the text before it: whitespace or CJK punctuation. */
export const autocompleteSeparatorRegex: RegExp = new RegExp(`(?:\\s|${cjkPunctuationRegex.source})`, "u");

/** Where an autocomplete token may start: the text's start or right after a separator. */
export const autocompleteBoundaryRegex: RegExp = new RegExp(
  `(?:^|${autocompleteSeparatorRegex.source})`,
  "u",
);

/** The ASCII punctuation that ends a word for word-wise cursor motion. */
export const PUNCTUATION_REGEX: RegExp = /[(){}[\]<>.,;:'"!?+\-=*/\\|&%^$#@~`]/;

const WHITESPACE = /\s/;

/**
 * Check if a character is whitespace.
 */
export function isWhitespaceChar(char: string): boolean {
  return WHITESPACE.test(char);
}

/**
 * Check if a character is punctuation.
 */
export function isPunctuationChar(char: string): boolean {
  return PUNCTUATION_REGEX.test(char);
}
