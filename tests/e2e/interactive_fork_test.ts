/**
 * `/fork` in the interactive mode beside pi 1.6.0: the picker of user messages (moving through
 * it, choosing the newest), the forked session's chat with the chosen message back in the editor,
 * a second picker cancelled with Escape, the forked message sent, then `/clone`. The same script runs in our
 * `pi` and in the reference, in tmux panes of the same size; screens, the session files' entries
 * and what the last prompt sends the model must be equal.
 */
import { assert, assertEquals } from "../support/assert.ts";
import { readSessionLines } from "../support/agent_env.ts";
import type { ScriptedTurn } from "../support/fake_provider/mod.ts";
import { startInteractiveScenario } from "../support/interactive_scenario.ts";
import { assertSameScreens, collectScreens, type ScriptStep } from "../support/interactive_script.ts";

const TIMEOUTS = { start: 90_000, step: 30_000 };

const TURNS: ScriptedTurn[] = [
  { content: [{ type: "text", text: "Answer one." }] },
  { content: [{ type: "text", text: "Answer two." }] },
  { content: [{ type: "text", text: "Answer three." }] },
];

const STEPS: ScriptStep[] = [
  { name: "start-up", act: async () => {}, ready: (t) => t.includes("ctrl+o more") && t.includes("(auto)") },
  { name: "first", act: (s) => s.pane.command("first question"), ready: (t) => t.includes(" Answer one.") },
  { name: "second", act: (s) => s.pane.command("second question"), ready: (t) => t.includes(" Answer two.") },
  {
    name: "picker",
    act: (s) => s.pane.command("/fork"),
    ready: (t) => t.includes("Fork from Message") && t.includes("Message 2 of 2"),
  },
  { name: "up", act: (s) => s.pane.keys("Up"), ready: (t) => t.includes("› first question") },
  { name: "down", act: (s) => s.pane.keys("Down"), ready: (t) => t.includes("› second question") },
  { name: "forked", act: (s) => s.pane.keys("Enter"), ready: (t) => t.includes("Forked to new session") },
  {
    name: "second picker",
    act: async (s) => {
      // The forked message waits in the editor; the picker replaces it for a moment.
      await s.pane.keys("C-c");
      await s.pane.waitFor((t) => !t.includes("\nsecond question\n"), TIMEOUTS.step, "the cleared editor");
      await s.pane.command("/fork");
    },
    ready: (t) => t.includes("Fork from Message") && t.includes("Message 1 of 1"),
  },
  { name: "cancelled", act: (s) => s.pane.keys("Escape"), ready: (t) => !t.includes("Fork from Message") },
  {
    name: "sent",
    act: (s) => s.pane.command("second question, again"),
    ready: (t) => t.includes(" Answer three."),
  },
  { name: "cloned", act: (s) => s.pane.command("/clone"), ready: (t) => t.includes("Cloned to new session") },
];

/** A session file's lines with ids, times and paths masked. */
function normalizeSession(lines: Record<string, unknown>[]): unknown[] {
  const ids = new Map(lines.map((l, i) => [l.id, `<entry ${i}>`]));
  return lines.map((l) => {
    if (l.type === "session") {
      return { type: l.type, version: l.version, parentSession: typeof l.parentSession };
    }
    const message = l.message as { role?: string; content?: unknown } | undefined;
    return {
      type: l.type,
      id: ids.get(l.id),
      parentId: ids.get(l.parentId) ?? l.parentId,
      ...(message ? { role: message.role, content: message.content } : {}),
    };
  });
}

async function runScript(reference: boolean) {
  const s = await startInteractiveScenario(TURNS, { reference });
  try {
    await s.pane.command(`clear; ${s.piCommand()}`);
    const screens = await collectScreens(s, STEPS, TIMEOUTS);
    await s.pane.command("/quit");
    await s.pane.waitFor((t) => /\$ ?$/.test(t), TIMEOUTS.step, "the shell after exit");
    const files = await s.agent.sessionFiles();
    const sessions = await Promise.all(files.map(async (f) => normalizeSession(await readSessionLines(f))));
    // The original has no parent; sort so the order does not hang on file names.
    sessions.sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
    const bodies = s.server.requests.map((r) => r.body as { messages: unknown });
    return { screens, sessions, context: bodies[bodies.length - 1]?.messages, requests: bodies.length };
  } finally {
    await s.close();
  }
}

Deno.test("INT-FORK: /fork picks a user message, continues in a new session with it in the editor; /clone copies the session; as pi 1.6.0 does", async () => {
  const ours = await runScript(false);
  const reference = await runScript(true);
  assertSameScreens(STEPS, ours.screens, reference.screens);
  assertEquals(ours.sessions.length, 3, "the original, the fork and its clone");
  assertEquals(ours.sessions, reference.sessions);
  assertEquals(ours.requests, 3);
  assertEquals(ours.context, reference.context);
  const sent = JSON.stringify(ours.context);
  assert(sent.includes("first question") && !sent.includes("Answer two."), "the fork's context");
});
