/**
 * Grapheme and word segmenters shared by the kit, and the test telling when text needs no segmenter.
 *
 * Building an `Intl.Segmenter` loads ICU's break rules: about 19 ms in a fresh Deno process, more
 * than the rest of a first frame. Most text never needs them: a grapheme cluster spans several code
 * points only through a few kinds of code point (UAX #29: CR before LF, Extend, ZWJ, SpacingMark,
 * Prepend, Hangul jamo, regional indicators). Text without any of those is one cluster per code
 * point, whatever else it holds (Latin, Cyrillic, CJK, 🚀, controls), so the shared grapheme
 * segmenter answers it by walking code points and builds ICU's segmenter only for text that has one.
 *
 * @module
 */

/**
 * The code points that can join a neighbour into one grapheme cluster: CR (CR LF), Extend
 * (Grapheme_Extend: combining marks, variation selectors, ZWNJ, tags; Emoji_Modifier: skin tones),
 * ZWJ, SpacingMark (all Mc, plus the Thai and Lao AM vowels), Prepend (listed: no regex property
 * names it), the Hangul L, V and T jamo blocks and the Kirat Rai vowel signs (class V since
 * Unicode 16), and regional indicators (flags). Between two code points outside this set no rule
 * of UAX #29 holds them together, so each is a cluster of its own.
 * tests/tui/utils_graphemes_test.ts checks every code point outside it against ICU's segmenter.
 * Built on first use: creating it costs about a millisecond, which loading the kit need not pay.
 */
let mayJoin: RegExp | undefined;
const mayJoinRegex = () =>
  mayJoin ??= new RegExp(
    "[\\r\\u200D\\p{Grapheme_Extend}\\p{Emoji_Modifier}\\p{Mc}\\u0E33\\u0EB3" +
      // Prepend (Unicode 16).
      "\\u0600-\\u0605\\u06DD\\u070F\\u0890\\u0891\\u08E2\\u0D4E\\u{110BD}\\u{110CD}\\u{111C2}\\u{111C3}" +
      "\\u{113D1}\\u{1193F}\\u{11941}\\u{11A3A}\\u{11A84}-\\u{11A89}\\u{11D46}\\u{11F02}" +
      // Hangul jamo: L, V and T (precomposed syllables join only with these); Kirat Rai vowel signs (V).
      "\\u1100-\\u11FF\\uA960-\\uA97F\\uD7B0-\\uD7FF\\u{16D63}\\u{16D67}-\\u{16D6A}" +
      "\\p{Regional_Indicator}]",
    "u",
  );

/**
 * Whether every code point of `text` is a grapheme cluster of its own, so iterating the string
 * (which yields code points, surrogate pairs whole) segments it as `Intl.Segmenter` would.
 */
export function isOneClusterPerCodePoint(text: string): boolean {
  return !mayJoinRegex().test(text);
}

let icuGraphemes: Intl.Segmenter | undefined;
let words: Intl.Segmenter | undefined;

/** ICU's grapheme segmenter, built on first use (the costly part this module avoids). */
function icuGraphemeSegmenter(): Intl.Segmenter {
  return icuGraphemes ??= new Intl.Segmenter(undefined, { granularity: "grapheme" });
}

/** The segments of text that is one cluster per code point, with `Intl.Segments`' interface. */
class CodePointSegments implements Intl.Segments {
  readonly #input: string;

  constructor(input: string) {
    this.#input = input;
  }

  /** The segment holding the code unit at `codeUnitIndex` (0 when omitted), as Intl's does. */
  containing(codeUnitIndex?: number): Intl.SegmentData | undefined {
    const input = this.#input;
    const n = Math.trunc(Number(codeUnitIndex ?? 0)) || 0;
    if (n < 0 || n >= input.length) return undefined;
    const start = n > 0 && isLowSurrogate(input.charCodeAt(n)) && isHighSurrogate(input.charCodeAt(n - 1))
      ? n - 1
      : n;
    return { segment: input.slice(start, start + unitsAt(input, start)), index: start, input };
  }

  /** Each code point with its index. */
  *[Symbol.iterator](): Intl.SegmentIterator<Intl.SegmentData> {
    const input = this.#input;
    for (let i = 0; i < input.length;) {
      const size = unitsAt(input, i);
      yield { segment: size === 1 ? input[i] : input.slice(i, i + size), index: i, input };
      i += size;
    }
  }
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** Code units of the code point at `i`: 2 for a surrogate pair, else 1 (a lone surrogate too). */
function unitsAt(text: string, i: number): number {
  return isHighSurrogate(text.charCodeAt(i)) && i + 1 < text.length && isLowSurrogate(text.charCodeAt(i + 1))
    ? 2
    : 1;
}

/**
 * A grapheme segmenter that gives what ICU's gives, building ICU's only for text that can hold a
 * cluster of several code points. It is an `Intl.Segmenter` to its callers (same methods; its
 * prototype chain reaches `Intl.Segmenter.prototype`, so `instanceof` holds).
 */
class LazyGraphemeSegmenter implements Intl.Segmenter {
  /** Segments `input` into grapheme clusters. */
  segment(input: string): Intl.Segments {
    const text = String(input);
    return isOneClusterPerCodePoint(text)
      ? new CodePointSegments(text)
      : icuGraphemeSegmenter().segment(text);
  }

  /** The options of ICU's grapheme segmenter (building it). */
  resolvedOptions(): Intl.ResolvedSegmenterOptions {
    return icuGraphemeSegmenter().resolvedOptions();
  }
}
Object.setPrototypeOf(LazyGraphemeSegmenter.prototype, Intl.Segmenter.prototype);

let graphemes: Intl.Segmenter | undefined;

/**
 * Get the shared grapheme segmenter instance.
 */
export function getGraphemeSegmenter(): Intl.Segmenter {
  return graphemes ??= new LazyGraphemeSegmenter();
}

/**
 * Get the shared word segmenter instance.
 */
export function getWordSegmenter(): Intl.Segmenter {
  // Made on first use: word moves need ICU's dictionaries, a first frame does not.
  return words ??= new Intl.Segmenter(undefined, { granularity: "word" });
}
