/**
 * The JSON payloads of an OpenAI-style SSE body, read the way the `openai` SDK reads them:
 * `[DONE]` ends the data (anything after it is ignored), a payload with an `error` field is
 * thrown as an {@link OpenAIApiError}, and an unparsable payload throws an error that names the
 * stream and quotes the data (the SDK says only "malformed server-sent event JSON").
 *
 * @module
 */
import { malformedEventError, readSseEventBatches } from "../sse.ts";
import { OpenAIApiError } from "./openai_shared_request.ts";
import type { ContentDeltaShortcut } from "./openai_completions_delta.ts";

/** Result of reading a stream to its end. */
export interface OpenAIStreamEnd {
  /** True when the server sent `data: [DONE]`. */
  sawDone: boolean;
}

function errorText(error: unknown): string {
  const message = (error as { message?: unknown } | null)?.message;
  if (message) return typeof message === "string" ? message : JSON.stringify(message);
  return JSON.stringify(error);
}

/**
 * Yields each parsed payload; returns whether `[DONE]` arrived. With `endOnAbort`, an abort ends
 * the payloads quietly (the caller closes its open blocks, then reports the abort) instead of
 * throwing, as the `openai` SDK's stream does for Chat Completions.
 */
export async function* readOpenAIStream(
  body: ReadableStream<Uint8Array>,
  signal?: AbortSignal,
  endOnAbort = false,
  streamName = "OpenAI",
  idleTimeoutMs?: number,
): AsyncGenerator<Record<string, unknown>, OpenAIStreamEnd> {
  const batches = readOpenAIStreamBatches(body, signal, endOnAbort, streamName, idleTimeoutMs);
  let next = await batches.next();
  // Without a shortcut every payload is an object.
  for (; !next.done; next = await batches.next()) yield* next.value as Record<string, unknown>[];
  return next.value;
}

/**
 * A payload of {@link readOpenAIStreamBatches}: the parsed object, or (with a
 * {@link ContentDeltaShortcut}) a string, which stands for the last parsed plain content chunk
 * with this text as its `choices[0].delta.content`.
 */
export type OpenAIStreamPayload = Record<string, unknown> | string;

/**
 * {@link readOpenAIStream} a batch at a time: the payloads of the events parsed together (one
 * slice of a network read), in order, never empty. A long reply has one payload per delta, and
 * a consumer that handles a batch in a plain loop saves a generator hop per payload. A bad
 * payload is thrown after the good ones before it have been yielded. With `shortcut`, payloads
 * it recognises come as their content string, unparsed (see {@link OpenAIStreamPayload}).
 */
export async function* readOpenAIStreamBatches(
  body: ReadableStream<Uint8Array>,
  signal?: AbortSignal,
  endOnAbort = false,
  streamName = "OpenAI",
  idleTimeoutMs?: number,
  shortcut?: ContentDeltaShortcut,
): AsyncGenerator<OpenAIStreamPayload[], OpenAIStreamEnd> {
  let sawDone = false;
  const batches = readSseEventBatches(body, signal, idleTimeoutMs);
  for await (const batch of terminatedOnBodyError(batches, signal, endOnAbort)) {
    const payloads: OpenAIStreamPayload[] = [];
    let failure: Error | undefined;
    for (const event of batch) {
      if (sawDone) break;
      const content = shortcut?.match(event.data);
      if (content !== undefined) {
        payloads.push(content);
        continue;
      }
      if (event.data.startsWith("[DONE]")) {
        sawDone = true;
        continue;
      }
      let data: unknown;
      try {
        data = JSON.parse(event.data);
      } catch (error) {
        failure = malformedEventError(streamName, event, error);
        break;
      }
      if (data && typeof data === "object" && "error" in data && (data as { error: unknown }).error) {
        const error = (data as { error: unknown }).error;
        failure = new OpenAIApiError(errorText(error), undefined, error);
        break;
      }
      if (data && typeof data === "object") {
        payloads.push(data as Record<string, unknown>);
        shortcut?.learn(event.data, data as Record<string, unknown>);
      }
    }
    if (payloads.length > 0) yield payloads;
    if (failure) throw failure;
  }
  return { sawDone };
}

/** Text of a connection lost mid-body; what Node's fetch says and what auto-retry matches. */
export const BODY_TERMINATED = "terminated";

/**
 * Re-words body read failures as "terminated" (Deno says "error reading a body from
 * connection"), the text users of the reference see, which also marks them retryable.
 */
async function* terminatedOnBodyError<T>(
  events: AsyncGenerator<T>,
  signal: AbortSignal | undefined,
  endOnAbort: boolean,
): AsyncGenerator<T> {
  try {
    while (true) {
      let next: IteratorResult<T>;
      try {
        next = await events.next();
      } catch (error) {
        if (signal?.aborted && endOnAbort) return;
        // The fetch's own abort error surfaces here too; word it as the SDK does.
        if (signal?.aborted) throw new Error("Request was aborted", { cause: error });
        if (!(error instanceof TypeError)) throw error;
        throw new Error(BODY_TERMINATED, { cause: error });
      }
      if (next.done) return;
      yield next.value;
    }
  } finally {
    // Stopping early (a bad payload) must still release the body reader.
    await events.return(undefined);
  }
}

/**
 * OpenRouter puts the upstream provider's own error text in `error.metadata.raw`; it is appended
 * here unless the text already carries it (an HTTP error's quoted body does).
 */
export function withRawMetadata(message: string, error: unknown): string {
  if (!(error instanceof OpenAIApiError)) return message;
  const inner = error.error;
  const raw = (inner as { metadata?: { raw?: unknown } } | undefined)?.metadata?.raw;
  return raw && !message.includes(String(raw)) ? `${message}\n${raw}` : message;
}
