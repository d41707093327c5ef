/**
 * The Markdown component's CJK-friendly `*`/`_` emphasis (src/tui/components/markdown_cjk_emphasis.ts) is our
 * own copy of marked-cjk-friendly 0.1.2's `emStrong` (what pi-tui 1.6.0 uses) with its regexes built on first
 * use. These tests hold it to the package: the same tokens on generated texts mixing delimiters, CJK letters and
 * punctuation, astral CJK, variation selectors, ASCII words and punctuation.
 */
import { Marked } from "npm:marked@18.0.11";
import markedCjkFriendly from "npm:marked-cjk-friendly@0.1.2";
import { assertEquals } from "../support/assert.ts";
import { cjkFriendlyEmStrong } from "../../src/tui/components/markdown_cjk_emphasis.ts";

const PIECES = [
  "*",
  "**",
  "***",
  "_",
  "__",
  "~",
  "~~",
  " ",
  "a",
  "word",
  "9",
  ".",
  ",",
  "!",
  "(",
  ")",
  '"',
  "「",
  "」",
  "。",
  "、",
  "，",
  "！",
  "？",
  "中",
  "文字",
  "です",
  "カナ",
  "한국",
  "𠮷",
  "葛\u{E0100}",
  "︀",
  "\u{FE0F}",
  "😀",
  "\\",
  "`",
  "é",
  "ｱ",
  "・",
  "\n",
];

/** Deterministic texts: a small linear congruential generator picks 1–14 pieces per text. */
function texts(count: number): string[] {
  let seed = 19;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const length = 1 + Math.floor(next() * 14);
    out.push(Array.from({ length }, () => PIECES[Math.floor(next() * PIECES.length)]).join(""));
  }
  return out;
}

function lexers(options: { gfm: boolean }) {
  const ours = new Marked({ gfm: options.gfm }).use({ tokenizer: { emStrong: cjkFriendlyEmStrong } });
  // The package also replaces `del`; the kit keeps its own strict `~~` rule, so only emphasis is compared.
  const theirsEmphasisOnly = new Marked({ gfm: options.gfm }).use({
    tokenizer: { emStrong: markedCjkFriendly().tokenizer?.emStrong },
  });
  return { ours, theirsEmphasisOnly };
}

Deno.test("CJK emphasis: tokens equal marked-cjk-friendly 0.1.2's on 6,000 generated texts (GFM and not)", () => {
  for (const gfm of [true, false]) {
    const { ours, theirsEmphasisOnly } = lexers({ gfm });
    const mismatches: string[] = [];
    for (const text of texts(3000)) {
      const a = JSON.stringify(ours.lexer(text));
      const b = JSON.stringify(theirsEmphasisOnly.lexer(text));
      if (a !== b) mismatches.push(JSON.stringify(text));
    }
    assertEquals(mismatches.slice(0, 10), [], `gfm: ${gfm}`);
  }
});

Deno.test("CJK emphasis: the package's own examples are strong or em as it makes them", () => {
  const { ours, theirsEmphasisOnly } = lexers({ gfm: true });
  const examples = [
    "**この文は太字になります。**この文は太字になりません。",
    "これは*強調*です。",
    "__下線の太字__です",
    "a**「括弧」**b",
    "**𠮷野家**で",
    "葛\u{E0100}**太字**",
    "*中*文*",
  ];
  for (const text of examples) {
    const tokens = ours.lexer(text);
    assertEquals(JSON.stringify(tokens), JSON.stringify(theirsEmphasisOnly.lexer(text)), text);
  }
  const first = ours.lexer(examples[0])[0] as { tokens: { type: string }[] };
  assertEquals(first.tokens[0].type, "strong");
});
