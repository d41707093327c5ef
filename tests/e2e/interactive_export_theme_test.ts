/**
 * TUI-05 HTML-04 the interactive `/export` colours the page with the theme in use, beside pi 1.6.0
 * in tmux: the `theme` setting `light`, and a custom theme given only on the command line
 * (`--theme <file> --use-theme mint`: not in the agent dir, so only the theme in use can colour
 * the page; it has an `export` section, palette numbers and variables). The page's `:root` block
 * (every colour variable and the three backgrounds) must equal 1.6.0's and the captured one
 * (tests/fixtures/export/themes/capture_themes.mjs).
 */
import { assertEquals } from "../support/assert.ts";
import type { ScriptedTurn } from "../support/fake_provider/mod.ts";
import { startInteractiveScenario } from "../support/interactive_scenario.ts";

const TIMEOUT = 60_000;
const HERE = new URL("../fixtures/export/themes/", import.meta.url).pathname;
const EXPECTED: Record<string, string> = JSON.parse(Deno.readTextFileSync(`${HERE}themes.expected.json`));
const TURNS: ScriptedTurn[] = [{ content: [{ type: "text", text: "Answer one." }] }];

function rootBlock(html: string): string {
  const match = /\n( *):root \{\n[\s\S]*?\n\1\}/.exec(html);
  if (!match) throw new Error("no :root block in the page");
  return match[0].slice(1);
}

/** Starts pi with `settings` and `args`, has one reply, runs `/export page.html`; the page's :root block. */
async function exportedRoot(reference: boolean, settings: Record<string, unknown>, args: string[]) {
  const s = await startInteractiveScenario(TURNS, { reference, settings });
  try {
    await s.pane.command(`clear; ${s.piCommand(args)}`);
    await s.pane.waitFor((t) => t.includes("ctrl+o more"), TIMEOUT, "the start-up screen");
    await s.pane.command("first question");
    await s.pane.waitFor((t) => t.includes(" Answer one."), TIMEOUT, "the reply");
    await s.pane.command("/export page.html");
    await s.pane.waitFor((t) => t.includes("Session exported to:"), TIMEOUT, "the export notice");
    const root = rootBlock(await Deno.readTextFile(`${s.agent.cwd}/page.html`));
    await s.pane.command("/quit");
    await s.pane.waitFor((t) => /\$ ?$/.test(t), TIMEOUT, "the shell after exit");
    return root;
  } finally {
    await s.close();
  }
}

const CASES: Array<[string, Record<string, unknown>, string[]]> = [
  ["(none)", {}, []],
  ["light", { theme: "light" }, []],
  ["mint", {}, ["--theme", `${HERE}mint.json`, "--use-theme", "mint"]],
];

for (const [name, settings, args] of CASES) {
  Deno.test(`TUI-05 HTML-04 /export with theme ${name}: the page's colours are 1.6.0's for that theme`, async () => {
    const ours = await exportedRoot(false, settings, args);
    const reference = await exportedRoot(true, settings, args);
    assertEquals(ours, reference);
    assertEquals(ours, EXPECTED[name]);
  });
}
