/**
 * Server-sent events over a fetch body. Every streaming provider speaks SSE, so the byte
 * handling (chunk boundaries, CRLF, comments, multi-line data) lives here once.
 *
 * @module
 */
import { createParser } from "npm:eventsource-parser@4.1.3";

/** One dispatched SSE event. `event` is absent when the server sent no `event:` field. */
export interface SseEvent {
  event?: string;
  data: string;
  id?: string;
}

/** How long a response body may send nothing before it is given up (pi 1.6.0's `httpIdleTimeoutMs` default). */
export const DEFAULT_STREAM_IDLE_TIMEOUT_MS = 300_000;

/**
 * The error of a body that sent nothing for `timeoutMs`. It starts with "terminated", the text
 * of a connection lost mid-body, so automatic retry treats it the same way.
 */
export function streamIdleError(timeoutMs: number): Error {
  const seconds = Number((timeoutMs / 1000).toFixed(3));
  return new Error(`terminated: the provider sent nothing for ${seconds} s (httpIdleTimeoutMs)`);
}

/**
 * One read that gives up after `timeoutMs` without data (0 or undefined: waits for ever); the
 * reader is then cancelled so the connection closes.
 */
function readWithin<T>(reader: ReadableStreamDefaultReader<T>, timeoutMs: number | undefined) {
  if (!timeoutMs) return reader.read();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const idle = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      // Rejected first: cancelling settles the pending read as "done", which must not win the race.
      reject(streamIdleError(timeoutMs));
      reader.cancel().catch(() => {});
    }, timeoutMs);
  });
  return Promise.race([reader.read(), idle]).finally(() => clearTimeout(timer));
}

/** Bytes of a read handed to the SSE parser at once. */
const PARSE_SLICE_BYTES = 4096;

/**
 * Yields the events of an SSE body. Ends when the body ends (a final event without its
 * terminating blank line is still delivered, as servers sometimes cut the last one short),
 * rethrows body errors, throws "Request was aborted" once `signal` fires, and throws
 * {@link streamIdleError} when the body sends nothing for `idleTimeoutMs` (default
 * {@link DEFAULT_STREAM_IDLE_TIMEOUT_MS}; 0 waits for ever).
 */
export async function* readSseEvents(
  body: ReadableStream<Uint8Array>,
  signal?: AbortSignal,
  idleTimeoutMs: number = DEFAULT_STREAM_IDLE_TIMEOUT_MS,
): AsyncGenerator<SseEvent> {
  for await (const batch of readSseEventBatches(body, signal, idleTimeoutMs)) yield* batch;
}

/**
 * {@link readSseEvents} a batch at a time: the events parsed from one slice of a read, in order,
 * never empty. A long reply has one event per delta; a consumer that handles each batch in a
 * plain loop saves a generator hop (and its promises) per event. The array is the caller's.
 */
export async function* readSseEventBatches(
  body: ReadableStream<Uint8Array>,
  signal?: AbortSignal,
  idleTimeoutMs: number = DEFAULT_STREAM_IDLE_TIMEOUT_MS,
): AsyncGenerator<SseEvent[]> {
  let pending: SseEvent[] = [];
  const parser = createParser({
    onEvent(message) {
      const event: SseEvent = { data: message.data };
      if (message.event !== undefined) event.event = message.event;
      if (message.id !== undefined) event.id = message.id;
      pending.push(event);
    },
  });
  const take = () => {
    const batch = pending;
    pending = [];
    return batch;
  };
  const reader = body.getReader();
  const decoder = new TextDecoder();
  // Cancelling the reader wakes a pending read() so an abort is noticed promptly.
  const onAbort = () => {
    reader.cancel().catch(() => {});
  };
  signal?.addEventListener("abort", onAbort, { once: true });
  try {
    while (true) {
      if (signal?.aborted) throw new Error("Request was aborted");
      const { value, done } = await readWithin(reader, idleTimeoutMs);
      if (signal?.aborted) throw new Error("Request was aborted");
      if (done) break;
      // A read can hold hundreds of events. Parsed all at once, they (and the decoded text)
      // stayed alive until the last was consumed, long enough for the garbage collector to copy
      // them twice and move them to the old generation; a slice at a time, they die young.
      for (let offset = 0; offset < value.length; offset += PARSE_SLICE_BYTES) {
        parser.feed(decoder.decode(value.subarray(offset, offset + PARSE_SLICE_BYTES), { stream: true }));
        if (pending.length > 0) yield take();
      }
    }
    // Flush the decoder, then terminate any half-finished line and event.
    parser.feed(decoder.decode() + "\n\n");
    if (pending.length > 0) yield take();
  } finally {
    signal?.removeEventListener("abort", onAbort);
    try {
      reader.releaseLock();
    } catch {
      // A read may still be pending after an abort; the lock goes with the stream.
    }
  }
}

/** How much of an unparsable payload an error message quotes. */
export const MALFORMED_DATA_LIMIT = 200;

/** `text` cut to `limit` characters, saying how much was left out. */
export function truncateForError(text: string, limit = MALFORMED_DATA_LIMIT): string {
  const chars = Array.from(text);
  if (chars.length <= limit) return text;
  return `${chars.slice(0, limit).join("")}… (${chars.length - limit} more characters)`;
}

/**
 * The error for a server-sent event whose data is not the JSON the API promises: names the
 * stream, the event (when the server named one), what was wrong, and the data (truncated), e.g.
 * `Could not parse OpenAI Chat Completions stream event: Unexpected end of JSON input;
 * data={"oops": tru`. A bare JSON parse message would leave the user guessing.
 */
export function malformedEventError(stream: string, event: SseEvent, cause: unknown): Error {
  const reason = cause instanceof Error ? cause.message : String(cause);
  const name = event.event ? ` ${event.event}` : "";
  return new Error(
    `Could not parse ${stream} stream event${name}: ${reason}; data=${truncateForError(event.data)}`,
    { cause },
  );
}
