/**
 * The shared grapheme segmenter (src/tui/utils_graphemes.ts) walks code points instead of building
 * ICU's segmenter when no code point of the text can join a neighbour. These tests hold that
 * shortcut to ICU's answer: for every code point it takes, and on generated text of every kind.
 */
import { assert, assertEquals } from "../support/assert.ts";
import { getGraphemeSegmenter, isOneClusterPerCodePoint } from "../../src/tui/utils_graphemes.ts";
import { graphemesOf } from "../../src/tui/utils_width.ts";
import { runCountingSegmenters } from "./segmenter_count.ts";

const icu = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/** ICU's clusters of `text`: each segment with its index. */
function icuSegments(text: string): string[] {
  return Array.from(icu.segment(text), (s) => `${s.index}:${s.segment}`);
}

Deno.test("every code point the shortcut takes stands alone beside any other such code point, as ICU cuts it", () => {
  // Whether two code points join depends only on their Grapheme_Cluster_Break classes, so it is
  // enough to see each taken code point c cut from: a letter on either side (Extend, ZWJ and
  // SpacingMark join what is before them, Prepend what is after), itself (L, V, T jamo and regional
  // indicators join their own kind), a Hangul LV syllable before it (V and T join that) and LF
  // after it (CR joins that). Many code points go to ICU in one text; a block of text per code
  // point, each block ending with LF, which nothing joins across.
  const blockOf = (c: string) => `a${c}a${c}${c}가${c}\n`;
  const CODE_POINTS_PER_BLOCK = 8;
  const joined: string[] = [];
  let taken = 0;
  let batch: string[] = [];
  const flush = () => {
    const text = batch.map(blockOf).join("");
    let count = 0;
    for (const _ of icu.segment(text)) count++;
    if (count !== batch.length * CODE_POINTS_PER_BLOCK) {
      // Some block joined: find which.
      for (const c of batch) {
        let n = 0;
        for (const _ of icu.segment(blockOf(c))) n++;
        if (n !== CODE_POINTS_PER_BLOCK) joined.push(`U+${c.codePointAt(0)!.toString(16).toUpperCase()}`);
      }
    }
    batch = [];
  };
  for (let cp = 0; cp <= 0x10ffff; cp++) {
    const c = String.fromCodePoint(cp);
    if (!isOneClusterPerCodePoint(c)) continue;
    taken++;
    batch.push(c);
    if (batch.length === 4096) flush();
  }
  flush();
  assertEquals(joined, []);
  // Nearly all of Unicode is taken: what joins is a few thousand marks, jamo and the like.
  assert(taken > 1_100_000, `only ${taken} code points taken`);
});

Deno.test("the shortcut leaves to ICU each kind of code point that joins a neighbour", () => {
  const joiners = [
    "\r", // CR LF
    "\u0301", // combining acute (Extend)
    "\u200D", // ZWJ
    "\u200C", // ZWNJ (Extend)
    "\uFE0F", // VS16 (Extend)
    "\u{E0100}", // variation selector 17
    "\u{1F3FD}", // skin tone (Emoji_Modifier)
    "\u{1F1EF}", // regional indicator
    "\u0903", // Devanagari visarga (SpacingMark)
    "\u0E33", // Thai sara am (SpacingMark, a letter)
    "\u0600", // Arabic number sign (Prepend)
    "\u{110BD}", // Kaithi number sign (Prepend)
    "\u1100", // Hangul L jamo
    "\u1161", // Hangul V jamo
    "\u11A8", // Hangul T jamo
    "\u{16D63}", // Kirat Rai vowel sign (V since Unicode 16)
    "\u{E0067}", // tag (Extend)
  ];
  for (const c of joiners) assertEquals(isOneClusterPerCodePoint(`x${c}`), false, JSON.stringify(c));
  const plain = [
    "hello, world",
    "Привет",
    "Γειά",
    "中文字符",
    "한국어",
    "مرحبا",
    "שלום",
    "🚀😀",
    "\t\n\x1b",
    "𠀋",
  ];
  for (const text of plain) assertEquals(isOneClusterPerCodePoint(text), true, text);
});

/** Text pieces of every kind the kit meets; generated texts string them together. */
const PIECES = [
  "a",
  "word ",
  " ",
  "\t",
  "\n",
  "\r\n",
  "\r",
  "\x1b",
  "\x07",
  "\u0085",
  "你好",
  "𠀋",
  "カナ",
  "ｶﾞ",
  "─│┌",
  "✓",
  "Привет",
  "Ελλάδα",
  "🚀",
  "😀🎉",
  "👍🏽",
  "🏻",
  "❤️",
  "☺\uFE0F",
  "🙂\uFE0F",
  "🚀\u200d🔥",
  "👨‍👩‍👧",
  "🏳️‍🌈",
  "🇯🇵",
  "🇺",
  "🏴\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}",
  "1\uFE0F\u20E3",
  "한국어",
  "ᄀ\u1161",
  "\u11A8",
  "각",
  "नमस्ते",
  "क्षि",
  "\u0915\u094D\u200D",
  "ภาษาไทย",
  "กำ",
  "e\u0301",
  "\u0301",
  "\u0308\u0308",
  "\u200d",
  "\u200c",
  "\u00ad",
  "\u0600\u0661",
  "مرحبا",
  "\u0645\u064E",
  "שָׁלוֹם",
  "\u{110BD}x",
  "\ud800",
  "\udc00",
  "\u{E0100}",
];

/** Deterministic generated texts: 1 to 8 pieces each. */
function* generatedTexts(count: number): Generator<string> {
  let seed = 19;
  const next = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff);
  for (let n = 0; n < count; n++) {
    let text = "";
    for (let k = next() % 8; k >= 0; k--) text += PIECES[next() % PIECES.length];
    yield text;
  }
}

Deno.test("the shared grapheme segmenter cuts generated text as ICU does, indexes and containing() included", () => {
  const segmenter = getGraphemeSegmenter();
  const differing: string[] = [];
  let shortcut = 0;
  for (const text of generatedTexts(20_000)) {
    if (isOneClusterPerCodePoint(text)) shortcut++;
    const ours = Array.from(segmenter.segment(text), (s) => `${s.index}:${s.segment}`);
    if (JSON.stringify(ours) !== JSON.stringify(icuSegments(text))) differing.push(JSON.stringify(text));
    const segments = segmenter.segment(text);
    const reference = icu.segment(text);
    for (let i = -1; i <= text.length; i++) {
      const a = segments.containing(i);
      const b = reference.containing(i);
      if (JSON.stringify(a) !== JSON.stringify(b)) differing.push(`${JSON.stringify(text)} containing(${i})`);
    }
    if (JSON.stringify(segments.containing()) !== JSON.stringify(reference.containing())) {
      differing.push(`${JSON.stringify(text)} containing()`);
    }
  }
  assertEquals(differing.slice(0, 20), []);
  // Both ways are exercised.
  assert(shortcut > 3_000 && shortcut < 17_000, `${shortcut} of 20000 texts took the shortcut`);
});

Deno.test("the width walk's split into clusters matches ICU on generated text", () => {
  const differing: string[] = [];
  for (const text of generatedTexts(20_000)) {
    const expected = Array.from(icu.segment(text), (s) => s.segment);
    if (JSON.stringify([...graphemesOf(text)]) !== JSON.stringify(expected)) {
      differing.push(JSON.stringify(text));
    }
  }
  assertEquals(differing.slice(0, 20), []);
});

Deno.test("the shared grapheme segmenter builds ICU's only for text that needs it, and is an Intl.Segmenter", async () => {
  // In a fresh process, so no other test has built a segmenter yet.
  const seen = await runCountingSegmenters(`
    const s = U.getGraphemeSegmenter();
    const seen = [];
    seen.push([...s.segment("Привет, 中文 🚀 𠀋\\tok\\n")].length, built());
    seen.push(U.visibleWidth("Ελλάδα · مرحبا · 한국어 · 😀🎉"), built());
    seen.push(s.segment("x🚀").containing(2).segment, built());
    seen.push(s instanceof Intl.Segmenter, U.getGraphemeSegmenter() === s);
    seen.push([...s.segment("e\\u0301👍🏽")].length, built());
    seen.push(s.resolvedOptions().granularity, built());
    report(seen);`);
  assertEquals(seen, [18, 0, 30, 0, "🚀", 0, true, true, 2, 1, "grapheme", 1]);
});
