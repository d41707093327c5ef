/**
 * One HTTP request to an OpenAI-style API with the client-side behaviour the reference got
 * from the `openai` SDK: up to 2 retries (408, 409, 429, 5xx, connection failures;
 * `x-should-retry` obeyed), `retry-after-ms` / `retry-after` honoured, otherwise exponential
 * back-off from 0.5 s (max 8 s, up to 25 % jitter), a timeout (default 10 minutes) that covers
 * the wait for response headers, and the SDK's error texts ("429 Rate limit reached",
 * "Connection error.", "Request timed out.", "Request was aborted.").
 *
 * Unlike the SDK, a server-requested delay longer than `maxRetryDelayMs` (default 60 s,
 * 0 = no cap) is not slept through: the error surfaces at once so the caller can decide.
 *
 * @module
 */
import type { AssistantMessageEventStream } from "../event_stream.ts";
import { formatHttpError } from "../provider_utils.ts";
import type { AssistantMessage, Model, StreamOptions } from "../types.ts";
import { joinUrl, resolveBaseUrl } from "./openai_shared_client.ts";

/** An error answer of an OpenAI-style API, worded as the `openai` SDK's APIError. */
export class OpenAIApiError extends Error {
  /** HTTP status; undefined for errors sent inside the stream. */
  readonly status?: number;
  /** The body's `error` object (or in-stream error payload), when it was JSON. */
  readonly error?: unknown;

  constructor(message: string, status?: number, error?: unknown) {
    super(message);
    this.name = "OpenAIApiError";
    this.status = status;
    this.error = error;
  }
}

/** What to send and how persistently. */
export interface OpenAIRequest {
  url: string;
  body: unknown;
  /** Final headers; a `null` value removes a default (as the SDK's defaultHeaders allow). */
  headers: Record<string, string | null>;
  signal?: AbortSignal;
  /** Time allowed until response headers arrive, per attempt (default 600000). */
  timeoutMs?: number;
  /** Retries after the first attempt (default 2). */
  maxRetries?: number;
  /** Longest server-requested retry delay to wait for (default 60000; 0 = no cap). */
  maxRetryDelayMs?: number;
  /** Secrets never to include in an error text. */
  secrets?: string[];
}

const DEFAULT_TIMEOUT_MS = 600_000;
const DEFAULT_MAX_RETRIES = 2;
const DEFAULT_MAX_RETRY_DELAY_MS = 60_000;

/** The text the SDK uses when the caller aborts before the response arrived. */
export const ABORTED_BEFORE_RESPONSE = "Request was aborted.";

/** The response headers as a plain lower-cased record (for `onResponse`). */
export function headersToRecord(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, key) => (out[key] = value));
  return out;
}

/** POSTs the JSON body; resolves with a 2xx response or throws with the SDK's wording. */
export async function sendOpenAIRequest(request: OpenAIRequest): Promise<Response> {
  const maxRetries = request.maxRetries ?? DEFAULT_MAX_RETRIES;
  const headers = new Headers();
  headers.set("accept", "application/json");
  headers.set("content-type", "application/json");
  for (const [key, value] of Object.entries(request.headers)) {
    if (value === null) headers.delete(key);
    else headers.set(key, value);
  }
  const payload = JSON.stringify(request.body);

  for (let attempt = 0;; attempt++) {
    const retriesLeft = maxRetries - attempt;
    if (request.signal?.aborted) throw new Error(ABORTED_BEFORE_RESPONSE);
    let response: Response;
    try {
      response = await fetchWithTimeout(request, headers, payload);
    } catch (error) {
      if (request.signal?.aborted) throw new Error(ABORTED_BEFORE_RESPONSE);
      const timedOut = error instanceof TimeoutError;
      if (retriesLeft > 0) {
        await sleep(defaultRetryDelay(attempt), request.signal);
        continue;
      }
      throw new Error(timedOut ? "Request timed out." : "Connection error.", { cause: error });
    }
    if (response.ok) return response;

    const retry = shouldRetry(response);
    const delay = retry && retriesLeft > 0 ? retryDelay(response.headers, attempt) : undefined;
    const cap = request.maxRetryDelayMs ?? DEFAULT_MAX_RETRY_DELAY_MS;
    if (delay !== undefined && (cap === 0 || delay.ms <= cap || !delay.requested)) {
      await response.body?.cancel().catch(() => {});
      await sleep(delay.ms, request.signal);
      continue;
    }
    const text = await response.text().catch((error) => (error instanceof Error ? error.message : ""));
    let inner: unknown;
    try {
      inner = (JSON.parse(text) as { error?: unknown } | null)?.error;
    } catch { /* not JSON */ }
    const message = formatHttpError(response.status, text, { style: "openai", secrets: request.secrets });
    throw new OpenAIApiError(message, response.status, inner);
  }
}

class TimeoutError extends Error {}

async function fetchWithTimeout(request: OpenAIRequest, headers: Headers, body: string): Promise<Response> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, request.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const onAbort = () => controller.abort();
  request.signal?.addEventListener("abort", onAbort, { once: true });
  try {
    return await fetch(request.url, { method: "POST", headers, body, signal: controller.signal });
  } catch (error) {
    if (timedOut) throw new TimeoutError("timed out", { cause: error });
    throw error;
  } finally {
    // Only the wait for headers is timed; the caller's signal keeps governing the body.
    clearTimeout(timer);
  }
}

function shouldRetry(response: Response): boolean {
  const explicit = response.headers.get("x-should-retry");
  if (explicit === "true") return true;
  if (explicit === "false") return false;
  const s = response.status;
  return s === 408 || s === 409 || s === 429 || s >= 500;
}

function retryDelay(headers: Headers, attempt: number): { ms: number; requested: boolean } {
  const ms = headers.get("retry-after-ms");
  if (ms) {
    const value = parseFloat(ms);
    if (!Number.isNaN(value)) return { ms: value, requested: true };
  }
  const after = headers.get("retry-after");
  if (after) {
    const seconds = parseFloat(after);
    const value = Number.isNaN(seconds) ? Date.parse(after) - Date.now() : seconds * 1000;
    if (!Number.isNaN(value)) return { ms: Math.max(0, value), requested: true };
  }
  return { ms: defaultRetryDelay(attempt), requested: false };
}

function defaultRetryDelay(attempt: number): number {
  const seconds = Math.min(0.5 * 2 ** attempt, 8);
  return seconds * (1 - Math.random() * 0.25) * 1000;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new Error(ABORTED_BEFORE_RESPONSE));
    const onAbort = () => {
      clearTimeout(timer);
      reject(new Error(ABORTED_BEFORE_RESPONSE));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * The part both OpenAI APIs share around a streaming request: `onPayload` may replace the body,
 * the request is sent (with the SDK's retries), `onResponse` sees the status, the stream starts,
 * and the response body comes back for the API's own event reader. The caller cancels the body.
 */
export async function openOpenAIStream(args: {
  model: Model;
  path: string;
  params: unknown;
  headers: Record<string, string | null>;
  apiKey: string;
  options: StreamOptions | undefined;
  stream: AssistantMessageEventStream;
  output: AssistantMessage;
}): Promise<ReadableStream<Uint8Array>> {
  const { model, options } = args;
  const replaced = await options?.onPayload?.(args.params, model);
  const response = await sendOpenAIRequest({
    url: joinUrl(resolveBaseUrl(model), args.path),
    body: replaced !== undefined ? replaced : args.params,
    headers: args.headers,
    signal: options?.signal,
    timeoutMs: options?.timeoutMs,
    maxRetries: options?.maxRetries,
    maxRetryDelayMs: options?.maxRetryDelayMs,
    secrets: [args.apiKey],
  });
  await options?.onResponse?.({ status: response.status, headers: headersToRecord(response.headers) }, model);
  args.stream.push({ type: "start", partial: args.output });
  if (!response.body) throw new Error("Response has no body");
  return response.body;
}
