/**
 * Bash from the editor (`!cmd`, `!!cmd`) in the interactive mode beside pi 1.6.0: the same
 * scripted commands run in our `pi` and in the reference, each in a tmux pane of the same size.
 * The normalised screens must be equal; so must the bashExecution entries of the session files
 * and the context the next prompt sends the model (a `!` command's output included, a `!!`
 * command's left out).
 */
import { assert, assertEquals } from "../support/assert.ts";
import type { ScriptedTurn } from "../support/fake_provider/mod.ts";
import { startInteractiveScenario } from "../support/interactive_scenario.ts";
import { assertSameScreens, runScriptedSession, type ScriptStep } from "../support/interactive_script.ts";

const START_TIMEOUT = 90_000;
const STEP_TIMEOUT = 30_000;

const TURNS: ScriptedTurn[] = [{ content: [{ type: "text", text: "Seen it." }] }];

const STEPS: ScriptStep[] = [
  { name: "start-up", act: async () => {}, ready: (t) => t.includes("ctrl+o more") && t.includes("(auto)") },
  {
    name: "!cmd",
    act: (s) => s.pane.command("!echo first-line; echo second-line"),
    ready: (t) => t.includes("\n second-line") && !t.includes("Running..."),
  },
  {
    name: "!!cmd",
    act: (s) => s.pane.command("!!echo kept-out-of-context"),
    ready: (t) => t.includes("\n kept-out-of-context") && !t.includes("Running..."),
  },
  {
    name: "exit code",
    act: (s) => s.pane.command("!echo failing; exit 3"),
    ready: (t) => t.includes("(exit 3)"),
  },
  {
    name: "long output",
    act: (s) => s.pane.command("!seq 1 30"),
    ready: (t) => /\.\.\. \d+ more lines \(ctrl\+o to expand\)/.test(t),
  },
  { name: "expanded", act: (s) => s.pane.keys("C-o"), ready: (t) => t.includes("(ctrl+o to collapse)") },
  {
    name: "running",
    act: (s) => s.pane.command("!echo waiting; sleep 60"),
    ready: (t) => t.includes("Running... (escape/ctrl+c to cancel)") && t.includes("\n waiting"),
  },
  {
    name: "already running",
    act: (s) => s.pane.command("!echo second"),
    ready: (t) => t.includes("A bash command is already running. Press Esc to cancel it first."),
  },
  { name: "cancelled", act: (s) => s.pane.keys("Escape"), ready: (t) => t.includes("(cancelled)") },
  // The text stays in the editor; Ctrl+C clears it (a second Escape would too here, since the
  // editor is in bash mode; 1.6.0 leaves bash mode when the cancelled command ends: a difference).
  {
    name: "cleared",
    act: (s) => s.pane.keys("C-c"),
    ready: (t) => !t.includes("\n!echo second\n"),
  },
  { name: "prompt", act: (s) => s.pane.command("what did you see?"), ready: (t) => t.includes(" Seen it.") },
];

/** What one run left: screens by step, the session's bash entries, the model's context. */
interface RunResult {
  screens: string[];
  bashEntries: unknown[];
  context: unknown;
}

/** Masks what differs between runs (times, ids) in a session entry. */
function normalizeEntry(entry: Record<string, unknown>): unknown {
  const message = { ...(entry.message as Record<string, unknown>) };
  message.timestamp = "<time>";
  return { ...entry, id: "<id>", parentId: "<id>", timestamp: "<time>", message };
}

async function runScript(reference: boolean): Promise<RunResult> {
  const s = await startInteractiveScenario(TURNS, { reference });
  try {
    const { screens, sessionLines: lines } = await runScriptedSession(s, STEPS, {
      start: START_TIMEOUT,
      step: STEP_TIMEOUT,
    });
    const bashEntries = lines
      .filter((l) => (l.message as { role?: string } | undefined)?.role === "bashExecution")
      .map(normalizeEntry);
    assertEquals(s.server.requests.length, 1, "one model request");
    const body = s.server.requests[0].body as { messages: unknown };
    return { screens, bashEntries, context: body.messages };
  } finally {
    await s.close();
  }
}

Deno.test("INT-BASH: !cmd and !!cmd show, record and send (or keep out of context) what pi 1.6.0 does", async () => {
  const ours = await runScript(false);
  const reference = await runScript(true);
  assertSameScreens(STEPS, ours.screens, reference.screens);
  assertEquals(ours.bashEntries, reference.bashEntries);
  assertEquals(ours.bashEntries.length, 5);
  assertEquals(ours.context, reference.context);
  const sent = JSON.stringify(ours.context);
  assert(sent.includes("second-line"), "a ! command's output goes to the model");
  assert(!sent.includes("kept-out-of-context"), "a !! command's output does not");
});

const STALLED: ScriptedTurn[] = [{
  content: [{ type: "text", text: "partial answer that never ends" }],
  deltaSize: 7,
  fault: { kind: "stall", afterChunkContaining: "partial" },
}];

const WHILE_STREAMING: ScriptStep[] = [
  { name: "start-up", act: async () => {}, ready: (t) => t.includes("ctrl+o more") && t.includes("(auto)") },
  {
    name: "streaming",
    act: (s) => s.pane.command("slow"),
    ready: (t) => t.includes("partial") && t.includes("Working"),
  },
  {
    name: "!cmd below the chat",
    act: (s) => s.pane.command("!echo during-the-reply"),
    ready: (t) => t.includes("\n during-the-reply") && !t.includes("Running..."),
  },
  { name: "settled", act: (s) => s.pane.keys("Escape"), ready: (t) => t.includes(" Operation aborted") },
];

Deno.test("INT-BASH: a !cmd run while a reply streams waits below the chat and joins it (and the session) once the reply ends, as in pi 1.6.0", async () => {
  const run = async (reference: boolean) => {
    const s = await startInteractiveScenario(STALLED, { reference });
    try {
      const { screens, sessionLines } = await runScriptedSession(s, WHILE_STREAMING, {
        start: START_TIMEOUT,
        step: STEP_TIMEOUT,
      });
      const roles = sessionLines.map((l) => (l.message as { role?: string } | undefined)?.role ?? l.type);
      return { screens, roles };
    } finally {
      await s.close();
    }
  };
  const ours = await run(false);
  const reference = await run(true);
  // Before the first usage report the footer's context share is estimated from the system prompt,
  // which names where the docs are installed (the reference's path is longer): masked here.
  const mask = (screens: string[]) => screens.map((t) => t.replace(/\d+\.\d%\/200k/g, "<n>%/200k"));
  assertSameScreens(WHILE_STREAMING, mask(ours.screens), mask(reference.screens));
  assertEquals(ours.roles, reference.roles);
  assertEquals(ours.roles.slice(-3), ["user", "assistant", "bashExecution"]);
});
