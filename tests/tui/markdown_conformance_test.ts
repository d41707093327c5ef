/**
 * Markdown rendering conformance with pi-tui 1.6.0: a corpus of documents covering every construct (headings,
 * emphasis, code spans and blocks, nested/ordered/task lists, quotes, tables, links, rules, images, HTML, CJK,
 * emoji, tabs, long words and lines, LaTeX) rendered at widths 1/20/80/200 with a theme of distinct ANSI codes,
 * plain and with padding, background and a default text style; plus caching, highlighting and option cases.
 */
import { compareWithPiTui, js, type TuiCase } from "../support/tui_oracle.ts";

/** A theme whose every function wraps in its own SGR codes (closing codes, not full resets). */
const THEME = `const theme = {
  heading: (t) => "\\x1b[36m" + t + "\\x1b[39m",
  link: (t) => "\\x1b[34m" + t + "\\x1b[39m",
  linkUrl: (t) => "\\x1b[2m" + t + "\\x1b[22m",
  code: (t) => "\\x1b[33m" + t + "\\x1b[39m",
  codeBlock: (t) => "\\x1b[32m" + t + "\\x1b[39m",
  codeBlockBorder: (t) => "\\x1b[90m" + t + "\\x1b[39m",
  quote: (t) => "\\x1b[35m" + t + "\\x1b[39m",
  quoteBorder: (t) => "\\x1b[95m" + t + "\\x1b[39m",
  hr: (t) => "\\x1b[91m" + t + "\\x1b[39m",
  listBullet: (t) => "\\x1b[96m" + t + "\\x1b[39m",
  bold: (t) => "\\x1b[1m" + t + "\\x1b[22m",
  italic: (t) => "\\x1b[3m" + t + "\\x1b[23m",
  strikethrough: (t) => "\\x1b[9m" + t + "\\x1b[29m",
  underline: (t) => "\\x1b[4m" + t + "\\x1b[24m",
};`;

/** A theme that closes every style with a full reset (as chalk-less themes do), with a highlighter and indent. */
const RESET_THEME = `const r = (code) => (t) => "\\x1b[" + code + "m" + t + "\\x1b[0m";
const theme = {
  heading: r("1;35"), link: r("4;34"), linkUrl: r("2"), code: r("7"), codeBlock: r("32"),
  codeBlockBorder: r("2;37"), quote: r("3;33"), quoteBorder: r("33"), hr: r("2"), listBullet: r("36"),
  bold: r("1"), italic: r("3"), strikethrough: r("9"), underline: r("4"),
  highlightCode: (code, lang) => code.split("\\n").map((l, i) => "\\x1b[3" + (i % 7) + "m" + (lang ?? "?") + ":" + l + "\\x1b[0m"),
  codeBlockIndent: "| ",
};`;

const DEFAULT_STYLE =
  `{ color: (t) => "\\x1b[38;5;208m" + t + "\\x1b[39m", bgColor: (t) => "\\x1b[48;5;236m" + t + "\\x1b[49m",
  italic: true, underline: true }`;

const DOCS: Record<string, string> = {
  headings:
    "# Title one\n## Second *level* `code`\n### Third **bold**\n#### Fourth\n##### Fifth\n###### Sixth\n\nSetext\n===\n\nSub\n---\ntext after",
  emphasis:
    "Plain *italic* and **bold** and ***both*** and ~~strike~~ and ~single~ tilde, `code span`, \\*escaped\\*, a_b_c, __under__ _it_.\nSecond line with hard break  \nafter break\\\nand backslash break.",
  code:
    "Before\n```ts\nconst x: number = 1;\nfunction f() {\n\treturn x; // tab\n}\n```\nAfter\n\n~~~\nno lang ~~~ here\n~~~\n\n    indented code\n    second",
  longcode: "```\n" + "x".repeat(150) + " " + "y ".repeat(60) + "\n```\n",
  lists:
    "- one\n- two with **bold**\n  - nested a\n  - nested b\n    1. deep one\n    2. deep two\n- three\n\n1. first\n2. second\n3. third\n\n7) seven\n8) eight\n\n* star\n+ plus\n\n- [ ] todo\n- [x] done\n- [ ] todo with a very long text that will need wrapping at narrow widths for sure",
  loose:
    "1. alpha\n\n   para in item\n\n2. beta\n\n   ```\n   code in item\n   ```\n3. gamma\n   > quote in item",
  quotes:
    "> A quote with *emphasis* and `code`\n> continued line\n>\n> > nested quote\n> > deeper\n\n> - list in quote\n> - second\n\n> ```\n> code in quote\n> ```\n\nafter",
  tables:
    "| Name | Value | Notes |\n|:-----|------:|:-----:|\n| a | 1 | short |\n| **bold** | 22 | `code` here |\n| long | 333 | a rather long note that will need to wrap inside its column when narrow |\n\nText after table\n\n| x |\n|---|\n| 1 |\nfollowing paragraph",
  widetable: "| " + Array.from({ length: 8 }, (_, i) => `Column${i} header words`).join(" | ") + " |\n|" +
    "---|".repeat(8) + "\n| " +
    Array.from({ length: 8 }, (_, i) => `cell ${i} ${"w".repeat(i * 6)}`).join(" | ") +
    " |",
  links:
    "See [the docs](https://example.com/docs) and <https://auto.example.com> and https://bare.example.com/path。next, mail <me@example.com>, [same](https://same.example.com) vs [https://same.example.com](https://same.example.com).",
  reflinks:
    "A [ref link][r] and [another].\n\n[r]: https://ref.example.com\n[another]: https://another.example.com 'T'",
  hr: "above\n\n---\n\nbelow\n***\n___\nend",
  images: '![alt text](https://img.example.com/a.png) and inline ![second](b.png "title") image',
  html:
    "<div>\n<b>bold html</b>\n</div>\n\ninline <span>span</span> and <!-- hidden --> comment\n\n<!-- block comment -->\n\nafter comment\n\n<!-- unclosed",
  cjk:
    "# 中文标题\n\n这是**粗体**文本，还有*斜体*。日本語の**強調**です。한국어 **굵게** 텍스트.\n\n- 列表项目一\n- 列表项目二，包含很长的文字需要换行显示在窄的终端里面\n\n| 名前 | 値 |\n|---|---|\n| 東京 | 一千万 |",
  emoji: "Emoji 😀 **bold 🎉** and `🚀` and family 👨‍👩‍👧‍👦 flags 🇯🇵🇺🇸 and text after.\n\n- 🍎 apple\n- 🍌 banana",
  longwords: "Supercalifragilisticexpialidocious" + "x".repeat(120) + " and https://example.com/" +
    "a".repeat(100) +
    " end.\n\n**" + "b".repeat(90) + "**",
  tabs: "\tTabbed start\nmiddle\ttab\there\n\n-\titem with tab\n\n```\n\tcode\twith\ttabs\n```",
  latex:
    "Inline $x^2 + y^2 = z^2$ and \\(\\alpha + \\beta\\) and price $5 and $HOME var.\n\n$$\n\\frac{a}{b} + \\sqrt{x}\n$$\n\n\\[\n\\sum_{i=1}^{n} i = \\frac{n(n+1)}{2}\n\\]\n\nPending $$ \\int_0^1",
  mixed:
    "# Report\n\nIntro paragraph with [link](http://x.y) and `code`.\n\n## Data\n\n| k | v |\n|---|---|\n| a | 1 |\n\n> Note: **important**\n\n1. Step one\n   ```sh\n   echo hi\n   ```\n2. Step two\n\n---\n\nDone. ✅",
  streamed: "Partial fence\n```js\nlet a = 1;\n``",
  empty_ish: "   \n\n  ",
  comment_only: "<!-- just a comment -->",
  crlf: "Line one\r\nline two\r\n\r\n- a\r\n- b\r\n\r\n```\r\ncode\r\n```\r\n",
  inline_mix:
    "**bold [link `code` inside](https://x.y) tail** and *em ~~struck **strong**~~* and [![img](i.png)](https://l.k) " +
    "and <kbd>Ctrl</kbd>+C and a <!-- c --> b and `` double `tick` `` and trailing \\",
  headings_inline:
    "# `code` in **h1** [link](https://h.example)\n### *em* and ~~del~~ in h3\n#### Long heading " +
    "word ".repeat(30),
  table_inline:
    "| `code` | **bold** | [link](https://t.example) |\n|---|:---:|---:|\n| a | b | c |\n| 中文内容很长很长 | emoji 😀😀 | x |",
  math_in_text:
    "Euler $e^{i\\pi} + 1 = 0$, sum \\(\\sum_{k=1}^n k\\), env $$\\begin{pmatrix} a & b \\\\ c & d \\end{pmatrix}$$ " +
    "and $\\frac{1}{2}$ then $$\n\\lim_{x \\to 0} \\frac{\\sin x}{x}\n$$",
  list_numbers: "5. five\n6. six\n\n10. ten\n11. eleven\n    - sub\n\n- [x] **done** task\n- [ ] `todo` task",
  nested_deep:
    "> > > > > > deep quote text that goes on\n\n- a\n  - b\n    - c\n      - d\n        - e deep item",
};

const WIDTHS = [1, 20, 80, 200];

function markdownCase(name: string, doc: string, width: number, variant: string): TuiCase {
  const setup = variant === "plain"
    ? `${THEME} const md = new T.Markdown(${js(doc)}, 0, 0, theme);`
    : variant === "padded"
    ? `${THEME} const md = new T.Markdown(${js(doc)}, 2, 1, theme, ${DEFAULT_STYLE});`
    : `${RESET_THEME} const md = new T.Markdown(${
      js(doc)
    }, 1, 0, theme, { bgColor: (t) => "\\x1b[44m" + t + "\\x1b[49m", bold: true });`;
  return { name: `md/${name}/${variant}/w${width}`, body: `${setup} return md.render(${width});` };
}

function corpusCases(): TuiCase[] {
  const cases: TuiCase[] = [];
  // Narrow widths where quotes lose their border and tables fall back to source.
  for (const width of [2, 3, 4, 7]) {
    for (const name of ["quotes", "nested_deep", "tables"]) {
      cases.push(markdownCase(name, DOCS[name]!, width, "plain"));
    }
  }
  for (const [name, doc] of Object.entries(DOCS)) {
    for (const width of WIDTHS) {
      cases.push(markdownCase(name, doc, width, "plain"));
      if (width !== 1) cases.push(markdownCase(name, doc, width, width === 20 ? "reset" : "padded"));
    }
  }
  return cases;
}

/** Behaviour beyond one render: caching, invalidation, the highlighter's reuse, options, streaming, hyperlinks. */
function behaviourCases(): TuiCase[] {
  const cases: TuiCase[] = [
    {
      name: "md/cache/same-array-and-settext",
      body: `${THEME} const md = new T.Markdown("# a\\n\\ntext", 0, 0, theme);
        const a = md.render(30); const b = md.render(30); md.setText("# a\\n\\nother"); const c = md.render(30);
        return { same: a === b, c, again: md.render(40) };`,
    },
    {
      name: "md/cache/empty-then-comment",
      body: `${THEME} const md = new T.Markdown("", 0, 0, theme); const a = md.render(10);
        md.setText("<!-- c -->"); const b = md.render(10); const c = md.render(10); return { a, b, c };`,
    },
    {
      name: "md/highlight/reuse-until-invalidate",
      body:
        `${RESET_THEME} let calls = 0; const hl = theme.highlightCode; theme.highlightCode = (c, l) => { calls++; return hl(c, l); };
        const md = new T.Markdown("\`\`\`py\\nprint(1)\\n\`\`\`\\n\\npara", 0, 0, theme);
        md.render(40); md.render(50); md.setText("\`\`\`py\\nprint(1)\\n\`\`\`\\n\\npara more"); const lines = md.render(50);
        const before = calls; md.invalidate(); md.render(50); return { before, after: calls, lines };`,
    },
    {
      name: "md/options/preserve-markers-and-escapes",
      body:
        `${THEME} const md = new T.Markdown("3) three\\n4) four\\n\\n+ plus\\n* star\\n\\n\\\\*not em\\\\* \\\\# x", 0, 0, theme, undefined,
        { preserveOrderedListMarkers: true, preserveBackslashEscapes: true }); return md.render(40);`,
    },
    {
      name: "md/options/no-latex",
      body:
        `${THEME} const md = new T.Markdown("$x^2$ and\\n\\n$$\\\\frac{1}{2}$$", 0, 0, theme, undefined, { renderLatex: false });
        return md.render(40);`,
    },
    {
      name: "md/options/transform-gets-content-width",
      body: `${THEME} const seen = []; const md = new T.Markdown("hello", 3, 0, theme, undefined,
        { transform: (m, w) => { seen.push(w); return m + " **" + w + "**"; } }); const lines = md.render(30);
        md.render(30); return { seen, lines };`,
    },
    {
      name: "md/hyperlinks/osc8",
      body: `${THEME} T.setCapabilityOverrides({ hyperlinks: true }); try {
        const md = new T.Markdown("[docs](https://d.example.com) <https://a.example.com> [x](mailto:x@y.z)", 0, 0, theme);
        return md.render(60); } finally { T.setCapabilityOverrides({}); }`,
    },
    {
      name: "md/stream/deltas-equal-fresh",
      body: `${THEME} const doc = ${js(DOCS.mixed + "\n\n" + DOCS.code + "\n\n" + DOCS.lists)};
        const md = new T.Markdown("", 1, 0, theme); const out = [];
        for (let i = 0; i <= doc.length; i += 7) { md.setText(doc.slice(0, i)); out.push(md.render(36).join("\\n")); }
        return out;`,
    },
    {
      name: "md/padding/wider-than-width",
      body: `${THEME} const out = {}; for (const w of [1, 2, 4, 7]) {
        out[w] = new T.Markdown("# Head\\n\\ntext here", 3, 2, theme, { bgColor: (t) => "\\x1b[41m" + t + "\\x1b[49m" }).render(w); }
        return out;`,
    },
    {
      name: "md/transform/empty-and-whitespace",
      body:
        `${THEME} const a = new T.Markdown("x", 0, 1, theme, undefined, { transform: () => "" }).render(10);
        const b = new T.Markdown("x", 0, 1, theme, undefined, { transform: () => "  \\n " }).render(10);
        const c = new T.Markdown("x", 1, 1, theme, undefined, { transform: (m) => m + "\\n\\n- added" }).render(10);
        return { a, b, c };`,
    },
    {
      name: "md/images/terminal-image-lines",
      body: `${THEME} const kitty = "\\x1b_Ga=T,f=100;AAAA\\x1b\\\\";
        const md = new T.Markdown("before\\n\\n" + kitty + "  \\nafter " + "w ".repeat(30), 1, 0, theme);
        return md.render(20);`,
    },
    {
      name: "md/marked/lexer-export",
      body: `const m = new T.Marked(); return m.lexer("# h\\n\\n- a").map((t) => t.type);`,
    },
  ];
  return cases;
}

Deno.test("markdown: renders like pi-tui 1.6.0 across the corpus, widths and styles", async () => {
  await compareWithPiTui("markdown", [...corpusCases(), ...behaviourCases()]);
});
