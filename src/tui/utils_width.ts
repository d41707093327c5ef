/**
 * Terminal cell widths: of one grapheme cluster, and of a whole styled line ({@link visibleWidth}).
 *
 * Widths follow pi-tui 1.6.0 (itself string-width's rules plus terminal fixes): East Asian Wide and
 * Fullwidth are 2, RGI emoji (ZWJ sequences, flags, keycaps, skin tones, VS16) are 2, a lone
 * regional indicator is 2, marks and default-ignorables are 0 except the spacing marks terminals
 * give a cell, a tab is 3, escape sequences are 0.
 *
 * The renderer measures every line of every frame, so the common cases skip Intl.Segmenter:
 * printable ASCII with tabs and escape sequences is counted by a plain loop, and runs of
 * characters that can never join a neighbour into one cluster are split per code unit.
 *
 * @module
 */
import { eastAsianWidth } from "npm:get-east-asian-width@1.6.0";
import { ansiCodeLength, stripTerminalSequences, walkRuns } from "./utils_ansi.ts";
import { getGraphemeSegmenter, isOneClusterPerCodePoint } from "./utils_graphemes.ts";

/** Character classes as string-width uses them, for the clusters the fast paths leave. */
interface ClusterClasses {
  zeroWidthCluster: RegExp;
  leadingNonPrinting: RegExp;
  nonPrintingChar: RegExp;
  markChar: RegExp;
}

let clusterClassRegexes: ClusterClasses | undefined;

/**
 * The classes, built on first use: V8 builds a property class when the regex is created (about
 * 1 ms for these four), which loading the kit and drawing plain text need not pay.
 */
function clusterClasses(): ClusterClasses {
  return clusterClassRegexes ??= {
    zeroWidthCluster: /^(?:\p{Default_Ignorable_Code_Point}|\p{Control}|\p{Mark}|\p{Surrogate})+$/v,
    leadingNonPrinting: /^[\p{Default_Ignorable_Code_Point}\p{Control}\p{Format}\p{Mark}\p{Surrogate}]+/v,
    nonPrintingChar: /^(?:\p{Default_Ignorable_Code_Point}|\p{Control}|\p{Format}|\p{Mark}|\p{Surrogate})$/v,
    markChar: /^\p{Mark}$/v,
  };
}
// Marks that terminals give a cell of their own: Unicode spacing marks (less three that legacy
// wcwidth tables treat as zero) plus non-spacing ones those tables count as one.
// (Built from a string: deno lint does not know the `v` flag's set subtraction `--`. Built on
// first use: creating it costs about 1 ms, which loading the kit need not pay.)
let terminalSpacingMarks: RegExp | undefined;
function isTerminalSpacingMarks(text: string): boolean {
  return (terminalSpacingMarks ??= new RegExp(
    String
      .raw`^(?:[\p{Spacing_Mark}--[\u1734\u302E\u302F]]|[\u065F\u0F7F\u102B\u102C\u1031\u1033-\u1035\u1038\u103A-\u103E])+$`,
    "v",
  )).test(text);
}
// Built on first use: creating this set of strings costs V8 4–25 ms even before it runs, which a
// first frame without a multi-code-point emoji should not pay.
let rgiEmoji: RegExp | undefined;
// Also on first use, as every property class: a frame of plain text never needs it.
let emojiPresentation: RegExp | undefined;

/** Whether every code unit of `str` is printable ASCII (0x20–0x7e): one cell per unit. */
export function isPrintableAscii(str: string): boolean {
  for (let i = 0; i < str.length; i++) {
    const c = str.charCodeAt(i);
    if (c < 0x20 || c > 0x7e) return false;
  }
  return true;
}

/**
 * Whether a cluster may be an RGI emoji, checked before the costly emoji regex. The blocks are
 * broad on purpose so that emoji added in later Unicode versions still reach the regex.
 */
function mayBeEmoji(cluster: string): boolean {
  const cp = cluster.codePointAt(0)!;
  return (cp >= 0x1f000 && cp <= 0x1fbff) ||
    (cp >= 0x2300 && cp <= 0x23ff) ||
    (cp >= 0x2600 && cp <= 0x27bf) ||
    (cp >= 0x2b50 && cp <= 0x2b55) ||
    cluster.includes("\uFE0F") ||
    cluster.length > 2;
}

/**
 * Whether a cluster is an RGI emoji. For one code point that is the same as Emoji_Presentation
 * (regional indicators aside, which count 2 anyway; tests/tui/utils_width_test.ts checks every code
 * point), and that class compiles in well under a millisecond where the RGI_Emoji set of strings
 * takes V8 over 100 ms: the first frame with a ✓ or ⚠ need not pay for it.
 */
function isEmoji(cluster: string): boolean {
  const single = cluster.length === 1 || (cluster.length === 2 && cluster.codePointAt(0)! > 0xffff);
  return single
    ? (emojiPresentation ??= /^\p{Emoji_Presentation}$/u).test(cluster)
    : (rgiEmoji ??= new RegExp("^\\p{RGI_Emoji}$", "v")).test(cluster);
}

/** Width of a cluster the fast paths could not settle (exported for the tests that check those paths). */
export function clusterWidth(cluster: string): number {
  // Some marks take cells even without a base character.
  if (isTerminalSpacingMarks(cluster)) return [...cluster].length;
  const classes = clusterClasses();
  if (classes.zeroWidthCluster.test(cluster)) return 0;
  if (mayBeEmoji(cluster) && isEmoji(cluster)) return 2;
  const base = cluster.replace(classes.leadingNonPrinting, "");
  const cp = base.codePointAt(0);
  if (cp === undefined) return 0;
  // A lone regional indicator (half a flag, e.g. mid-stream) is drawn wide by most terminals;
  // counting 2 keeps the cursor from drifting.
  if (cp >= 0x1f1e6 && cp <= 0x1f1ff) return 2;
  let width = eastAsianWidth(cp);
  // Intl.Segmenter can put several cell-taking code points into one cluster: count the spacing
  // marks, a visible character after a mark (Indic conjuncts), halfwidth/fullwidth forms, and the
  // Thai/Lao AM vowels.
  let afterMark = false;
  let first = true;
  for (const char of base) {
    if (first) {
      first = false;
      continue;
    }
    if (isTerminalSpacingMarks(char)) {
      width += 1;
      afterMark = false;
    } else if (classes.markChar.test(char)) {
      afterMark = true;
    } else if (!classes.nonPrintingChar.test(char)) {
      const c = char.codePointAt(0)!;
      if (afterMark || (c >= 0xff00 && c <= 0xffef)) width += eastAsianWidth(c);
      else if (c === 0x0e33 || c === 0x0eb3) width += 1;
      afterMark = false;
    }
  }
  return width;
}

// Widths of single non-ASCII BMP code units, at most 64K entries.
const unitWidths = new Map<number, number>();

/** Terminal cells taken by one grapheme cluster; a tab counts 3. */
export function graphemeWidth(cluster: string): number {
  if (cluster.length === 2) {
    // One pictograph outside the BMP (🚀, 😀): no mark or joiner, so only the emoji test and the
    // East Asian width decide, as clusterWidth would, without its Unicode property regexes.
    const cp = cluster.codePointAt(0)!;
    if (isLonePictograph(cp)) return isEmoji(cluster) ? 2 : eastAsianWidth(cp);
  }
  if (cluster.length !== 1) return clusterWidth(cluster);
  const code = cluster.charCodeAt(0);
  if (code >= 0x20 && code <= 0x7e) return 1;
  if (code === 0x09) return 3;
  let width = unitWidths.get(code);
  if (width === undefined) {
    width = standaloneUnitWidth(code) ?? clusterWidth(cluster);
    unitWidths.set(code, width);
  }
  return width;
}

/**
 * Width of a standalone unit (below) without the Unicode property regexes, whose first compile
 * costs milliseconds the first frame (box drawing, ✓, …, CJK) should not pay: those ranges hold no
 * marks, controls or default-ignorables, so only the emoji test and the East Asian width decide.
 * tests/tui/utils_width_test.ts checks it against {@link clusterWidth} for every such unit.
 * Undefined for other units.
 */
export function standaloneUnitWidth(code: number): number | undefined {
  if (!isStandaloneUnit(code)) return undefined;
  const char = String.fromCharCode(code);
  return mayBeEmoji(char) && isEmoji(char) ? 2 : eastAsianWidth(code);
}

/**
 * Whether a UTF-16 unit is always a cluster of its own: printable ASCII, Latin, general
 * punctuation, arrows, box drawing, symbols, kana, CJK ideographs, fullwidth forms. These hold no
 * combining marks, joiners, variation selectors, jamo or surrogates, so no Unicode rule joins two.
 */
function isStandaloneUnit(code: number): boolean {
  if (code >= 0x20 && code <= 0x7e) return true;
  if (code >= 0xa0 && code <= 0x2ff) return code !== 0xad;
  if (code >= 0x2010 && code <= 0x2bff) {
    // Leave out line/bidi controls, invisible operators and combining marks for symbols.
    return !(code >= 0x2028 && code <= 0x202e) && !(code >= 0x2060 && code <= 0x206f) &&
      !(code >= 0x20d0 && code <= 0x20ff);
  }
  return (code >= 0x3040 && code <= 0x3096) || (code >= 0x30a0 && code <= 0x30ff) ||
    (code >= 0x4e00 && code <= 0x9fff) || (code >= 0xff01 && code <= 0xff60);
}

/**
 * A unit no grapheme rule joins to a neighbour: a standalone unit or a tab (a control, and
 * controls break on both sides), so styled lines with tabs stay off the segmenter too.
 */
function isLoneCluster(code: number): boolean {
  return code === 0x09 || isStandaloneUnit(code);
}

/**
 * Whether a code point outside the BMP is a pictograph no grapheme rule joins to a neighbour that
 * is itself lone: the emoji blocks without the skin-tone modifiers (which extend the emoji before
 * them), regional indicators (which pair) and tags. A joiner, variation selector or modifier next
 * to it is not lone, so such sequences still go to the segmenter.
 */
export function isLonePictograph(cp: number): boolean {
  return (cp >= 0x1f300 && cp <= 0x1f3fa) || (cp >= 0x1f400 && cp <= 0x1f64f) ||
    (cp >= 0x1f680 && cp <= 0x1f6ff) || (cp >= 0x1f900 && cp <= 0x1f9ff) || (cp >= 0x1fa70 && cp <= 0x1faff);
}

/** Units in the lone cluster that starts at `i` (1, or 2 for a lone pictograph), or 0. */
function loneLength(text: string, i: number): number {
  const code = text.charCodeAt(i);
  if (isLoneCluster(code)) return 1;
  if (code >= 0xd800 && code <= 0xdbff && isLonePictograph(text.codePointAt(i)!)) return 2;
  return 0;
}

/** Whether the unit at `i` ends a lone cluster (or `i` is before the text). */
function endsLoneCluster(text: string, i: number): boolean {
  if (i < 0) return true;
  const code = text.charCodeAt(i);
  if (isLoneCluster(code)) return true;
  return code >= 0xdc00 && code <= 0xdfff && i > 0 && isLonePictograph(text.codePointAt(i - 1)!);
}

function* segmentMixed(text: string): Generator<string> {
  let complexFrom = -1;
  for (let i = 0; i < text.length;) {
    // A lone cluster between lone neighbours has boundaries on both edges, so only the stretches
    // between such clusters need the segmenter.
    const length = loneLength(text, i);
    if (
      length > 0 && endsLoneCluster(text, i - 1) &&
      (i + length >= text.length || loneLength(text, i + length) > 0)
    ) {
      if (complexFrom >= 0) {
        for (const { segment } of getGraphemeSegmenter().segment(text.slice(complexFrom, i))) yield segment;
        complexFrom = -1;
      }
      yield length === 1 ? text[i] : text.slice(i, i + length);
      i += length;
    } else {
      if (complexFrom < 0) complexFrom = i;
      i++;
    }
  }
  if (complexFrom >= 0) {
    for (const { segment } of getGraphemeSegmenter().segment(text.slice(complexFrom))) yield segment;
  }
}

/**
 * The grapheme clusters of a run without escape sequences. Intl.Segmenter costs far more than the
 * slicing it serves (and its first use loads ICU's rules), so runs of standalone units, and any
 * text without a code point that can join a neighbour, are iterated per code point; only the
 * stretches around such a code point go to the segmenter.
 */
export function graphemesOf(text: string): Iterable<string> {
  for (let i = 0; i < text.length; i++) {
    if (!isLoneCluster(text.charCodeAt(i))) {
      // Lone pictographs among standalone units (🚀 in a styled line) are told by ranges alone;
      // other text by the joining-code-point regex, which costs a compile on first use.
      return allLone(text, i) || isOneClusterPerCodePoint(text) ? text : segmentMixed(text);
    }
  }
  return text;
}

/** Whether the text from `i` on is all lone clusters (standalone units and lone pictographs). */
function allLone(text: string, i: number): boolean {
  while (i < text.length) {
    const length = loneLength(text, i);
    if (length === 0) return false;
    i += length;
  }
  return true;
}

/**
 * Width of a string of printable ASCII, tabs and escape sequences, or -1 when it holds anything
 * else. Styled lines are mostly this, and counting them allocates nothing.
 */
function simpleWidth(str: string): number {
  let width = 0;
  for (let i = 0; i < str.length;) {
    const c = str.charCodeAt(i);
    if (c >= 0x20 && c <= 0x7e) {
      width++;
      i++;
    } else if (c === 0x09) {
      width += 3;
      i++;
    } else if (c === 0x1b) {
      const length = ansiCodeLength(str, i);
      if (length === 0) return -1;
      i += length;
    } else {
      return -1;
    }
  }
  return width;
}

const CACHE_LIMIT = 512;
const widthCache = new Map<string, number>();

/**
 * Calculate the visible width of a string in terminal columns.
 */
export function visibleWidth(str: string): number {
  if (str.length === 0) return 0;
  const simple = simpleWidth(str);
  if (simple !== -1) return simple;
  const cached = widthCache.get(str);
  if (cached !== undefined) return cached;

  let width = 0;
  for (const cluster of graphemesOf(stripTerminalSequences(str.replaceAll("\t", "   ")))) {
    width += graphemeWidth(cluster);
  }
  if (widthCache.size >= CACHE_LIMIT) widthCache.delete(widthCache.keys().next().value!);
  widthCache.set(str, width);
  return width;
}

/**
 * Walks a styled line: `onCode` gets each escape sequence, `onCluster` each visible grapheme
 * cluster (a tab is one, 3 wide) with its width. Either returns `false` to stop the walk.
 */
export function walkLine(
  line: string,
  onCode: (code: string) => boolean | void,
  onCluster: (cluster: string, width: number) => boolean | void,
): void {
  walkRuns(line, onCode, (run) => {
    for (const cluster of graphemesOf(run)) {
      if (onCluster(cluster, graphemeWidth(cluster)) === false) return false;
    }
  });
}
