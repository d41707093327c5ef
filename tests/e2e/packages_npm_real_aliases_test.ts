/**
 * PKG-14 (issue 16): a real pi package from the public npm registry, `pi-aliases@1.0.7` (an extension whose
 * commands are aliases: `/clear` starts a new session with `ctx.newSession()`, `/exit` ends pi with
 * `ctx.shutdown()`), installed with `pi install` into an isolated agent dir and driven over RPC, with ours
 * and with pi 1.6.0: the conversation is gone after `/clear` (a new session; the old file keeps it), and
 * `/exit` ends the process with exit code 0 while its input is still open.
 */
import { assert, assertEquals } from "../support/assert.ts";
import type { AgentEnv } from "../support/agent_env.ts";
import { requireReferenceCli, spawnPi } from "../support/spawn_pi.ts";
import { MODEL, startRpc } from "./extensions_harness.ts";

const PACKAGE = "npm:pi-aliases@1.0.7";

/** What one run shows, without ids and paths. */
async function observe(reference: boolean) {
  const who = reference ? "pi 1.6.0" : "ours";
  let env: AgentEnv | undefined;
  const rpc = await startRpc(
    MODEL,
    [{ content: [{ type: "text", text: "Hello back." }] }],
    reference,
    async (e) => {
      env = e;
      e.env.NPM_CONFIG_UPDATE_NOTIFIER = "false";
      e.env.PI_SKIP_VERSION_CHECK = "1";
      const installed = await spawnPi(["install", PACKAGE], {
        env: e.env,
        cwd: e.cwd,
        reference,
        timeoutMs: 180_000,
      });
      assertEquals(installed.code, 0, `${who} install: ${installed.stderr}`);
    },
  );
  const response = async (id: string, command: Record<string, unknown>) => {
    await rpc.send({ id, ...command });
    const record = await rpc.waitFor((r) => r.type === "response" && r.id === id, `response ${id}`);
    assertEquals(record.success, true, `${who} ${id}: ${JSON.stringify(record)}`);
    return record.data as Record<string, unknown>;
  };
  try {
    await response("1", { type: "prompt", message: "Hello" });
    await rpc.waitFor((r) => r.type === "agent_settled", "the first reply");
    const before = await response("state-1", { type: "get_state" });
    const clear = await response("2", { type: "prompt", message: "/clear" });
    const after = await response("state-2", { type: "get_state" });
    const messages = await response("messages", { type: "get_messages" });
    const sessionFiles = await env!.sessionFiles();
    const oldSession = (await Deno.readTextFile(sessionFiles[0])).trim().split("\n").map((l) =>
      JSON.parse(l)
    );
    const exit = await response("3", { type: "prompt", message: "/exit" });
    // Input stays open: only the extension's shutdown request can end the process.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const ended = await Promise.race([
      rpc.exited.then((status) => status.code),
      new Promise<string>((resolve) => timer = setTimeout(() => resolve("still running after 30 s"), 30_000)),
    ]);
    clearTimeout(timer);
    return {
      clear: clear.disposition,
      exit: exit.disposition,
      ended,
      messageCounts: [before.messageCount, after.messageCount],
      newSession: before.sessionId !== after.sessionId && before.sessionFile !== after.sessionFile,
      messagesAfterClear: messages.messages,
      sessionFiles: sessionFiles.length,
      oldSessionMessages: oldSession.filter((e) => e.type === "message" && e.message.role !== "system").map((
        e,
      ) => `${e.message.role}: ${e.message.content.map((c: { text: string }) => c.text).join("")}`),
      errors: rpc.records.filter((r) => r.type === "extension_error"),
    };
  } finally {
    await rpc.close();
  }
}

Deno.test("PKG-14 a real pi package from the npm registry (pi-aliases): /clear starts a new session and /exit ends pi over RPC, as in pi 1.6.0", async () => {
  requireReferenceCli();
  const ours = await observe(false);
  const reference = await observe(true);
  assertEquals(ours, reference, "ours and pi 1.6.0");
  assertEquals(ours.clear, "handled");
  assertEquals(ours.messageCounts, [3, 0], "system, user and assistant; then none");
  assert(ours.newSession, "/clear gave a new session id and file");
  assertEquals(ours.messagesAfterClear, []);
  assertEquals(ours.sessionFiles, 1, "the new session has nothing to save yet");
  assertEquals(ours.oldSessionMessages, ["user: Hello", "assistant: Hello back."]);
  assertEquals(ours.exit, "handled");
  assertEquals(ours.ended, 0);
  assertEquals(ours.errors, []);
});
