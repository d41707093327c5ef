/**
 * Loading the kit's index (src/tui/mod.ts) and drawing a first frame builds none of the kit's Unicode-property
 * character classes: the CJK and autocomplete classes of utils_chars.ts and the CJK emphasis rules of the
 * Markdown lexer, which V8 expands into range tables when a regex is created (issue 19's first-frame budget).
 * They are built when text needs them, and then answer as before. A fresh process counts the regexes created
 * whose pattern holds those classes.
 */
import { assert, assertEquals } from "../support/assert.ts";
import {
  cjkBreakRegex,
  isCjkBreak,
  isWholeCjkBlock,
  isWithoutCjkScripts,
} from "../../src/tui/utils_chars.ts";

const MOD = new URL("../../src/tui/mod.ts", import.meta.url).href;

/** Runs `body` (JavaScript, `T` = the kit's index) in a fresh process; the kit's classes built at each mark. */
async function classesBuilt(body: string): Promise<Record<string, string[]>> {
  const script = `
    const built = [];
    const Real = RegExp;
    const record = (pattern) => {
      const source = typeof pattern === "string" ? pattern : pattern?.source ?? "";
      // utils_chars.ts's scripts, and the CJK range table of the emphasis rules.
      if (source.includes("Script_Extensions") || source.includes("\\\\u1100-\\\\u11ff")) built.push(source.slice(0, 40));
    };
    globalThis.RegExp = new Proxy(Real, {
      construct(target, args, newTarget) { record(args[0]); return Reflect.construct(target, args, newTarget); },
      apply(target, self, args) { record(args[0]); return Reflect.apply(target, self, args); },
    });
    const marks = {};
    const mark = (name) => { marks[name] = built.splice(0); };
    const T = await import(${JSON.stringify(MOD)});
    mark("load");
    ${body}
    console.log(JSON.stringify(marks));`;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--ext=js", "--config", new URL("../../deno.json", import.meta.url).pathname, script],
    stdout: "piped",
    stderr: "inherit",
  }).output();
  assert(out.success, "the script failed");
  return JSON.parse(new TextDecoder().decode(out.stdout));
}

Deno.test("issue 19: loading the kit and drawing a frame of styled, CJK and emoji lines builds no character class", async () => {
  const marks = await classesBuilt(`
    const writes = [];
    const terminal = {
      columns: 100, rows: 30, kittyProtocolActive: false, start() {}, stop() {}, drainInput: async () => {},
      write(d) { writes.push(d); }, moveBy() {}, hideCursor() {}, showCursor() {}, clearLine() {},
      clearFromCursor() {}, clearScreen() {}, setTitle() {}, setProgress() {}, setProgramStatus() {},
    };
    const tui = new T.TuiMainScreen(terminal);
    const line = "\\x1b[1muser\\x1b[22m: some \\x1b[32mgreen\\x1b[39m text, 中文字符 한국어 ひらがな カタカナ 🚀 " + "word ".repeat(30);
    tui.addChild(new T.Text(line, 0, 0));
    tui.renderNow();
    mark("frame");
    new T.Markdown("これは**太字**です。", 0, 0, {
      heading: (s) => s, link: (s) => s, linkUrl: (s) => s, code: (s) => s, codeBlock: (s) => s,
      codeBlockBorder: (s) => s, quote: (s) => s, quoteBorder: (s) => s, hr: (s) => s, listBullet: (s) => s,
      bold: (s) => "<b>" + s + "</b>", italic: (s) => s, strikethrough: (s) => s, underline: (s) => s,
    }).render(40);
    mark("markdown");
  `);
  assertEquals(marks.load, [], "built while loading the kit");
  assertEquals(marks.frame, [], "built while drawing the frame");
  assert(marks.markdown.length > 0, "lexing CJK emphasis builds its rules");
});

Deno.test("isCjkBreak: every code point answered by range gets cjkBreakRegex's answer", () => {
  const regex = cjkBreakRegex();
  const wrong: string[] = [];
  let inside = 0;
  let outside = 0;
  for (let code = 0; code <= 0x10ffff; code++) {
    if (code >= 0xd800 && code <= 0xdfff) continue;
    const whole = isWholeCjkBlock(code);
    const without = isWithoutCjkScripts(code);
    if (!whole && !without) continue;
    if (whole) inside++;
    else outside++;
    const char = String.fromCodePoint(code);
    if (whole === without || regex.test(char) !== whole || isCjkBreak(char) !== whole) {
      wrong.push(code.toString(16));
    }
  }
  assertEquals(wrong, []);
  assert(inside > 38_000 && outside > 15_000, `${inside} inside, ${outside} outside`);
  // The rest still goes to the class: Bopomofo, compatibility ideographs, astral Han, CJK punctuation, clusters.
  const rest = ["ㄅ", "豈", "𠮷", "。", "ー", "\u00b7", "e\u0305", "中\u0301", "a中"];
  assertEquals(rest.map(isCjkBreak), rest.map((c) => regex.test(c)));
});
