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

// Split in suites so that no side's output nears the 64 KiB a pipe takes at once.
const SUITES: Record<string, TuiCase[]> = {};
for (const [label, text] of Object.entries(UTIL_TEXTS)) {
  for (const [suite, list] of Object.entries(casesFor(label, text))) (SUITES[suite] ??= []).push(...list);
}

for (const [suite, list] of Object.entries(SUITES)) {
  Deno.test(`text utilities render as pi-tui 1.6.0 does (${suite}, ${list.length} cases)`, async () => {
    await compareWithPiTui(suite, list);
  });
}
