/**
 * The batched paths a long reply takes (issue 9's JSON-stream figure): SSE events and OpenAI
 * payloads a batch at a time, and one event stream forwarded into another without an iterator.
 * Batching must change nothing a consumer can see: the same events in the same order, errors
 * after the good events before them.
 */
import { readSseEventBatches, type SseEvent } from "../../src/ai/sse.ts";
import { readOpenAIStreamBatches } from "../../src/ai/providers/openai_shared_stream.ts";
import { EventStream } from "../../src/ai/event_stream.ts";
import { assertEquals, assertRejects } from "../support/assert.ts";

function bodyOf(text: string, pieceBytes = text.length): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  return new ReadableStream({
    start(controller) {
      for (let i = 0; i < bytes.length; i += pieceBytes) controller.enqueue(bytes.slice(i, i + pieceBytes));
      controller.close();
    },
  });
}

Deno.test("SSE batches: one batch per parsed slice, never empty, the same events in order as one by one", async () => {
  const wire = Array.from({ length: 600 }, (_, i) => `data: {"n":${i}}\n\n`).join("") + ": comment\n\n";
  const batches: SseEvent[][] = [];
  for await (const batch of readSseEventBatches(bodyOf(wire, 10_000))) batches.push(batch);
  assertEquals(batches.flat().map((e) => JSON.parse(e.data).n), Array.from({ length: 600 }, (_, i) => i));
  assertEquals(batches.every((b) => b.length > 0), true);
  // 600 events of ~12 bytes in reads of 10,000 bytes: several events per batch, several batches.
  assertEquals(batches.length > 1 && batches.length < 600, true, `${batches.length} batches`);
});

Deno.test("OpenAI payload batches: a malformed payload is thrown after the good ones before it were yielded", async () => {
  const wire = 'data: {"a":1}\n\ndata: {"a":2}\n\ndata: {"a":\n\ndata: {"a":4}\n\n';
  const seen: unknown[] = [];
  await assertRejects(
    async () => {
      for await (const batch of readOpenAIStreamBatches(bodyOf(wire), undefined, false, "Test")) {
        seen.push(...batch);
      }
    },
    'Could not parse Test stream event: Unexpected end of JSON input; data={"a":',
  );
  assertEquals(seen, [{ a: 1 }, { a: 2 }]);
});

Deno.test("OpenAI payload batches: [DONE] ends the payloads and is reported; an error payload is thrown in order", async () => {
  const done = readOpenAIStreamBatches(bodyOf('data: {"a":1}\n\ndata: [DONE]\n\ndata: {"a":2}\n\n'));
  const got: unknown[] = [];
  let next = await done.next();
  for (; !next.done; next = await done.next()) got.push(...next.value);
  assertEquals([got, next.value], [[{ a: 1 }], { sawDone: true }]);

  const seen: unknown[] = [];
  await assertRejects(
    async () => {
      const wire = 'data: {"a":1}\n\ndata: {"error":{"message":"overloaded"}}\n\ndata: {"a":3}\n\n';
      for await (const batch of readOpenAIStreamBatches(bodyOf(wire))) seen.push(...batch);
    },
    "overloaded",
  );
  assertEquals(seen, [{ a: 1 }]);
});

Deno.test("EventStream.drainInto: queued events first, then each push at once; resolves at the terminal event", async () => {
  const stream = new EventStream<string, string>((e) => e === "end", (e) => e);
  stream.push("a");
  stream.push("b");
  const got: string[] = [];
  const drained = stream.drainInto((e) => got.push(e));
  assertEquals(got, ["a", "b"]);
  stream.push("c");
  // Delivered synchronously, with no await in between.
  assertEquals(got, ["a", "b", "c"]);
  stream.push("end");
  stream.push("ignored after the end");
  await drained;
  assertEquals(got, ["a", "b", "c", "end"]);
  assertEquals(await stream.result(), "end");
  // A second sink is refused: the events went to the first.
  let refused = "";
  try {
    void stream.drainInto(() => {});
  } catch (error) {
    refused = (error as Error).message;
  }
  assertEquals(refused, "drainInto: the stream already has a sink");
});

Deno.test("EventStream.drainInto: end() without a terminal event resolves the drain", async () => {
  const stream = new EventStream<number, number>(() => false, (e) => e);
  const got: number[] = [];
  const drained = stream.drainInto((e) => got.push(e));
  stream.push(1);
  stream.end(7);
  await drained;
  assertEquals([got, await stream.result()], [[1], 7]);
});
