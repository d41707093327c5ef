/**
 * The `mistral-conversations` wire API: Mistral's native chat completions endpoint over SSE, as
 * pi-ai 1.6.0 speaks it with plain fetch: the request of mistral_request.ts with a bearer key
 * and the session as `x-affinity`, a 60 s wait for the response headers, thinking chunks,
 * whole or streamed tool calls, cached-prompt usage, and "Mistral API error (<status>): <body>"
 * for HTTP errors. Never throws to the caller.
 *
 * @module
 */
import type { ApiProvider } from "../api_provider.ts";
import { calculateCost } from "../cost.ts";
import type { AssistantMessageEventStream } from "../event_stream.ts";
import { parseStreamingJson } from "../json_parse.ts";
import { errorToMessage, redactSecrets, runProviderStream } from "../provider_utils.ts";
import { sanitizeSurrogates } from "../sanitize_unicode.ts";
import { buildBaseOptions } from "../simple_options.ts";
import { clampThinkingLevel } from "../thinking.ts";
import { transformMessages } from "../transform_messages.ts";
import type {
  AssistantMessage,
  Context,
  Model,
  SimpleStreamOptions,
  StreamOptions,
  TextContent,
  ThinkingContent,
  ToolCall,
} from "../types.ts";
import {
  buildMistralBody,
  createMistralToolCallIdNormalizer,
  deriveMistralToolCallId,
  type MistralReasoningEffort,
  type MistralRequestOptions,
  usesPromptCache,
} from "./mistral_request.ts";

/** Options of the mistral-conversations `stream` (pi-ai 1.6.0's `MistralOptions`). */
export type MistralOptions = StreamOptions & MistralRequestOptions;

const MAX_ERROR_BODY_CHARS = 4000;
const DEFAULT_HEADER_TIMEOUT_MS = 60_000;

/** An HTTP error answer; its body is shown to the user (secrets redacted). */
class MistralHttpError extends Error {
  constructor(readonly status: number, readonly body: string, statusText: string) {
    super(statusText || `Request failed with status ${status}`);
  }
}

function formatMistralError(error: unknown): string {
  if (error instanceof MistralHttpError) {
    const body = error.body.trim();
    if (!body) return `Mistral API error (${error.status}): ${error.message}`;
    const cut = body.length <= MAX_ERROR_BODY_CHARS
      ? body
      : `${body.slice(0, MAX_ERROR_BODY_CHARS)}... [truncated ${body.length - MAX_ERROR_BODY_CHARS} chars]`;
    return `Mistral API error (${error.status}): ${cut}`;
  }
  return errorToMessage(error);
}

function buildHeaders(model: Model, apiKey: string, options: MistralOptions | undefined): Headers {
  const headers = new Headers({
    accept: "text/event-stream",
    authorization: `Bearer ${apiKey}`,
    "content-type": "application/json",
  });
  const overrides = [model.headers, options?.headers] as (Record<string, string | null> | undefined)[];
  for (const set of overrides) {
    for (const [name, value] of Object.entries(set ?? {})) {
      if (value === null) headers.delete(name);
      else headers.set(name, value);
    }
  }
  const explicitAffinity = overrides.some((set) =>
    Object.keys(set ?? {}).some((n) => n.toLowerCase() === "x-affinity")
  );
  if (usesPromptCache(options) && !explicitAffinity) headers.set("x-affinity", options!.sessionId!);
  return headers;
}

async function request(
  model: Model,
  body: unknown,
  apiKey: string,
  options: MistralOptions | undefined,
): Promise<ReadableStream<Uint8Array>> {
  const base = new URL(model.baseUrl);
  base.pathname = `${base.pathname.replace(/\/+$/, "")}/`;
  const url = new URL("v1/chat/completions", base);
  // Only the wait for the response headers is timed; a long stream is not cut off.
  const timeoutMs = options?.timeoutMs ?? DEFAULT_HEADER_TIMEOUT_MS;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = options?.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  let response: Response;
  try {
    response = await fetch(url, {
      method: "POST",
      headers: buildHeaders(model, apiKey, options),
      body: JSON.stringify(body),
      signal,
    });
  } catch (error) {
    if (timeout.aborted && !options?.signal?.aborted) {
      throw new Error(`Mistral response headers timed out after ${timeoutMs}ms`);
    }
    if (options?.signal?.aborted) throw abortReason(options.signal);
    // Node's fetch (the reference) words every connection failure this way.
    throw new Error("fetch failed", { cause: error });
  }
  const headers: Record<string, string> = {};
  response.headers.forEach((value, key) => (headers[key] = value));
  await options?.onResponse?.({ status: response.status, headers }, model);
  if (!response.ok) {
    const text = await response.text().catch(() => "");
    throw new MistralHttpError(response.status, redactSecrets(text, [apiKey]), response.statusText);
  }
  if (!response.body) throw new Error("Mistral response has no body");
  return response.body;
}

/** What an aborted read throws: the caller's reason, worded as Node words the default one. */
function abortReason(signal: AbortSignal): unknown {
  const reason = signal.reason;
  return reason instanceof DOMException && reason.name === "AbortError"
    ? new DOMException("This operation was aborted", "AbortError")
    : reason;
}

type Chunk = Record<string, unknown>;

/** The JSON payloads of the SSE body up to `[DONE]`; a payload without `choices` is an error. */
async function* readMistralEvents(
  body: ReadableStream<Uint8Array>,
  signal?: AbortSignal,
): AsyncGenerator<Chunk> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  const onAbort = () => void reader.cancel().catch(() => {});
  signal?.addEventListener("abort", onAbort, { once: true });
  const parse = (raw: string): Chunk | "done" | undefined => {
    const data = raw.split(/\r\n|\r|\n/).filter((l) => l.startsWith("data:")).map((l) =>
      l.slice(5).trimStart()
    )
      .join("\n").trim();
    if (!data) return undefined;
    if (data === "[DONE]") return "done";
    const parsed = JSON.parse(data);
    if (typeof parsed !== "object" || parsed === null || !Array.isArray(parsed.choices)) {
      throw new Error("Invalid Mistral streaming event");
    }
    return parsed;
  };
  try {
    for (;;) {
      if (signal?.aborted) throw abortReason(signal);
      let read: ReadableStreamReadResult<Uint8Array>;
      try {
        read = await reader.read();
      } catch (error) {
        if (signal?.aborted) throw abortReason(signal);
        // A body that breaks off reads "terminated", as Node's fetch words it.
        throw new Error("terminated", { cause: error });
      }
      if (signal?.aborted) throw abortReason(signal);
      buffer += read.done ? decoder.decode() : decoder.decode(read.value, { stream: true });
      for (;;) {
        const boundary = /\r\n\r\n|\r\n\r|\r\n\n|\r\r\n|\n\r\n|\r\r|\n\r|\n\n/.exec(buffer);
        if (!boundary) break;
        const event = parse(buffer.slice(0, boundary.index));
        buffer = buffer.slice(boundary.index + boundary[0].length);
        if (event === "done") return;
        if (event) yield event;
      }
      if (read.done) break;
    }
    if (buffer.trim()) {
      const event = parse(buffer);
      if (event && event !== "done") yield event;
    }
  } finally {
    signal?.removeEventListener("abort", onAbort);
    await reader.cancel().catch(() => {});
  }
}

function cachedPromptTokens(usage: Record<string, unknown>, prompt: number): number {
  const u = usage as Record<string, Record<string, unknown> | undefined> & Record<string, unknown>;
  const raw = u.promptTokensDetails?.cachedTokens ?? u.prompt_tokens_details?.cached_tokens ??
    u.promptTokenDetails?.cachedTokens ?? u.prompt_token_details?.cached_tokens ?? u.numCachedTokens ??
    u.num_cached_tokens ?? 0;
  const cached = typeof raw === "number" && Number.isFinite(raw) ? raw : 0;
  return Math.min(prompt, Math.max(0, cached));
}

function mapStopReason(reason: string): { stopReason: AssistantMessage["stopReason"]; error?: string } {
  switch (reason) {
    case "stop":
      return { stopReason: "stop" };
    case "length":
    case "model_length":
      return { stopReason: "length" };
    case "tool_calls":
      return { stopReason: "toolUse" };
    case "error":
      // Mistral reports transient server failures this way; "server error" makes it retryable.
      return { stopReason: "error", error: "Provider stopped with: error (server error)" };
    default:
      return { stopReason: "error", error: `Provider stopped with: ${reason}` };
  }
}

async function consume(
  model: Model,
  output: AssistantMessage,
  stream: AssistantMessageEventStream,
  events: AsyncIterable<Chunk>,
  options: MistralOptions | undefined,
): Promise<void> {
  let current: TextContent | ThinkingContent | null = null;
  const last = () => output.content.length - 1;
  const calls = new Map<unknown, { contentIndex: number; args: string }>();
  const finish = () => {
    if (current?.type === "text") {
      stream.push({ type: "text_end", contentIndex: last(), content: current.text, partial: output });
    } else if (current?.type === "thinking") {
      stream.push({ type: "thinking_end", contentIndex: last(), content: current.thinking, partial: output });
    }
  };
  const append = (kind: "text" | "thinking", delta: string) => {
    if (!delta) return;
    if (current?.type !== kind) {
      finish();
      current = kind === "text" ? { type: "text", text: "" } : { type: "thinking", thinking: "" };
      output.content.push(current);
      stream.push({
        type: kind === "text" ? "text_start" : "thinking_start",
        contentIndex: last(),
        partial: output,
      });
    }
    if (current.type === "text") current.text += delta;
    else current.thinking += delta;
    stream.push({
      type: kind === "text" ? "text_delta" : "thinking_delta",
      contentIndex: last(),
      delta,
      partial: output,
    });
  };
  for await (const chunk of events) {
    await options?.onProviderStreamEvent?.(chunk, model);
    if (!output.responseId && typeof chunk.id === "string" && chunk.id) output.responseId = chunk.id;
    const usage = chunk.usage as Record<string, unknown> | undefined;
    if (usage) {
      const prompt = typeof usage.prompt_tokens === "number" ? usage.prompt_tokens : 0;
      const cached = cachedPromptTokens(usage, prompt);
      output.usage.input = Math.max(0, prompt - cached);
      output.usage.output = typeof usage.completion_tokens === "number" ? usage.completion_tokens : 0;
      output.usage.cacheRead = cached;
      output.usage.cacheWrite = 0;
      output.usage.totalTokens = (typeof usage.total_tokens === "number" && usage.total_tokens) ||
        output.usage.input + output.usage.output + output.usage.cacheRead;
      calculateCost(model, output.usage);
    }
    const choice = (chunk.choices as Chunk[])[0];
    if (!choice) continue;
    if (typeof choice.finish_reason === "string" && choice.finish_reason) {
      output.rawStopReason = choice.finish_reason;
      const mapped = mapStopReason(choice.finish_reason);
      output.stopReason = mapped.stopReason;
      if (mapped.error) output.errorMessage = mapped.error;
    }
    const delta = (choice.delta ?? {}) as Chunk;
    if (delta.content !== null && delta.content !== undefined) {
      const items = typeof delta.content === "string" ? [delta.content] : delta.content as unknown[];
      for (const item of items) {
        // Empty deltas (GLM on Mistral) must not open blocks: a split thinking block fails on replay.
        if (typeof item === "string") append("text", sanitizeSurrogates(item));
        else if ((item as Chunk).type === "thinking") {
          const parts = ((item as Chunk).thinking ?? []) as { text?: string }[];
          append("thinking", sanitizeSurrogates(parts.map((p) => p.text ?? "").join("")));
        } else if ((item as Chunk).type === "text") {
          append("text", sanitizeSurrogates(String((item as Chunk).text ?? "")));
        }
      }
    }
    for (const call of (delta.tool_calls ?? []) as Chunk[]) {
      if (current) {
        finish();
        current = null;
      }
      const fn = (call.function ?? {}) as Chunk;
      const id = call.id && call.id !== "null"
        ? String(call.id)
        : deriveMistralToolCallId(`toolcall:${call.index ?? 0}`, 0);
      const key = call.index ?? id;
      let open = calls.get(key);
      if (!open) {
        output.content.push({ type: "toolCall", id, name: String(fn.name ?? ""), arguments: {} });
        open = { contentIndex: output.content.length - 1, args: "" };
        calls.set(key, open);
        stream.push({ type: "toolcall_start", contentIndex: open.contentIndex, partial: output });
      }
      const argsDelta = typeof fn.arguments === "string" ? fn.arguments : JSON.stringify(fn.arguments || {});
      open.args += argsDelta;
      (output.content[open.contentIndex] as ToolCall).arguments = parseStreamingJson(open.args);
      stream.push({
        type: "toolcall_delta",
        contentIndex: open.contentIndex,
        delta: argsDelta,
        partial: output,
      });
    }
  }
  finish();
  for (const open of calls.values()) {
    const block = output.content[open.contentIndex] as ToolCall;
    block.arguments = parseStreamingJson(open.args);
    stream.push({ type: "toolcall_end", contentIndex: open.contentIndex, toolCall: block, partial: output });
  }
}

async function run(
  stream: AssistantMessageEventStream,
  output: AssistantMessage,
  model: Model,
  context: Context,
  options: MistralOptions | undefined,
): Promise<void> {
  const apiKey = options?.apiKey;
  if (!apiKey) throw new Error(`No API key for provider: ${model.provider}`);
  const normalize = createMistralToolCallIdNormalizer();
  const messages = transformMessages(context.messages, model, (id) => normalize(id));
  let body: unknown = buildMistralBody(model, context, messages, options);
  const replaced = await options?.onPayload?.(body, model);
  if (replaced !== undefined) body = replaced;
  const responseBody = await request(model, body, apiKey, options);
  stream.push({ type: "start", partial: output });
  await consume(model, output, stream, readMistralEvents(responseBody, options?.signal), options);
  if (options?.signal?.aborted) throw new Error("Request was aborted");
  if (output.stopReason === "pending") throw new Error("Mistral stream ended without a finish reason");
  if (output.stopReason === "aborted" || output.stopReason === "error") {
    throw new Error(output.errorMessage || "An unknown error occurred");
  }
  stream.push({ type: "done", reason: output.stopReason, message: output });
  stream.end();
}

/** Streams one Mistral request. Never throws: failures end in an `error` event. */
export function streamMistral(
  model: Model,
  context: Context,
  options?: MistralOptions,
): AssistantMessageEventStream {
  return runProviderStream(
    model,
    options?.signal,
    (stream, output) => run(stream, output, model, context, options),
    {
      report: (error) => new Error(formatMistralError(error)),
    },
  );
}

/**
 * Streams with the unified options: models with a thinking-level map send `reasoning_effort`
 * (their "off" entry when reasoning is off), other reasoning models `prompt_mode: "reasoning"`.
 */
export function streamSimpleMistral(
  model: Model,
  context: Context,
  options?: SimpleStreamOptions,
): AssistantMessageEventStream {
  const base: MistralOptions = {
    ...buildBaseOptions(model, context, options, options?.apiKey),
    toolChoice: options?.toolChoice,
  };
  const clamped = options?.reasoning ? clampThinkingLevel(model, options.reasoning) : undefined;
  const reasoning = clamped === "off" ? undefined : clamped;
  const effortMap = model.reasoning ? model.thinkingLevelMap : undefined;
  const effort = effortMap
    ? reasoning ? (effortMap[reasoning] ?? "high") : (effortMap.off ?? undefined)
    : undefined;
  return streamMistral(model, context, {
    ...base,
    promptMode: model.reasoning && !effortMap && reasoning ? "reasoning" : undefined,
    reasoningEffort: (effort ?? undefined) as MistralReasoningEffort | undefined,
  });
}

/** The built-in implementation registered for "mistral-conversations". */
export const provider: ApiProvider = {
  api: "mistral-conversations",
  stream: streamMistral,
  streamSimple: streamSimpleMistral,
};
