/**
 * AgentSessionRuntime.reload (`/reload`): the same session goes on (its file and messages) on a
 * rebuilt session whose resources were read again; the hooks hear reason "reload" with no target
 * file, the factory gets `session_start` reason "reload"; refused while a reply streams.
 */
import { join } from "../../src/util/path.ts";
import { assert, assertEquals, assertRejects } from "../support/assert.ts";
import { startFakeProvider } from "../support/fake_provider/mod.ts";
import { createAgentEnv } from "../support/agent_env.ts";
import { createRuntime } from "../fixtures/runtime/factory.ts";
import {
  createAgentSessionRuntime,
  type CreateAgentSessionRuntimeFactory,
  type CreateAgentSessionRuntimeOptions,
} from "../../src/core/session_runtime.ts";
import { SessionManager } from "../../src/session/session_manager.ts";

Deno.test("runtime reload: same session file and messages, AGENTS.md read again, reason reload", async () => {
  const server = await startFakeProvider([
    { content: [{ type: "text", text: "a1" }] },
    { content: [{ type: "text", text: "a2" }] },
  ]);
  const env = await createAgentEnv(server.url);
  try {
    await Deno.writeTextFile(join(env.cwd, "AGENTS.md"), "Rule one.\n");
    const calls: CreateAgentSessionRuntimeOptions[] = [];
    const factory: CreateAgentSessionRuntimeFactory = (options) => {
      calls.push(options);
      return createRuntime(options);
    };
    const runtime = await createAgentSessionRuntime(factory, {
      cwd: env.cwd,
      agentDir: env.agentDir,
      sessionManager: SessionManager.create(env.cwd, join(env.agentDir, "sessions", "project")),
    });
    const log: string[] = [];
    runtime.setHooks({
      shutdown: (e) => {
        log.push(`shutdown:${e.reason}:${e.targetSessionFile ?? "-"}`);
        return Promise.resolve();
      },
    });
    const first = runtime.session;
    await first.prompt("q1");
    assert(first.systemPrompt.includes("Rule one."));
    await Deno.writeTextFile(join(env.cwd, "AGENTS.md"), "Rule two.\n");
    await runtime.reload();
    const second = runtime.session;
    assert(second !== first, "a rebuilt session");
    assertEquals(second.sessionFile, first.sessionFile);
    assertEquals(second.messages.map((m) => m.role), ["system", "user", "assistant"]);
    assert(second.systemPrompt.includes("Rule two.") && !second.systemPrompt.includes("Rule one."));
    assertEquals(calls[1].sessionStartEvent?.reason, "reload");
    assert(calls[1].sessionManager === first.sessionManager, "the same session manager goes on");
    await second.prompt("q2");
    // The changed system prompt is recorded before the next prompt.
    assertEquals(second.messages.map((m) => m.role), [
      "system",
      "user",
      "assistant",
      "system",
      "user",
      "assistant",
    ]);
    await runtime.dispose();
    assertEquals(log, ["shutdown:reload:-", "shutdown:quit:-"]);
  } finally {
    await server.close();
    await env.cleanup();
  }
});

Deno.test("runtime reload is refused while a reply streams", async () => {
  const server = await startFakeProvider([
    {
      content: [{ type: "text", text: "partial that never ends" }],
      fault: { kind: "stall", afterChunkContaining: "partial" },
    },
  ]);
  const env = await createAgentEnv(server.url);
  try {
    const runtime = await createAgentSessionRuntime(createRuntime, {
      cwd: env.cwd,
      agentDir: env.agentDir,
      sessionManager: SessionManager.inMemory(env.cwd),
    });
    const running = runtime.session.prompt("q1");
    const deadline = Date.now() + 10_000;
    while (!runtime.session.isStreaming && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    await assertRejects(() => runtime.reload(), "Wait for the current response to finish before reloading.");
    await runtime.session.abort();
    await running.catch(() => {});
    await runtime.dispose();
  } finally {
    await server.close();
    await env.cleanup();
  }
});
