/**
 * Runs driven over RPC: steering and follow-up delivery with queue_update events, ordered
 * application of commands sent together, abort mid-stream, user bash with truncation, automatic
 * retries, and end of input waiting for in-flight work. IDs: RPC-06, RPC-07, RPC-08, RPC-09,
 * RPC-19, EVT-06, EVT-08, LOOP-07, LOOP-08.
 */
import { assert, assertEquals, assertStringIncludes } from "../support/assert.ts";
import { ofType, startRpc, textTurn } from "../modes/rpc/support.ts";
import type { AgentMessage } from "../../src/agent/types.ts";

function summary(messages: AgentMessage[]): string[] {
  return messages.map((m) => {
    const content = (m as { content?: unknown }).content;
    const text = Array.isArray(content)
      ? content.map((c) => c.type === "text" ? c.text : c.type === "toolCall" ? `call:${c.name}` : "").join(
        "",
      )
      : String(content ?? "");
    return `${m.role}:${text}`;
  });
}

const RETRY = { retry: { enabled: true, maxRetries: 2, baseDelayMs: 10, provider: { maxRetries: 0 } } };

Deno.test("RPC-07 RPC-08 EVT-06 steering lands after the tool call, follow-up after the run would stop", async () => {
  const f = await startRpc([
    {
      content: [{
        type: "toolCall",
        id: "t1",
        name: "bash",
        arguments: { command: "sleep 0.4; echo slept" },
      }],
      chunkDelayMs: 20,
    },
    textTurn("after steer"),
    textTurn("after follow-up"),
  ]);
  const c = f.client;
  try {
    const done = c.collectEvents();
    const toolStarted = c.waitForEvent((e) => e.type === "tool_execution_start");
    await c.writeLine('{"id":"a","type":"prompt","message":"go"}\n');
    await toolStarted;
    // Sent in one write while the tool runs: applied in order.
    await c.writeLine(
      '{"id":"b","type":"steer","message":"S1"}\n{"id":"c","type":"follow_up","message":"F1"}\n',
    );
    await done;
    const responses = ofType(f.events, "response");
    assertEquals(responses.map((r) => [r.id, r.command, r.success]), [
      ["a", "prompt", true],
      ["b", "steer", true],
      ["c", "follow_up", true],
    ]);
    const queue = ofType(f.events, "queue_update").map((e) => [e.steering, e.followUp]);
    assertEquals(queue, [[["S1"], []], [["S1"], ["F1"]], [[], ["F1"]], [[], []]]);
    assertEquals(summary(await c.getMessages()), [
      "system:",
      "user:go",
      "assistant:call:bash",
      "toolResult:slept\n",
      "user:S1",
      "assistant:after steer",
      "user:F1",
      "assistant:after follow-up",
    ]);
  } finally {
    await f.close();
  }
});

Deno.test("RPC-07 a prompt while streaming needs streamingBehavior; with it the prompt is queued", async () => {
  const f = await startRpc([
    { content: [{ type: "text", text: "a slow answer that takes a while" }], chunkDelayMs: 60, deltaSize: 4 },
    textTurn("second"),
  ]);
  const c = f.client;
  try {
    const done = c.collectEvents();
    await c.prompt("first");
    const refused = await c.send({ type: "prompt", message: "again" });
    assertEquals(refused.success, false);
    assertEquals(
      !refused.success && refused.error,
      "Agent is already processing. Specify streamingBehavior ('steer' or 'followUp') to queue the message.",
    );
    await c.prompt("queued", undefined, "followUp");
    await done;
    assertEquals(summary(await c.getMessages()).slice(-2), ["user:queued", "assistant:second"]);
  } finally {
    await f.close();
  }
});

Deno.test("RPC-09 abort mid-stream stops the reply and leaves the agent idle", async () => {
  const f = await startRpc([{
    content: [{ type: "text", text: "word ".repeat(200) }],
    chunkDelayMs: 30,
    deltaSize: 5,
  }]);
  const c = f.client;
  try {
    const firstUpdate = c.waitForEvent((e) => e.type === "message_update");
    const end = c.collectEvents();
    await c.prompt("talk");
    await firstUpdate;
    await c.abort();
    await end;
    const state = await c.getState();
    assertEquals(state.isStreaming, false);
    const messages = await c.getMessages();
    const last = messages.at(-1) as { role: string; stopReason: string };
    assertEquals([last.role, last.stopReason], ["assistant", "aborted"]);
  } finally {
    await f.close();
  }
});

Deno.test("RPC-19 bash output is tail-truncated to 2000 lines, the full output saved to fullOutputPath", async () => {
  const f = await startRpc();
  try {
    const result = await f.client.bash("seq 1 5000");
    assertEquals([result.exitCode, result.cancelled, result.truncated], [0, false, true]);
    assert(/^\/.*\/pi-bash-[0-9a-f]{16}\.log$/.test(result.fullOutputPath ?? ""), result.fullOutputPath);
    const lines = result.output.split("\n").filter((l) => l);
    // 2000 lines; the final newline does not count as a line of its own (1.6.0).
    assertEquals(lines.length, 2000);
    assertEquals([lines[0], lines.at(-1)], ["3001", "5000"]);
    const full = await Deno.readTextFile(result.fullOutputPath!);
    assertEquals(full.split("\n").filter((l) => l).length, 5000);
    await Deno.remove(result.fullOutputPath!);
  } finally {
    await f.close();
  }
});

Deno.test("RPC-19 abort_bash cancels a running command while other commands keep being answered", async () => {
  const f = await startRpc();
  const c = f.client;
  try {
    const running = c.bash("echo start; sleep 20");
    await new Promise((r) => setTimeout(r, 300));
    assertEquals((await c.getState()).isStreaming, false);
    await c.abortBash();
    const result = await running;
    assertEquals([result.cancelled, result.exitCode], [true, undefined]);
  } finally {
    await f.close();
  }
});

Deno.test("LOOP-07 EVT-08 retry after 429, 500, overloaded and a dropped stream", async () => {
  const f = await startRpc([
    { fault: { kind: "http", status: 429, message: "Rate limited" } },
    textTurn("one"),
    { fault: { kind: "http", status: 500, message: "upstream broke" } },
    textTurn("two"),
    { fault: { kind: "http", status: 529, message: "Overloaded" } },
    textTurn("three"),
    {
      content: [{ type: "text", text: "partial answer that is cut" }],
      fault: { kind: "drop", afterChunks: 3 },
    },
    textTurn("four"),
  ], { settings: RETRY });
  const c = f.client;
  try {
    for (const [i, expected] of ["one", "two", "three", "four"].entries()) {
      const before = f.events.length;
      // The failed attempt ends its own run; wait for the run after the successful retry.
      let retried = false;
      const settled = c.waitForEvent((e) =>
        (retried ||= e.type === "auto_retry_end") && e.type === "agent_end"
      );
      await c.prompt(`p${i}`);
      await settled;
      const retries = ofType(f.events.slice(before), "auto_retry_start", "auto_retry_end");
      assertEquals(retries.map((e) => e.type), ["auto_retry_start", "auto_retry_end"], expected);
      assertEquals(retries[1], { type: "auto_retry_end", success: true, attempt: 1 });
      assertEquals(await c.getLastAssistantText(), expected);
    }
    assertEquals(f.server.requests.length, 8);
  } finally {
    await f.close();
  }
});

Deno.test("LOOP-08 retries give up after maxRetries with auto_retry_end success:false", async () => {
  const fault = { fault: { kind: "http" as const, status: 503, message: "Service Unavailable" } };
  const f = await startRpc([fault, fault, fault], { settings: RETRY });
  const c = f.client;
  try {
    await c.prompt("hi");
    const events = await c.waitForEvent((e) => e.type === "auto_retry_end");
    const retries = ofType(events, "auto_retry_start", "auto_retry_end");
    assertEquals(retries.map((e) => [e.type, e.attempt]), [
      ["auto_retry_start", 1],
      ["auto_retry_start", 2],
      ["auto_retry_end", 2],
    ]);
    assertEquals(retries[2].success, false);
    assertStringIncludes(String(retries[2].finalError), "Service Unavailable");
    assertEquals(f.server.requests.length, 3);
  } finally {
    await f.close();
  }
});

Deno.test("RPC-06 end of input answers in-flight commands and finishes the running prompt before exit 0", async () => {
  const f = await startRpc([{ content: [{ type: "text", text: "finished reply" }], chunkDelayMs: 40 }]);
  const c = f.client;
  try {
    await c.writeLine(
      '{"id":"p","type":"prompt","message":"hi"}\n{"id":"b","type":"bash","command":"sleep 0.3; echo b"}\n',
    );
    const code = await c.endInput();
    assertEquals(code, 0);
    const responses = ofType(f.events, "response").map((r) => [r.id, r.success]);
    assertEquals(responses.sort(), [["b", true], ["p", true]]);
    const ends = ofType(f.events, "message_end").map((e) => (e.message as { role: string }).role);
    assertEquals(ends, ["system", "user", "assistant"]);
    assertEquals(ofType(f.events, "agent_end").length, 1);
    assertEquals(ofType(f.events, "agent_settled").length, 1);
  } finally {
    await f.close();
  }
});
