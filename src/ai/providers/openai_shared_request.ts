/**
 * One HTTP request to an OpenAI-style API with the `openai` SDK's timeout (default 10 minutes,
 * covering the wait for response headers) and error texts ("429 Rate limit reached",
 * "Connection error.", "Request timed out.", "Request was aborted."), and the shared
 * client-side retry policy of {@link withProviderRetries} (pi-ai 1.x: no retries unless
 * `maxRetries` asks; a server-requested wait over `maxRetryDelayMs` fails at once).
 *
 * @module
 */
import type { AssistantMessageEventStream } from "../event_stream.ts";
import { formatHttpError, redactSecrets } from "../provider_utils.ts";
import type { AssistantMessage, Model, StreamOptions } from "../types.ts";
import { joinUrl, resolveBaseUrl } from "./openai_shared_client.ts";
import {
  ProviderHttpError,
  serverRetryDelayMs,
  shouldRetryResponse,
  withProviderRetries,
} from "./provider_retry.ts";

/**
 * An error answer of an OpenAI-style API, worded as the `openai` SDK's APIError; also used for
 * an error sent inside a 200 stream (status 0, {@link OpenAIApiError.inStream}).
 */
export class OpenAIApiError extends ProviderHttpError {
  /** The body's `error` object (or in-stream error payload), when it was JSON. */
  readonly error?: unknown;
  /** That object as JSON text (secrets redacted, capped), when it was a non-empty object. */
  readonly body?: string;
  readonly #inStream: boolean;

  constructor(
    message: string,
    status?: number,
    error?: unknown,
    retryable = false,
    retryAfterMs?: number,
    body?: string,
  ) {
    super(message, status ?? 0, retryable, retryAfterMs);
    this.name = "OpenAIApiError";
    this.error = error;
    this.body = body;
    this.#inStream = status === undefined;
  }

  /** True for an error sent inside a 200 stream rather than as an HTTP answer. */
  get inStream(): boolean {
    return this.#inStream;
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
  /** Retries after the first attempt (default 0). */
  maxRetries?: number;
  /** Longest server-requested retry delay to wait for (default 60000; 0 = no cap). */
  maxRetryDelayMs?: number;
  /** Secrets never to include in an error text. */
  secrets?: string[];
}

const DEFAULT_TIMEOUT_MS = 600_000;

/** The text the SDK uses when the caller aborts before the response arrived. */
export const ABORTED_BEFORE_RESPONSE = "Request was aborted.";

/** The response headers as a plain lower-cased record (for `onResponse`). */
export function headersToRecord(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, key) => (out[key] = value));
  return out;
}

/** POSTs the JSON body; resolves with a 2xx response or throws with the SDK's wording. */
export function sendOpenAIRequest(request: OpenAIRequest): Promise<Response> {
  const headers = new Headers();
  headers.set("accept", "application/json");
  headers.set("content-type", "application/json");
  for (const [key, value] of Object.entries(request.headers)) {
    if (value === null) headers.delete(key);
    else headers.set(key, value);
  }
  const payload = JSON.stringify(request.body);
  return withProviderRetries(() => attempt(request, headers, payload), {
    signal: request.signal,
    maxRetries: request.maxRetries,
    maxRetryDelayMs: request.maxRetryDelayMs,
    abortError: () => new Error(ABORTED_BEFORE_RESPONSE),
  });
}

async function attempt(request: OpenAIRequest, headers: Headers, payload: string): Promise<Response> {
  let response: Response;
  try {
    response = await fetchWithTimeout(request, headers, payload);
  } catch (error) {
    if (request.signal?.aborted) throw new Error(ABORTED_BEFORE_RESPONSE);
    throw new Error(error instanceof TimeoutError ? "Request timed out." : "Connection error.", {
      cause: error,
    });
  }
  if (response.ok) return response;
  const text = await response.text().catch((error) => (error instanceof Error ? error.message : ""));
  let inner: unknown;
  try {
    inner = (JSON.parse(text) as { error?: unknown } | null)?.error;
  } catch { /* not JSON */ }
  const message = formatHttpError(response.status, text, { style: "openai", secrets: request.secrets });
  throw new OpenAIApiError(
    message,
    response.status,
    inner,
    shouldRetryResponse(response),
    serverRetryDelayMs(response.headers),
    errorBody(inner, request.secrets ?? []),
  );
}

/** Longest error body quoted in an error text (pi-ai 1.6.0's cap). */
const MAX_ERROR_BODY_CHARS = 4000;

function errorBody(inner: unknown, secrets: string[]): string | undefined {
  if (
    typeof inner !== "object" || inner === null || Array.isArray(inner) || Object.keys(inner).length === 0
  ) {
    return undefined;
  }
  const text = redactSecrets(JSON.stringify(inner), secrets).trim();
  if (text.length <= MAX_ERROR_BODY_CHARS) return text;
  // Never cut a surrogate pair in two.
  const end = /[\uD800-\uDBFF]/.test(text[MAX_ERROR_BODY_CHARS - 1])
    ? MAX_ERROR_BODY_CHARS - 1
    : MAX_ERROR_BODY_CHARS;
  return `${text.slice(0, end)}... [truncated ${text.length - end} chars]`;
}

/**
 * The text pi-ai 1.6.0 shows for a failed OpenAI-style request. An HTTP error whose body held an
 * `error` object reads `<status>: <that object as JSON>`, or `<prefix> (<status>): …` with a
 * prefix (the Responses API names the provider), because the SDK's own message keeps only
 * `error.message` and the rest (type, code) is what tells users what went wrong. Any other HTTP
 * error keeps its message (after the prefix); errors without a status keep theirs unchanged.
 */
export function openAIErrorText(error: unknown, prefix?: string): string {
  const message = error instanceof Error ? error.message : JSON.stringify(error);
  if (!(error instanceof OpenAIApiError) || error.inStream) return message;
  const shown = error.body !== undefined && !message.includes(error.body) ? error.body : undefined;
  if (prefix !== undefined) return `${prefix} (${error.status}): ${shown ?? message}`;
  return shown !== undefined ? `${error.status}: ${shown}` : message;
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
