/**
 * The Chat Completions request body: token limit field, usage-in-stream, `store`, prompt
 * cache key/retention, tools, reasoning parameters in the server's dialect
 * (`compat.thinkingFormat`), routing preferences, and Anthropic-style cache markers for
 * Claude models behind OpenRouter.
 *
 * @module
 */
import type { CacheRetention, Context, Model, StreamOptions, ThinkingLevel } from "../types.ts";
import { resolveSamplingParams } from "../simple_options.ts";
import type { ResolvedCompletionsCompat } from "./openai_completions_compat.ts";
import {
  type ChatMessageParam,
  convertCompletionsMessages,
  convertCompletionsTools,
} from "./openai_completions_messages.ts";

/** Options of the openai-completions `stream` beyond the common ones. */
export interface OpenAICompletionsOptions extends StreamOptions {
  /** `auto`, `none`, `required`, or a specific function. */
  toolChoice?: "auto" | "none" | "required" | { type: "function"; function: { name: string } };
  /** Reasoning effort sent as `reasoning_effort` (or the server's equivalent). */
  reasoningEffort?: ThinkingLevel;
}

/** True when the history holds tool calls or results (some proxies then insist on a `tools` field). */
function hasToolHistory(context: Context): boolean {
  return context.messages.some((m) =>
    m.role === "toolResult" || (m.role === "assistant" && m.content.some((b) => b.type === "toolCall"))
  );
}

/** Builds the body sent to `/chat/completions`. */
export function buildCompletionsParams(
  model: Model,
  context: Context,
  options: OpenAICompletionsOptions | undefined,
  compat: ResolvedCompletionsCompat,
  cacheRetention: CacheRetention,
): Record<string, unknown> {
  const messages = convertCompletionsMessages(model, context, compat);
  const longCache = cacheRetention === "long" && compat.supportsLongCacheRetention;
  const params: Record<string, unknown> = {
    model: model.id,
    messages,
    stream: true,
    prompt_cache_key: (model.baseUrl.includes("api.openai.com") && cacheRetention !== "none") || longCache
      ? options?.sessionId
      : undefined,
    prompt_cache_retention: longCache ? "24h" : undefined,
  };
  if (compat.supportsUsageInStreaming !== false) params.stream_options = { include_usage: true };
  if (compat.supportsStore) params.store = false;
  if (options?.maxTokens) {
    if (compat.maxTokensField === "max_tokens") params.max_tokens = options.maxTokens;
    else params.max_completion_tokens = options.maxTokens;
  }
  if (options?.temperature !== undefined) params.temperature = options.temperature;
  let tools: Record<string, unknown>[] | undefined;
  if (context.tools && context.tools.length > 0) {
    tools = convertCompletionsTools(context.tools, compat);
    params.tools = tools;
    if (compat.zaiToolStream) params.tool_stream = true;
  } else if (compat.requiresToolsWithToolHistory && hasToolHistory(context)) {
    // pi-ai 1.5.1: `tools: []` only for servers that insist on it once tools were used.
    tools = [];
    params.tools = tools;
  }
  if (compat.cacheControlFormat === "anthropic" && cacheRetention !== "none") {
    const marker = { type: "ephemeral", ...(longCache ? { ttl: "1h" } : {}) };
    applyCacheMarkers(messages, tools, marker);
  }
  if (options?.toolChoice) params.tool_choice = options.toolChoice;
  applyReasoningParams(params, model, compat, options?.reasoningEffort);
  if (model.baseUrl.includes("openrouter.ai") && model.compat && "openRouterRouting" in model.compat) {
    const routing = model.compat.openRouterRouting;
    if (routing) params.provider = routing;
  }
  if (
    model.baseUrl.includes("ai-gateway.vercel.sh") && model.compat && "vercelGatewayRouting" in model.compat
  ) {
    const routing = model.compat.vercelGatewayRouting;
    if (routing && (routing.only || routing.order)) {
      const gateway: Record<string, string[]> = {};
      if (routing.only) gateway.only = routing.only;
      if (routing.order) gateway.order = routing.order;
      params.providerOptions = { gateway };
    }
  }
  // Last, so the model's and the request's sampling fields win over the named ones (pi-ai 1.6.0).
  Object.assign(
    params,
    resolveSamplingParams(model, options?.reasoningEffort ?? "off", options?.samplingParams),
  );
  return params;
}

function mappedEffort(model: Model, effort: ThinkingLevel): string {
  return model.thinkingLevelMap?.[effort] ?? effort;
}

function applyReasoningParams(
  params: Record<string, unknown>,
  model: Model,
  compat: ResolvedCompletionsCompat,
  effort: ThinkingLevel | undefined,
): void {
  const format = compat.thinkingFormat;
  if ((format === "zai" || format === "qwen") && model.reasoning) {
    params.enable_thinking = !!effort;
  } else if (format === "qwen-chat-template" && model.reasoning) {
    params.chat_template_kwargs = { enable_thinking: !!effort, preserve_thinking: true };
  } else if (format === "deepseek" && model.reasoning) {
    params.thinking = { type: effort ? "enabled" : "disabled" };
    if (effort) params.reasoning_effort = mappedEffort(model, effort);
  } else if (format === "openrouter" && model.reasoning) {
    if (effort) params.reasoning = { effort: mappedEffort(model, effort) };
    else if (model.thinkingLevelMap?.off !== null) {
      params.reasoning = { effort: model.thinkingLevelMap?.off ?? "none" };
    }
  } else if (effort && model.reasoning && compat.supportsReasoningEffort) {
    params.reasoning_effort = mappedEffort(model, effort);
  } else if (!effort && model.reasoning && compat.supportsReasoningEffort) {
    const off = model.thinkingLevelMap?.off;
    if (typeof off === "string") params.reasoning_effort = off;
  }
}

type CacheMarker = { type: string; ttl?: string };

/** Marks the system prompt, the last tool and the last user/assistant text for caching. */
function applyCacheMarkers(
  messages: ChatMessageParam[],
  tools: Record<string, unknown>[] | undefined,
  marker: CacheMarker,
): void {
  const instruction = messages.find((m) => m.role === "system" || m.role === "developer");
  if (instruction) markText(instruction, marker);
  if (tools && tools.length > 0) tools[tools.length - 1].cache_control = marker;
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if ((m.role === "user" || m.role === "assistant") && markText(m, marker)) return;
  }
}

function markText(message: ChatMessageParam, marker: CacheMarker): boolean {
  const content = message.content;
  if (typeof content === "string") {
    if (content.length === 0) return false;
    message.content = [{ type: "text", text: content, cache_control: marker }];
    return true;
  }
  if (!Array.isArray(content)) return false;
  for (let i = content.length - 1; i >= 0; i--) {
    const part = content[i] as Record<string, unknown> | undefined;
    if (part?.type === "text") {
      part.cache_control = marker;
      return true;
    }
  }
  return false;
}
