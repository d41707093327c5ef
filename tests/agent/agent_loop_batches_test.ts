/**
 * The agent loop reads a reply's events a burst at a time (`EventStream.nextBatch`): the same
 * events in the same order as one by one, and a custom stream without batches (a `streamFn`
 * returning any async iterable with `result()`) still works, event for event the same.
 */
import { assertEquals } from "../support/assert.ts";
import { Agent } from "../../src/agent/agent.ts";
import type { AgentEvent, StreamFn } from "../../src/agent/types.ts";
import { AssistantMessageEventStream, EventStream } from "../../src/ai/event_stream.ts";
import { FAUX_MODEL, fauxStream } from "../support/faux_stream.ts";

Deno.test("EventStream.nextBatch: what is queued at once, waits for the first, brings what came after it, then undefined", async () => {
  const stream = new EventStream<number, number>((n) => n < 0, (n) => n);
  stream.push(1);
  stream.push(2);
  assertEquals(await stream.nextBatch(), [1, 2]);
  const waiting = stream.nextBatch();
  stream.push(3);
  stream.push(4); // pushed before the waiting consumer resumes: comes in the same batch
  assertEquals(await waiting, [3, 4]);
  stream.push(5);
  stream.push(-1); // terminal: still delivered, then the end
  assertEquals(await stream.nextBatch(), [5, -1]);
  assertEquals(await stream.nextBatch(), undefined);
  assertEquals(await stream.result(), -1);

  const ended = new EventStream<number, number>(() => false, (n) => n);
  const pending = ended.nextBatch();
  ended.end(7);
  assertEquals(await pending, undefined);
});

/** The agent's events for a two-reply run with `wrap` applied to every stream. */
async function run(
  wrap: (s: AssistantMessageEventStream) => AssistantMessageEventStream,
): Promise<AgentEvent[]> {
  const { streamFn } = fauxStream([
    { toolCalls: [{ id: "c1", name: "echo", arguments: {} }] },
    { text: "done now" },
  ]);
  const wrapped: StreamFn = async (...args) => wrap(await streamFn(...args));
  const agent = new Agent({
    initialState: {
      model: FAUX_MODEL,
      systemPrompt: "sys",
      tools: [{
        name: "echo",
        label: "echo",
        description: "echo",
        parameters: { type: "object", properties: {} },
        execute: () => Promise.resolve({ content: [{ type: "text", text: "echoed" }], details: {} }),
      }],
    },
    streamFn: wrapped,
  });
  const events: AgentEvent[] = [];
  agent.subscribe((e) => void events.push(e));
  await agent.prompt("go");
  // Durations and times differ between runs.
  return JSON.parse(JSON.stringify(events, (k, v) => (k === "timestamp" || k === "durationMs" ? 0 : v)));
}

Deno.test("LOOP batches: a stream without nextBatch (any async iterable) gives the agent the same events", async () => {
  const batched = await run((s) => s);
  const plain = await run((s) =>
    ({
      [Symbol.asyncIterator]: () => s[Symbol.asyncIterator](),
      result: () => s.result(),
    }) as unknown as AssistantMessageEventStream
  );
  assertEquals(plain, batched);
  const types = batched.map((e) => e.type);
  assertEquals(types.filter((t) => t === "message_update").length > 0, true);
  assertEquals(types.at(-1), "agent_end");
});
