/**
 * The `openai-completions` wire API: OpenAI's Chat Completions and the many servers that
 * copy it (OpenRouter, DeepSeek, Groq, Cerebras, xAI, llama.cpp, vLLM, …). Streams with
 * plain fetch; chunk deltas become text, thinking and tool-call events, usage is normalised
 * (input excludes cache reads/writes) and priced.
 *
 * @module
 */
import type { ApiProvider } from "../api_provider.ts";
import type { AssistantMessageEventStream } from "../event_stream.ts";
import { finishWithDone, runProviderStream } from "../provider_utils.ts";
import { buildEffortOptions } from "../simple_options.ts";
import type { AssistantMessage, Context, Model, SimpleStreamOptions } from "../types.ts";
import { getCompletionsCompat } from "./openai_completions_compat.ts";
import { buildCompletionsParams, type OpenAICompletionsOptions } from "./openai_completions_params.ts";
import { buildOpenAIHeaders, resolveCacheRetention, resolveOpenAIApiKey } from "./openai_shared_client.ts";
import { openAIErrorText, openOpenAIStream } from "./openai_shared_request.ts";
import { readOpenAIStreamBatches, withRawMetadata } from "./openai_shared_stream.ts";
import { ContentDeltaShortcut } from "./openai_completions_delta.ts";
import { type CompletionsStreamEnd, processCompletionsStream } from "./openai_completions_stream.ts";

export type { OpenAICompletionsOptions } from "./openai_completions_params.ts";
export { detectCompletionsCompat, getCompletionsCompat } from "./openai_completions_compat.ts";

/**
 * The text when a stream ends without a finish reason (pi-ai 1.x; `[DONE]` alone is not enough).
 * Auto-retry treats it as transient ("ended without").
 */
export const COMPLETIONS_TRUNCATED = "Stream ended without finish_reason";

/** Streams one Chat Completions request. Never throws: failures end in an `error` event. */
export function streamOpenAICompletions(
  model: Model,
  context: Context,
  options?: OpenAICompletionsOptions,
): AssistantMessageEventStream {
  return runProviderStream(
    model,
    options?.signal,
    (stream, output) => run(stream, output, model, context, options),
    {
      // The wording gains OpenRouter's raw metadata; the server's requested wait stays with it.
      report: (error) =>
        Object.assign(new Error(withRawMetadata(openAIErrorText(error), error)), {
          retryAfterMs: (error as { retryAfterMs?: number } | null)?.retryAfterMs,
        }),
    },
  );
}

/** Streams with the unified `reasoning` option mapped to `reasoning_effort` (clamped to the model). */
export function streamSimpleOpenAICompletions(
  model: Model,
  context: Context,
  options?: SimpleStreamOptions,
): AssistantMessageEventStream {
  return streamOpenAICompletions(model, context, buildEffortOptions(model, context, options));
}

/** The built-in implementation registered for "openai-completions". */
export const provider: ApiProvider = {
  api: "openai-completions",
  stream: streamOpenAICompletions,
  streamSimple: streamSimpleOpenAICompletions,
};

async function run(
  stream: AssistantMessageEventStream,
  output: AssistantMessage,
  model: Model,
  context: Context,
  options: OpenAICompletionsOptions | undefined,
): Promise<void> {
  const apiKey = resolveOpenAIApiKey(model, options?.apiKey, options?.env);
  const compat = getCompletionsCompat(model);
  const cacheRetention = resolveCacheRetention(options?.cacheRetention, options?.env);
  const sessionId = cacheRetention === "none" ? undefined : options?.sessionId;
  // Session affinity (pi-ai 1.x): OpenRouter's `x-session-id`, else OpenAI's header set.
  const sessionHeaders: Record<string, string> | undefined = !sessionId || !compat.sendSessionAffinityHeaders
    ? undefined
    : compat.sessionAffinityFormat === "openrouter"
    ? { "x-session-id": sessionId }
    : {
      ...(compat.sessionAffinityFormat === "openai" ? { session_id: sessionId } : {}),
      "x-client-request-id": sessionId,
      "x-session-affinity": sessionId,
    };
  const headers = buildOpenAIHeaders({
    model,
    context,
    apiKey,
    optionsHeaders: options?.headers,
    sessionHeaders,
  });
  const params: unknown = buildCompletionsParams(model, context, options, compat, cacheRetention);
  const body = await openOpenAIStream({
    model,
    path: "/chat/completions",
    params,
    headers,
    apiKey,
    options,
    stream,
    output,
  });

  let end: CompletionsStreamEnd;
  try {
    end = await processCompletionsStream(
      readOpenAIStreamBatches(
        body,
        options?.signal,
        true,
        "OpenAI Chat Completions",
        options?.idleTimeoutMs,
        // A listener of raw provider events gets every chunk parsed.
        options?.onProviderStreamEvent ? undefined : new ContentDeltaShortcut(),
      ),
      output,
      stream,
      model,
      options?.onProviderStreamEvent && ((chunk) => options.onProviderStreamEvent!(chunk, model)),
    );
  } finally {
    // Closes the connection when reading stopped early; a no-op after a complete body.
    await body.cancel().catch(() => {});
  }
  if (options?.signal?.aborted) throw new Error("Request was aborted");
  if (output.stopReason === "aborted") throw new Error("Request was aborted");
  if (!end.sawFinish && compat.supportsFinishReason === false) {
    // Servers known to leave the finish reason out: the content says how the reply ended.
    output.stopReason = output.content.some((b) => b.type === "toolCall") ? "toolUse" : "stop";
  }
  if (output.stopReason === "error") {
    throw new Error(output.errorMessage || "Provider returned an error stop reason");
  }
  if (!end.sawFinish && compat.supportsFinishReason !== false) throw new Error(COMPLETIONS_TRUNCATED);
  finishWithDone(stream, output, COMPLETIONS_TRUNCATED);
}
