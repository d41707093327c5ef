/**
 * The interactive-mode values of `@earendil-works/pi-coding-agent` that extensions import
 * (`CustomEditor`, `DynamicBorder`, `BorderedLoader`, the dialog components, the theme getters and
 * key hints) draw and answer as 1.6.0's do: one script runs against 1.6.0's package under Node
 * (its dark theme initialised) and against what an extension gets here (the loader's namespace,
 * the dark theme in use), and the rendered lines (colours included) and answers must be equal.
 */
import { assertEquals } from "../support/assert.ts";
import { requireReference } from "../../scripts/reference/locate.ts";
import { registerModeExtensionExports } from "../../src/modes/extension_exports_setup.ts";
import { publishHostImport } from "../../src/extensions/host_modules.ts";
import { setExportTheme } from "../../src/modes/interactive/export_theme.ts";
import { loadTheme } from "../../src/modes/interactive/theme.ts";

/** Runs with `M` the module namespace; returns JSON-able results. */
const BODY = `
const out = {};
const picked = [];
const sel = new M.ExtensionSelectorComponent("Pick one", ["alpha", "beta"], (o) => picked.push(o), () => picked.push("cancel"));
out.selector = sel.render(30);
sel.handleInput("\\x1b[B"); sel.handleInput("\\r");
out.selectorAfter = sel.render(30);
const inp = new M.ExtensionInputComponent("Name", undefined, (v) => picked.push("in:" + v), () => picked.push("in-cancel"));
inp.handleInput("x"); inp.handleInput("\\r");
out.input = inp.render(30);
const cancelled = new M.ExtensionInputComponent("Other", "hint", () => picked.push("no"), () => picked.push("in-cancel"));
cancelled.handleInput("\\x1b");
out.picked = picked;
out.border = [new M.DynamicBorder().render(12), new M.DynamicBorder((s) => "<" + s + ">").render(3), new M.DynamicBorder().render(0)];
const tui = { requestRender() {} };
const loader = new M.BorderedLoader(tui, { fg: (c, s) => "[" + c + ":" + s + "]" }, "Working...");
out.loader = loader.render(40);
let aborted = false;
loader.onAbort = () => { aborted = true; };
loader.handleInput("\\x1b");
out.loaderAborted = [aborted, loader.signal.aborted];
loader.dispose();
const quiet = new M.BorderedLoader(tui, { fg: (c, s) => "[" + c + ":" + s + "]" }, "Quiet", { cancellable: false });
out.quiet = quiet.render(30);
quiet.handleInput("\\x1b");
out.quietAborted = quiet.signal.aborted;
quiet.dispose();
out.hints = [M.keyHint("tui.select.cancel", "cancel"), M.keyText("tui.select.confirm"), M.rawKeyHint("ctrl+x", "cut"), M.keyText("app.model.select")];
const md = M.getMarkdownTheme();
out.markdown = ["heading", "link", "code", "quote", "hr", "listBullet", "bold", "italic", "strikethrough", "underline"].map((k) => md[k]("t"));
const sl = M.getSelectListTheme();
out.selectList = ["selectedPrefix", "selectedText", "description", "scrollInfo", "noMatch"].map((k) => sl[k]("t"));
const st = M.getSettingsListTheme();
out.settingsList = [st.label("a", true), st.label("a", false), st.value("v", true), st.value("v", false), st.description("d"), st.cursor, st.hint("h")];
return out;
`;

// FORCE_COLOR: chalk (bold, italic …) is off in 1.6.0 when stdout is not a terminal, as here.
const ENV = {
  TERM: "xterm-256color",
  COLORTERM: "truecolor",
  FORCE_COLOR: "3",
  HOME: "/nonexistent",
  PATH: "/usr/bin:/bin",
};

async function run(cmd: string, args: string[]): Promise<unknown> {
  const out = await new Deno.Command(cmd, {
    args,
    env: ENV,
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  })
    .output();
  const stderr = new TextDecoder().decode(out.stderr);
  assertEquals(out.code, 0, stderr);
  return JSON.parse(new TextDecoder().decode(out.stdout));
}

Deno.test("EXT-MODULES the interactive exports (dialogs, borders, loader, theme getters, key hints) render and answer as 1.6.0's", async () => {
  const ref = requireReference();
  const dir = await Deno.makeTempDir({ prefix: "pi_interactive_exports_" });
  try {
    const theirs = `${dir}/theirs.mjs`;
    await Deno.writeTextFile(
      theirs,
      `const M = await import(process.argv[2]);\nM.initTheme("dark");\n` +
        `const result = await (async () => {${BODY}})();\nprocess.stdout.write(JSON.stringify(result));\nprocess.exit(0);\n`,
    );
    const expected = await run(ref.node, [theirs, `${ref.packageDir}/dist/index.js`]);
    // Ours in this process, as an extension gets it: the loader's namespace, the dark theme in use.
    registerModeExtensionExports();
    setExportTheme(loadTheme("dark", "truecolor"));
    const M = await publishHostImport({ name: "@earendil-works/pi-coding-agent", names: "*" });
    const actual = JSON.parse(
      JSON.stringify(await new Function("M", `return (async () => {${BODY}})();`)(M)),
    );
    assertEquals(actual, expected);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
