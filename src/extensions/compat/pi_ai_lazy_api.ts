/**
 * 1.6.0 pi-ai's lazily loaded API implementations for extensions: `lazyStream` (a stream returned
 * at once while async setup runs behind it), `lazyApi`, and the descriptors of the built-in wire
 * APIs (`anthropicMessagesApi()` …), whose implementation loads on the first request.
 *
 * 1.6.0's descriptors take a transcript context (prompt and tools as system messages). Our
 * providers take the prompt and tools beside the messages, so a descriptor folds the system
 * messages into them (the prompt and tools in force, as for a model without mid-conversation
 * system messages); a context with `systemPrompt`/`tools` is taken as it is.
 *
 * @module
 */
import type { ApiProvider } from "../../ai/api_provider.ts";
import { AssistantMessageEventStream } from "../../ai/event_stream.ts";
import { createOutputMessage } from "../../ai/provider_utils.ts";
import type {
  AssistantMessage,
  AssistantMessageEvent,
  Context,
  Message,
  Model,
  SimpleStreamOptions,
  StreamOptions,
} from "../../ai/types.ts";
import { getCurrentSystemPrompt, getCurrentTools } from "../../session/system_message.ts";

/** Read-only observation of what a lazy stream forwards. */
export interface LazyStreamObserver {
  /** Each event forwarded. */
  onEvent?(event: AssistantMessageEvent): void;
  /** The final message, once. */
  onResult?(result: AssistantMessage | undefined): void;
}

/** A request context: our `Context`, or 1.6.0's transcript form (system messages among the messages). */
export type StreamContext = Context | { messages: readonly { role: string }[] };

/** One wire API's stream functions (1.6.0's `ProviderStreams`, without deferred responses). */
export interface ProviderStreams {
  /** Streams with the API's own options. */
  stream(model: Model, context: StreamContext, options?: StreamOptions): AssistantMessageEventStream;
  /** Streams with the unified options. */
  streamSimple(
    model: Model,
    context: StreamContext,
    options?: SimpleStreamOptions,
  ): AssistantMessageEventStream;
  /** Streams a deferred response by its handle (APIs that defer; none of ours does). */
  fetchDeferred?(model: Model, handle: unknown, options?: StreamOptions): AssistantMessageEventStream;
  /** Cancels a deferred response. */
  cancelDeferred?(model: Model, handle: unknown, options?: StreamOptions): Promise<void>;
}

/** Which optional operations `lazyApi` forwards (none of ours defers responses). */
export interface LazyApiCapabilities {
  /** Forward `fetchDeferred`. */
  fetchDeferred?: boolean;
  /** Forward `cancelDeferred`. */
  cancelDeferred?: boolean;
}

function setupErrorMessage(
  model: Model,
  error: unknown,
  timestamp: number,
  stopReason: "error" | "aborted",
): AssistantMessage {
  // Without its timestamp, so the keys keep pi-ai's order (…, stopReason, errorMessage, timestamp).
  const { timestamp: _started, ...start } = createOutputMessage(model);
  return {
    ...start,
    stopReason,
    errorMessage: error instanceof Error ? error.message : String(error),
    timestamp,
  };
}

/**
 * A stream returned at once, fed by the stream `setup` resolves to; a failing setup ends it with
 * an error event (stop reason "aborted" when `signal` aborted).
 */
export function lazyStream(
  model: Model,
  setup: () => Promise<AsyncIterable<AssistantMessageEvent>>,
  observer?: LazyStreamObserver,
  signal?: AbortSignal,
): AssistantMessageEventStream {
  const startedAt = Date.now();
  const outer = new AssistantMessageEventStream();
  let observed = false;
  const observeResult = (result: AssistantMessage | undefined) => {
    if (observed) return;
    observed = true;
    observer?.onResult?.(result);
  };
  const forward = async (inner: AsyncIterable<AssistantMessageEvent>) => {
    let result: AssistantMessage | undefined;
    for await (const event of inner) {
      outer.push(event);
      observer?.onEvent?.(event);
      if (event.type === "done") result = event.message;
      else if (event.type === "error") result = event.error;
    }
    const withResult = inner as { result?: () => Promise<AssistantMessage> };
    if (typeof withResult.result === "function") result = await withResult.result();
    outer.end(result);
    observeResult(result);
  };
  setup().then(forward).catch((error) => {
    const reason = signal?.aborted ? "aborted" : "error";
    const message = setupErrorMessage(model, error, startedAt, reason);
    const event: AssistantMessageEvent = { type: "error", reason, error: message };
    outer.push(event);
    observer?.onEvent?.(event);
    outer.end(message);
    observeResult(message);
  });
  return outer;
}

/** Stream functions whose implementation `load` imports on the first request (import errors end that stream). */
export function lazyApi(
  load: () => Promise<ProviderStreams>,
  capabilities?: LazyApiCapabilities,
): ProviderStreams {
  const api: ProviderStreams = {
    stream: (model, context, options) =>
      lazyStream(
        model,
        async () => (await load()).stream(model, context, options),
        undefined,
        options?.signal,
      ),
    streamSimple: (model, context, options) =>
      lazyStream(
        model,
        async () => (await load()).streamSimple(model, context, options),
        undefined,
        options?.signal,
      ),
  };
  if (capabilities?.fetchDeferred) {
    api.fetchDeferred = (model, handle, options) =>
      lazyStream(
        model,
        async () => {
          const implementation = await load();
          if (!implementation.fetchDeferred) throw new Error("API does not support deferred responses");
          return implementation.fetchDeferred(model, handle, options);
        },
        undefined,
        options?.signal,
      );
  }
  if (capabilities?.cancelDeferred) {
    api.cancelDeferred = async (model, handle, options) => {
      const implementation = await load();
      if (!implementation.cancelDeferred) throw new Error("API cannot cancel deferred responses");
      await implementation.cancelDeferred(model, handle, options);
    };
  }
  return api;
}

/** Our `Context` for either form: system messages folded into the prompt and tools in force. */
function toContext(context: StreamContext): Context {
  if ("systemPrompt" in context || "tools" in context) return context as Context;
  const messages = context.messages;
  if (!messages.some((message) => message.role === "system")) return context as Context;
  const tools = getCurrentTools(messages);
  const systemPrompt = getCurrentSystemPrompt(messages);
  return {
    ...(systemPrompt ? { systemPrompt } : {}),
    messages: messages.filter((message) => message.role !== "system") as Message[],
    ...(tools.length > 0 ? { tools } : {}),
  };
}

/** {@link lazyApi} over one of our providers, which `load` imports on the first request. */
export function lazyProviderStreams(load: () => Promise<ApiProvider>): ProviderStreams {
  return lazyApi(async () => {
    const provider = await load();
    return {
      stream: (model, context, options) => provider.stream(model, toContext(context), options),
      streamSimple: (model, context, options) => provider.streamSimple(model, toContext(context), options),
    };
  });
}

function builtinApi(load: () => Promise<{ provider: ApiProvider }>): () => ProviderStreams {
  return () => lazyProviderStreams(async () => (await load()).provider);
}

/** Anthropic Messages API. */
export const anthropicMessagesApi: () => ProviderStreams = builtinApi(() =>
  import("../../ai/providers/anthropic.ts")
);
/** OpenAI Chat Completions API. */
export const openAICompletionsApi: () => ProviderStreams = builtinApi(() =>
  import("../../ai/providers/openai_completions.ts")
);
/** OpenAI Responses API. */
export const openAIResponsesApi: () => ProviderStreams = builtinApi(() =>
  import("../../ai/providers/openai_responses.ts")
);
/** OpenAI Codex Responses API (ChatGPT subscription). */
export const openAICodexResponsesApi: () => ProviderStreams = builtinApi(() =>
  import("../../ai/providers/openai_codex_responses.ts")
);
/** Azure OpenAI Responses API. */
export const azureOpenAIResponsesApi: () => ProviderStreams = builtinApi(() =>
  import("../../ai/providers/azure_openai_responses.ts")
);
/** Google Generative AI API. */
export const googleGenerativeAIApi: () => ProviderStreams = builtinApi(() =>
  import("../../ai/providers/google.ts")
);
/** Google Vertex AI API. */
export const googleVertexApi: () => ProviderStreams = builtinApi(() =>
  import("../../ai/providers/google_vertex.ts")
);
/** Mistral Conversations API. */
export const mistralConversationsApi: () => ProviderStreams = builtinApi(() =>
  import("../../ai/providers/mistral.ts")
);
/** Amazon Bedrock Converse Stream API. */
export const bedrockConverseStreamApi: () => ProviderStreams = builtinApi(() =>
  import("../../ai/providers/bedrock.ts")
);
/** pi's own messages API. */
export const piMessagesApi: () => ProviderStreams = builtinApi(() =>
  import("../../ai/providers/pi_messages.ts")
);
