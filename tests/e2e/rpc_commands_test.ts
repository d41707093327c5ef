/**
 * Every RPC command through a spawned process against the fake provider: success and error
 * shapes, validation of fields, and the settings the setters persist. IDs: RPC-02…RPC-05,
 * RPC-08, RPC-10, RPC-11, RPC-13…RPC-17, RPC-19…RPC-25, EVT-06.
 */
import { assert, assertEquals } from "../support/assert.ts";
import { childEnv, ofType, readSettings, startRpc, textTurn } from "../modes/rpc/support.ts";
import { createAgentEnv } from "../support/agent_env.ts";
import { startFakeProvider } from "../support/fake_provider/mod.ts";
import { RpcClient } from "../../src/modes/rpc/rpc_client.ts";
import type { RpcResponse } from "../../src/modes/rpc/rpc_types.ts";

function strip(response: RpcResponse): Record<string, unknown> {
  const { id: _id, ...rest } = response;
  return rest;
}

Deno.test("RPC-11 RPC-13…RPC-17 state, model, thinking and queue commands; the setters' settings persisted, model and thinking not", async () => {
  const f = await startRpc();
  const c = f.client;
  try {
    const state = await c.getState();
    assertEquals(state.model?.provider, "fake-anthropic");
    assertEquals(
      { ...state, model: undefined, sessionFile: undefined, sessionId: undefined },
      {
        model: undefined,
        thinkingLevel: "off",
        isStreaming: false,
        isCompacting: false,
        steeringMode: "one-at-a-time",
        followUpMode: "one-at-a-time",
        sessionFile: undefined,
        sessionId: undefined,
        autoCompactionEnabled: true,
        messageCount: 0,
        pendingMessageCount: 0,
      },
    );
    assert(!("sessionName" in state), "undefined keys are omitted");
    assertEquals(await c.getMessages(), []);

    const models = await c.getAvailableModels();
    assertEquals(models.map((m) => m.provider).sort(), [
      "fake-anthropic",
      "fake-google",
      "fake-openai",
      "fake-responses",
    ]);
    assertEquals(strip(await c.send({ type: "set_model", provider: "nope", modelId: "x" })), {
      type: "response",
      command: "set_model",
      success: false,
      error: "Model not found: nope/x",
    });
    const set = await c.send({ type: "set_model", provider: "fake-openai", modelId: "test-model" });
    assert(set.success && set.command === "set_model");
    assertEquals((set.data as { provider: string }).provider, "fake-openai");
    const cycled = await c.cycleModel();
    assertEquals(cycled?.isScoped, false);
    assertEquals(cycled?.thinkingLevel, "off");
    assert(cycled?.model.provider !== "fake-openai", "cycled to another model");
    await c.setModel("fake-openai", "test-model");

    // Non-reasoning model: levels clamp to off, cycling has nothing to cycle.
    assertEquals(strip(await c.send({ type: "set_thinking_level", level: "high" })), {
      type: "response",
      command: "set_thinking_level",
      success: true,
    });
    assertEquals((await c.getState()).thinkingLevel, "off");
    assertEquals(strip(await c.send({ type: "cycle_thinking_level" })), {
      type: "response",
      command: "cycle_thinking_level",
      success: true,
      data: null,
    });

    for (const type of ["set_steering_mode", "set_follow_up_mode"] as const) {
      assertEquals(strip(await c.send({ type, mode: "all" })), {
        type: "response",
        command: type,
        success: true,
      });
    }
    await c.setAutoCompaction(false);
    await c.setAutoRetry(false);
    await c.abortRetry();
    const after = await c.getState();
    assertEquals([after.steeringMode, after.followUpMode, after.autoCompactionEnabled], [
      "all",
      "all",
      false,
    ]);

    const settings = await readSettings(f.env);
    // set_model and cycle_model are the session's own in pi 1.6.0: neither saves a default model.
    assertEquals([settings.defaultProvider, settings.defaultModel], [undefined, undefined]);
    assertEquals(settings.defaultThinkingLevel, undefined);
    assertEquals(settings.steeringMode, "all");
    assertEquals(settings.followUpMode, "all");
    assertEquals((settings.compaction as { enabled: boolean }).enabled, false);
    assertEquals((settings.retry as { enabled: boolean }).enabled, false);
  } finally {
    await f.close();
  }
});

Deno.test("RPC-03 RPC-04 RPC-05 malformed lines, unknown commands and bad fields answer errors; the process keeps serving", async () => {
  const f = await startRpc();
  const c = f.client;
  try {
    const responses: Record<string, unknown>[] = [];
    c.onEvent((e) => e.type === "response" && responses.push(e as Record<string, unknown>));
    await c.writeLine("{not json\n");
    await c.writeLine('{"id":"u1","type":"frobnicate"}\n');
    await c.writeLine('{"id":"p1","type":"prompt"}\n');
    await c.writeLine('{"id":"p2","type":"prompt","message":42}\n');
    await c.writeLine('{"id":"m1","type":"set_steering_mode","mode":"sometimes"}\n');
    await c.writeLine('{"id":"b1","type":"set_auto_retry","enabled":"yes"}\n');
    await c.writeLine('{"id":"i1","type":"steer","message":"x","images":[{"type":"image"}]}\n');
    await c.writeLine("[1,2]\n");
    await c.writeLine('{"id":7,"type":"get_state"}\n');
    await c.writeLine('{"type":null}\r\n');
    const state = await c.getState();
    assertEquals(state.messageCount, 0);
    assertEquals(responses, [
      {
        type: "response",
        command: "parse",
        success: false,
        error: responses[0].error,
      },
      // 1.6.0 echoes the request id on unknown commands too.
      {
        id: "u1",
        type: "response",
        command: "frobnicate",
        success: false,
        error: "Unknown command: frobnicate",
      },
      {
        id: "p1",
        type: "response",
        command: "prompt",
        success: false,
        error: 'Invalid prompt command: "message" is required',
      },
      {
        id: "p2",
        type: "response",
        command: "prompt",
        success: false,
        error: 'Invalid prompt command: "message" must be a string',
      },
      {
        id: "m1",
        type: "response",
        command: "set_steering_mode",
        success: false,
        error: 'Invalid set_steering_mode command: "mode" must be one of "all", "one-at-a-time"',
      },
      {
        id: "b1",
        type: "response",
        command: "set_auto_retry",
        success: false,
        error: 'Invalid set_auto_retry command: "enabled" must be a boolean',
      },
      {
        id: "i1",
        type: "response",
        command: "steer",
        success: false,
        error: 'Invalid steer command: "images" [0] must be {"type":"image","data":string,"mimeType":string}',
      },
      {
        type: "response",
        command: "parse",
        success: false,
        error: "Invalid command: expected a JSON object",
      },
      {
        type: "response",
        command: "get_state",
        success: false,
        error: 'Invalid command: "id" must be a string',
      },
      {
        type: "response",
        command: "parse",
        success: false,
        error: 'Invalid command: "type" must be a string',
      },
    ]);
    assert(String(responses[0].error).startsWith("Failed to parse command: "), String(responses[0].error));
  } finally {
    await f.close();
  }
});

Deno.test("RPC-08 RPC-10 RPC-19…RPC-25 session, bash and introspection commands", async () => {
  const f = await startRpc();
  const c = f.client;
  try {
    const bash = await c.bash("echo hi; exit 4");
    assertEquals(bash, { output: "hi\n", exitCode: 4, cancelled: false, truncated: false });
    assertEquals(strip(await c.send({ type: "abort_bash" })), {
      type: "response",
      command: "abort_bash",
      success: true,
    });
    const messages = await c.getMessages();
    assertEquals(messages.length, 1);
    assertEquals((messages[0] as { role: string }).role, "bashExecution");

    const stats = await c.getSessionStats();
    assertEquals(Object.keys(stats).sort(), [
      "assistantMessages",
      "contextUsage",
      "cost",
      "sessionFile",
      "sessionId",
      "tokens",
      "toolCalls",
      "toolResults",
      "totalMessages",
      "userMessages",
    ]);
    assertEquals(stats.totalMessages, 1);
    assertEquals(strip(await c.send({ type: "export_html" })), {
      type: "response",
      command: "export_html",
      success: false,
      error: "Nothing to export yet - start a conversation first",
    });
    assertEquals(await c.getForkMessages(), []);
    assertEquals(strip(await c.send({ type: "get_last_assistant_text" })), {
      type: "response",
      command: "get_last_assistant_text",
      success: true,
      data: {},
    });
    assertEquals(strip(await c.send({ type: "set_session_name", name: " " })), {
      type: "response",
      command: "set_session_name",
      success: false,
      error: "Session name cannot be empty",
    });
    await c.setSessionName("  named  ");
    assertEquals((await c.getState()).sessionName, "named");
    assertEquals(ofType(f.events, "session_info_changed").at(-1), {
      type: "session_info_changed",
      name: "named",
    });
    assertEquals(await c.getCommands(), []);

    // Queueing while idle is accepted and announced.
    await c.steer("later steer");
    await c.followUp("later follow");
    assertEquals(ofType(f.events, "queue_update").at(-1), {
      type: "queue_update",
      steering: ["later steer"],
      followUp: ["later follow"],
    });
    assertEquals((await c.getState()).pendingMessageCount, 2);
    assertEquals(strip(await c.send({ type: "abort" })), {
      type: "response",
      command: "abort",
      success: true,
    });

    assertEquals(strip(await c.send({ type: "fork", entryId: "deadbeef" })), {
      type: "response",
      command: "fork",
      success: false,
      error: "Invalid entry ID for forking",
    });
    const before = (await c.getState()).sessionId;
    assertEquals(await c.newSession(), { cancelled: false });
    const fresh = await c.getState();
    assert(fresh.sessionId !== before, "new session id");
    assertEquals(fresh.messageCount, 0);
    // Switching to a path with no file yet opens an empty session there (SessionManager.open).
    const target = `${f.env.root}/other.jsonl`;
    assertEquals(await c.switchSession(target), { cancelled: false });
    assertEquals((await c.getState()).sessionFile, target);
    assertEquals(strip(await c.send({ type: "compact" })).success, false);
  } finally {
    await f.close();
  }
});

Deno.test("RPC-06 RPC-11 `pi --mode rpc` (main.ts) serves commands and exits 0 at end of input", async () => {
  const server = await startFakeProvider([textTurn("from the CLI")]);
  const env = await createAgentEnv(server.url);
  const client = new RpcClient({
    cliPath: new URL("../../main.ts", import.meta.url).pathname,
    cwd: env.cwd,
    env: childEnv(env),
    provider: "fake-anthropic",
    model: "test-model",
  });
  try {
    await client.start();
    await client.promptAndWait("hello");
    assertEquals(await client.getLastAssistantText(), "from the CLI");
    // system (1.6.0 records the prompt), user, assistant
    assertEquals((await client.getState()).messageCount, 3);
    assertEquals(await client.endInput(), 0);
  } finally {
    await client.stop();
    await server.close();
    await env.cleanup();
  }
});

Deno.test("RPC-08 RPC-21 `pi --mode rpc` replaces sessions: new_session, fork and clone through the CLI's runtime", async () => {
  const server = await startFakeProvider([textTurn("first reply"), textTurn("second reply")]);
  const env = await createAgentEnv(server.url);
  const client = new RpcClient({
    cliPath: new URL("../../main.ts", import.meta.url).pathname,
    cwd: env.cwd,
    env: childEnv(env),
    provider: "fake-anthropic",
    model: "test-model",
  });
  try {
    await client.start();
    await client.promptAndWait("hello");
    const original = (await client.getState()).sessionFile;
    assert(original, "the first session is on disk");

    const clone = await client.send({ type: "clone" });
    assertEquals(clone.success, true, JSON.stringify(clone));
    const cloned = (await client.getState()).sessionFile;
    assert(cloned && cloned !== original, "clone writes a new file");
    assertEquals((await client.getState()).messageCount, 3);

    const forkable = await client.send({ type: "get_fork_messages" });
    assert(forkable.success);
    const entryId = (forkable.data as { messages: { entryId: string }[] }).messages[0].entryId;
    const fork = await client.send({ type: "fork", entryId });
    assertEquals(fork.success, true, JSON.stringify(fork));
    assertEquals((fork.data as { text: string }).text, "hello");

    const fresh = await client.send({ type: "new_session" });
    assertEquals(strip(fresh), {
      type: "response",
      command: "new_session",
      success: true,
      data: { cancelled: false },
    });
    const state = await client.getState();
    assertEquals(state.messageCount, 0);
    // The new session still runs with the flag model.
    assertEquals(state.model?.provider, "fake-anthropic");
    await client.promptAndWait("again");
    assertEquals(await client.getLastAssistantText(), "second reply");
    const now = (await client.getState()).sessionFile;
    assert(now && now !== original, "a new file");

    const back = await client.send({ type: "switch_session", sessionPath: original });
    assertEquals(back.success, true, JSON.stringify(back));
    assertEquals((await client.getState()).sessionFile, original);
    assertEquals(await client.endInput(), 0);
  } finally {
    await client.stop();
    await server.close();
    await env.cleanup();
  }
});
