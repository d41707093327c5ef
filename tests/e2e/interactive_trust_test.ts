/**
 * `/trust` in the interactive mode beside pi 1.6.0: the selector (folder, saved decision, this
 * session's trust, the choices with the saved one ticked), trusting the parent folder, the
 * selector again showing the inherited decision, then "Do not trust", and a selector left with
 * Escape. The same script runs in our `pi` and in the reference in tmux panes of the same size; the
 * screens and the trust.json each leaves must be equal.
 */
import { assertEquals } from "../support/assert.ts";
import { startInteractiveScenario } from "../support/interactive_scenario.ts";
import { assertSameScreens, collectScreens, type ScriptStep } from "../support/interactive_script.ts";

const TIMEOUTS = { start: 90_000, step: 30_000 };

const STEPS: ScriptStep[] = [
  { name: "start-up", act: async () => {}, ready: (t) => t.includes("(auto)") },
  {
    name: "selector",
    act: (s) => s.pane.command("/trust"),
    ready: (t) =>
      t.includes("Project trust") && t.includes("Saved decision: none") && t.includes("→   Trust\n"),
  },
  { name: "down", act: (s) => s.pane.keys("Down"), ready: (t) => t.includes("→   Trust parent folder") },
  {
    name: "parent trusted",
    act: (s) => s.pane.keys("Enter"),
    ready: (t) => t.includes("Saved trust decision: trusted. Restart pi for this to take effect."),
  },
  {
    name: "selector again",
    act: (s) => s.pane.command("/trust"),
    ready: (t) =>
      t.includes("Saved decision: trusted (inherited from") && t.includes("→ ✓ Trust parent folder"),
  },
  { name: "to do not trust", act: (s) => s.pane.keys("Down"), ready: (t) => t.includes("→   Do not trust") },
  {
    name: "untrusted",
    act: (s) => s.pane.keys("Enter"),
    ready: (t) => t.includes("Saved trust decision: untrusted. Restart pi for this to take effect."),
  },
  {
    name: "third selector",
    act: (s) => s.pane.command("/trust"),
    ready: (t) => t.includes("Saved decision: untrusted (") && t.includes("→ ✓ Do not trust"),
  },
  { name: "cancelled", act: (s) => s.pane.keys("Escape"), ready: (t) => !t.includes("Project trust") },
];

async function runScript(reference: boolean): Promise<{ screens: string[]; trust: unknown }> {
  const s = await startInteractiveScenario([], { reference });
  try {
    await s.pane.command(`clear; ${s.piCommand()}`);
    const screens = await collectScreens(s, STEPS, TIMEOUTS);
    await s.pane.command("/quit");
    await s.pane.waitFor((t) => /\$ ?$/.test(t), TIMEOUTS.step, "the shell after exit");
    const text = await Deno.readTextFile(`${s.agent.agentDir}/trust.json`);
    const root = await Deno.realPath(s.agent.root);
    return { screens, trust: JSON.parse(text.replaceAll(root, "<root>").replaceAll(s.agent.root, "<root>")) };
  } finally {
    await s.close();
  }
}

Deno.test("INT-TRUST: /trust saves the chosen decision to trust.json (parent folder, then do not trust), Escape saves nothing; as pi 1.6.0 does", async () => {
  const ours = await runScript(false);
  const reference = await runScript(true);
  assertSameScreens(STEPS, ours.screens, reference.screens);
  assertEquals(ours.trust, { "<root>": true, "<root>/project": false });
  assertEquals(ours.trust, reference.trust);
});
