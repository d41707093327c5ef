/**
 * The `anthropic-messages` wire API over plain fetch: builds the request, sends it with the
 * SDK's retry behaviour, and maps Anthropic's SSE events onto pi's streaming events. Failures of
 * any kind end the stream with an `error` event; nothing is thrown to the caller.
 *
 * @module
 */
import type { ApiProvider } from "../api_provider.ts";
import { calculateCost } from "../cost.ts";
import { getEnvApiKey, providerEnvValue } from "../env_api_keys.ts";
import type { AssistantMessageEventStream } from "../event_stream.ts";
import { parseJsonWithRepair, parseStreamingJson } from "../json_parse.ts";
import { finishWithDone, noApiKeyStream, runProviderStream } from "../provider_utils.ts";
import { adjustMaxTokensForThinking, buildBaseOptions, clampMaxTokensToContext } from "../simple_options.ts";
import { readSseEvents, type SseEvent, truncateForError } from "../sse.ts";
import type {
  AssistantMessage,
  Context,
  Model,
  SimpleStreamOptions,
  StopReason,
  ThinkingLevel,
  Usage,
} from "../types.ts";
import { anthropicEndpoint } from "./anthropic_headers.ts";
import { postAnthropic } from "./anthropic_http.ts";
import { ProviderHttpError } from "./provider_retry.ts";
import {
  hasExceededStrictToolLimits,
  isStrictToolLimitError,
  markStrictToolLimitsExceeded,
  prefersStrictArguments,
} from "./strict_tools.ts";
import {
  type AnthropicEffort,
  type AnthropicOptions,
  buildAnthropicParams,
  fromClaudeCodeName,
  supportsAdaptiveThinking,
} from "./anthropic_request.ts";

export type {
  AnthropicEffort,
  AnthropicOptions,
  AnthropicThinkingDisplay,
  AnthropicToolChoice,
} from "./anthropic_request.ts";

const MESSAGE_EVENTS = new Set([
  "message_start",
  "message_delta",
  "message_stop",
  "content_block_start",
  "content_block_delta",
  "content_block_stop",
]);

/** The subset of Anthropic's stream events this provider reads. */
interface WireUsage {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  /** The 1-hour share of the cache writes. */
  cache_creation?: { ephemeral_1h_input_tokens?: number | null } | null;
  output_tokens_details?: { thinking_tokens?: number | null } | null;
}
type WireEvent =
  | { type: "message_start"; message: { id: string; model?: string; usage: WireUsage } }
  | { type: "message_delta"; delta: { stop_reason?: string | null }; usage?: WireUsage }
  | { type: "message_stop" }
  | {
    type: "content_block_start";
    index: number;
    content_block: {
      type: string;
      id?: string;
      name?: string;
      input?: Record<string, unknown>;
      data?: string;
      /** Content a text or thinking block may already carry when it starts. */
      text?: string;
      thinking?: string;
      signature?: string;
    };
  }
  | {
    type: "content_block_delta";
    index: number;
    delta: { type: string; text?: string; thinking?: string; partial_json?: string; signature?: string };
  }
  | { type: "content_block_stop"; index: number };

/** Anthropic stop reasons in pi's terms; unknown ones are an error, as new values may need handling. */
export function mapStopReason(reason: string): StopReason {
  switch (reason) {
    case "end_turn":
    case "pause_turn": // the caller may simply resubmit
    case "stop_sequence":
      return "stop";
    case "max_tokens":
      return "length";
    case "tool_use":
      return "toolUse";
    case "refusal":
    case "sensitive":
      return "error";
    default:
      throw new Error(`Unhandled stop reason: ${reason}`);
  }
}

/** Decodes the SSE body into Anthropic events; `event: error` and truncated streams throw. */
async function* anthropicEvents(
  body: ReadableStream<Uint8Array>,
  signal?: AbortSignal,
  idleTimeoutMs?: number,
): AsyncGenerator<WireEvent> {
  let started = false;
  let stopped = false;
  const sseEvents = readSseEvents(body, signal, idleTimeoutMs);
  while (true) {
    let next: IteratorResult<SseEvent>;
    try {
      next = await sseEvents.next();
    } catch (error) {
      // A body that breaks off mid-stream reads "terminated", as Node's fetch words it: the
      // message retry logic (and users of the reference) recognise.
      // An abort mid-body reads as the SDK reports it (the fetch's DOMException text).
      if (signal?.aborted) throw new Error("This operation was aborted", { cause: error });
      if (!(error instanceof TypeError)) throw error;
      throw new Error("terminated", { cause: error });
    }
    if (next.done) break;
    const sse = next.value;
    if (sse.event === "error") throw new Error(sse.data);
    if (!MESSAGE_EVENTS.has(sse.event ?? "")) continue; // ping and unknown events
    let event: WireEvent;
    try {
      event = parseJsonWithRepair<WireEvent>(sse.data);
    } catch (error) {
      // The reference's wording; the data is cut short so a huge payload cannot flood the message.
      const data = truncateForError(sse.data);
      const raw = [`event: ${sse.event}`, ...data.split("\n").map((line) => `data: ${line}`)].join("\\n");
      const reason = error instanceof Error ? error.message : String(error);
      throw new Error(
        `Could not parse Anthropic SSE event ${sse.event}: ${reason}; data=${data}; raw=${raw}`,
      );
    }
    if (event.type === "message_start") started = true;
    else if (event.type === "message_stop") stopped = true;
    yield event;
  }
  // A body that ends without its terminal event is a failed reply (the reference accepts an empty
  // one silently); "ended without" is a phrase the auto-retry check recognises.
  if (!stopped) {
    throw new Error(
      started ? "Anthropic stream ended before message_stop" : "Anthropic stream ended without message_start",
    );
  }
}

function applyUsage(model: Model, usage: Usage, wire: WireUsage | undefined, keepMissing: boolean): void {
  const pick = (value: number | null | undefined, current: number) =>
    value != null ? value : keepMissing ? current : 0;
  usage.input = pick(wire?.input_tokens, usage.input);
  usage.output = pick(wire?.output_tokens, usage.output);
  usage.cacheRead = pick(wire?.cache_read_input_tokens, usage.cacheRead);
  usage.cacheWrite = pick(wire?.cache_creation_input_tokens, usage.cacheWrite);
  const longWrite = wire?.cache_creation?.ephemeral_1h_input_tokens;
  // message_start always reports the 1-hour share (0 when absent); deltas only when present.
  if (longWrite != null || !keepMissing) usage.cacheWrite1h = longWrite ?? 0;
  const thinking = wire?.output_tokens_details?.thinking_tokens;
  if (thinking != null) usage.reasoning = thinking;
  // Anthropic reports no total; input excludes cached tokens, so the parts add up.
  usage.totalTokens = usage.input + usage.output + usage.cacheRead + usage.cacheWrite;
  calculateCost(model, usage);
}

/** Streams one Messages request. */
export function streamAnthropic(
  model: Model,
  context: Context,
  options?: AnthropicOptions,
): AssistantMessageEventStream {
  return runProviderStream(
    model,
    options?.signal,
    (stream, output) => run(model, context, options, stream, output),
  );
}

async function run(
  model: Model,
  context: Context,
  options: AnthropicOptions | undefined,
  stream: AssistantMessageEventStream,
  output: AssistantMessage,
): Promise<void> {
  const apiKey = options?.apiKey ?? getEnvApiKey(model.provider, options?.env) ?? "";
  // pi-ai 1.x asks for interleaved thinking only when thinking is on.
  const interleaved = (options?.interleavedThinking ?? true) && model.reasoning &&
    options?.thinkingEnabled === true;
  const cacheRetention = options?.cacheRetention ??
    (providerEnvValue("PI_CACHE_RETENTION", options?.env) === "long" ? "long" : "short");
  const sessionId = cacheRetention === "none" ? undefined : options?.sessionId;
  const endpoint = anthropicEndpoint(model, context, apiKey, interleaved, options?.headers, sessionId);
  // Strict tools Claude refused for its limits are resent once non-strict (those that only prefer
  // strict), and the session's later requests send them so at once (pi 1.6.0).
  let disablePreferredStrict = hasExceededStrictToolLimits(options?.sessionId);
  let response: Response;
  for (;;) {
    options?.signal?.throwIfAborted();
    let params: unknown = buildAnthropicParams(model, context, endpoint.isOAuth, {
      ...options,
      cacheRetention,
    }, disablePreferredStrict);
    const preferStrict = ((params as { tools?: { strict?: boolean }[] }).tools ?? []).some((tool, i) =>
      tool.strict === true && prefersStrictArguments(context.tools?.[i])
    );
    const replaced = await options?.onPayload?.(params, model);
    if (replaced !== undefined) params = replaced;
    try {
      response = await postAnthropic(endpoint.url, endpoint.headers, JSON.stringify(params), {
        signal: options?.signal,
        timeoutMs: options?.timeoutMs,
        maxRetries: options?.maxRetries,
        maxRetryDelayMs: options?.maxRetryDelayMs,
        secrets: apiKey ? [apiKey] : [],
      });
      break;
    } catch (error) {
      if (
        options?.signal?.aborted || disablePreferredStrict || !preferStrict ||
        !(error instanceof ProviderHttpError) || error.status !== 400 ||
        !error.message.includes("invalid_request_error") || !isStrictToolLimitError(error.message)
      ) throw error;
      disablePreferredStrict = true;
      markStrictToolLimitsExceeded(options?.sessionId);
      output.diagnostics = [...(output.diagnostics ?? []), {
        type: "anthropic_strict_tools_fallback",
        timestamp: Date.now(),
        error: { message: error.message },
        details: { reason: "strict_tool_limits_exceeded" },
      }];
    }
  }
  await options?.onResponse?.(
    { status: response.status, headers: Object.fromEntries(response.headers) },
    model,
  );
  if (!response.body) throw new Error("Attempted to iterate over an Anthropic response with no body");
  stream.push({ type: "start", partial: output });

  const blocks = output.content;
  // Anthropic's block index → our content index, for blocks still open.
  const open = new Map<number, number>();
  const partialJson = new Map<number, string>();
  const at = (index: number) => {
    const contentIndex = open.get(index);
    return contentIndex === undefined ? undefined : { contentIndex, block: blocks[contentIndex] };
  };

  for await (const event of anthropicEvents(response.body, options?.signal, options?.idleTimeoutMs)) {
    await options?.onProviderStreamEvent?.(event, model);
    if (event.type === "message_start") {
      output.responseId = event.message.id;
      const responseModel = event.message.model;
      if (responseModel && responseModel !== model.id) output.responseModel = responseModel;
      // Input usage arrives here, so an aborted stream still reports it.
      applyUsage(model, output.usage, event.message.usage, false);
    } else if (event.type === "content_block_start") {
      const start = event.content_block;
      const contentIndex = blocks.length;
      // A block may start with content already (pi-ai 1.x keeps it).
      if (start.type === "text") {
        blocks.push({ type: "text", text: start.text ?? "" });
        stream.push({ type: "text_start", contentIndex, partial: output });
      } else if (start.type === "thinking") {
        blocks.push({
          type: "thinking",
          thinking: start.thinking ?? "",
          thinkingSignature: start.signature ?? "",
        });
        stream.push({ type: "thinking_start", contentIndex, partial: output });
      } else if (start.type === "redacted_thinking") {
        blocks.push({
          type: "thinking",
          thinking: "[Reasoning redacted]",
          thinkingSignature: start.data,
          redacted: true,
        });
        stream.push({ type: "thinking_start", contentIndex, partial: output });
      } else if (start.type === "tool_use") {
        const name = start.name ?? "";
        blocks.push({
          type: "toolCall",
          id: start.id ?? "",
          name: endpoint.isOAuth ? fromClaudeCodeName(name, context.tools) : name,
          arguments: start.input ?? {},
        });
        partialJson.set(contentIndex, "");
        stream.push({ type: "toolcall_start", contentIndex, partial: output });
      } else {
        continue; // server tool blocks and other kinds are not part of pi's message model
      }
      open.set(event.index, contentIndex);
    } else if (event.type === "content_block_delta") {
      const found = at(event.index);
      if (!found) continue;
      const { contentIndex, block } = found;
      const delta = event.delta;
      if (delta.type === "text_delta" && block.type === "text") {
        block.text += delta.text ?? "";
        stream.push({ type: "text_delta", contentIndex, delta: delta.text ?? "", partial: output });
      } else if (delta.type === "thinking_delta" && block.type === "thinking") {
        block.thinking += delta.thinking ?? "";
        stream.push({ type: "thinking_delta", contentIndex, delta: delta.thinking ?? "", partial: output });
      } else if (delta.type === "input_json_delta" && block.type === "toolCall") {
        const json = (partialJson.get(contentIndex) ?? "") + (delta.partial_json ?? "");
        partialJson.set(contentIndex, json);
        block.arguments = parseStreamingJson(json);
        stream.push({
          type: "toolcall_delta",
          contentIndex,
          delta: delta.partial_json ?? "",
          partial: output,
        });
      } else if (delta.type === "signature_delta" && block.type === "thinking") {
        block.thinkingSignature = (block.thinkingSignature ?? "") + (delta.signature ?? "");
      }
    } else if (event.type === "content_block_stop") {
      const found = at(event.index);
      if (!found) continue;
      open.delete(event.index);
      const { contentIndex, block } = found;
      if (block.type === "text") {
        stream.push({ type: "text_end", contentIndex, content: block.text, partial: output });
      } else if (block.type === "thinking") {
        stream.push({ type: "thinking_end", contentIndex, content: block.thinking, partial: output });
      } else {
        block.arguments = parseStreamingJson(partialJson.get(contentIndex));
        partialJson.delete(contentIndex);
        stream.push({ type: "toolcall_end", contentIndex, toolCall: block, partial: output });
      }
    } else if (event.type === "message_delta") {
      if (event.delta.stop_reason) {
        output.rawStopReason = event.delta.stop_reason;
        output.stopReason = mapStopReason(event.delta.stop_reason);
      }
      // Proxies may leave fields out of message_delta; keep what message_start said.
      applyUsage(model, output.usage, event.usage, true);
    }
  }
  if (options?.signal?.aborted) throw new Error("Request was aborted");
  if (output.stopReason === "aborted" || output.stopReason === "error") {
    throw new Error("An unknown error occurred");
  }
  finishWithDone(stream, output, "Anthropic stream ended without a stop reason");
}

/** Anthropic's effort for a pi thinking level; a model's thinkingLevelMap may override it. */
export function effortForLevel(model: Model, level: ThinkingLevel | undefined): AnthropicEffort {
  const mapped = level ? model.thinkingLevelMap?.[level] : undefined;
  if (typeof mapped === "string") return mapped as AnthropicEffort;
  if (level === "minimal" || level === "low") return "low";
  if (level === "medium") return "medium";
  return "high";
}

/**
 * Streams with the unified `reasoning` option: adaptive models get an effort, older ones a
 * thinking budget added on top of the output cap; no reasoning disables thinking explicitly.
 */
export function streamSimpleAnthropic(
  model: Model,
  context: Context,
  options?: SimpleStreamOptions,
): AssistantMessageEventStream {
  const apiKey = options?.apiKey || getEnvApiKey(model.provider, options?.env);
  if (!apiKey) return noApiKeyStream(model);
  const base = { ...buildBaseOptions(model, context, options, apiKey), toolChoice: options?.toolChoice };
  if (!options?.reasoning) return streamAnthropic(model, context, { ...base, thinkingEnabled: false });
  if (supportsAdaptiveThinking(model)) {
    return streamAnthropic(model, context, {
      ...base,
      thinkingEnabled: true,
      effort: effortForLevel(model, options.reasoning),
    });
  }
  const adjusted = adjustMaxTokensForThinking(
    base.maxTokens || 0,
    model.maxTokens,
    options.reasoning,
    options.thinkingBudgets,
  );
  const maxTokens = clampMaxTokensToContext(model, context, adjusted.maxTokens);
  return streamAnthropic(model, context, {
    ...base,
    maxTokens,
    thinkingEnabled: true,
    // At least 1024 tokens stay for the answer.
    thinkingBudgetTokens: Math.min(adjusted.thinkingBudget, Math.max(0, maxTokens - 1024)),
  });
}

/** The built-in implementation of `anthropic-messages`. */
export const provider: ApiProvider = {
  api: "anthropic-messages",
  stream: (model, context, options) =>
    streamAnthropic(model, context, options as AnthropicOptions | undefined),
  streamSimple: streamSimpleAnthropic,
};
