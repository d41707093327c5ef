/**
 * The Markdown component's incremental path: a text streamed in deltas (and edited, resized, invalidated on the
 * way) renders exactly as a fresh component renders the same text, the incremental lexer's tokens equal a full
 * lex's, and the stable prefix really grows (so a delta re-lexes only the last blocks).
 */
import { assert, assertEquals } from "../support/assert.ts";
import { Markdown, type MarkdownTheme, TuiMainScreen } from "../../src/tui/mod.ts";
import { VirtualTerminal } from "../support/virtual_terminal.ts";
import { IncrementalLexer } from "../../src/tui/components/markdown_document.ts";
import {
  lexMarkdown,
  removeCommentBlocks,
  trimPartialClosingFence,
} from "../../src/tui/components/markdown_lexer.ts";

const wrap = (open: string, close: string) => (text: string) => `\x1b[${open}m${text}\x1b[${close}m`;
const THEME: MarkdownTheme = {
  heading: wrap("36", "39"),
  link: wrap("34", "39"),
  linkUrl: wrap("2", "22"),
  code: wrap("33", "39"),
  codeBlock: wrap("32", "39"),
  codeBlockBorder: wrap("90", "39"),
  quote: wrap("35", "39"),
  quoteBorder: wrap("95", "39"),
  hr: wrap("91", "39"),
  listBullet: wrap("96", "39"),
  bold: wrap("1", "22"),
  italic: wrap("3", "23"),
  strikethrough: wrap("9", "29"),
  underline: wrap("4", "24"),
  highlightCode: (code, lang) => code.split("\n").map((line) => `${lang ?? ""}|${line}`),
};

// deno-lint-ignore no-control-regex
const stripAnsi = (line: string) => line.replace(/\x1b\[[0-9;]*m/g, "");

/** Documents whose blocks can change meaning as text is appended: the lexer must never cut them wrongly. */
const DOCS: string[] = [
  "# Title\n\nFirst paragraph with *em*.\n\nSecond paragraph\ncontinued.\n\n## Sub\nText under sub.\n\n---\n\nEnd.",
  "- a\n\n- b\n\n  continued item\n\nafter list\n\n1. x\n\n2. y\n\ntail",
  "para\n\n    indented code\n\n    more code\n\nafter code\n\n```\nfenced\n\n\nwith blanks\n```\n\ndone",
  "Setext\n===\n\nText\n---\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nafter table\n| c |\n|---|\n| 3 |\n\nend",
  "> quote one\n\n> quote two\nlazy line\n\nafter\n\n<div>\n\nhtml with blank\n\n</div>\n\n<!-- c -->\n\nx\n\n<!-- unclosed",
  "$$\n\\frac{a}{b}\n$$\n\ntext $x^2$\n\n\\[\n\\sum_i x_i\n\\]\n\n$$ \\int_0^1 pending",
  "Crlf\r\nline\r\n\r\nnext\r\rafter\r\n\r\n\tTabbed\n\n\t\tdeep\n\nend",
  "A [ref] link.\n\nMore text.\n\n[ref]: https://example.com\n\nAnd after.",
  "```js\nlet a = 1;\n```\n\ncode done\n\n```\nunclosed\n``",
  "# H\n<!-- c -->\n\npara\n# H2\n- list right after heading\n\nfin",
  "para\n\n\n\n\nmany blanks\n\n   \n\nspaces-only line\n\n* * *\n\n- [ ] task\n- [x] done",
  "中文段落**粗体**。\n\n日本語の段落\n\n한국어 문단\n\n😀 emoji paragraph\n\nhttps://example.com。後",
];

function freshTokens(text: string): string {
  const tokens = lexMarkdown(text.replace(/\t/g, "   "));
  trimPartialClosingFence(tokens);
  removeCommentBlocks(tokens);
  return JSON.stringify(tokens);
}

function render(text: string, width: number): readonly string[] {
  return new Markdown(text, 1, 1, THEME, { bgColor: wrap("44", "49") }).render(width);
}

Deno.test("markdown stream: every delta size renders like a fresh component and lexes like a full lex", () => {
  for (const doc of DOCS) {
    for (const step of [1, 5, 16]) {
      const streamed = new Markdown("", 1, 1, THEME, { bgColor: wrap("44", "49") });
      const lexer = new IncrementalLexer();
      for (let end = step; end < doc.length + step; end += step) {
        const text = doc.slice(0, Math.min(end, doc.length));
        streamed.setText(text);
        const width = end % 3 === 0 ? 24 : 50;
        assertEquals(
          streamed.render(width),
          render(text, width),
          `${JSON.stringify(text)} at width ${width}`,
        );
        const lexed = lexer.lex(text);
        const tokens = [...lexed.stable.slice(0, lexed.stableCount), ...lexed.rest];
        if (text.trim() !== "") assertEquals(JSON.stringify(tokens), freshTokens(text), JSON.stringify(text));
      }
    }
  }
});

Deno.test("markdown stream: the stable prefix grows while streaming, so a delta re-lexes only the tail", () => {
  const lexer = new IncrementalLexer();
  const doc = DOCS[0]! + "\n\n" + DOCS[2]!;
  let text = "";
  for (const character of doc) {
    text += character;
    lexer.lex(text);
  }
  const lexed = lexer.lex(text);
  // Everything but the last paragraph ("done") is stable.
  assertEquals(lexed.rest.map((token) => token.raw), ["done"]);
  assert(lexed.stableCount > 10);
});

Deno.test("markdown stream: edits before the stable end, width changes and invalidate() still render like fresh", () => {
  const md = new Markdown("", 0, 0, THEME);
  let calls = 0;
  const counting: MarkdownTheme = {
    ...THEME,
    highlightCode: (code, lang) => {
      calls++;
      return THEME.highlightCode!(code, lang);
    },
  };
  const highlighted = new Markdown("", 0, 0, counting);
  const base = DOCS[2]!;
  const versions = [
    base,
    base + "\n\nmore",
    base.replace("para", "PARA"),
    "x\n\n" + base,
    base.slice(0, 40),
    base,
  ];
  for (const text of versions) {
    for (const width of [30, 60]) {
      md.setText(text);
      highlighted.setText(text);
      assertEquals(md.render(width), new Markdown(text, 0, 0, THEME).render(width));
      assertEquals(highlighted.render(width), new Markdown(text, 0, 0, THEME).render(width));
    }
    md.invalidate();
  }
  // One fenced block: highlighted once per version that changed its code or follows invalidate(), not per render.
  assert(calls <= versions.length, `highlightCode ran ${calls} times`);
});

/** A markdown reply of about `size` characters, sections of every common construct. */
function reply(size: number): string {
  let doc = "";
  for (let i = 0; doc.length < size; i++) {
    doc +=
      `## Part ${i}\n\nText ${i} with **bold**, \`code\`, a [link](https://e.com/${i}) and 中文 that wraps ` +
      `across the width of the terminal at least once.\n\n- item ${i}\n- item two\n  - nested\n\n` +
      "```ts\nconst v" + i + " = " + i + ";\n```\n\n| k | v |\n|---|---|\n| a | " + i + " |\n\n> note " + i +
      "\n\n";
  }
  return doc.slice(0, size);
}

/** Streams `doc` in 16-character deltas into a TuiMainScreen, a frame every 8 deltas; gives the terminal. */
async function streamIntoScreen(
  doc: string,
): Promise<{ bytes: number; terminal: VirtualTerminal; md: Markdown }> {
  const terminal = new VirtualTerminal(100, 30);
  const tui = new TuiMainScreen(terminal);
  const md = new Markdown("", 1, 0, THEME);
  tui.addChild(md);
  tui.renderNow();
  let text = "";
  let deltas = 0;
  for (let at = 0; at < doc.length; at += 16) {
    text += doc.slice(at, at + 16);
    md.setText(text);
    if (++deltas % 8 === 0) tui.renderNow();
  }
  tui.renderNow();
  await terminal.flush();
  const encoder = new TextEncoder();
  const bytes = terminal.writes.reduce((total, data) => total + encoder.encode(data).length, 0);
  return { bytes, terminal, md };
}

Deno.test("markdown stream in a TuiMainScreen: bytes grow linearly with the text and the screen shows the reply", async () => {
  const small = await streamIntoScreen(reply(8 * 1024));
  const large = await streamIntoScreen(reply(32 * 1024));
  // Only changed lines are rewritten: four times the text, about four times the bytes (a full redraw per frame
  // would be about sixteen times).
  const ratio = large.bytes / small.bytes;
  assert(ratio > 3.5 && ratio < 4.5, `bytes ${small.bytes} -> ${large.bytes} (x${ratio.toFixed(2)})`);
  const expected = large.md.render(100).map((line) => stripAnsi(line).trimEnd());
  const screen = (await large.terminal.viewport()).map((line) => line.trimEnd());
  assertEquals(screen, expected.slice(-screen.length));
});

/** Pieces that change meaning with what comes after them, joined in random orders by the fuzz test below. */
const SNIPPETS = [
  "para\n",
  "\n",
  "\n\n",
  "# h\n",
  "Setext\n===\n",
  "text\n---\n",
  "- item\n",
  "  continued\n",
  "1. one\n",
  "    indented\n",
  "```\ncode\n",
  "```\n",
  "~~~\n",
  "> quote\n",
  "lazy\n",
  "| a | b |\n",
  "|---|---|\n",
  "<div>\n",
  "</div>\n",
  "<!-- c -->\n",
  "<!-- open\n",
  "-->\n",
  "$$\n",
  "\\frac{a}{b}\n",
  "\\[\n",
  "\\]\n",
  "$x^2$ inline\n",
  "***\n",
  "| x |\n",
  "$$ a $$\n",
  "\\[ b \\]\n",
  "  - sub\n",
  "text <!-- c --> more\n",
  "   \n",
  "\t\ttabbed\n",
  "\r\n",
  "中文**粗体**\n",
  "[r]: https://r.example\n",
  "a [r] ref\n",
];

Deno.test("markdown stream fuzz: random documents in random deltas lex like a full lex at every step", () => {
  let seed = 12345;
  const random = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  for (let doc = 0; doc < 400; doc++) {
    let text = "";
    const pieces = 10 + random(30);
    // Link definitions turn incremental lexing off; most documents leave them out so the prefix is exercised.
    const pool = doc % 4 === 0 ? SNIPPETS.length : SNIPPETS.length - 2;
    for (let i = 0; i < pieces; i++) text += SNIPPETS[random(pool)];
    const lexer = new IncrementalLexer();
    const md = new Markdown("", 0, 0, THEME);
    for (let end = 0; end < text.length;) {
      end = Math.min(text.length, end + 1 + random(24));
      const prefix = text.slice(0, end);
      if (prefix.trim() === "") continue;
      const lexed = lexer.lex(prefix);
      const tokens = [...lexed.stable.slice(0, lexed.stableCount), ...lexed.rest];
      assertEquals(JSON.stringify(tokens), freshTokens(prefix), JSON.stringify(prefix));
      md.setText(prefix);
      if (end === text.length || random(5) === 0) {
        assertEquals(md.render(33), new Markdown(prefix, 0, 0, THEME).render(33), JSON.stringify(prefix));
      }
    }
  }
});
