/**
 * Compaction and branch-summary requests obey `httpIdleTimeoutMs` as a turn does (SET-04, LOOP-10,
 * SES-18): pi 1.6.0 sends them through the agent's stream function, which carries the request
 * settings. A summary request that goes silent therefore fails after the configured idle time
 * with the turn's message, instead of waiting for the default of minutes.
 */
import { join } from "node:path";
import { assertEquals } from "../support/assert.ts";
import { createAgentEnv } from "../support/agent_env.ts";
import { type ScriptedTurn, startFakeProvider } from "../support/fake_provider/mod.ts";
import { createRuntime } from "../fixtures/runtime/factory.ts";
import { createAgentSessionRuntime } from "../../src/core/session_runtime.ts";
import type { AgentSession } from "../../src/core/agent_session.ts";
import { SessionManager } from "../../src/session/session_manager.ts";

const text = (t: string): ScriptedTurn => ({ content: [{ type: "text", text: t }] });
const STALLED: ScriptedTurn = {
  content: [{ type: "text", text: "half a summ" }],
  fault: { kind: "stall", afterChunks: 1 },
};
const SETTINGS = { httpIdleTimeoutMs: 1000, retry: { enabled: false }, compaction: { keepRecentTokens: 1 } };
/** Far below the default idle timeout, far above the configured one. */
const DEADLINE_MS = 20_000;

/** The error `work` fails with, or a note that it did not fail within the deadline. */
async function failureOf(work: () => Promise<unknown>): Promise<string> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`still waiting after ${DEADLINE_MS} ms`), DEADLINE_MS);
  });
  try {
    return await Promise.race([
      work().then(() => "succeeded", (error: Error) => error.message),
      deadline,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

async function withSession(
  turns: ScriptedTurn[],
  fn: (session: AgentSession) => Promise<void>,
): Promise<void> {
  const server = await startFakeProvider(turns);
  const env = await createAgentEnv(server.url, { settings: SETTINGS });
  const runtime = await createAgentSessionRuntime(createRuntime, {
    cwd: env.cwd,
    agentDir: env.agentDir,
    sessionManager: SessionManager.create(env.cwd, join(env.root, "sessions")),
  });
  try {
    await fn(runtime.session);
  } finally {
    await runtime.dispose();
    await server.close();
    await env.cleanup();
  }
}

Deno.test("SET-04 LOOP-10 a silent compaction request fails after httpIdleTimeoutMs", async () => {
  await withSession([text("a1"), text("a2"), STALLED], async (session) => {
    await session.prompt("q1");
    await session.prompt("q2");
    assertEquals(
      await failureOf(() => session.compact()),
      "Summarization failed: terminated: the provider sent nothing for 1 s (httpIdleTimeoutMs)",
    );
  });
});

Deno.test("SET-04 SES-18 a silent branch-summary request fails after httpIdleTimeoutMs", async () => {
  await withSession([text("a1"), text("a2"), STALLED], async (session) => {
    await session.prompt("q1");
    const a1 = session.sessionManager.getLeafId()!;
    await session.prompt("q2");
    const leaf = session.sessionManager.getLeafId();
    assertEquals(
      await failureOf(() => session.navigateTree(a1, { summarize: true })),
      "Branch summarization failed: terminated: the provider sent nothing for 1 s (httpIdleTimeoutMs)",
    );
    assertEquals(session.sessionManager.getLeafId(), leaf);
  });
});
