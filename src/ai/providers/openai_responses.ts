/**
 * The `openai-responses` wire API (OpenAI's `/responses`): stateless requests (`store: false`)
 * that replay earlier reasoning as encrypted items, reasoning effort and summaries, prompt
 * cache key and retention, session headers, and service-tier pricing.
 *
 * @module
 */
import type { ApiProvider } from "../api_provider.ts";
import type { AssistantMessageEventStream } from "../event_stream.ts";
import { finishWithDone, runProviderStream } from "../provider_utils.ts";
import { buildEffortOptions, resolveSamplingParams } from "../simple_options.ts";
import type {
  AssistantMessage,
  CacheRetention,
  Context,
  Model,
  OpenAIResponsesCompat,
  SimpleStreamOptions,
  StreamOptions,
  ThinkingLevel,
  Usage,
} from "../types.ts";
import { convertResponsesMessages, convertResponsesTools } from "./openai_responses_convert.ts";
import { processResponsesStream, RESPONSES_TRUNCATED } from "./openai_responses_events.ts";
import { buildOpenAIHeaders, resolveCacheRetention, resolveOpenAIApiKey } from "./openai_shared_client.ts";
import { OpenAIApiError, openAIErrorText, openOpenAIStream } from "./openai_shared_request.ts";
import { readOpenAIStream } from "./openai_shared_stream.ts";

export { convertResponsesMessages, convertResponsesTools } from "./openai_responses_convert.ts";
export { processResponsesStream } from "./openai_responses_events.ts";

/** Options of the openai-responses `stream` beyond the common ones. */
export interface OpenAIResponsesOptions extends StreamOptions {
  /** Reasoning effort sent as `reasoning.effort`. */
  reasoningEffort?: ThinkingLevel;
  /** How much of the reasoning the server summarises back. */
  reasoningSummary?: "auto" | "detailed" | "concise" | null;
  /** Processing tier requested from OpenAI. */
  serviceTier?: "auto" | "default" | "flex" | "scale" | "priority" | null;
  /** Whether the model may call tools. */
  toolChoice?: "auto" | "none";
}

/** Providers whose `call|item` tool-call ids are Responses ids worth keeping. */
const OPENAI_TOOL_CALL_PROVIDERS: ReadonlySet<string> = new Set(["openai", "openai-codex", "opencode"]);

/** Streams one Responses request. Never throws: failures end in an `error` event. */
export function streamOpenAIResponses(
  model: Model,
  context: Context,
  options?: OpenAIResponsesOptions,
): AssistantMessageEventStream {
  return runProviderStream(
    model,
    options?.signal,
    (stream, output) => run(stream, output, model, context, options),
    {
      // As pi-ai 1.6.0: an HTTP error names the provider ("OpenAI API error (429): {…}").
      report: (error) =>
        error instanceof OpenAIApiError && !error.inStream
          ? Object.assign(new Error(openAIErrorText(error, responsesErrorPrefix(model))), {
            retryAfterMs: error.retryAfterMs,
          })
          : error instanceof Error
          ? error
          : new Error(String(error)),
    },
  );
}

/** How pi-ai 1.6.0 names the provider in a Responses HTTP error. */
function responsesErrorPrefix(model: Model): string {
  return `${model.provider === "openai" ? "OpenAI" : model.provider} API error`;
}

/** Streams with the unified `reasoning` option mapped to a reasoning effort (clamped to the model). */
export function streamSimpleOpenAIResponses(
  model: Model,
  context: Context,
  options?: SimpleStreamOptions,
): AssistantMessageEventStream {
  return streamOpenAIResponses(model, context, buildEffortOptions(model, context, options));
}

/** The built-in implementation registered for "openai-responses". */
export const provider: ApiProvider = {
  api: "openai-responses",
  stream: streamOpenAIResponses,
  streamSimple: streamSimpleOpenAIResponses,
};

function getCompat(model: Model): { sessionAffinityFormat?: string; supportsLongCacheRetention: boolean } {
  const c = model.compat as OpenAIResponsesCompat | undefined;
  const isOpenRouter = model.provider === "openrouter" || model.baseUrl.includes("openrouter.ai");
  return {
    sessionAffinityFormat: c?.sessionAffinityFormat ?? (isOpenRouter ? "openrouter" : "openai"),
    supportsLongCacheRetention: c?.supportsLongCacheRetention ?? true,
  };
}

/** Builds the body sent to `/responses`. */
export function buildResponsesParams(
  model: Model,
  context: Context,
  options: OpenAIResponsesOptions | undefined,
  cacheRetention: CacheRetention = resolveCacheRetention(options?.cacheRetention),
): Record<string, unknown> {
  const compat = getCompat(model);
  const params: Record<string, unknown> = {
    model: model.id,
    input: convertResponsesMessages(model, context, OPENAI_TOOL_CALL_PROVIDERS),
    stream: true,
    prompt_cache_key: cacheRetention === "none" ? undefined : options?.sessionId,
    prompt_cache_retention: cacheRetention === "long" && compat.supportsLongCacheRetention
      ? "24h"
      : undefined,
    store: false,
  };
  if (options?.maxTokens) params.max_output_tokens = options.maxTokens;
  if (options?.temperature !== undefined) params.temperature = options.temperature;
  if (options?.serviceTier !== undefined) params.service_tier = options.serviceTier;
  if (context.tools && context.tools.length > 0) {
    params.tools = convertResponsesTools(context.tools, {
      supportsStrictMode:
        (model.compat as { supportsStrictMode?: boolean } | undefined)?.supportsStrictMode ?? false,
    });
  }
  if (options?.toolChoice !== undefined) params.tool_choice = options.toolChoice;

  if (model.reasoning) {
    if (options?.reasoningEffort || options?.reasoningSummary) {
      const effort = options.reasoningEffort
        ? (model.thinkingLevelMap?.[options.reasoningEffort] ?? options.reasoningEffort)
        : "medium";
      params.reasoning = { effort, summary: options.reasoningSummary || "auto" };
      // Stateless requests need the encrypted reasoning back to replay it next turn.
      params.include = ["reasoning.encrypted_content"];
    } else if (model.provider !== "github-copilot" && model.thinkingLevelMap?.off !== null) {
      params.reasoning = { effort: model.thinkingLevelMap?.off ?? "none" };
    }
  }
  // Last, so the model's and the request's sampling fields win over the named ones (pi-ai 1.6.0).
  Object.assign(
    params,
    resolveSamplingParams(model, options?.reasoningEffort ?? "off", options?.samplingParams),
  );
  return params;
}

/** Price multiplier of a service tier (flex is half price, priority double; 2.5× for gpt-5.5). */
export function serviceTierCostMultiplier(model: Model, serviceTier: string | undefined): number {
  if (serviceTier === "flex") return 0.5;
  if (serviceTier === "priority") return model.id === "gpt-5.5" ? 2.5 : 2;
  return 1;
}

/** Scales a reply's cost by its service tier's price multiplier. */
export function applyServiceTierPricing(usage: Usage, serviceTier: string | undefined, model: Model): void {
  const m = serviceTierCostMultiplier(model, serviceTier);
  if (m === 1) return;
  usage.cost.input *= m;
  usage.cost.output *= m;
  usage.cost.cacheRead *= m;
  usage.cost.cacheWrite *= m;
  usage.cost.total = usage.cost.input + usage.cost.output + usage.cost.cacheRead + usage.cost.cacheWrite;
}

async function run(
  stream: AssistantMessageEventStream,
  output: AssistantMessage,
  model: Model,
  context: Context,
  options: OpenAIResponsesOptions | undefined,
): Promise<void> {
  const apiKey = resolveOpenAIApiKey(model, options?.apiKey, options?.env);
  const cacheRetention = resolveCacheRetention(options?.cacheRetention, options?.env);
  const sessionId = cacheRetention === "none" ? undefined : options?.sessionId;
  const sessionHeaders: Record<string, string> = {};
  if (sessionId) {
    // pi-ai 1.x: OpenRouter's `x-session-id`, else OpenAI's `session-id` and `x-client-request-id`.
    const format = getCompat(model).sessionAffinityFormat;
    if (format === "openrouter") sessionHeaders["x-session-id"] = sessionId;
    else {
      if (format === "openai") sessionHeaders["session-id"] = sessionId;
      sessionHeaders["x-client-request-id"] = sessionId;
    }
  }
  const headers = buildOpenAIHeaders({
    model,
    context,
    apiKey,
    optionsHeaders: options?.headers,
    sessionHeaders,
  });
  const params: unknown = buildResponsesParams(model, context, options, cacheRetention);
  const body = await openOpenAIStream({
    model,
    path: "/responses",
    params,
    headers,
    apiKey,
    options,
    stream,
    output,
  });
  try {
    await processResponsesStream(
      readOpenAIStream(body, options?.signal, false, "OpenAI Responses", options?.idleTimeoutMs),
      output,
      stream,
      model,
      {
        serviceTier: options?.serviceTier ?? undefined,
        applyServiceTierPricing: (usage, tier) => applyServiceTierPricing(usage, tier, model),
        onEvent: options?.onProviderStreamEvent && ((event) => options.onProviderStreamEvent!(event, model)),
      },
    );
  } finally {
    // Closes the connection when reading stopped early; a no-op after a complete body.
    await body.cancel().catch(() => {});
  }
  if (options?.signal?.aborted) throw new Error("Request was aborted");
  if (output.stopReason === "aborted" || output.stopReason === "error") {
    throw new Error(output.errorMessage || "An unknown error occurred");
  }
  finishWithDone(stream, output, RESPONSES_TRUNCATED);
}
