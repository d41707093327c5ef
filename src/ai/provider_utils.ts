/**
 * Pieces every wire-API provider needs: the empty output message it fills while streaming,
 * the one way a failed request ends, and the text users see for HTTP errors.
 *
 * @module
 */
import { AssistantMessageEventStream } from "./event_stream.ts";
import { noteRequestedRetryDelay } from "./retryable.ts";
import { type AssistantMessage, type DoneReason, emptyUsage, type Model } from "./types.ts";

/**
 * A fresh assistant message for `model`: no content, zero usage, stopReason "pending" (what the
 * `start` event shows, as pi-ai 1.x; the provider sets the real reason when the server says it).
 */
export function createOutputMessage(model: Model): AssistantMessage {
  return {
    role: "assistant",
    content: [],
    api: model.api,
    provider: model.provider,
    model: model.id,
    usage: emptyUsage(),
    stopReason: "pending",
    timestamp: Date.now(),
  };
}

/**
 * Starts one request of a wire API: a new stream and output message for `model`, which `run`
 * feeds. Whatever `run` throws ends the stream through {@link finishWithError}, after `report`
 * has had the chance to reword it. `prepare` adjusts the output message before `run` starts.
 */
export function runProviderStream(
  model: Model,
  signal: AbortSignal | undefined,
  run: (stream: AssistantMessageEventStream, output: AssistantMessage) => Promise<void>,
  options: { report?: (error: unknown) => unknown; prepare?: (output: AssistantMessage) => void } = {},
): AssistantMessageEventStream {
  const stream = new AssistantMessageEventStream();
  const output = createOutputMessage(model);
  options.prepare?.(output);
  void run(stream, output).catch((error) =>
    finishWithError(stream, output, options.report ? options.report(error) : error, signal)
  );
  return stream;
}

/**
 * A stream that has already failed with "No API key for provider: <provider>" (the unified
 * entry of a built-in provider called without a key). `prepare` adjusts the output message.
 */
export function noApiKeyStream(
  model: Model,
  prepare?: (output: AssistantMessage) => void,
): AssistantMessageEventStream {
  const stream = new AssistantMessageEventStream();
  const output = createOutputMessage(model);
  prepare?.(output);
  finishWithError(stream, output, new Error(`No API key for provider: ${model.provider}`));
  return stream;
}

/**
 * Ends a successful request with `done`. A reply whose stop reason is still "pending" never
 * said how it ended: that is an error with `pendingMessage` (worded so auto-retry sees it).
 */
export function finishWithDone(
  stream: AssistantMessageEventStream,
  output: AssistantMessage,
  pendingMessage: string,
): void {
  if (output.stopReason === "pending") throw new Error(pendingMessage);
  stream.push({ type: "done", reason: output.stopReason as DoneReason, message: output });
  stream.end();
}

/** Streaming scratch fields providers may hang on content blocks; they are never persisted. */
export const SCRATCH_BLOCK_KEYS: readonly string[] = ["index", "partialJson", "partialArgs", "streamIndex"];

/** Text of any thrown value, as the reference reports it (`message` of Errors, JSON otherwise). */
export function errorToMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}

/**
 * Ends a failed request: strips scratch fields from the content, marks the message "aborted"
 * (when `signal` fired) or "error", records the error text, pushes the `error` event and ends
 * the stream. Partial content and usage stay so the caller can show what arrived.
 */
export function finishWithError(
  stream: AssistantMessageEventStream,
  output: AssistantMessage,
  error: unknown,
  signal?: AbortSignal,
  scratchKeys: readonly string[] = SCRATCH_BLOCK_KEYS,
): void {
  for (const block of output.content) {
    const loose = block as unknown as Record<string, unknown>;
    for (const key of scratchKeys) delete loose[key];
  }
  const aborted = signal?.aborted === true;
  output.stopReason = aborted ? "aborted" : "error";
  const isAbortError = error instanceof Error && error.name === "AbortError";
  output.errorMessage = aborted && isAbortError ? "Request was aborted" : errorToMessage(error);
  // A server that asked for a wait (retry-after) lets the agent's auto-retry honour it.
  const retryAfterMs = (error as { retryAfterMs?: unknown } | null)?.retryAfterMs;
  if (!aborted && typeof retryAfterMs === "number") noteRequestedRetryDelay(output, retryAfterMs);
  stream.push({ type: "error", reason: aborted ? "aborted" : "error", error: output });
  stream.end();
}

/** How a vendor SDK words HTTP errors; each provider uses the style of the SDK the reference uses. */
export type HttpErrorStyle = "anthropic" | "openai" | "google";

/** Extra inputs of {@link formatHttpError}. */
export interface HttpErrorOptions {
  /** Default "openai". */
  style?: HttpErrorStyle;
  /** HTTP reason phrase; the Google style embeds it for non-JSON bodies. */
  statusText?: string;
  /** Secrets that must never reach an error message; each occurrence becomes "***". */
  secrets?: (string | undefined)[];
}

function parseJsonObject(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function sdkMessage(status: number, error: unknown, fallback: string | undefined): string {
  const errorRecord = error as { message?: unknown } | undefined | null;
  const msg = errorRecord?.message
    ? typeof errorRecord.message === "string" ? errorRecord.message : JSON.stringify(errorRecord.message)
    : error
    ? JSON.stringify(error)
    : fallback;
  if (status && msg) return `${status} ${msg}`;
  if (status) return `${status} status code (no body)`;
  if (msg) return msg;
  return "(no status code or body)";
}

/**
 * The error text a user of the reference sees for a non-2xx response, e.g.
 * `400 {"type":"error","error":{...}}` (Anthropic SDK: whole JSON body),
 * `429 Rate limit reached` (OpenAI SDK: the body's `error.message`, plus OpenRouter's
 * `error.metadata.raw` on its own line), or the Google SDK's JSON dump of the body.
 * An empty body gives `<status> status code (no body)`.
 */
export function formatHttpError(status: number, bodyText: string, options: HttpErrorOptions = {}): string {
  const style = options.style ?? "openai";
  const json = parseJsonObject(bodyText);
  let text: string;
  if (style === "google") {
    const body = json !== undefined
      ? json
      : { error: { message: bodyText, code: status, status: options.statusText ?? "" } };
    text = JSON.stringify(body);
  } else if (style === "anthropic") {
    text = sdkMessage(status, json, json === undefined ? bodyText : undefined);
  } else {
    const inner = (json as { error?: unknown } | null | undefined)?.error;
    text = sdkMessage(status, inner, json === undefined ? bodyText : undefined);
    const raw = (inner as { metadata?: { raw?: unknown } } | undefined)?.metadata?.raw;
    if (raw) text += `\n${raw}`;
  }
  return redactSecrets(text, options.secrets ?? []);
}

/** Replaces every occurrence of each non-trivial secret with "***". */
export function redactSecrets(text: string, secrets: (string | undefined)[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret && secret.length >= 4) out = out.split(secret).join("***");
  }
  return out;
}
