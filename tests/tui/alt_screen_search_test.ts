/**
 * Transcript search internals (pi-tui 1.6.0 dist/alt-screen-search.js, not exported by its index)
 * equal ours: findAltScreenSearchMatches over styled, CJK, emoji and wrapped lines (matches across
 * line ends, repeated blanks, case, regex characters), the index's change tracking and keys, the
 * search box rendered at widths 1/20/40/80/200 with and without results and hovered buttons, its
 * button hit-testing, and the flash container's lines.
 */
import { compareWithPiTui, js, type TuiCase } from "../support/tui_oracle.ts";
import { loadInternal } from "./colors_internal_modules.ts";

const IMPORT = loadInternal("A", "alt-screen-search.js", "alt_screen_search.ts") +
  loadInternal("F", "components/alt-screen-flash.js", "components/alt_screen_flash.ts");

const CORPORA: Record<string, string[]> = {
  plain: [
    "the quick brown fox",
    "jumps over the lazy dog",
    "",
    "The End of the story",
    "  indented   spaces  ",
  ],
  styled: [
    "\x1b[31mred\x1b[0m fox \x1b[1mBOLD fox\x1b[22m",
    "\x1b]8;;https://x.y\x07link fox\x1b]8;;\x07 tail",
    "fox\x1b[7mfox\x1b[27mfox",
  ],
  cjk: ["你好世界 fox 你好", "世界你好", "ｆｕｌｌ width", "日本語のテキスト"],
  emoji: ["👍🏽 fox 🎉", "e\u0301te fox", "café fox", "tab\there fox"],
  wrapped: ["a paragraph that is wrap", "ped across lines and conti", "nues here with fox at the", "end"],
  regex: ["a.b*c (x) [y] {z} $1 ^ | \\", "a+b?c", "price: $5.00"],
};

const QUERIES = [
  "fox",
  "FOX",
  "the",
  "  the   quick  ",
  "你好",
  "世界 你",
  "ｆｕｌｌ",
  "e\u0301",
  "👍🏽",
  "wrapped",
  "wrap",
  "lines and",
  "(x) [y]",
  "$5.00",
  "a.b*c",
  "",
  "   ",
  "fox fox",
  "here fox",
  "ab",
];

function matchCases(): TuiCase[] {
  const out: TuiCase[] = [];
  for (const [corpus, lines] of Object.entries(CORPORA)) {
    for (const query of QUERIES) {
      out.push({
        name: `find/${corpus}/${JSON.stringify(query)}`,
        body: `${IMPORT}
          const matches = A.findAltScreenSearchMatches(${js(lines)}, ${js(query)});
          return { matches, keys: matches.map(A.getAltScreenSearchMatchKey) };`,
      });
    }
  }
  out.push({
    name: "index/changes",
    body: `${IMPORT}
      const index = new A.AltScreenSearchIndex();
      const lines = ['one fox', 'two fox'];
      const out = [index.search(lines, 'fox'), index.search(lines, 'fox'), index.search(lines, ' fox '),
        index.search(['one fox', 'two fox'], 'fox'), index.search(['one fox', 'two foxes', 'x'], 'fox'),
        index.search(['one fox'], 'FOX'), index.search(['one fox'], '')];
      return { results: out.map((r) => ({ changed: r.changed, n: r.matches.length, keys: r.matches.map(A.getAltScreenSearchMatchKey) })),
        emptyKey: A.getAltScreenSearchMatchKey({ segments: [] }) };`,
  });
  return out;
}

function boxCases(): TuiCase[] {
  const out: TuiCase[] = [];
  const states: [string, string][] = [
    ["empty", ""],
    ["typed", "c.handleInput('fox');"],
    ["results", "c.handleInput('fox'); c.setResult(2, 17);"],
    ["none", "c.handleInput('zzz'); c.setResult(-1, 0);"],
    [
      "focused-hover",
      "c.focused = true; c.handleInput('a long query that does not fit'); c.setResult(0, 1); c.setHoveredNavigationDirection(1);",
    ],
  ];
  for (const [state, code] of states) {
    for (const width of [1, 20, 40, 80, 200]) {
      out.push({
        name: `box/${state}/w${width}`,
        body: `${IMPORT}
          const queries = [];
          const c = new A.AltScreenSearchComponent((q) => queries.push(q), (t, h) => h ? '[' + t + ']' : t);
          ${code}
          const lines = c.render(${width});
          const hits = [];
          for (let col = 0; col < ${
          Math.min(width, 45)
        }; col++) hits.push(c.getNavigationDirectionAt(2, col) ?? 0);
          return { lines, queries, hits, row1: c.getNavigationDirectionAt(1, 5) ?? null, focused: c.focused,
            hover: [c.setHoveredNavigationDirection(-1), c.setHoveredNavigationDirection(-1)] };`,
      });
    }
  }
  out.push({
    name: "flash/render",
    body: `${IMPORT}
      let requests = 0;
      const f = new F.AltScreenFlashContainer(() => requests++);
      f.flash('Copied!', 60000); f.flash('你好 a much longer message', 60000);
      const lines = [f.render(1), f.render(12), f.render(80)];
      f.invalidate(); f.dispose();
      return { lines, after: f.render(20), requests };`,
  });
  return out;
}

Deno.test("transcript search and flash internals equal pi-tui 1.6.0", async () => {
  const matches = matchCases();
  await compareWithPiTui("alt_screen_search_find", matches.slice(0, 70));
  await compareWithPiTui("alt_screen_search_find2", matches.slice(70));
  await compareWithPiTui("alt_screen_search_box", boxCases());
});
