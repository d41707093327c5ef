/**
 * Resizing the terminal while `pi` runs (issue 11), in both TUI modes, beside pi 1.6.0 in tmux: a chat with
 * a wrapped reply, then the window made narrower and shorter, then wider again. The normalised screens are
 * compared with 1.6.0's after each step; each known difference is listed with its reason.
 */
import { assert } from "../support/assert.ts";
import type { ScriptedTurn } from "../support/fake_provider/mod.ts";
import { type InteractiveScenario, startInteractiveScenario } from "../support/interactive_scenario.ts";
import { collectScreens, screenDifferences, type ScriptStep } from "../support/interactive_script.ts";

const TIMEOUTS = { start: 90_000, step: 30_000 };

const REPLY: ScriptedTurn = {
  content: [{
    type: "text",
    text: "A reply long enough to wrap at every width this test uses, so that each resize rewraps it: " +
      "one, two, three, four, five, six, seven, eight, nine, ten.\n\n- a list item\n- another list item",
  }],
};

async function resize(s: InteractiveScenario, width: number, height: number): Promise<void> {
  await s.pane.tmux("resize-window", "-x", String(width), "-y", String(height));
}

function steps(mode: "fullscreen" | "regular"): ScriptStep[] {
  return [
    {
      name: "start",
      act: async (s) => await s.pane.command(`clear; ${s.piCommand(["--tui-mode", mode])}`),
      ready: (t) => t.includes("/200k"),
    },
    {
      name: "reply",
      act: async (s) => await s.pane.command("hello"),
      ready: (t) => t.includes("another list item"),
    },
    {
      name: "narrower and shorter",
      act: async (s) => await resize(s, 60, 20),
      ready: (t) => t.split("\n").every((line) => line.length <= 60) && t.includes("/200k"),
    },
    {
      name: "wider",
      act: async (s) => await resize(s, 110, 30),
      ready: (t) => t.includes("─".repeat(105)),
    },
    {
      name: "typed after the resizes",
      act: async (s) => await s.pane.type("still here"),
      ready: (t) => t.includes("still here"),
    },
  ];
}

async function run(mode: "fullscreen" | "regular", reference: boolean): Promise<string[]> {
  const s = await startInteractiveScenario([REPLY], { reference, width: 100, height: 30 });
  try {
    const screens = await collectScreens(s, steps(mode), TIMEOUTS);
    await s.pane.keys("C-c");
    await s.pane.command("/quit");
    await s.pane.waitFor((t) => /\$ ?$/.test(t), TIMEOUTS.step, "the shell after exit");
    return screens;
  } finally {
    await s.close();
  }
}

for (const mode of ["fullscreen", "regular"] as const) {
  Deno.test(`INT-RESIZE: ${mode} mode redraws after the terminal shrinks and grows as pi 1.6.0 does`, async () => {
    const ours = await run(mode, false);
    const reference = await run(mode, true);
    const names = steps(mode).map((step) => step.name);
    const found = names.flatMap((name, i) => screenDifferences(name, ours[i], reference[i]));
    if (found.length > 0) {
      console.log(ours.join("\n=====\n"));
      console.log(reference.join("\n=====\n"));
    }
    assert(found.length === 0, `screens differ from pi 1.6.0's:\n${found.join("\n")}`);
  });
}
