/**
 * `/compact [instructions]` in the interactive mode beside pi 1.6.0: the same script (a cancelled
 * compaction, one with instructions, its summary collapsed and expanded, a compaction with
 * nothing new to compact, then a prompt over the compacted context) runs in our `pi` and in the
 * reference, in tmux panes of the same size. Screens, the session's compaction entries, the
 * summarization request's instructions and the next prompt's context must be equal.
 */
import { assert, assertEquals } from "../support/assert.ts";
import type { ScriptedTurn } from "../support/fake_provider/mod.ts";
import { startInteractiveScenario } from "../support/interactive_scenario.ts";
import { assertSameScreens, runScriptedSession, type ScriptStep } from "../support/interactive_script.ts";

const START_TIMEOUT = 90_000;
const STEP_TIMEOUT = 30_000;

const SUMMARY = "## Goal\nGreet the user.\n\n## Progress\n- Said hello twice";

const TURNS: ScriptedTurn[] = [
  { content: [{ type: "text", text: "Hello there." }], usage: { input: 1200, output: 345 } },
  { content: [{ type: "text", text: "Hello again." }], usage: { input: 1600, output: 20 } },
  // The first /compact: its summary never finishes, Escape cancels it.
  {
    content: [{ type: "text", text: "partial summary that never ends" }],
    deltaSize: 7,
    fault: { kind: "stall", afterChunkContaining: "partial" },
  },
  { content: [{ type: "text", text: SUMMARY }], usage: { input: 900, output: 40 } },
  { content: [{ type: "text", text: "Still here." }], usage: { input: 300, output: 5 } },
];

const STEPS: ScriptStep[] = [
  { name: "start-up", act: async () => {}, ready: (t) => t.includes("ctrl+o more") && t.includes("(auto)") },
  { name: "first reply", act: (s) => s.pane.command("hello"), ready: (t) => t.includes(" Hello there.") },
  { name: "second reply", act: (s) => s.pane.command("again"), ready: (t) => t.includes(" Hello again.") },
  {
    name: "compacting",
    act: (s) => s.pane.command("/compact"),
    ready: (t) => t.includes("Compacting context... (escape to cancel)"),
  },
  { name: "cancelled", act: (s) => s.pane.keys("Escape"), ready: (t) => t.includes("Compaction cancelled") },
  {
    name: "compacted",
    act: (s) => s.pane.command("/compact keep the greetings"),
    ready: (t) => t.includes("Compacted from") && !t.includes("Compacting context"),
  },
  { name: "expanded", act: (s) => s.pane.keys("C-o"), ready: (t) => t.includes("Said hello twice") },
  {
    name: "again",
    act: (s) => s.pane.command("/compact"),
    ready: (t) => /Error: [A-Z]/.test(t.slice(t.lastIndexOf("Said hello twice"))),
  },
  { name: "prompt", act: (s) => s.pane.command("still there?"), ready: (t) => t.includes(" Still here.") },
];

/** What one run left. */
interface RunResult {
  screens: string[];
  compactions: unknown[];
  /** The last user message of the summarization request that finished. */
  instructions: unknown;
  /** The messages the prompt after the compaction sent. */
  context: unknown;
}

function pick(record: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(keys.map((k) => [k, record?.[k]]));
}

async function runScript(reference: boolean): Promise<RunResult> {
  const s = await startInteractiveScenario(TURNS, {
    reference,
    settings: { compaction: { keepRecentTokens: 4 } },
  });
  try {
    const { screens, sessionLines: lines } = await runScriptedSession(s, STEPS, {
      start: START_TIMEOUT,
      step: STEP_TIMEOUT,
    });
    const ids = new Map(lines.map((l, i) => [l.id, `<entry ${i}>`]));
    const compactions = lines.filter((l) => l.type === "compaction").map((l) => ({
      // Every field's name; the values of those that snapshot the system prompt (temp paths, the
      // install folder) and times are left out.
      keys: Object.keys(l).sort(),
      ...pick(l, ["type", "summary", "tokensBefore", "fromHook"]),
      id: ids.get(l.id),
      parentId: ids.get(l.parentId),
      firstKeptEntryId: ids.get(l.firstKeptEntryId),
      details: pick(l.details as Record<string, unknown>, ["readFiles", "modifiedFiles"]),
      detailKeys: Object.keys(l.details ?? {}).sort(),
    }));
    assertEquals(s.server.requests.length, 5, "two replies, two summaries, one reply");
    const bodies = s.server.requests.map((r) => r.body as { messages: { role: string; content: unknown }[] });
    const summaryRequest = bodies[3].messages;
    return {
      screens,
      compactions,
      instructions: summaryRequest[summaryRequest.length - 1],
      context: bodies[4].messages,
    };
  } finally {
    await s.close();
  }
}

Deno.test("INT-COMPACT: /compact cancels, compacts with instructions, shows and expands the summary as pi 1.6.0 does", async () => {
  const ours = await runScript(false);
  const reference = await runScript(true);
  assertSameScreens(STEPS, ours.screens, reference.screens);
  assertEquals(ours.compactions, reference.compactions);
  assertEquals(ours.compactions.length, 1);
  assertEquals(ours.instructions, reference.instructions);
  assert(
    JSON.stringify(ours.instructions).includes("keep the greetings"),
    "the instructions reach the model",
  );
  assertEquals(ours.context, reference.context);
  assert(JSON.stringify(ours.context).includes("Greet the user."), "the summary is in the next context");
});
