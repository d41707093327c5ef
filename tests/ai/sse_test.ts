import { readSseEvents, type SseEvent } from "../../src/ai/sse.ts";
import { assertEquals, assertRejects } from "../support/assert.ts";

function bodyOf(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
}

async function collect(body: ReadableStream<Uint8Array>, signal?: AbortSignal): Promise<SseEvent[]> {
  const out: SseEvent[] = [];
  for await (const event of readSseEvents(body, signal)) out.push(event);
  return out;
}

/** Splits bytes into pieces of `size`, cutting through multi-byte characters on purpose. */
function chop(bytes: Uint8Array, size: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.slice(i, i + size));
  return out;
}

const WIRE = 'event: message_start\r\ndata: {"a":"héllo 🙈"}\r\n\r\n' +
  ": keep-alive comment\n\n" +
  "id: 7\ndata: line one\ndata: line two\n\n" +
  "data: [DONE]\n\n";

const EXPECTED: SseEvent[] = [
  { event: "message_start", data: '{"a":"héllo 🙈"}' },
  { id: "7", data: "line one\nline two" },
  { data: "[DONE]" },
];

Deno.test("SSE parses events, CRLF, comments and multi-line data", async () => {
  assertEquals(await collect(bodyOf([new TextEncoder().encode(WIRE)])), EXPECTED);
});

Deno.test("SSE survives chunks split at every odd byte boundary", async () => {
  const bytes = new TextEncoder().encode(WIRE);
  for (const size of [1, 2, 3, 5, 7, 13]) {
    assertEquals(await collect(bodyOf(chop(bytes, size))), EXPECTED, `chunk size ${size}`);
  }
});

Deno.test("SSE delivers a final event that lacks its blank line", async () => {
  const events = await collect(bodyOf([new TextEncoder().encode("data: a\n\ndata: last")]));
  assertEquals(events, [{ data: "a" }, { data: "last" }]);
});

Deno.test("SSE ends cleanly on an empty body", async () => {
  assertEquals(await collect(bodyOf([])), []);
});

Deno.test("SSE rethrows a body error after the events before it", async () => {
  const seen: string[] = [];
  let pulls = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulls++ === 0) controller.enqueue(new TextEncoder().encode("data: first\n\n"));
      else controller.error(new Error("socket hang up"));
    },
  });
  await assertRejects(async () => {
    for await (const event of readSseEvents(body)) seen.push(event.data);
  }, "socket hang up");
  assertEquals(seen, ["first"]);
});

Deno.test("SSE stops with 'Request was aborted' when the signal fires mid-stream", async () => {
  const controller = new AbortController();
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      c.enqueue(new TextEncoder().encode("data: first\n\n"));
      // never closes: only the abort can end it
    },
  });
  const seen: string[] = [];
  await assertRejects(async () => {
    for await (const event of readSseEvents(body, controller.signal)) {
      seen.push(event.data);
      setTimeout(() => controller.abort(), 5);
    }
  }, "Request was aborted");
  assertEquals(seen, ["first"]);
});

/** A body that sends `first`, then each of `later` after `gapMs`, then ends; `cancelled` says whether it was cancelled. */
function slowBody(first: string, later: string[], gapMs: number) {
  const state = { cancelled: false };
  const timers: ReturnType<typeof setTimeout>[] = [];
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(first));
      later.forEach((text, i) => {
        timers.push(setTimeout(() => {
          if (state.cancelled) return;
          controller.enqueue(new TextEncoder().encode(text));
          if (i === later.length - 1) controller.close();
        }, gapMs * (i + 1)));
      });
    },
    cancel() {
      state.cancelled = true;
      for (const timer of timers) clearTimeout(timer);
    },
  });
  return { body, state };
}

Deno.test("SET-04 httpIdleTimeoutMs: a body silent for longer fails with a 'terminated' error and is cancelled", async () => {
  const { body, state } = slowBody("data: one\n\n", ["data: two\n\n"], 400);
  const seen: string[] = [];
  const error = await assertRejects(async () => {
    for await (const event of readSseEvents(body, undefined, 100)) seen.push(event.data);
  });
  assertEquals(error.message, "terminated: the provider sent nothing for 0.1 s (httpIdleTimeoutMs)");
  assertEquals(seen, ["one"]);
  assertEquals(state.cancelled, true);
});

Deno.test("SET-04 httpIdleTimeoutMs: gaps shorter than the timeout, or a timeout of 0, read the whole body", async () => {
  for (const timeout of [300, 0]) {
    const { body } = slowBody("data: one\n\n", ["data: two\n\n", "data: three\n\n"], 120);
    const seen: string[] = [];
    for await (const event of readSseEvents(body, undefined, timeout)) seen.push(event.data);
    assertEquals(seen, ["one", "two", "three"], `timeout ${timeout}`);
  }
});
