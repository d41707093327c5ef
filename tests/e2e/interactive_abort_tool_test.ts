/**
 * Escape while a tool runs, beside pi 1.6.0: the reply calls bash `sleep 30`, Escape aborts the
 * turn, the chat shows the aborted tool result and the aborted reply, the session file records
 * them (the tool result with the abort error, the assistant message's stopReason "aborted"), and
 * the next prompt sends the model that context. The same keys run in our `pi` and in the
 * reference; screens, session entries and the next request must be equal.
 */
import { assert, assertEquals } from "../support/assert.ts";
import { readSessionLines } from "../support/agent_env.ts";
import type { ScriptedTurn } from "../support/fake_provider/mod.ts";
import { startInteractiveScenario } from "../support/interactive_scenario.ts";
import { assertSameScreens, collectScreens, type ScriptStep } from "../support/interactive_script.ts";

const TIMEOUTS = { start: 90_000, step: 30_000 };

const TURNS: ScriptedTurn[] = [
  { content: [{ type: "toolCall", name: "bash", arguments: { command: "sleep 30" } }] },
  { content: [{ type: "text", text: "Fine, stopped." }] },
];

const STEPS: ScriptStep[] = [
  { name: "start-up", act: async () => {}, ready: (t) => t.includes("ctrl+o more") && t.includes("(auto)") },
  {
    name: "running",
    act: (s) => s.pane.command("wait a while"),
    ready: (t) => t.includes("$ sleep 30") && t.includes("Elapsed") && t.includes("Working"),
  },
  {
    name: "aborted",
    act: (s) => s.pane.keys("Escape"),
    ready: (t) => t.includes("Operation aborted") && !t.includes("Working"),
  },
  { name: "next", act: (s) => s.pane.command("what happened"), ready: (t) => t.includes(" Fine, stopped.") },
];

/** A session file's message entries with ids, times and usage masked. */
function messages(lines: Record<string, unknown>[]): unknown[] {
  // The system message holds the docs' install paths, which differ between the two.
  const entries = lines.filter((l) =>
    l.type === "message" && (l.message as { role: string }).role !== "system"
  );
  return entries.map((l) => {
    const { timestamp: _t, usage: _u, responseId: _r, durationMs, ...message } = l.message as Record<
      string,
      unknown
    >;
    const content = Array.isArray(message.content)
      ? message.content.map((c: Record<string, unknown>) => (c.id ? { ...c, id: "<id>" } : c))
      : message.content;
    return {
      ...message,
      content,
      ...(message.toolCallId ? { toolCallId: "<id>" } : {}),
      ...(typeof message.details === "object" && message.details ? { details: "<details>" } : {}),
      ...(durationMs === undefined ? {} : { durationMs: typeof durationMs }),
    };
  });
}

async function runScript(reference: boolean) {
  const s = await startInteractiveScenario(TURNS, { reference });
  try {
    await s.pane.command(`clear; ${s.piCommand()}`);
    const screens = (await collectScreens(s, STEPS, TIMEOUTS)).map((t) =>
      t.replace(/Elapsed \d+(\.\d+)?s/g, "Elapsed <t>")
    );
    await s.pane.command("/quit");
    await s.pane.waitFor((t) => /\$ ?$/.test(t), TIMEOUTS.step, "the shell after exit");
    const [file] = await s.agent.sessionFiles();
    const lines = await readSessionLines(file);
    const last = s.server.requests[s.server.requests.length - 1]?.body as { messages: unknown[] };
    return {
      screens,
      messages: messages(lines),
      context: JSON.stringify(last.messages).replace(/"(id|tool_use_id)":"[^"]*"/g, '"$1":"<id>"'),
      requests: s.server.requests.length,
    };
  } finally {
    await s.close();
  }
}

Deno.test("INT-ABORT-TOOL: Escape during a running bash tool aborts the turn; chat, session and next context as pi 1.6.0", async () => {
  const ours = await runScript(false);
  const reference = await runScript(true);
  assertSameScreens(STEPS, ours.screens, reference.screens);
  assertEquals(ours.messages, reference.messages);
  assertEquals(ours.context, reference.context);
  assertEquals(ours.requests, 2);
  assert(ours.screens[2].includes("\n Command aborted\n"));
  assert(ours.screens[2].includes("\n Operation aborted\n"));
  const aborted = ours.messages.find((m) => (m as { stopReason?: string }).stopReason === "aborted");
  assertEquals((aborted as { errorMessage?: string }).errorMessage, "Operation aborted");
});
