/**
 * AgentSession through the SDK (`createAgentSession`) against the fake provider server, for each
 * wire API: tools touch real files, every message lands in the session file, and requests carry
 * the system prompt, tools and prior results. IDs: LOOP-01, LOOP-02, LOOP-07, LOOP-08, LOOP-17,
 * LOOP-18, SES-03, SES-04, EVT-06, EVT-08.
 */
import { join } from "node:path";
import { assert, assertEquals, assertRejects, assertStringIncludes } from "../support/assert.ts";
import { startFakeProvider } from "../support/fake_provider/mod.ts";
import { waitFor } from "../support/wait_for.ts";
import type { ScriptedTurn } from "../support/fake_provider/mod.ts";
import {
  createAgentEnv,
  FAKE_MODEL_ID,
  FAKE_PROVIDERS,
  type FakeApi,
  readSessionLines,
} from "../support/agent_env.ts";
import { createAgentSession } from "../../src/core/sdk.ts";
import { ModelRuntime } from "../../src/config/model_runtime.ts";
import { SettingsManager } from "../../src/config/settings_manager.ts";
import { SessionManager } from "../../src/session/session_manager.ts";
import type { AgentSessionEvent } from "../../src/core/agent_session_types.ts";
import type { AssistantMessage } from "../../src/ai/types.ts";

async function setup(api: FakeApi, turns: ScriptedTurn[], settings?: Record<string, unknown>) {
  const server = await startFakeProvider(turns);
  const env = await createAgentEnv(server.url, { settings });
  const modelRuntime = await ModelRuntime.create({
    authPath: join(env.agentDir, "auth.json"),
    modelsPath: join(env.agentDir, "models.json"),
  });
  const model = modelRuntime.getModel(FAKE_PROVIDERS[api], FAKE_MODEL_ID);
  assert(model, `model for ${api}`);
  const { session } = await createAgentSession({
    cwd: env.cwd,
    agentDir: env.agentDir,
    modelRuntime,
    settingsManager: SettingsManager.create(env.cwd, env.agentDir),
    sessionManager: SessionManager.create(env.cwd, join(env.agentDir, "sessions")),
    model,
  });
  const events: AgentSessionEvent[] = [];
  session.subscribe((e) => void events.push(e));
  return {
    server,
    env,
    session,
    events,
    async close() {
      session.dispose();
      await server.close();
      await env.cleanup();
    },
  };
}

const WRITE_READ_EDIT: ScriptedTurn[] = [
  {
    content: [{
      type: "toolCall",
      id: "call_1",
      name: "write",
      arguments: { path: "hello.txt", content: "hello world\n" },
    }],
  },
  { content: [{ type: "toolCall", id: "call_2", name: "read", arguments: { path: "hello.txt" } }] },
  {
    content: [{
      type: "toolCall",
      id: "call_3",
      name: "edit",
      arguments: { path: "hello.txt", edits: [{ oldText: "world", newText: "deno" }] },
    }],
  },
  {
    content: [{ type: "text", text: "Done: the file now says hello deno." }],
    usage: { input: 120, output: 9 },
  },
];

function textOf(message: unknown): string {
  const content = (message as { content: unknown }).content;
  if (typeof content === "string") return content;
  return (content as { type: string; text?: string }[]).map((c) => c.text ?? "").join("");
}

for (const api of Object.keys(FAKE_PROVIDERS) as FakeApi[]) {
  Deno.test(`LOOP-02 SES-03 ${api}: write, read, edit, answer — files, session lines and requests`, async () => {
    const t = await setup(api, structuredClone(WRITE_READ_EDIT));
    try {
      await t.session.prompt("Create hello.txt, then change world to deno.");
      await t.session.settle();

      assertEquals(await Deno.readTextFile(join(t.env.cwd, "hello.txt")), "hello deno\n");
      assertEquals(t.session.getLastAssistantText(), "Done: the file now says hello deno.");
      assertEquals(t.server.requests.length, 4);

      // The session file: header, model and thinking entries, then every message in order.
      const files = await t.env.sessionFiles();
      assertEquals(files.length, 1);
      const lines = await readSessionLines(files[0]);
      assertEquals(lines[0].type, "session");
      assertEquals(lines[0].version, 3);
      assertEquals(lines[0].cwd, t.env.cwd);
      assertEquals(
        lines.slice(1).map((l) =>
          l.type === "message" ? `message:${(l.message as { role: string }).role}` : l.type
        ),
        [
          "model_change",
          "thinking_level_change",
          // 1.6.0: the system prompt and tools are recorded before the first user message.
          "message:system",
          "message:user",
          "message:assistant",
          "message:toolResult",
          "message:assistant",
          "message:toolResult",
          "message:assistant",
          "message:toolResult",
          "message:assistant",
        ],
      );
      assertEquals(lines[1].provider, FAKE_PROVIDERS[api]);
      assertEquals(lines[1].modelId, FAKE_MODEL_ID);
      // Parent links form one chain.
      for (let i = 2; i < lines.length; i++) assertEquals(lines[i].parentId, lines[i - 1].id);
      const results = lines.filter((l) => (l.message as { role?: string })?.role === "toolResult")
        .map((l) => l.message as { toolName: string; isError: boolean; content: unknown });
      assertEquals(results.map((r) => [r.toolName, r.isError]), [["write", false], ["read", false], [
        "edit",
        false,
      ]]);
      assertEquals(textOf(results[0]), "Successfully wrote to hello.txt");
      assertEquals(textOf(results[1]), "hello world\n");
      assertEquals(textOf(results[2]), "Successfully replaced 1 block(s) in hello.txt.");

      // What was sent: the system prompt and the tools on every request, prior results later.
      const bodies = t.server.requests.map((r) => JSON.stringify(r.body));
      for (const body of bodies) {
        assertStringIncludes(body, "You are a coding assistant running inside pi");
        for (const tool of ["read", "bash", "edit", "write"]) assertStringIncludes(body, `"${tool}"`);
      }
      assertStringIncludes(bodies[1], "Successfully wrote to hello.txt");
      assertStringIncludes(bodies[2], "hello world");
      assertStringIncludes(bodies[3], "Successfully replaced 1 block(s) in hello.txt.");

      // Stats add up the four replies.
      const stats = t.session.getSessionStats();
      assertEquals([stats.userMessages, stats.assistantMessages, stats.toolCalls, stats.toolResults], [
        1,
        4,
        3,
        3,
      ]);
      assertEquals(stats.sessionFile, files[0]);
    } finally {
      await t.close();
    }
  });
}

Deno.test("LOOP-07 LOOP-08 EVT-08 a 500 is retried after the backoff, the failed reply stays in the file", async () => {
  const t = await setup("anthropic-messages", [
    { fault: { kind: "http", status: 500, message: "upstream broke" } },
    { content: [{ type: "text", text: "recovered" }] },
  ], { retry: { enabled: true, maxRetries: 2, baseDelayMs: 10, provider: { maxRetries: 0 } } });
  try {
    await t.session.prompt("hi");
    await t.session.settle();
    assertEquals(t.session.getLastAssistantText(), "recovered");
    const retryEvents = t.events.filter((e) => e.type.startsWith("auto_retry"));
    assertEquals(retryEvents.map((e) => e.type), ["auto_retry_start", "auto_retry_end"]);
    const start = retryEvents[0] as Extract<AgentSessionEvent, { type: "auto_retry_start" }>;
    assertEquals([start.attempt, start.maxAttempts, start.delayMs], [1, 2, 10]);
    assertStringIncludes(start.errorMessage, "500");
    assertEquals(retryEvents[1], { type: "auto_retry_end", success: true, attempt: 1 });
    // The error reply is in the file but not in the context.
    const lines = await readSessionLines((await t.env.sessionFiles())[0]);
    const stops = lines.filter((l) => (l.message as { role?: string })?.role === "assistant")
      .map((l) => (l.message as { stopReason: string }).stopReason);
    assertEquals(stops, ["error", "stop"]);
    assertEquals(t.session.messages.map((m) => m.role), ["system", "user", "assistant"]);
    // 1.6.0: a context_edit without replacement hides the failed reply from later requests.
    const failed = lines.find((l) => (l.message as { stopReason?: string })?.stopReason === "error")!;
    const edit = lines.find((l) => l.type === "context_edit")!;
    assertEquals([edit.targetId, edit.replacement, edit.parentId], [failed.id, null, failed.id]);
    const appended = t.events.filter((e) => e.type === "entry_appended") as { entry: { id: string } }[];
    assertEquals(appended.map((e) => e.entry.id), [edit.id]);
  } finally {
    await t.close();
  }
});

Deno.test("LOOP-08 retries give up after maxRetries with auto_retry_end success:false", async () => {
  const fault = { fault: { kind: "http" as const, status: 529, message: "Overloaded" } };
  const t = await setup("anthropic-messages", [fault, fault, fault], {
    retry: { enabled: true, maxRetries: 2, baseDelayMs: 5, provider: { maxRetries: 0 } },
  });
  try {
    await t.session.prompt("hi");
    await t.session.settle();
    const retryEvents = t.events.filter((e) => e.type.startsWith("auto_retry"));
    assertEquals(retryEvents.map((e) => e.type), ["auto_retry_start", "auto_retry_start", "auto_retry_end"]);
    const end = retryEvents[2] as Extract<AgentSessionEvent, { type: "auto_retry_end" }>;
    assertEquals([end.success, end.attempt], [false, 2]);
    assertStringIncludes(end.finalError ?? "", "Overloaded");
    assertEquals(t.server.requests.length, 3);
  } finally {
    await t.close();
  }
});

Deno.test("LOOP-17 LOOP-18 thinking is clamped to the model and changes are recorded; setModel needs auth", async () => {
  const t = await setup("openai-completions", [{ content: [{ type: "text", text: "ok" }] }]);
  try {
    // The fake model does not reason, so every level clamps to off and nothing is recorded.
    t.session.setThinkingLevel("high");
    assertEquals(t.session.thinkingLevel, "off");
    assertEquals(t.session.cycleThinkingLevel(), undefined);
    const other = t.session.modelRegistry.find("fake-anthropic", FAKE_MODEL_ID)!;
    await t.session.setModel(other);
    assertEquals(t.session.model?.provider, "fake-anthropic");
    const unknown = { ...other, provider: "nobody", id: "x" };
    await assertRejects(() => t.session.setModel(unknown), "No API key for nobody/x");
    await t.session.prompt("hi");
    await t.session.settle();
    const lines = await readSessionLines((await t.env.sessionFiles())[0]);
    assertEquals(
      lines.filter((l) => l.type === "model_change").map((l) => l.provider),
      ["fake-openai", "fake-anthropic"],
    );
    assertEquals(t.server.requests[0].path, "/v1/messages");
  } finally {
    await t.close();
  }
});

Deno.test("LOOP-17 model and thinking switches are the session's own; only persist: true saves them as defaults (pi 1.6.0)", async () => {
  const t = await setup("openai-completions", [], { quietStartup: true });
  const settingsFile = () => JSON.parse(Deno.readTextFileSync(join(t.env.agentDir, "settings.json")));
  try {
    const other = t.session.modelRegistry.find("fake-anthropic", FAKE_MODEL_ID)!;
    await t.session.setModel(other);
    await t.session.cycleModel();
    t.session.setThinkingLevel("high");
    await t.session.settingsManager.flush();
    assertEquals(settingsFile(), { quietStartup: true });

    // Ctrl+S in the selectors: the default model, the requested level (even when the model clamps it).
    await t.session.setModel(other, { persist: true });
    t.session.setThinkingLevel("high", { persist: true });
    await t.session.settingsManager.flush();
    const saved = settingsFile();
    assertEquals([saved.defaultProvider, saved.defaultModel, saved.defaultThinkingLevel], [
      "fake-anthropic",
      FAKE_MODEL_ID,
      "high",
    ]);
    assertEquals(t.session.thinkingLevel, "off");
  } finally {
    await t.close();
  }
});

Deno.test("EVT-06 LOOP-03 prompts while streaming need streamingBehavior; queued text shows in queue_update", async () => {
  const t = await setup("anthropic-messages", [
    { content: [{ type: "text", text: "first" }], chunkDelayMs: 20 },
    { content: [{ type: "text", text: "second" }] },
  ]);
  try {
    const run = t.session.prompt("one");
    await waitFor(() => t.session.isStreaming, 10_000, "the first prompt to start streaming", 5);
    await assertRejects(
      () => t.session.prompt("two"),
      "Agent is already processing. Specify streamingBehavior ('steer' or 'followUp') to queue the message.",
    );
    await t.session.prompt("two", { streamingBehavior: "followUp" });
    await run;
    await t.session.settle();
    const queueEvents = t.events.filter((e) => e.type === "queue_update");
    assertEquals(queueEvents, [
      { type: "queue_update", steering: [], followUp: ["two"] },
      { type: "queue_update", steering: [], followUp: [] },
    ]);
    assertEquals(t.session.getLastAssistantText(), "second");
  } finally {
    await t.close();
  }
});

Deno.test("LOOP-01 a prompt without credentials fails before anything is sent or written", async () => {
  const t = await setup("anthropic-messages", []);
  try {
    const model = t.session.model!;
    await Deno.writeTextFile(join(t.env.agentDir, "models.json"), JSON.stringify({ providers: {} }));
    t.session.modelRegistry.refresh();
    // The model object stays, its provider no longer has a key.
    t.session.agent.state.model = { ...model, provider: "no-such-provider" };
    await assertRejects(() => t.session.prompt("hi"), "No API key found for no-such-provider.");
    assertEquals(t.server.requests.length, 0);
    assertEquals(await t.env.sessionFiles(), []);
  } finally {
    await t.close();
  }
});

Deno.test("LOOP-09 EVT-08 a retry waits at least what the server asked (retry-after-ms); agent_end.willRetry says a retry follows", async () => {
  const t = await setup("anthropic-messages", [
    { fault: { kind: "http", status: 429, message: "rate limited", retryAfterMs: 300 } },
    { content: [{ type: "text", text: "recovered" }] },
  ], { retry: { enabled: true, maxRetries: 2, baseDelayMs: 10, provider: { maxRetries: 0 } } });
  try {
    await t.session.prompt("hi");
    const start = t.events.find((e) => e.type === "auto_retry_start") as { delayMs: number };
    assertEquals(start.delayMs, 300);
    const ends = t.events.filter((e) => e.type === "agent_end") as { willRetry: boolean }[];
    assertEquals(ends.map((e) => e.willRetry), [true, false]);
    assertEquals(t.events.filter((e) => e.type === "agent_settled"), [{
      type: "agent_settled",
      aborted: false,
    }]);
    assertEquals(t.session.getLastAssistantText(), "recovered");
  } finally {
    await t.close();
  }
});

Deno.test("LOOP-09 backoff is capped by retry.maxAgentDelayMs; a server asking for longer is not retried", async () => {
  const capped = await setup("anthropic-messages", [
    { fault: { kind: "http", status: 503, message: "busy" } },
    { content: [{ type: "text", text: "ok" }] },
  ], {
    retry: {
      enabled: true,
      maxRetries: 1,
      baseDelayMs: 5000,
      maxAgentDelayMs: 50,
      provider: { maxRetries: 0 },
    },
  });
  try {
    await capped.session.prompt("hi");
    const start = capped.events.find((e) => e.type === "auto_retry_start") as { delayMs: number };
    assertEquals(start.delayMs, 50);
  } finally {
    await capped.close();
  }
  const tooLong = await setup("anthropic-messages", [
    { fault: { kind: "http", status: 429, message: "slow down", retryAfter: 600 } },
    { content: [{ type: "text", text: "never" }] },
  ], { retry: { enabled: true, maxRetries: 3, baseDelayMs: 10, provider: { maxRetries: 0 } } });
  try {
    await tooLong.session.prompt("hi");
    assertEquals(tooLong.events.filter((e) => e.type.startsWith("auto_retry")), []);
    const end = tooLong.events.find((e) => e.type === "agent_end") as { willRetry: boolean };
    assertEquals(end.willRetry, false);
    assertEquals(tooLong.server.requests.length, 1);
    const last = tooLong.session.messages.at(-1) as AssistantMessage;
    assertEquals(last.stopReason, "error");
  } finally {
    await tooLong.close();
  }
});

Deno.test("LOOP-01 busy while starting: isIdle false at once, a follow-up sent meanwhile joins the same run", async () => {
  const t = await setup("anthropic-messages", [
    { content: [{ type: "text", text: "first" }] },
    { content: [{ type: "text", text: "second" }] },
  ]);
  try {
    const run = t.session.prompt("one");
    assertEquals([t.session.isStreaming, t.session.isIdle], [true, false]);
    await t.session.prompt("two", { streamingBehavior: "followUp" });
    await run;
    assertEquals(t.session.isIdle, true);
    const users = t.session.messages.filter((m) => m.role === "user").length;
    assertEquals(users, 2);
    assertEquals(t.events.filter((e) => e.type === "agent_settled").length, 1, "one run");
    assertEquals(t.events.at(-1), { type: "agent_settled", aborted: false });
  } finally {
    await t.close();
  }
});

Deno.test("LOOP-06 abort ends the run with agent_settled{aborted:true} and resolves after it", async () => {
  const t = await setup("anthropic-messages", [
    { content: [{ type: "text", text: "a slow reply ".repeat(20) }], chunkDelayMs: 50, deltaSize: 2 },
  ]);
  try {
    const run = t.session.prompt("go");
    await waitFor(() => t.events.some((e) => e.type === "message_update"), 10_000, "a streamed update");
    await t.session.abort();
    assertEquals(t.events.at(-1), { type: "agent_settled", aborted: true });
    await run;
    assertEquals(t.session.isIdle, true);
  } finally {
    await t.close();
  }
});

Deno.test("TOOL bash commands learn the session through PI_SESSION_ID/FILE, PI_PROVIDER, PI_MODEL, PI_REASONING_LEVEL", async () => {
  const command =
    'printf "%s|%s|%s|%s|%s" "$PI_SESSION_ID" "$PI_SESSION_FILE" "$PI_PROVIDER" "$PI_MODEL" "$PI_REASONING_LEVEL"';
  const t = await setup("anthropic-messages", [
    { content: [{ type: "toolCall", id: "b1", name: "bash", arguments: { command } }] },
    { content: [{ type: "text", text: "ok" }] },
  ]);
  try {
    await t.session.prompt("show me");
    const result = t.session.messages.find((m) => m.role === "toolResult") as { content: { text: string }[] };
    const [id, file, provider, model, level] = result.content[0].text.split("|");
    assertEquals([id, file], [t.session.sessionId, t.session.sessionFile]);
    assertEquals([provider, model, level], [FAKE_PROVIDERS["anthropic-messages"], FAKE_MODEL_ID, "off"]);
  } finally {
    await t.close();
  }
});

Deno.test("SES-05 a resumed session goes on with the tools its transcript last declared", async () => {
  const t = await setup("anthropic-messages", [
    { content: [{ type: "text", text: "one" }] },
    { content: [{ type: "text", text: "two" }] },
  ]);
  try {
    await t.session.prompt("first");
    t.session.setActiveToolsByName(["read", "grep"]);
    await t.session.prompt("second");
    const file = t.session.sessionFile!;
    const modelRuntime = await ModelRuntime.create({
      authPath: join(t.env.agentDir, "auth.json"),
      modelsPath: join(t.env.agentDir, "models.json"),
    });
    const resumed = await createAgentSession({
      cwd: t.env.cwd,
      agentDir: t.env.agentDir,
      modelRuntime,
      settingsManager: SettingsManager.create(t.env.cwd, t.env.agentDir),
      sessionManager: SessionManager.open(file),
      model: modelRuntime.getModel(FAKE_PROVIDERS["anthropic-messages"], FAKE_MODEL_ID),
    });
    try {
      assertEquals(resumed.session.getActiveToolNames(), ["read", "grep"]);
    } finally {
      resumed.session.dispose();
    }
    assertEquals(
      (await readSessionLines(file)).filter((l) => (l.message as { role?: string })?.role === "system")
        .length,
      2,
      "the first prompt recorded the tools, the second the change",
    );
  } finally {
    await t.close();
  }
});
