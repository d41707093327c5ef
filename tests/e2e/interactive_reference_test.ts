/**
 * The interactive mode beside pi 1.6.0 (issue 11's acceptance method): the same scripted session
 * — start-up, a streamed reply with thinking, a tool call, Ctrl+O, a reply aborted with Escape,
 * the slash command list — runs against our `pi` and against the reference in tmux panes of the
 * same size. The normalised screens (no colours; temp root, spinner frames and durations masked)
 * must be equal, apart from the differences listed in KNOWN_DIFFERENCES, each deliberate or owed
 * to a later part of issue 11. It also measures how soon each shows its editor after `pi` is typed.
 */
import { assert, assertEquals } from "../support/assert.ts";
import type { ScriptedTurn } from "../support/fake_provider/mod.ts";
import { startInteractiveScenario } from "../support/interactive_scenario.ts";
import { collectScreens, screenDifferences, type ScriptStep } from "../support/interactive_script.ts";

const START_TIMEOUT = 90_000;
const STEP_TIMEOUT = 30_000;

const TURNS: ScriptedTurn[] = [
  {
    content: [
      { type: "thinking", thinking: "Let me think about it." },
      { type: "text", text: "Hello **world**! Here is a list:\n\n- one\n- two\n" },
    ],
    usage: { input: 1200, output: 345 },
  },
  {
    content: [{ type: "toolCall", name: "bash", arguments: { command: "echo hi-from-tool" } }],
    usage: { input: 10, output: 5 },
  },
  { content: [{ type: "text", text: "Done." }] },
  {
    content: [{ type: "text", text: "partial answer that never ends" }],
    deltaSize: 7,
    fault: { kind: "stall", afterChunkContaining: "partial" },
  },
];

const STEPS: ScriptStep[] = [
  { name: "start-up", act: async () => {}, ready: (t) => t.includes("ctrl+o more") && t.includes("(auto)") },
  {
    name: "reply",
    act: (s) => s.pane.command("hello"),
    ready: (t) => t.includes("- two") && t.includes("↑1.2k"),
  },
  { name: "tool call", act: (s) => s.pane.command("run tool"), ready: (t) => t.includes(" Done.") },
  { name: "ctrl+o", act: (s) => s.pane.keys("C-o"), ready: (t) => t.includes("Tool output: expanded") },
  {
    name: "streaming",
    act: (s) => s.pane.command("slow"),
    ready: (t) => t.includes("partial") && t.includes("Working"),
  },
  { name: "aborted", act: (s) => s.pane.keys("Escape"), ready: (t) => t.includes(" Operation aborted") },
  { name: "slash list", act: (s) => s.pane.type("/"), ready: (t) => t.includes("(1/26)") },
  {
    name: "model selector",
    act: async (s) => {
      await s.pane.keys("C-c");
      await s.pane.waitFor((t) => !t.includes("(1/26)"), STEP_TIMEOUT, "the closed list");
      await s.pane.command("/model");
    },
    ready: (t) => t.includes("Model Name: Test model (anthropic-messages)") && t.includes("[fake-google]"),
  },
  {
    name: "model search",
    act: (s) => s.pane.type("respon"),
    ready: (t) => t.includes("Model Name: Test model (openai-responses)"),
  },
  {
    name: "model chosen",
    act: (s) => s.pane.keys("Enter"),
    ready: (t) => t.includes(" Model: test-model") && /\(fake-responses\) test-model$/.test(t),
  },
  {
    name: "/name",
    act: (s) => s.pane.command("/name my work"),
    ready: (t) => t.includes("Session name set: my work"),
  },
  {
    name: "/hotkeys",
    act: (s) => s.pane.command("/hotkeys"),
    ready: (t) => t.includes("Run bash command (excluded from context)"),
  },
  {
    name: "/session",
    act: (s) => s.pane.command("/session"),
    ready: (t) => t.includes("Tools: 1 calls, 1 results"),
  },
  {
    name: "/thinking",
    act: (s) => s.pane.command("/thinking"),
    ready: (t) => t.includes("Thinking Level") && t.includes("No reasoning"),
  },
  {
    name: "thinking chosen",
    act: (s) => s.pane.keys("Enter"),
    ready: (t) => t.includes(" Thinking level: off"),
  },
];

/** Screens of one run, by step, and how long the editor took to show. */
async function runScript(reference: boolean): Promise<{ screens: string[]; firstFrameMs: number }> {
  const s = await startInteractiveScenario(TURNS, { reference });
  try {
    await s.pane.command("clear");
    await s.pane.waitFor((t) => t.trim() === "$", STEP_TIMEOUT, "a clear screen");
    const started = performance.now();
    await s.pane.command(s.piCommand());
    let firstFrameMs = 0;
    const screens = await collectScreens(
      s,
      STEPS,
      { start: START_TIMEOUT, step: STEP_TIMEOUT },
      () => firstFrameMs = performance.now() - started,
    );
    await s.pane.command("/quit");
    await s.pane.waitFor((t) => /\$ ?$/.test(t), STEP_TIMEOUT, "the shell after exit");
    return { screens, firstFrameMs };
  } finally {
    await s.close();
  }
}

/** Differences we know of, each with its reason (a regular expression over the lines above). */
const KNOWN_DIFFERENCES: readonly [RegExp, string][] = [
  [
    /^[^:]+: line \d+: " Status: Inactive \(cache warming unavailable\)" \| " Status: Inactive \(cache lifetime unavailable\)"$/,
    "this build does no cache warming yet, so /session (in view in later steps too) says so instead of naming the cache lifetime",
  ],
];

Deno.test("INT-REF: the scripted session gives the same screens as pi 1.6.0 (listed differences aside); the editor shows sooner", async () => {
  const ours = await runScript(false);
  const reference = await runScript(true);
  const found = STEPS.flatMap((step, i) =>
    screenDifferences(step.name, ours.screens[i], reference.screens[i])
  );
  const unexplained = found.filter((line) => !KNOWN_DIFFERENCES.some(([re]) => re.test(line)));
  console.log(
    `first frame (editor visible after pi is typed): ours ${Math.round(ours.firstFrameMs)} ms, ` +
      `pi 1.6.0 ${Math.round(reference.firstFrameMs)} ms`,
  );
  assertEquals(unexplained, []);
  assert(ours.firstFrameMs < reference.firstFrameMs, "ours shows its editor sooner than pi 1.6.0");
});
