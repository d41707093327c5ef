/**
 * The shortcuts of src/tui/utils_width.ts give what the full rules give, for every code unit or
 * code point they apply to (the full rules are what the conformance tests compare with pi-tui).
 */
import { assertEquals } from "../support/assert.ts";
import {
  clusterWidth,
  graphemesOf,
  graphemeWidth,
  isLonePictograph,
  standaloneUnitWidth,
} from "../../src/tui/utils_width.ts";
import { runCountingSegmenters } from "./segmenter_count.ts";

Deno.test("a standalone unit's width is the full rules' width, for every such unit", () => {
  const differing: string[] = [];
  let checked = 0;
  for (let code = 0x80; code <= 0xffff; code++) {
    const fast = standaloneUnitWidth(code);
    if (fast === undefined) continue;
    checked++;
    const full = clusterWidth(String.fromCharCode(code));
    if (fast !== full) differing.push(`U+${code.toString(16)}: ${fast} vs ${full}`);
  }
  assertEquals(differing, []);
  // The ranges: Latin-1 and Latin Extended, symbols, kana, CJK ideographs, fullwidth forms.
  assertEquals(checked > 24_000, true);
});

Deno.test("a lone pictograph's width is the full rules' width, for every such code point", () => {
  const differing: string[] = [];
  let checked = 0;
  for (let cp = 0x10000; cp <= 0x1ffff; cp++) {
    if (!isLonePictograph(cp)) continue;
    checked++;
    const cluster = String.fromCodePoint(cp);
    if (graphemeWidth(cluster) !== clusterWidth(cluster)) differing.push(`U+${cp.toString(16)}`);
  }
  assertEquals(differing, []);
  assertEquals(checked, 1_371);
});

Deno.test("one-code-point emoji are told by Emoji_Presentation exactly as by RGI_Emoji", () => {
  const rgi = /^\p{RGI_Emoji}$/v;
  const differing: string[] = [];
  for (let cp = 0x2000; cp <= 0x1fbff; cp++) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue;
    const char = String.fromCodePoint(cp);
    // Regional indicators are 2 wide whether they count as emoji or not.
    const full = rgi.test(char) || (cp >= 0x1f1e6 && cp <= 0x1f1ff);
    if (/^\p{Emoji_Presentation}$/u.test(char) !== full) differing.push(`U+${cp.toString(16)}`);
  }
  assertEquals(differing, []);
});

Deno.test("the split into clusters skips the segmenter only where it would cut the same way", () => {
  const pieces = [
    "ab",
    " ",
    "\t",
    "\t\t",
    "你好",
    "カナ",
    "─│",
    "✓",
    "❤️",
    "☺\uFE0F",
    "👍🏽",
    "🚀",
    "😀🎉",
    "🏻",
    "🚀\u200d🔥",
    "🙂\uFE0F",
    "🫠",
    "\u{1F3FA}",
    "\u{E0067}",
    "👨‍👩‍👧",
    "🇯🇵",
    "🇺",
    "e\u0301",
    "\u0301",
    "\u200d",
    "\u20dd",
    "ᄀ\u1161",
    "한",
    "क्षि",
    "กำ",
    "\r\n",
    "\n",
    "\x1b",
    "\u00ad",
    "ｶﾞ",
    "1\uFE0F\u20E3",
    "\ud800",
  ];
  const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });
  let seed = 7;
  const differing: string[] = [];
  for (let n = 0; n < 4000; n++) {
    let text = "";
    for (let k = n % 7; k >= 0; k--) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      text += pieces[seed % pieces.length];
    }
    const expected = [...segmenter.segment(text)].map((s) => s.segment);
    if (JSON.stringify([...graphemesOf(text)]) !== JSON.stringify(expected)) {
      differing.push(JSON.stringify(text));
    }
  }
  assertEquals(differing, []);
});

Deno.test("loading the utilities and measuring common text builds no Intl.Segmenter", async () => {
  // In a fresh process, so no other test has built the shared segmenter yet.
  const counts = await runCountingSegmenters(`
    const counts = [built()];
    U.visibleWidth("\\x1b[1mplain\\x1b[0m\\ttext");
    U.visibleWidth("─── ✓ done ⚠ 你好 • › … ｆｕｌｌ カナ é");
    U.truncateToWidth("╭─ 你好世界 ✓ status\\tline", 10);
    U.wrapTextWithAnsi("你好世界 ✓ status line with words", 12);
    U.sliceByColumn("ab你好\\tcd", 1, 4);
    U.wrapTextWithAnsi("deploy 🚀 done 🎉, ✓ 你好 😀😀", 9);
    counts.push(built());
    U.visibleWidth("e\\u0301 👍🏽");
    counts.push(built());
    report(counts);`);
  assertEquals(counts, [0, 0, 1]);
});
