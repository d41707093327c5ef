/**
 * What pi 1.6.0 added to the RPC protocol, through the real `pi --mode rpc`: `data.disposition`
 * on prompt/steer/follow_up, `clear_queue`, `get_available_thinking_levels`, `get_entries{since}`,
 * `get_tree`, bash `excludeFromContext` with `bash_execution_update` events, delta-only
 * `message_update` with `usage`, `agent_end.willRetry` and `agent_settled` as a run's last event;
 * and two fixes: `new_session` during a reply ends that run's events, `switch_session` under a
 * missing folder is an error that creates nothing. IDs: RPC-02, RPC-07, RPC-08, RPC-19, EVT-01.
 */
import { assert, assertEquals } from "../support/assert.ts";
import { ofType, startRpc, textTurn } from "../modes/rpc/support.ts";
import { join } from "node:path";

type Json = Record<string, unknown>;

Deno.test("RPC-02 EVT-01 a run's records: delta-only message_update with usage, agent_end.willRetry, agent_settled last", async () => {
  const f = await startRpc([textTurn("Hello there, friend.")]);
  try {
    const events = await f.client.promptAndWait("hi");
    const updates = ofType(events, "message_update");
    assert(updates.length > 0);
    for (const update of updates) {
      assertEquals(Object.keys(update), ["type", "usage", "assistantMessageEvent"]);
      assert(!("partial" in (update.assistantMessageEvent as Json)), "no partial on the wire");
      assertEquals(typeof (update.usage as Json).input, "number");
    }
    const deltas = updates.map((u) => u.assistantMessageEvent as Json).filter((e) => e.type === "text_delta");
    assertEquals(deltas.map((d) => d.delta).join(""), "Hello there, friend.");
    const types = events.map((e) => e.type).filter((t) => t !== "message_update");
    assertEquals(types.slice(-3), ["turn_end", "agent_end", "agent_settled"]);
    assertEquals(ofType(events, "agent_end")[0].willRetry, false);
    assertEquals(ofType(events, "agent_settled")[0], { type: "agent_settled", aborted: false });
  } finally {
    await f.close();
  }
});

Deno.test("RPC-07 prompt/steer/follow_up answer data.disposition; clear_queue returns and empties the queues", async () => {
  const f = await startRpc([textTurn("slow reply", { chunkDelayMs: 150, deltaSize: 2 }), textTurn("after")]);
  const c = f.client;
  try {
    const settled = c.collectEvents();
    assertEquals(await c.prompt("first"), "started");
    assertEquals(await c.prompt("queued one", undefined, "followUp"), "queued");
    assertEquals(await c.steer("steer me"), "queued");
    assertEquals(await c.followUp("later"), "queued");
    assertEquals(await c.clearQueue(), { steering: ["steer me"], followUp: ["queued one", "later"] });
    assertEquals((await c.getState()).pendingMessageCount, 0);
    const events = await settled;
    assertEquals(ofType(events, "queue_update").at(-1), { type: "queue_update", steering: [], followUp: [] });
    // Nothing queued was delivered: one user message, one reply.
    const messages = await c.getMessages();
    assertEquals(messages.filter((m) => m.role === "user").length, 1);
  } finally {
    await f.close();
  }
});

Deno.test("RPC-13 get_available_thinking_levels: the model's levels", async () => {
  const plain = await startRpc();
  try {
    assertEquals(await plain.client.getAvailableThinkingLevels(), ["off"]);
  } finally {
    await plain.close();
  }
  const reasoning = await startRpc([], { reasoning: true });
  try {
    const levels = await reasoning.client.getAvailableThinkingLevels();
    assertEquals(levels.slice(0, 5), ["off", "minimal", "low", "medium", "high"]);
  } finally {
    await reasoning.close();
  }
});

Deno.test("RPC-24 get_entries (all, since an id, unknown id) and get_tree", async () => {
  const f = await startRpc([textTurn("one"), textTurn("two")]);
  const c = f.client;
  try {
    await c.promptAndWait("first");
    const all = await c.getEntries();
    assertEquals(all.leafId, all.entries.at(-1)?.id);
    const firstAssistant = all.entries.findIndex((e) =>
      e.type === "message" && (e as { message: { role: string } }).message.role === "assistant"
    );
    await c.promptAndWait("second");
    const since = await c.getEntries(all.entries[firstAssistant].id);
    const roles = since.entries.map((e) =>
      e.type === "message" ? (e as { message: { role: string } }).message.role : e.type
    );
    assertEquals(roles.filter((r) => r === "user" || r === "assistant"), ["user", "assistant"]);
    const unknown = await c.send({ type: "get_entries", since: "nope" });
    assertEquals([unknown.success, !unknown.success && unknown.error], [false, "Entry not found: nope"]);
    const tree = await c.getTree();
    assertEquals(tree.leafId, since.leafId);
    assertEquals(tree.tree.length, 1, "one root");
    let depth = 0;
    for (let node = tree.tree[0]; node; node = node.children[0]) depth++;
    assertEquals(depth, (await c.getEntries()).entries.length, "a linear session is one chain");
  } finally {
    await f.close();
  }
});

Deno.test("RPC-19 bash streams bash_execution_update{id,delta}; excludeFromContext is recorded", async () => {
  const f = await startRpc();
  const c = f.client;
  try {
    const command = "printf 'a\\n'; sleep 0.2; printf 'b\\n'";
    const result = await c.bash(command, { excludeFromContext: true });
    assertEquals(result.output, "a\nb\n");
    const updates = ofType(f.events, "bash_execution_update");
    assert(updates.length >= 2, `chunks: ${updates.length}`);
    assertEquals(updates.map((u) => u.delta).join(""), "a\nb\n");
    const ids = new Set(updates.map((u) => u.id));
    assertEquals(ids.size, 1);
    assert(typeof [...ids][0] === "string", "carries the command id");
    const messages = await c.getMessages();
    const bash = messages.at(-1) as unknown as Json;
    assertEquals([bash.role, bash.command, bash.excludeFromContext], ["bashExecution", command, true]);
  } finally {
    await f.close();
  }
});

Deno.test("RPC-08 new_session while a reply streams ends that run (message_end, turn_end, agent_end, agent_settled)", async () => {
  const f = await startRpc([textTurn("a long slow answer", { chunkDelayMs: 200, deltaSize: 1 })]);
  const c = f.client;
  try {
    const firstUpdate = c.waitForEvent((e) => e.type === "message_update");
    const settled = c.collectEvents(20_000);
    await c.prompt("talk");
    await firstUpdate;
    assertEquals(await c.newSession(), { cancelled: false });
    const events = await settled;
    const types = events.map((e) => e.type).filter((t) => t !== "message_update");
    assertEquals(types.slice(-4), ["message_end", "turn_end", "agent_end", "agent_settled"]);
    assertEquals(ofType(events, "agent_settled")[0].aborted, true);
    const state = await c.getState();
    assertEquals([state.isStreaming, state.messageCount], [false, 0]);
  } finally {
    await f.close();
  }
});

Deno.test("RPC-21 switch_session to a path under a missing folder is an error and creates nothing", async () => {
  const f = await startRpc();
  try {
    const missing = join(f.env.root, "no-such-folder", "deeper");
    const response = await f.client.send({ type: "switch_session", sessionPath: join(missing, "s.jsonl") });
    assertEquals(response.success, false);
    assertEquals(
      !response.success && response.error,
      `Cannot open session ${join(missing, "s.jsonl")}: folder ${missing} does not exist`,
    );
    let created = true;
    try {
      await Deno.stat(join(f.env.root, "no-such-folder"));
    } catch {
      created = false;
    }
    assertEquals(created, false);
    assertEquals((await f.client.getState()).isStreaming, false, "still serving");
  } finally {
    await f.close();
  }
});
