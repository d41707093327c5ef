/**
 * INT-MODEL-ARG: `/model <text>`'s argument completion beside pi 1.6.0 (same keys, same pane size,
 * equal screens). The menu lists the models with credentials (the scoped ones when a scope is set)
 * ranked by 1.6.0's search text, id first, so equal matches keep the models' order; as in 1.6.0 the
 * first Enter takes the highlighted completion into the editor (an argument menu never submits)
 * and the second runs `/model provider/id`.
 */
import { startInteractiveScenario } from "../support/interactive_scenario.ts";
import { assertSameScreens, collectScreens, type ScriptStep } from "../support/interactive_script.ts";
import { assert } from "../support/assert.ts";

const TIMEOUTS = { start: 90_000, step: 30_000 };
const SIZE = { width: 100, height: 30 };

const STEPS: ScriptStep[] = [
  { name: "start-up", act: async () => {}, ready: (t) => t.includes("(auto)") },
  {
    name: "menu",
    act: (s) => s.pane.type("/model test"),
    ready: (t) => t.includes("→ test-model") && t.includes("fake-google"),
  },
  {
    name: "down twice",
    act: async (s) => {
      await s.pane.keys("Down");
      await s.pane.keys("Down");
    },
    ready: (t) => /→ test-model +fake-responses/.test(t),
  },
  {
    name: "first Enter takes the completion",
    act: (s) => s.pane.keys("Enter"),
    ready: (t) => t.includes("/model fake-responses/test-model") && !t.includes("→ test-model"),
  },
  {
    name: "second Enter runs /model",
    act: (s) => s.pane.keys("Enter"),
    ready: (t) => t.includes("(fake-responses) test-model") && !t.includes("/model fake-responses"),
  },
];

Deno.test("INT-MODEL-ARG /model's argument completion: the menu's order, Enter takes the completion, a second Enter selects the model; as pi 1.6.0", async () => {
  const run = async (reference: boolean) => {
    const s = await startInteractiveScenario([], { reference, ...SIZE });
    try {
      await s.pane.command(`clear; ${s.piCommand()}`);
      return await collectScreens(s, STEPS, TIMEOUTS);
    } finally {
      await s.close();
    }
  };
  const ours = await run(false);
  // The menu in the models' order (anthropic, openai, responses, google): an id match ranks equal.
  const menu = ours[1].split("\n").filter((row) => row.includes("test-model  ")).map((row) => row.trim());
  assert(menu[0].startsWith("→ test-model") && menu[0].endsWith("fake-anthropic"), ours[1]);
  assert(menu[1].endsWith("fake-openai") && menu[2].endsWith("fake-responses"), ours[1]);
  assertSameScreens(STEPS, ours, await run(true));
});
