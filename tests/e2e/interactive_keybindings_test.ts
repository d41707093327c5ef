/**
 * keybindings.json in the interactive mode beside pi 1.6.0: a rebound app action (tool output on
 * Ctrl+Y instead of Ctrl+O), a rebound editor action (delete word on Ctrl+K instead of Ctrl+W, with
 * Ctrl+K's own action unbound), a key list and a legacy name; the old keys do nothing, the new ones
 * act, and `/hotkeys` shows the effective keys. The same script runs in our `pi` and in the reference
 * in tmux panes of the same size; the screens must be equal. Then, ours only: an invalid entry is
 * named in a start-up warning (1.6.0 drops it silently) and the valid ones still apply.
 */
import { assert, assertEquals } from "../support/assert.ts";
import { startInteractiveScenario } from "../support/interactive_scenario.ts";
import { assertSameScreens, collectScreens, type ScriptStep } from "../support/interactive_script.ts";

const TIMEOUTS = { start: 90_000, step: 30_000 };

const KEYBINDINGS = {
  "app.tools.expand": "ctrl+y",
  "tui.editor.deleteWordBackward": ["ctrl+k"],
  "tui.editor.deleteToLineEnd": [],
  "app.model.cycleForward": ["alt+p", "ctrl+n"],
  selectModel: "alt+m",
};

const STEPS: ScriptStep[] = [
  { name: "start-up", act: async () => {}, ready: (t) => t.includes("ctrl+y more") && t.includes("(auto)") },
  {
    // Ctrl+O first: were it still bound, the second key would collapse the output again.
    name: "tools expanded",
    act: async (s) => {
      await s.pane.keys("C-o");
      await s.pane.keys("C-y");
    },
    ready: (t) => t.includes("Tool output: expanded"),
  },
  {
    name: "typed",
    act: (s) => s.pane.type("one two three"),
    ready: (t) => t.includes("one two three"),
  },
  {
    // Ctrl+W first: were it still bound, "two" would go as well.
    name: "word deleted",
    act: async (s) => {
      await s.pane.keys("C-w");
      await s.pane.keys("C-k");
    },
    ready: (t) => t.includes("one two") && !t.includes("three"),
  },
  {
    name: "model selector",
    act: async (s) => {
      await s.pane.keys("C-c");
      await s.pane.waitFor((t) => !t.includes("one two"), TIMEOUTS.step, "the cleared editor");
      await s.pane.keys("M-m");
    },
    ready: (t) => t.includes("Model Name:"),
  },
  {
    name: "/hotkeys",
    act: async (s) => {
      await s.pane.keys("Escape");
      await s.pane.waitFor((t) => !t.includes("Model Name:"), TIMEOUTS.step, "the closed selector");
      await s.pane.command("/hotkeys");
    },
    ready: (t) => t.includes("Run bash command (excluded from context)"),
  },
];

async function runScript(reference: boolean): Promise<string[]> {
  const s = await startInteractiveScenario([], { reference, height: 60 });
  try {
    await Deno.writeTextFile(`${s.agent.agentDir}/keybindings.json`, JSON.stringify(KEYBINDINGS));
    await s.pane.command(`clear; ${s.piCommand()}`);
    const screens = await collectScreens(s, STEPS, TIMEOUTS);
    await s.pane.command("/quit");
    await s.pane.waitFor((t) => /\$ ?$/.test(t), TIMEOUTS.step, "the shell after exit");
    return screens;
  } finally {
    await s.close();
  }
}

Deno.test("INT-KEYS: keybindings.json rebinds and unbinds app and editor actions; /hotkeys shows the effective keys; as pi 1.6.0 does", async () => {
  const ours = await runScript(false);
  const reference = await runScript(true);
  assertSameScreens(STEPS, ours, reference);
  assert(!ours[1].includes("Tool output: collapsed"), "Ctrl+O no longer toggles tool output");
  const hotkeys = ours[STEPS.length - 1];
  for (
    const row of [
      "Alt+P/Ctrl+N / Shift+Ctrl+P",
      "Cycle models",
      "Alt+M",
      "Ctrl+Y",
    ]
  ) assert(hotkeys.includes(row), `/hotkeys shows ${row}`);
});

Deno.test("INT-KEYS: an invalid keybindings.json entry is named at start-up and the valid ones apply (1.6.0 drops it silently)", async () => {
  const s = await startInteractiveScenario([], {});
  try {
    const path = `${s.agent.agentDir}/keybindings.json`;
    await Deno.writeTextFile(path, JSON.stringify({ "app.tools.expand": "ctrl+y", "app.exit": "Ctrl+Q" }));
    await s.pane.command(`clear; ${s.piCommand()}`);
    const screen = await s.pane.waitFor((t) => t.includes("(auto)"), TIMEOUTS.start, "start-up");
    const warning =
      `Warning: Ignoring "app.exit" in keybindings.json (${path}): expected a key such as "ctrl+x" or a list of keys`;
    assertEquals(
      screen.replace(/\n/g, "").includes(warning.replace(/\n/g, "")),
      true,
      `the warning is shown:\n${screen}`,
    );
    await s.pane.keys("C-y");
    await s.pane.waitFor((t) => t.includes("Tool output: expanded"), TIMEOUTS.step, "Ctrl+Y expands");
    await s.pane.command("/quit");
    await s.pane.waitFor((t) => /\$ ?$/.test(t), TIMEOUTS.step, "the shell after exit");
  } finally {
    await s.close();
  }
});

const ACTION_KEYBINDINGS = { "app.session.new": "alt+n", "app.message.dequeue": "alt+q" };

const ACTION_STEPS: ScriptStep[] = [
  { name: "start-up", act: async () => {}, ready: (t) => t.includes("(auto)") },
  {
    name: "nothing queued",
    act: (s) => s.pane.keys("M-q"),
    ready: (t) => t.includes("No queued messages to restore"),
  },
  { name: "reply", act: (s) => s.pane.command("first question"), ready: (t) => t.includes(" Answer one.") },
  { name: "copied", act: (s) => s.pane.keys("C-x"), ready: (t) => t.includes("Copied!") },
  { name: "new session", act: (s) => s.pane.keys("M-n"), ready: (t) => t.includes("New session started") },
];

async function runActions(reference: boolean): Promise<string[]> {
  const s = await startInteractiveScenario([{ content: [{ type: "text", text: "Answer one." }] }], {
    reference,
  });
  try {
    await Deno.writeTextFile(`${s.agent.agentDir}/keybindings.json`, JSON.stringify(ACTION_KEYBINDINGS));
    await s.pane.command(`clear; ${s.piCommand()}`);
    const screens = await collectScreens(s, ACTION_STEPS, TIMEOUTS);
    await s.pane.command("/quit");
    await s.pane.waitFor((t) => /\$ ?$/.test(t), TIMEOUTS.step, "the shell after exit");
    return screens;
  } finally {
    await s.close();
  }
}

Deno.test("INT-KEYS: bound session and queue actions (app.session.new, app.message.dequeue) and Ctrl+X copy act as in pi 1.6.0", async () => {
  const ours = await runActions(false);
  const reference = await runActions(true);
  assertSameScreens(ACTION_STEPS, ours, reference);
});

Deno.test("INT-KEYS: Ctrl+Z suspends pi to the shell and fg brings it back with the editor working", async () => {
  const s = await startInteractiveScenario([], {});
  try {
    await s.pane.command(`clear; ${s.piCommand()}`);
    await s.pane.waitFor((t) => t.includes("(auto)"), TIMEOUTS.start, "start-up");
    await s.pane.keys("C-z");
    await s.pane.waitFor((t) => /Stopped/.test(t), TIMEOUTS.step, "the shell's job message");
    await s.pane.command("fg");
    await s.pane.waitFor((t) => t.includes("(auto)") && !/Stopped\s*$/.test(t), TIMEOUTS.step, "pi again");
    await s.pane.type("still here");
    await s.pane.waitFor((t) => t.includes("still here"), TIMEOUTS.step, "typing reaches the editor");
    await s.pane.keys("C-c");
    await s.pane.command("/quit");
    await s.pane.waitFor((t) => /\$ ?$/.test(t), TIMEOUTS.step, "the shell after exit");
  } finally {
    await s.close();
  }
});
