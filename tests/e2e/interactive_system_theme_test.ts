/**
 * The `system` theme (pi 1.6.0's default) in tmux against pi 1.6.0: tmux answers the OSC 10/11
 * colour queries with the pane's `window-style` colours (and OSC 4 with its palette), so pi started
 * with no theme setting draws in colours generated from them. Our screen, colours included
 * (`capture-pane -e`), equals 1.6.0's for a dark and a light pane, and differs between the two.
 */
import { assertEquals, assertNotEquals } from "../support/assert.ts";
import type { ScriptedTurn } from "../support/fake_provider/mod.ts";
import { join } from "node:path";
import { startInteractiveScenario } from "../support/interactive_scenario.ts";
import { backgroundAnsi, parseColor } from "../../src/tui/mod.ts";

const TIMEOUTS = { start: 90_000, step: 30_000 };

const REPLY: ScriptedTurn = {
  content: [{ type: "text", text: "Hello **bold** and `code`\n\n# Head\n\n- item\n\n> quoted" }],
};

/** pi with no theme setting in a pane of `style` (tmux's window-style): the finished screen with colours. */
async function screenOf(style: string, reference: boolean): Promise<string> {
  const s = await startInteractiveScenario([REPLY], { reference, width: 80, height: 24 });
  try {
    await s.pane.tmux("set", "-g", "window-style", style);
    await s.pane.command(s.piCommand(["--tui-mode", "regular"]));
    await s.pane.waitFor((t) => t.includes("/200k"), TIMEOUTS.start, "the start-up screen");
    await s.pane.type("hi");
    await s.pane.keys("Enter");
    await s.pane.waitFor((t) => t.includes("quoted"), TIMEOUTS.step, "the reply");
    await s.pane.settle();
    return s.normalized(await s.pane.tmux("capture-pane", "-p", "-e"));
  } finally {
    await s.close();
  }
}

Deno.test("THEME-SYSTEM e2e no theme setting, dark pane (#1e1e2e on #d0d0d0): the screen equals pi 1.6.0's", async () => {
  const style = "fg=#d0d0d0,bg=#1e1e2e";
  const ours = await screenOf(style, false);
  assertEquals(ours, await screenOf(style, true));
  // The generated user-message panel for this background (1.6.0: #203540).
  const panel = backgroundAnsi(parseColor("#203540"), "256color");
  assertEquals(ours.includes(panel), true, `${JSON.stringify(panel)} in\n${ours}`);
});

Deno.test("THEME-SYSTEM e2e no theme setting, light pane: the screen equals pi 1.6.0's and differs from the dark one", async () => {
  const style = "fg=#202020,bg=#fafafa";
  const ours = await screenOf(style, false);
  assertEquals(ours, await screenOf(style, true));
  assertNotEquals(ours, await screenOf("fg=#d0d0d0,bg=#1e1e2e", false));
});

Deno.test("THEME-SYSTEM e2e the start-up trust question in a dark pane: the same colours as pi 1.6.0", async () => {
  const question = async (reference: boolean) => {
    const s = await startInteractiveScenario([], { reference, width: 100, height: 30 });
    try {
      await s.pane.tmux("set", "-g", "window-style", "fg=#d0d0d0,bg=#1e1e2e");
      await Deno.mkdir(join(s.agent.cwd, ".pi", "prompts"), { recursive: true });
      await Deno.writeTextFile(join(s.agent.cwd, ".pi", "prompts", "greet.md"), "Hi!\n");
      await s.pane.command(`clear; ${s.piCommand()}`);
      await s.pane.waitFor(
        (t) => t.includes("Do not trust (this session only)"),
        TIMEOUTS.start,
        "the question",
      );
      await s.pane.settle();
      const screen = s.normalized(await s.pane.tmux("capture-pane", "-p", "-e"));
      await s.pane.keys("Escape");
      await s.pane.waitFor((t) => t.includes("/200k"), TIMEOUTS.step, "the app");
      await s.pane.keys("C-c");
      await s.pane.command("/quit");
      return screen;
    } finally {
      await s.close();
    }
  };
  // The colours in order (the title's bold resets sit elsewhere in 1.6.0, a selector matter, not a theme one).
  const colours = (screen: string) => [...screen.matchAll(/[34]8;5;\d+/g)].map((m) => m[0]);
  const ours = await question(false);
  const reference = await question(true);
  assertEquals(colours(ours), colours(reference));
  // Generated colours, not the palette indices 0-15 of a terminal that did not answer.
  assertEquals(colours(ours).some((c) => Number(c.split(";")[2]) >= 16), true, ours);
});
