/**
 * Conformance of the public text utilities (visibleWidth, truncateToWidth, wrapTextWithAnsi,
 * sliceByColumn, stripTerminalSequences, replaceControlCharacters, getOsc8LinkAtColumn) with
 * pi-tui 1.6.0: the same case bodies run against both (tests/support/tui_oracle.ts) over styled
 * text, OSC 8 links, CJK, emoji sequences, combining marks, tabs, long words and blank input.
 */
import { compareWithPiTui, js, type TuiCase } from "../support/tui_oracle.ts";
import { UTIL_TEXTS } from "./utils_texts.ts";

const TRUNCATE_WIDTHS = [1, 3, 20, 80, 200];
const WRAP_WIDTHS = [1, 20, 80, 200];

/** Column ranges [start, length, strict] cut from every text. */
const SLICES: [number, number, boolean][] = [
  [0, 5, false],
  [3, 10, false],
  [5, 1, false],
  [1, 3, true],
  [2, 7, true],
  [10, 20, false],
  [0, 200, false],
];

/** Every case for one text, grouped by the suite (capture file) it belongs to. */
function casesFor(label: string, text: string): Record<string, TuiCase[]> {
  const t = js(text);
  const groups: Record<string, TuiCase[]> = {
    utils: [
      { name: `width/${label}`, body: `return T.visibleWidth(${t});` },
      { name: `strip/${label}`, body: `return T.stripTerminalSequences(${t});` },
      { name: `controls/${label}`, body: `return T.replaceControlCharacters(${t});` },
      {
        name: `slice/${label}`,
        body: `return ${js(SLICES)}.map(([s, n, strict]) => T.sliceByColumn(${t}, s, n, strict));`,
      },
      {
        name: `osc8/${label}`,
        body: `return Array.from({ length: 40 }, (_, c) => T.getOsc8LinkAtColumn(${t}, c) ?? null);`,
      },
    ],
    utils_wrap: WRAP_WIDTHS.map((w) => ({
      name: `wrap/${label}/w${w}`,
      body: `return T.wrapTextWithAnsi(${t}, ${w});`,
    })),
    utils_truncate_narrow: [],
    utils_truncate_wide: [],
  };
  for (const w of TRUNCATE_WIDTHS) {
    groups[w <= 20 ? "utils_truncate_narrow" : "utils_truncate_wide"].push({
      name: `truncate/${label}/w${w}`,
      body: `return [T.truncateToWidth(${t}, ${w}), T.truncateToWidth(${t}, ${w}, "...", true), ` +
        `T.truncateToWidth(${t}, ${w}, ""), T.truncateToWidth(${t}, ${w}, "…", true), ` +
        `T.truncateToWidth(${t}, ${w}, "\\x1b[2m…\\x1b[22m")];`,
    });
  }
  return groups;
}

/** Boundary arguments and inputs the per-text loops above do not reach. */
function edgeCases(): TuiCase[] {
  const texts = ["", "hello world", "你好世界", "\x1b[4mu\x1b[0m", "👨‍👩‍👧 ab", "\t\t", "a\u0301"];
  const out: TuiCase[] = texts.flatMap((text, i) => [
    { name: `edge/wrap0/${i}`, body: `return T.wrapTextWithAnsi(${js(text)}, 0);` },
    { name: `edge/wrap-negative/${i}`, body: `return T.wrapTextWithAnsi(${js(text)}, -3);` },
    {
      name: `edge/truncate-nonpositive/${i}`,
      body: `return [0, -1].flatMap((w) => [T.truncateToWidth(${js(text)}, w), T.truncateToWidth(${
        js(text)
      }, w, "", true)]);`,
    },
    {
      name: `edge/slice-odd-ranges/${i}`,
      body: `return [[-3, 5], [-5, 2], [0, 0], [2, -1], [1, 1], [100, 5]]` +
        `.flatMap(([s, n]) => [T.sliceByColumn(${js(text)}, s, n), T.sliceByColumn(${
          js(text)
        }, s, n, true)]);`,
    },
    {
      name: `edge/osc8-odd-columns/${i}`,
      body: `return [-1, 0, 0.5, 1e9].map((c) => T.getOsc8LinkAtColumn(${js(text)}, c) ?? null);`,
    },
  ]);
  const singles: Record<string, string> = {
    "unterminated-csi": "ab\x1b[31",
    "unterminated-osc": "ab\x1b]8;;https://x",
    "lone-surrogate": "a\ud800b\udc00",
    "csi-other-final": "a\x1b[2Ab\x1b[?25lc",
    "csi-colon-params": "\x1b[38:5:196mred\x1b[0m",
    "sgr-incomplete-256": "\x1b[38;5mblink?\x1b[0m and more words here",
    "sgr-reset-mid-link": "\x1b]8;;http://l\x07\x1b[1mbold link\x1b[0m still link\x1b]8;;\x07 no",
    "trailing-reset-after-space": "word \x1b[0m",
    "spaces-then-codes": "     \x1b[31m     \x1b[0m",
    "style-closing-space": "\x1b[1mbold\x1b[22m \x1b[3mitalic\x1b[23m words",
    "crlf-styles": "\x1b[41mred bg\r\nnext\rline\x1b[49m",
    "cjk-punct-start": "「引用」と、句読点。！？",
    "ellipsis-wide": "你好世界你好世界",
  };
  for (const [name, text] of Object.entries(singles)) {
    const t = js(text);
    out.push({
      name: `edge/${name}`,
      body: `return { width: T.visibleWidth(${t}), strip: T.stripTerminalSequences(${t}), ` +
        `wrap: [1, 4, 7].map((w) => T.wrapTextWithAnsi(${t}, w)), ` +
        `truncate: [2, 5, 9].map((w) => [T.truncateToWidth(${t}, w, "…"), T.truncateToWidth(${t}, w, "你", true)]), ` +
        `slice: [T.sliceByColumn(${t}, 1, 4), T.sliceByColumn(${t}, 3, 3, true)], ` +
        `links: [0, 2, 5, 9].map((c) => T.getOsc8LinkAtColumn(${t}, c) ?? null) };`,
    });
  }
  return out;
}

// Split in suites so that no side's output nears the 64 KiB a pipe takes at once.
const SUITES: Record<string, TuiCase[]> = {};
for (const [label, text] of Object.entries(UTIL_TEXTS)) {
  for (const [suite, list] of Object.entries(casesFor(label, text))) (SUITES[suite] ??= []).push(...list);
}

SUITES.utils_edges = edgeCases();

for (const [suite, list] of Object.entries(SUITES)) {
  Deno.test(`text utilities render as pi-tui 1.6.0 does (${suite}, ${list.length} cases)`, async () => {
    await compareWithPiTui(suite, list);
  });
}
