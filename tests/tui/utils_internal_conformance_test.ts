/**
 * Conformance of the text helpers pi-tui does not export from its index (sliceWithWidth,
 * extractSegments, getGraphemeCellRange, normalizeTerminalOutput, applyBackgroundToLine, the
 * character classes, word navigation) but the other areas of the kit build on. The case runner of
 * tests/support/tui_oracle.ts is pointed at the single modules instead of the index: pi-tui's
 * dist/utils.js and dist/word-navigation.js under Node, ours under Deno. Without the reference,
 * the stored captures tests/fixtures/tui/utils_internal*.json stand in (PI_TUI_CAPTURE=1 rewrites).
 */
import { assertEquals } from "../support/assert.ts";
import { findReference } from "../../scripts/reference/locate.ts";
import { useReferenceFixtures } from "../support/spawn_pi.ts";
import { js, TUI_CASE_ENV, type TuiCase, type TuiCaseResult } from "../support/tui_oracle.ts";
import { UTIL_TEXTS } from "./utils_texts.ts";

const RUNNER = new URL("../support/tui_case_runner.mjs", import.meta.url).pathname;
const SRC = new URL("../../src/tui/", import.meta.url);
const FIXTURES = new URL("../fixtures/tui/", import.meta.url);

/**
 * Runs the case runner on `moduleUrl` with `cmd` and returns its results. Its stdout goes to a file:
 * the runner exits right after one write, and Node loses what a pipe did not take at once (64 KiB),
 * while a write to a file completes before exit.
 */
async function run(
  cmd: string,
  runnerArgs: string[],
  cases: TuiCase[],
): Promise<Record<string, TuiCaseResult>> {
  const input = await Deno.makeTempFile({ suffix: ".json" });
  const output = await Deno.makeTempFile({ suffix: ".json" });
  try {
    await Deno.writeTextFile(input, JSON.stringify(cases));
    const quoted = [cmd, ...runnerArgs].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(" ");
    const out = await new Deno.Command("/bin/sh", {
      args: ["-c", `${quoted} < '${input}' > '${output}'`],
      env: TUI_CASE_ENV,
      clearEnv: true,
      stderr: "piped",
    }).output();
    if (!out.success) throw new Error(`${cmd} failed: ${new TextDecoder().decode(out.stderr)}`);
    return JSON.parse(await Deno.readTextFile(output));
  } finally {
    await Deno.remove(input);
    await Deno.remove(output);
  }
}

/** Runs the cases on our module and on the reference's (or its capture) and compares them. */
async function compareModule(suite: string, ours: string, theirs: string, cases: TuiCase[]): Promise<void> {
  const fixture = new URL(`${suite}.json`, FIXTURES);
  let reference: Record<string, TuiCaseResult>;
  if (useReferenceFixtures()) {
    reference = JSON.parse(Deno.readTextFileSync(fixture));
  } else {
    const ref = findReference()!;
    const url = `file://${ref.nodeModules}/@earendil-works/pi-tui/dist/${theirs}`;
    reference = await run(ref.node, [RUNNER, url], cases);
    const text = JSON.stringify(reference, null, 1) + "\n";
    let stored = "";
    try {
      stored = Deno.readTextFileSync(fixture);
    } catch { /* missing: written below or reported */ }
    if (Deno.env.get("PI_TUI_CAPTURE") === "1") {
      if (stored !== text) Deno.writeTextFileSync(fixture, text);
    } else if (stored !== text) {
      throw new Error(`tests/fixtures/tui/${suite}.json is missing or stale: rerun with PI_TUI_CAPTURE=1`);
    }
  }
  const ourResults = await run(
    Deno.execPath(),
    ["run", "--allow-all", "--no-prompt", RUNNER, new URL(ours, SRC).href],
    cases,
  );
  const differing = cases.filter((c) =>
    JSON.stringify(ourResults[c.name]) !== JSON.stringify(reference[c.name])
  );
  assertEquals(
    differing.map((c) => ({ name: c.name, ours: ourResults[c.name], reference: reference[c.name] })),
    [],
  );
}

const BG = "(s) => '\\x1b[44m' + s + '\\x1b[49m'";

function utilsCases(): TuiCase[] {
  const out: TuiCase[] = [];
  for (const [label, text] of Object.entries(UTIL_TEXTS)) {
    const t = js(text);
    out.push({
      name: `sliceWithWidth/${label}`,
      body: `return [[0, 4, false], [2, 5, true], [3, 1, false], [6, 30, true]]` +
        `.map(([s, n, strict]) => T.sliceWithWidth(${t}, s, n, strict));`,
    });
    out.push({
      name: `extractSegments/${label}`,
      body: `return [[5, 8, 6, false], [3, 3, 4, true], [10, 12, 0, false], [0, 1, 2, true]]` +
        `.map(([b, a, n, strict]) => T.extractSegments(${t}, b, a, n, strict));`,
    });
    out.push({
      name: `cellRange/${label}`,
      body: `return Array.from({ length: 30 }, (_, c) => T.getGraphemeCellRange(${t}, c) ?? null);`,
    });
    out.push({
      name: `normalize+background/${label}`,
      body: `return [T.normalizeTerminalOutput(${t}), T.getActiveBackgroundAnsi(${t}), ` +
        `T.applyBackgroundToLine(${t}, 30, ${BG})];`,
    });
    out.push({
      name: `classes/${label}`,
      body: `return [...${t}].map((ch) => [T.isWhitespaceChar(ch), T.isPunctuationChar(ch), ` +
        `T.cjkBreakRegex.test(ch), T.cjkPunctuationRegex.test(ch), T.autocompleteSeparatorRegex.test(ch)]);`,
    });
    out.push({
      name: `extractAnsiCode/${label}`,
      body: `return Array.from(${t}, (_, i) => T.extractAnsiCode(${t}, i)).filter(Boolean);`,
    });
  }
  return out;
}

const WORD_TEXTS = [
  "hello world",
  "  leading and trailing  ",
  "foo.bar/baz-qux",
  "path/to/file.ts:12",
  "can't stop",
  "3.14 and 2,5",
  "你好世界 日本語",
  "emoji 👍🏽 here",
  "(a, b) => c",
  "[paste #1 +3 lines] after",
  "tabs\there\nnewline",
  "",
];

function wordCases(): TuiCase[] {
  const atomic = "{ isAtomicSegment: (s) => s.startsWith('[paste') }";
  return WORD_TEXTS.flatMap((text, i) => {
    const t = js(text);
    const all = `Array.from({ length: ${text.length + 2} }, (_, c) => c - 1)`;
    return [
      {
        name: `words/${i}/default`,
        body: `return ${all}.map((c) => [T.findWordBackward(${t}, c), T.findWordForward(${t}, c)]);`,
      },
      {
        name: `words/${i}/atomic`,
        body:
          `const o = ${atomic}; const seg = (s) => [...s.matchAll(/\\[paste #\\d+[^\\]]*\\]|\\w+|\\s+|./gu)]` +
          `.map((m) => ({ segment: m[0], index: m.index, input: s, isWordLike: /^\\w/.test(m[0]) }));` +
          `const custom = { ...o, segment: seg };` +
          `return ${all}.map((c) => [T.findWordBackward(${t}, c, o), T.findWordForward(${t}, c, o), ` +
          `T.findWordBackward(${t}, c, custom), T.findWordForward(${t}, c, custom)]);`,
      },
    ];
  });
}

/** Pieces the generated lines are made of: every kind of content the utilities treat apart. */
const PIECES = [
  "word",
  "a",
  "x".repeat(30),
  " ",
  "   ",
  "\t",
  "你好",
  "日本語。",
  "한국",
  "👍🏽",
  "👨‍👩‍👧",
  "🇯🇵",
  "🇺",
  "❤️",
  "✓",
  "e\u0301",
  "\u0301",
  "\u200b",
  "ｶﾀｶﾅ",
  "กำ",
  "क्षि",
  "\x1b[31m",
  "\x1b[1;4m",
  "\x1b[9m",
  "\x1b[0m",
  "\x1b[22m",
  "\x1b[44m",
  "\x1b[48;2;1;2;3m",
  "\x1b[38;5m",
  "\x1b]8;;https://a.b/c\x07",
  "\x1b]8;;\x07",
  "\x1b]8;id=1;https://z.q\x1b\\",
  "\x1b]8;;\x1b\\",
  "\x1b_pi:c\x07",
  "\x1b",
  "\x1b[2K",
  "foo.bar/baz",
  "，",
  "\u3000",
  "\n",
];

/** Lines of random pieces, the same on every run (a linear congruential generator). */
function generatedCases(count: number): TuiCase[] {
  let seed = 1234;
  const next = (n: number) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
  const out: TuiCase[] = [];
  for (let n = 0; n < count; n++) {
    let line = "";
    for (let k = next(10) + 1; k > 0; k--) line += PIECES[next(PIECES.length)];
    const t = js(line);
    const w = [1, 2, 3, 5, 8, 13][next(6)];
    const a = next(8);
    const b = next(12);
    out.push({
      name: `generated/${n}`,
      body: `const t = ${t}; return [T.visibleWidth(t), T.stripTerminalSequences(t), ` +
        `T.truncateToWidth(t, ${w}), T.truncateToWidth(t, ${w + 4}, "…", true), ` +
        `T.wrapTextWithAnsi(t, ${w}), T.sliceWithWidth(t, ${a}, ${b}, ${n % 2 === 0}), ` +
        `T.extractSegments(t, ${a}, ${a + (b % 3)}, ${b}, ${n % 3 === 0}), ` +
        `[${a}, ${
          a + 3
        }].map((c) => [T.getGraphemeCellRange(t, c) ?? null, T.getOsc8LinkAtColumn(t, c) ?? null])];`,
    });
  }
  return out;
}

Deno.test("generated lines go through every helper as through pi-tui 1.6.0's utils.js", async () => {
  await compareModule("utils_generated", "utils.ts", "utils.js", generatedCases(400));
});

Deno.test("internal text helpers behave as pi-tui 1.6.0's utils.js", async () => {
  await compareModule("utils_internal", "utils.ts", "utils.js", utilsCases());
});

Deno.test("word navigation behaves as pi-tui 1.6.0's word-navigation.js", async () => {
  await compareModule("utils_word_navigation", "word_navigation.ts", "word-navigation.js", wordCases());
});
