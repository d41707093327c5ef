/**
 * Compaction as AgentSession runs it, against the fake provider: manual compact with custom
 * instructions, the threshold check after a run, overflow recovery with one retry, and the
 * refusal texts. IDs: LOOP-10, LOOP-11, LOOP-12, LOOP-14, LOOP-15, EVT-07, LOOP-19.
 */
import { join } from "node:path";
import { assert, assertEquals, assertRejects, assertStringIncludes } from "../support/assert.ts";
import { startFakeProvider } from "../support/fake_provider/mod.ts";
import { waitFor } from "../support/wait_for.ts";
import type { ScriptedTurn } from "../support/fake_provider/mod.ts";
import { createAgentEnv, FAKE_MODEL_ID, readSessionLines } from "../support/agent_env.ts";
import { createAgentSession } from "../../src/core/sdk.ts";
import { ModelRuntime } from "../../src/config/model_runtime.ts";
import { SettingsManager } from "../../src/config/settings_manager.ts";
import { SessionManager } from "../../src/session/session_manager.ts";
import type { AgentSessionEvent } from "../../src/core/agent_session_types.ts";

async function setup(turns: ScriptedTurn[], settings: Record<string, unknown>) {
  const server = await startFakeProvider(turns);
  const env = await createAgentEnv(server.url, { settings });
  const modelRuntime = await ModelRuntime.create({
    authPath: join(env.agentDir, "auth.json"),
    modelsPath: join(env.agentDir, "models.json"),
  });
  const { session } = await createAgentSession({
    cwd: env.cwd,
    agentDir: env.agentDir,
    modelRuntime,
    settingsManager: SettingsManager.create(env.cwd, env.agentDir),
    sessionManager: SessionManager.create(env.cwd, join(env.agentDir, "sessions")),
    model: modelRuntime.getModel("fake-anthropic", FAKE_MODEL_ID),
  });
  const events: AgentSessionEvent[] = [];
  session.subscribe((e) => void events.push(e));
  const compactionEvents = () => events.filter((e) => e.type.startsWith("compaction"));
  return {
    server,
    env,
    session,
    events,
    compactionEvents,
    async close() {
      session.dispose();
      await server.close();
      await env.cleanup();
    },
  };
}

const text = (t: string, input = 50): ScriptedTurn => ({
  content: [{ type: "text", text: t }],
  usage: { input, output: 10 },
});

Deno.test("LOOP-14 EVT-07 manual compact summarises older turns, records the entry, and rebuilds the context", async () => {
  const t = await setup(
    [text("first answer " + "x".repeat(400)), text("second answer"), text("THE SUMMARY")],
    {
      compaction: { keepRecentTokens: 5 },
    },
  );
  try {
    await t.session.prompt("first question " + "y".repeat(400));
    await t.session.prompt("second question");
    const result = await t.session.compact("keep the file names");
    assertEquals(result.summary.startsWith("THE SUMMARY"), true);

    const request = JSON.stringify(t.server.requests[2].body);
    assertStringIncludes(request, "first question");
    assertStringIncludes(request, "Additional focus: keep the file names");

    const lines = await readSessionLines((await t.env.sessionFiles())[0]);
    const entry = lines.find((l) => l.type === "compaction")!;
    assert(entry, "compaction entry");
    assertEquals(entry.summary, result.summary);
    assertEquals(entry.firstKeptEntryId, result.firstKeptEntryId);
    // The context now starts with the system checkpoint, then the summary (LOOP-15).
    assertEquals(t.session.messages.slice(0, 2).map((m) => m.role), ["system", "compactionSummary"]);
    assertEquals(t.compactionEvents().map((e) => e.type), ["compaction_start", "compaction_end"]);
    const end = t.compactionEvents()[1] as Extract<AgentSessionEvent, { type: "compaction_end" }>;
    assertEquals([end.reason, end.aborted, end.willRetry, end.errorMessage], [
      "manual",
      false,
      false,
      undefined,
    ]);
    // Right after compaction the context size is unknown (LOOP-19).
    assertEquals(t.session.getContextUsage(), { tokens: null, contextWindow: 200000, percent: null });

    await assertRejects(() => t.session.compact(), "Already compacted");
    const failed = t.compactionEvents()[3] as Extract<AgentSessionEvent, { type: "compaction_end" }>;
    assertEquals(failed.errorMessage, "Compaction failed: Already compacted");
  } finally {
    await t.close();
  }
});

Deno.test("LOOP-11 a reply over the threshold triggers compaction after the run, without retry", async () => {
  const t = await setup([text("early"), text("big context reply", 190000), text("AUTO SUMMARY")], {
    compaction: { reserveTokens: 16384, keepRecentTokens: 6 },
  });
  try {
    await t.session.prompt("one");
    await t.session.prompt("two");
    await t.session.settle();
    const events = t.compactionEvents();
    assertEquals(events.map((e) => e.type), ["compaction_start", "compaction_end"]);
    assertEquals((events[0] as { reason: string }).reason, "threshold");
    const end = events[1] as Extract<AgentSessionEvent, { type: "compaction_end" }>;
    assertEquals([end.willRetry, end.aborted, end.errorMessage], [false, false, undefined]);
    assertStringIncludes(end.result!.summary, "AUTO SUMMARY");
    assertEquals(t.server.requests.length, 3);
  } finally {
    await t.close();
  }
});

Deno.test("LOOP-10 LOOP-12 a context-overflow error is compacted and retried once", async () => {
  const t = await setup([
    text("earlier reply"),
    { fault: { kind: "http", status: 400, message: "prompt is too long: 250000 tokens > 200000 maximum" } },
    text("OVERFLOW SUMMARY"),
    text("answer after compaction"),
  ], { compaction: { keepRecentTokens: 5 }, retry: { enabled: true, provider: { maxRetries: 0 } } });
  try {
    await t.session.prompt("one");
    await t.session.prompt("two");
    await t.session.settle();
    assertEquals(t.session.getLastAssistantText(), "answer after compaction");
    const events = t.compactionEvents();
    assertEquals(events.map((e) => e.type), ["compaction_start", "compaction_end"]);
    assertEquals((events[0] as { reason: string }).reason, "overflow");
    assertEquals((events[1] as { willRetry: boolean }).willRetry, true);
    // No auto-retry for overflow: the retry is the compaction's.
    assertEquals(t.events.filter((e) => e.type.startsWith("auto_retry")).length, 0);
    const lines = await readSessionLines((await t.env.sessionFiles())[0]);
    const kinds = lines.slice(3).map((l) =>
      l.type === "message"
        ? `${(l.message as { role: string }).role}:${(l.message as { stopReason?: string }).stopReason ?? ""}`
        : l.type
    );
    assertEquals(kinds, [
      "system:",
      "user:",
      "assistant:stop",
      "user:",
      "assistant:error",
      // 1.6.0's recovery order: the failed reply is omitted, then compacted, then retried.
      "context_edit",
      "compaction",
      "assistant:stop",
    ]);
  } finally {
    await t.close();
  }
});

Deno.test("LOOP-14 abort cancels a running manual compaction: compaction_end{aborted:true}, 'Compaction cancelled', nothing written", async () => {
  const t = await setup(
    [text("first answer " + "x".repeat(400)), text("second answer"), {
      content: [{ type: "text", text: "A SUMMARY THAT NEVER ARRIVES ".repeat(20) }],
      chunkDelayMs: 100,
      deltaSize: 4,
    }],
    { compaction: { keepRecentTokens: 5 } },
  );
  try {
    await t.session.prompt("first question " + "y".repeat(400));
    await t.session.prompt("second question");
    const compacting = t.session.compact();
    await waitFor(() => t.server.requests.length === 3, 10_000, "the summary request");
    await t.session.abort();
    await assertRejects(() => compacting, "Compaction cancelled");
    const end = t.compactionEvents().at(-1) as Extract<AgentSessionEvent, { type: "compaction_end" }>;
    assertEquals([end.type, end.reason, end.aborted, end.result], [
      "compaction_end",
      "manual",
      true,
      undefined,
    ]);
    const lines = await readSessionLines((await t.env.sessionFiles())[0]);
    assertEquals(lines.some((l) => l.type === "compaction"), false);
    assertEquals(t.session.isCompacting, false);
  } finally {
    await t.close();
  }
});

Deno.test("LOOP-14 a manual compact during a reply aborts the reply first, then compacts", async () => {
  const t = await setup(
    [text("first answer " + "x".repeat(400)), {
      content: [{ type: "text", text: "a slow reply ".repeat(40) }],
      chunkDelayMs: 50,
      deltaSize: 2,
    }, text("THE SUMMARY")],
    { compaction: { keepRecentTokens: 5 } },
  );
  try {
    await t.session.prompt("first question " + "y".repeat(400));
    const before = t.events.length;
    const reply = t.session.prompt("second question");
    const streaming = () => t.events.slice(before).some((e) => e.type === "message_update");
    await waitFor(streaming, 10_000, "the reply streaming");
    const result = await t.session.compact();
    await reply;
    assertStringIncludes(result.summary, "THE SUMMARY");
    const types = t.events.map((e) => e.type);
    // The reply ended (aborted, settled) before the compaction started.
    assert(types.lastIndexOf("agent_settled") < types.indexOf("compaction_start"), types.join(","));
    const settled = t.events.filter((e) => e.type === "agent_settled") as { aborted: boolean }[];
    assertEquals(settled.map((e) => e.aborted), [false, true]);
  } finally {
    await t.close();
  }
});

Deno.test("LOOP-11 compaction runs between tool turns when a reply crosses the threshold; the run goes on", async () => {
  const t = await setup([
    {
      content: [{ type: "toolCall", id: "c1", name: "bash", arguments: { command: "echo tool-output" } }],
      usage: { input: 190_000, output: 10 },
    },
    text("PREFIX SUMMARY"),
    text("final answer"),
  ], { compaction: { keepRecentTokens: 5 } });
  try {
    await t.session.prompt("work through it");
    const types = t.events.map((e) => e.type).filter((type) => type !== "message_update");
    const toolEnd = types.indexOf("tool_execution_end");
    const start = types.indexOf("compaction_start");
    const end = t.compactionEvents().at(-1) as Extract<AgentSessionEvent, { type: "compaction_end" }>;
    assert(toolEnd < start && start < types.lastIndexOf("turn_start"), types.join(","));
    assertEquals([end.reason, end.aborted, end.willRetry, end.result !== undefined], [
      "threshold",
      false,
      false,
      true,
    ]);
    assertEquals(types.filter((type) => type === "agent_settled").length, 1, "one run");
    assertEquals(t.session.getLastAssistantText(), "final answer");
    // The request after the compaction starts from the summary.
    const last = JSON.stringify(t.server.requests.at(-1)!.body);
    assertStringIncludes(last, "PREFIX SUMMARY");
    // The turn's start was summarised; the tool call and its result are kept.
    assertEquals([last.includes("work through it"), last.includes("tool-output")], [false, true]);
  } finally {
    await t.close();
  }
});
