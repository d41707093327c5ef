/**
 * Properties the renderer relies on, checked over many generated lines of words, spaces, CJK,
 * emoji, SGR styles and OSC 8 links: wrapped lines fit, truncated lines fit (and padded ones fill),
 * slices report the width they have, stripping keeps the width. Exotic clusters (Indic conjuncts
 * wider than a line, marks split from their base by a style code) are left out: pi-tui measures
 * those differently in different functions, and these properties do not hold for it either.
 */
import { assert, assertEquals } from "../support/assert.ts";
import {
  extractSegments,
  sliceWithWidth,
  stripTerminalSequences,
  truncateToWidth,
  visibleWidth,
  wrapTextWithAnsi,
} from "../../src/tui/utils.ts";

const PIECES = [
  "word",
  "a",
  "longerword",
  "x".repeat(45),
  " ",
  "   ",
  "你好",
  "世界。",
  "한국",
  "👍🏽",
  "👨‍👩‍👧",
  "🇯🇵",
  "é",
  "\x1b[31m",
  "\x1b[1;4m",
  "\x1b[0m",
  "\x1b[44m",
  "\x1b[9m",
  "\x1b[38;5;240m",
  "\x1b]8;;https://example.com\x07",
  "\x1b]8;;\x07",
  "\x1b]8;id=1;https://a.b\x1b\\",
  "\x1b]8;;\x1b\\",
  "\x1b_pi:c\x07",
];

/** A deterministic sequence of lines (a linear congruential generator; no clock, no Math.random). */
function* lines(count: number): Generator<string> {
  let seed = 42;
  const next = (n: number) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
  for (let i = 0; i < count; i++) {
    let line = "";
    for (let k = next(16); k > 0; k--) line += PIECES[next(PIECES.length)];
    yield line;
  }
}

Deno.test("every wrapped line fits the width (2 and more)", () => {
  for (const line of lines(600)) {
    for (const width of [2, 3, 7, 20, 80]) {
      for (const out of wrapTextWithAnsi(line, width)) {
        assert(visibleWidth(out) <= width, `${JSON.stringify(line)} at ${width}: ${JSON.stringify(out)}`);
      }
    }
  }
});

Deno.test("wrapping loses no visible text but the spaces at breaks", () => {
  for (const line of lines(300)) {
    const visible = (s: string) => stripTerminalSequences(s).replaceAll(" ", "");
    assertEquals(wrapTextWithAnsi(line, 9).map(visible).join(""), visible(line));
  }
});

Deno.test("truncated lines fit, and padded ones fill the width exactly", () => {
  for (const line of lines(600)) {
    for (const width of [1, 3, 10, 40]) {
      for (const ellipsis of ["...", "…", ""]) {
        const cut = truncateToWidth(line, width, ellipsis);
        assert(visibleWidth(cut) <= width, `${JSON.stringify(line)} at ${width}: ${JSON.stringify(cut)}`);
        assertEquals(visibleWidth(truncateToWidth(line, width, ellipsis, true)), width);
      }
    }
  }
});

Deno.test("slices and overlay segments report the width of what they return", () => {
  for (const line of lines(600)) {
    for (const [start, length] of [[0, 5], [3, 8], [7, 1], [12, 30]]) {
      for (const strict of [false, true]) {
        const slice = sliceWithWidth(line, start, length, strict);
        assertEquals(visibleWidth(slice.text), slice.width);
        if (strict) assert(slice.width <= length);
      }
      const segments = extractSegments(line, start, start + length, length, true);
      assertEquals(visibleWidth(segments.before), segments.beforeWidth);
      assertEquals(visibleWidth(segments.after), segments.afterWidth);
      assert(segments.beforeWidth <= start && segments.afterWidth <= length);
    }
  }
});

Deno.test("stripping escape sequences keeps the width and leaves no ESC behind", () => {
  for (const line of lines(600)) {
    const plain = stripTerminalSequences(line);
    assertEquals(visibleWidth(plain), visibleWidth(line));
    assert(!plain.includes("\x1b"));
  }
});

Deno.test("widths of the common kinds of content", () => {
  assertEquals(visibleWidth(""), 0);
  assertEquals(visibleWidth("hello"), 5);
  assertEquals(visibleWidth("a\tb"), 5);
  assertEquals(visibleWidth("\x1b[1;31mred\x1b[0m \x1b]8;;https://x\x07link\x1b]8;;\x07\x1b_pi:c\x07"), 8);
  assertEquals(visibleWidth("你好"), 4);
  assertEquals(visibleWidth("👨‍👩‍👧‍👦"), 2);
  assertEquals(visibleWidth("🇯🇵"), 2);
  assertEquals(visibleWidth("🇺"), 2);
  assertEquals(visibleWidth("👍🏽"), 2);
  assertEquals(visibleWidth("❤️"), 2);
  assertEquals(visibleWidth("e\u0301"), 1);
  assertEquals(visibleWidth("\u200b\u200d\ufeff"), 0);
  assertEquals(visibleWidth("ｆｕｌｌ"), 8);
  assertEquals(visibleWidth("ｶﾀｶﾅ"), 4);
});

Deno.test("the width cache gives the same answers after it has evicted entries", () => {
  const samples = [...lines(2000)].filter((l) => /[^\x20-\x7e]/.test(stripTerminalSequences(l)));
  const first = samples.map(visibleWidth);
  assertEquals(samples.map(visibleWidth), first);
  assertEquals(samples.slice(0, 50).map(visibleWidth), first.slice(0, 50));
});
