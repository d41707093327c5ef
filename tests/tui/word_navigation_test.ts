/**
 * Word motions of src/tui/word_navigation.ts: the expected positions are what pi-tui 1.6.0's
 * findWordForward/findWordBackward give (the module is also compared case by case with the reference
 * in utils_internal_conformance_test.ts).
 */
import { assertEquals } from "../support/assert.ts";
import {
  findWordBackward,
  findWordForward,
  type WordNavigationOptions,
} from "../../src/tui/word_navigation.ts";

Deno.test("word motions cross the whitespace next to the cursor, then one word", () => {
  assertEquals(findWordForward("hello world", 0), 5);
  assertEquals(findWordForward("hello world", 5), 11);
  assertEquals(findWordBackward("hello world", 11), 6);
  assertEquals(findWordBackward("hello world", 6), 0);
  assertEquals(findWordForward("   ", 0), 3);
  assertEquals(findWordBackward("   ", 3), 0);
});

Deno.test("ASCII punctuation inside a segmenter word stops the motion", () => {
  assertEquals(findWordForward("foo.bar", 0), 3);
  assertEquals(findWordForward("foo.bar", 3), 4);
  assertEquals(findWordBackward("foo.bar", 7), 4);
  assertEquals(findWordBackward("foo.bar", 4), 3);
  assertEquals(findWordBackward("path/to/file.ts", 15), 13);
  assertEquals(findWordForward("can't stop", 0), 3);
});

Deno.test("a run of punctuation is crossed whole", () => {
  assertEquals(findWordForward("a ... b", 1), 5);
  assertEquals(findWordBackward("a ... b", 5), 2);
});

Deno.test("CJK text moves by the segmenter's dictionary words", () => {
  assertEquals(findWordForward("你好世界", 0), 2);
  assertEquals(findWordBackward("你好世界", 4), 2);
});

Deno.test("cursors outside the text are clamped", () => {
  assertEquals(findWordBackward("x", -1), 0);
  assertEquals(findWordForward("x", 5), 1);
});

Deno.test("an atomic segment from a custom segmenter is crossed as one unit", () => {
  const options: WordNavigationOptions = {
    isAtomicSegment: (s) => s.startsWith("[paste"),
    segment: (s) =>
      [...s.matchAll(/\[paste #\d+\]|\w+|\s+|./gu)].map((m) => ({
        segment: m[0],
        index: m.index,
        input: s,
        isWordLike: /^\w/.test(m[0]),
      })),
  };
  assertEquals(findWordForward("ab [paste #1] cd", 2, options), 13);
  assertEquals(findWordBackward("ab [paste #1] cd", 14, options), 3);
  assertEquals(findWordBackward("ab [paste #1]", 13, options), 3);
});
