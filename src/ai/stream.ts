/**
 * The entry points for talking to a model: pick the implementation of `model.api`, resolve the
 * API key, and hand back a stream at once. Built-in implementations load on first use, so the
 * returned stream is fed asynchronously in that case; failures always arrive as an `error`
 * event, never as a throw.
 *
 * @module
 */
import type { ApiProvider } from "./api_provider.ts";
import { getApiProvider, hasBuiltinApi, loadApiProvider } from "./api_registry.ts";
import { getEnvApiKey } from "./env_api_keys.ts";
import { AssistantMessageEventStream } from "./event_stream.ts";
import { createOutputMessage, errorToMessage } from "./provider_utils.ts";
import type { AssistantMessage, Context, Model, SimpleStreamOptions, StreamOptions } from "./types.ts";

type Invoke = (provider: ApiProvider) => AssistantMessageEventStream;

/** The error for a model whose API has no implementation (every API of 1.6.0's catalog has one). */
function missingApiMessage(model: Model): string {
  return `No API provider registered for api: ${model.api}`;
}

function failedStream(model: Model, message: string): AssistantMessageEventStream {
  const out = new AssistantMessageEventStream();
  const error = createOutputMessage(model);
  error.stopReason = "error";
  error.errorMessage = message;
  // Deliver after the caller has had a chance to start iterating, like a real request.
  queueMicrotask(() => {
    out.push({ type: "error", reason: "error", error });
    out.end();
  });
  return out;
}

function invokeSafely(model: Model, provider: ApiProvider, invoke: Invoke): AssistantMessageEventStream {
  try {
    return invoke(provider);
  } catch (error) {
    // Custom providers may throw synchronously (e.g. missing configuration).
    return failedStream(model, errorToMessage(error));
  }
}

async function pipe(model: Model, invoke: Invoke, out: AssistantMessageEventStream): Promise<void> {
  let finished = false;
  try {
    const provider = await loadApiProvider(model.api);
    if (!provider) throw new Error(missingApiMessage(model));
    // Forwarded as each event is pushed: a second `for await` here cost a hop per delta.
    await invokeSafely(model, provider, invoke).drainInto((event) => {
      if (finished) return;
      out.push(event);
      if (event.type === "done" || event.type === "error") finished = true;
    });
    if (!finished) throw new Error(`Provider for ${model.api} ended its stream without a result`);
  } catch (error) {
    if (finished) return;
    const failed = createOutputMessage(model);
    failed.stopReason = "error";
    failed.errorMessage = errorToMessage(error);
    out.push({ type: "error", reason: "error", error: failed });
  }
  out.end();
}

function dispatch(model: Model, invoke: Invoke): AssistantMessageEventStream {
  const loaded = getApiProvider(model.api);
  if (loaded) return invokeSafely(model, loaded, invoke);
  const out = new AssistantMessageEventStream();
  void pipe(model, invoke, out);
  return out;
}

function withApiKey<T extends StreamOptions>(model: Model, options: T | undefined): T | undefined {
  if (options?.apiKey) return options;
  const apiKey = getEnvApiKey(model.provider, options?.env);
  if (!apiKey) return options;
  return { ...options, apiKey } as T;
}

/**
 * Streams one request with API-specific options. The key is `options.apiKey`, else the
 * provider's environment variable; without either the provider decides (most send no key and
 * surface the server's 401).
 *
 * @example
 * ```ts
 * import { getModel, stream } from "@pi-deno/coding-agent";
 *
 * const model = getModel("anthropic", "claude-sonnet-4-5");
 * if (!model) throw new Error("model not in the catalog");
 * // The key comes from ANTHROPIC_API_KEY unless `apiKey` is passed.
 * const events = stream(model, {
 *   systemPrompt: "Answer in one sentence.",
 *   messages: [{ role: "user", content: "What is a monad?", timestamp: Date.now() }],
 * });
 * for await (const event of events) {
 *   if (event.type === "text_delta") console.log(event.delta);
 * }
 * const reply = await events.result();
 * console.log(reply.stopReason, reply.usage.totalTokens);
 * ```
 */
export function stream(model: Model, context: Context, options?: StreamOptions): AssistantMessageEventStream {
  const resolved = withApiKey(model, options);
  return dispatch(model, (provider) => provider.stream(model, context, resolved));
}

/**
 * Like {@link stream}, resolving to the final assistant message.
 *
 * @example
 * ```ts
 * import { complete, getModel } from "@pi-deno/coding-agent";
 *
 * const model = getModel("openai", "gpt-4o-mini");
 * if (!model) throw new Error("model not in the catalog");
 * const reply = await complete(model, {
 *   messages: [{ role: "user", content: "Name three primes.", timestamp: Date.now() }],
 * }, { maxTokens: 200 });
 * for (const block of reply.content) {
 *   if (block.type === "text") console.log(block.text);
 * }
 * if (reply.stopReason === "error") console.error(reply.errorMessage);
 * ```
 */
export function complete(model: Model, context: Context, options?: StreamOptions): Promise<AssistantMessage> {
  return stream(model, context, options).result();
}

/**
 * Streams one request with the unified `reasoning` option. For built-in APIs a missing key is
 * an error "No API key for provider: <provider>", as the reference's built-in providers report
 * (checked here so every built-in behaves the same, even when replaced by a registration).
 */
export function streamSimple(
  model: Model,
  context: Context,
  options?: SimpleStreamOptions,
): AssistantMessageEventStream {
  const resolved = withApiKey(model, options);
  if (!resolved?.apiKey && hasBuiltinApi(model.api)) {
    return failedStream(model, `No API key for provider: ${model.provider}`);
  }
  return dispatch(model, (provider) => provider.streamSimple(model, context, resolved));
}

/** Like {@link streamSimple}, resolving to the final assistant message. */
export function completeSimple(
  model: Model,
  context: Context,
  options?: SimpleStreamOptions,
): Promise<AssistantMessage> {
  return streamSimple(model, context, options).result();
}
