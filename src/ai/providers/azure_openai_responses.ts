/**
 * The `azure-openai-responses` wire API: OpenAI's Responses API on an Azure OpenAI resource, as
 * pi-ai 1.6.0 speaks it through the `AzureOpenAI` client: `POST <base>/responses?api-version=…`
 * with the key in an `api-key` header, the deployment as the model, stateless requests
 * (`store: false`) that replay reasoning as encrypted items, strict tools by default, and errors
 * named "Azure OpenAI API error (<status>): …". The event stream is OpenAI's, read by the same
 * code as the openai-responses API.
 *
 * @module
 */
import type { ApiProvider } from "../api_provider.ts";
import type { AssistantMessageEventStream } from "../event_stream.ts";
import { finishWithDone, noApiKeyStream, runProviderStream } from "../provider_utils.ts";
import { buildEffortOptions, resolveSamplingParams } from "../simple_options.ts";
import type {
  AssistantMessage,
  Context,
  Model,
  SimpleStreamOptions,
  StreamOptions,
  ThinkingLevel,
} from "../types.ts";
import {
  type AzureEndpointOptions,
  resolveAzureApiVersion,
  resolveAzureBaseUrl,
  resolveDeploymentName,
} from "./azure_openai_config.ts";
import { convertResponsesMessages, convertResponsesTools } from "./openai_responses_convert.ts";
import { processResponsesStream } from "./openai_responses_events.ts";
import { OpenAIApiError, openAIErrorText, openOpenAIStream } from "./openai_shared_request.ts";
import { readOpenAIStream } from "./openai_shared_stream.ts";

/** Options of the azure-openai-responses `stream` (pi-ai 1.6.0's `AzureOpenAIResponsesOptions`). */
export interface AzureOpenAIResponsesOptions extends StreamOptions, AzureEndpointOptions {
  /** Reasoning effort sent as `reasoning.effort`. */
  reasoningEffort?: ThinkingLevel;
  /** Whether the model may call tools. */
  toolChoice?: "auto" | "none";
  /** How much of the reasoning the server summarises back. */
  reasoningSummary?: "auto" | "detailed" | "concise" | null;
}

/** Providers whose `call|item` tool-call ids are Responses ids worth keeping. */
const AZURE_TOOL_CALL_PROVIDERS: ReadonlySet<string> = new Set([
  "openai",
  "openai-codex",
  "opencode",
  "azure",
]);
/** The Responses API rejects `max_output_tokens` below 16. */
const MIN_OUTPUT_TOKENS = 16;
/** OpenAI's limit on `prompt_cache_key`, in characters. */
const PROMPT_CACHE_KEY_MAX = 64;

interface AzureCompat {
  supportsStrictMode?: boolean;
  promptCacheKeyMode?: string;
}

/** Builds the body sent to `/responses`, with the deployment as the model. */
export function buildAzureResponsesParams(
  model: Model,
  context: Context,
  options: AzureOpenAIResponsesOptions | undefined,
  deployment: string,
): Record<string, unknown> {
  const compat = (model.compat ?? {}) as AzureCompat;
  const sessionKey = options?.sessionId === undefined
    ? undefined
    : Array.from(options.sessionId).slice(0, PROMPT_CACHE_KEY_MAX).join("");
  const params: Record<string, unknown> = {
    model: deployment,
    input: convertResponsesMessages(model, context, AZURE_TOOL_CALL_PROVIDERS),
    stream: true,
    prompt_cache_key: compat.promptCacheKeyMode === "disabled" ? undefined : sessionKey,
    store: false,
  };
  if (options?.maxTokens) params.max_output_tokens = Math.max(options.maxTokens, MIN_OUTPUT_TOKENS);
  if (options?.temperature !== undefined) params.temperature = options.temperature;
  if (context.tools && context.tools.length > 0) {
    params.tools = convertResponsesTools(context.tools, {
      supportsStrictMode: compat.supportsStrictMode ?? true,
    });
  }
  if (options?.toolChoice !== undefined) params.tool_choice = options.toolChoice;
  const effort = options?.reasoningEffort ?? (options?.reasoningSummary ? "medium" : undefined);
  if (model.reasoning) {
    if (effort) {
      const sent = options?.reasoningEffort
        ? (model.thinkingLevelMap?.[options.reasoningEffort] ?? options.reasoningEffort)
        : effort;
      params.reasoning = { effort: sent, summary: options?.reasoningSummary || "auto" };
      // Stateless requests need the encrypted reasoning back to replay it next turn.
      params.include = ["reasoning.encrypted_content"];
    } else if (model.thinkingLevelMap?.off !== null) {
      params.reasoning = { effort: model.thinkingLevelMap?.off ?? "none" };
    }
  }
  // Last, so the model's and the request's sampling fields win over the named ones.
  Object.assign(params, resolveSamplingParams(model, effort ?? "off", options?.samplingParams));
  return params;
}

/**
 * The `openai` SDK inside pi-ai 1.6.0's Azure client throws an in-stream error itself, worded
 * as its APIError without a status: the error's `message` alone (no "Error Code …" prefix).
 */
async function* sdkStreamErrors(
  events: AsyncIterable<Record<string, unknown>>,
): AsyncGenerator<Record<string, unknown>> {
  for await (const event of events) {
    const nested = event.error as { message?: unknown } | null | undefined;
    if (event.type === "error" || (nested && typeof nested === "object")) {
      const source = event.type === "error" ? event : nested!;
      throw new Error(typeof source.message === "string" ? source.message : JSON.stringify(source));
    }
    yield event;
  }
}

async function run(
  stream: AssistantMessageEventStream,
  output: AssistantMessage,
  model: Model,
  context: Context,
  options: AzureOpenAIResponsesOptions | undefined,
): Promise<void> {
  const apiKey = options?.apiKey;
  if (!apiKey) throw new Error(`No API key for provider: ${model.provider}`);
  const deployment = resolveDeploymentName(model, options);
  const baseUrl = resolveAzureBaseUrl(model, options);
  const apiVersion = resolveAzureApiVersion(options);
  // The AzureOpenAI client sends the key as `api-key`, never as a bearer token.
  const headers: Record<string, string | null> = { "api-key": apiKey, ...model.headers, ...options?.headers };
  const body = await openOpenAIStream({
    model: { ...model, baseUrl },
    path: `/responses?api-version=${encodeURIComponent(apiVersion)}`,
    params: buildAzureResponsesParams(model, context, options, deployment),
    headers,
    apiKey,
    options,
    stream,
    output,
  });
  try {
    await processResponsesStream(
      sdkStreamErrors(
        readOpenAIStream(body, options?.signal, false, "Azure OpenAI Responses", options?.idleTimeoutMs),
      ),
      output,
      stream,
      model,
      {
        onEvent: options?.onProviderStreamEvent && ((event) => options.onProviderStreamEvent!(event, model)),
      },
    );
  } finally {
    await body.cancel().catch(() => {});
  }
  if (options?.signal?.aborted) throw new Error("Request was aborted");
  if (output.stopReason === "aborted" || output.stopReason === "error") {
    throw new Error(output.errorMessage || "An unknown error occurred");
  }
  finishWithDone(stream, output, "Azure OpenAI Responses stream ended without a stop reason");
}

/** Streams one Azure Responses request. Never throws: failures end in an `error` event. */
export function streamAzureOpenAIResponses(
  model: Model,
  context: Context,
  options?: AzureOpenAIResponsesOptions,
): AssistantMessageEventStream {
  return runProviderStream(
    model,
    options?.signal,
    (stream, output) => run(stream, output, model, context, options),
    {
      prepare: (output) => (output.api = "azure-openai-responses"),
      report: (error) =>
        error instanceof OpenAIApiError && !error.inStream
          ? Object.assign(new Error(openAIErrorText(error, "Azure OpenAI API error")), {
            retryAfterMs: error.retryAfterMs,
          })
          : error,
    },
  );
}

/** Streams with the unified `reasoning` option mapped to a reasoning effort (clamped to the model). */
export function streamSimpleAzureOpenAIResponses(
  model: Model,
  context: Context,
  options?: SimpleStreamOptions,
): AssistantMessageEventStream {
  if (!options?.apiKey) {
    return noApiKeyStream(model, (output) => (output.api = "azure-openai-responses"));
  }
  // The endpoint options travel along, as 1.6.0's azure provider reads them before dispatch.
  const endpoint = options as SimpleStreamOptions & AzureEndpointOptions;
  return streamAzureOpenAIResponses(model, context, {
    ...buildEffortOptions(model, context, options),
    azureBaseUrl: endpoint.azureBaseUrl,
    azureResourceName: endpoint.azureResourceName,
    azureApiVersion: endpoint.azureApiVersion,
    azureDeploymentName: endpoint.azureDeploymentName,
  });
}

/** The built-in implementation registered for "azure-openai-responses". */
export const provider: ApiProvider = {
  api: "azure-openai-responses",
  stream: streamAzureOpenAIResponses,
  streamSimple: streamSimpleAzureOpenAIResponses,
};
