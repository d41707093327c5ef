/**
 * Character classes the wrapper, the editor's word motions and autocomplete agree on.
 *
 * The CJK and autocomplete classes are Unicode property classes, which V8 expands into range tables when the
 * regex is created (about 2.5 ms for the four at load on a quiet machine): they are built on first use, so
 * loading the kit and drawing plain text never pays for them. `utils.ts` (pi-tui's `utils` module) exports
 * them as values.
 *
 * @module
 */

const CJK_BREAK_SOURCE =
  "[\\p{Script_Extensions=Han}\\p{Script_Extensions=Hiragana}\\p{Script_Extensions=Katakana}" +
  "\\p{Script_Extensions=Hangul}\\p{Script_Extensions=Bopomofo}]";
const CJK_PUNCTUATION_SOURCE = `(?:(?=\\p{Punctuation})${CJK_BREAK_SOURCE}|[，．：；！？（）［］｛｝“”‘’…—])`;
const AUTOCOMPLETE_SEPARATOR_SOURCE = `(?:\\s|${CJK_PUNCTUATION_SOURCE})`;
const AUTOCOMPLETE_BOUNDARY_SOURCE = `(?:^|${AUTOCOMPLETE_SEPARATOR_SOURCE})`;

let cjkBreak: RegExp | undefined;
let cjkPunctuation: RegExp | undefined;
let autocompleteSeparator: RegExp | undefined;
let autocompleteBoundary: RegExp | undefined;

/** Characters that may start a new line on their own: Han, kana, Hangul and Bopomofo (each is a word). */
export function cjkBreakRegex(): RegExp {
  return cjkBreak ??= new RegExp(CJK_BREAK_SOURCE, "u");
}

/**
 * Whether `cluster` (one grapheme, not printable ASCII) is a CJK character that breaks a line on its own, as
 * `cjkBreakRegex()` says. A single code point in the common CJK blocks (every code point of them is Han, kana or
 * a Hangul syllable) or in a stretch that holds none of those scripts (Latin, Greek, Cyrillic, box drawing,
 * arrows, emoji…) is answered by range, so wrapping most text need not build the property class.
 */
export function isCjkBreak(cluster: string): boolean {
  const code = cluster.codePointAt(0) ?? 0;
  if (cluster.length === (code > 0xffff ? 2 : 1)) {
    if (isWholeCjkBlock(code)) return true;
    if (isWithoutCjkScripts(code)) return false;
  }
  return cjkBreakRegex().test(cluster);
}

/** Blocks whose every code point has one of cjkBreakRegex's scripts (tests/tui check each against it). */
export function isWholeCjkBlock(code: number): boolean {
  return (code >= 0x4e00 && code <= 0x9fff) || // CJK Unified Ideographs
    (code >= 0x3400 && code <= 0x4dbf) || // CJK Unified Ideographs Extension A
    (code >= 0xac00 && code <= 0xd7a3) || // Hangul syllables
    (code >= 0x3041 && code <= 0x3096) || // Hiragana letters
    (code >= 0x30a1 && code <= 0x30fa); // Katakana letters
}

/** Stretches with no code point of cjkBreakRegex's scripts (tests/tui check each against it). */
export function isWithoutCjkScripts(code: number): boolean {
  return (code < 0x2c7 && code !== 0xb7) || // Latin, IPA (U+00B7 and some spacing modifiers are Bopomofo)
    (code > 0x323 && code < 0x1100) || // Greek to Ethiopic, before the Hangul jamo
    (code > 0x11ff && code < 0x2e80) || // after the jamo to the CJK radicals: punctuation, symbols, box drawing
    (code > 0x1f251 && code < 0x20000); // pictographs and emoji, before the astral ideographs
}

/**
 * CJK punctuation, plus the fullwidth ASCII punctuation CJK prose uses. CJK letters stay parts of
 * words and paths; only punctuation separates prose from a completion.
 */
export function cjkPunctuationRegex(): RegExp {
  return cjkPunctuation ??= new RegExp(CJK_PUNCTUATION_SOURCE, "u");
}

/** What separates an autocomplete token from the text before it: whitespace or CJK punctuation. */
export function autocompleteSeparatorRegex(): RegExp {
  return autocompleteSeparator ??= new RegExp(AUTOCOMPLETE_SEPARATOR_SOURCE, "u");
}

/** Where an autocomplete token may start: the text's start or right after a separator. */
export function autocompleteBoundaryRegex(): RegExp {
  return autocompleteBoundary ??= new RegExp(AUTOCOMPLETE_BOUNDARY_SOURCE, "u");
}

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
