/**
 * 1.6.0 pi-ai's faux provider core for extensions and their tests: a scripted model that answers
 * each request with the next queued reply (a message, or a function of the request), streamed in
 * chunks of `tokenSize` tokens (4 characters each, sizes drawn between min and max) at
 * `tokensPerSecond` (unset: as fast as microtasks go), with usage estimated from the prompt text
 * (and, under a `sessionId`, a simulated prompt cache). `registerFauxProvider` puts it in the API
 * registry. `fauxProvider` (a `Provider` object) is not here: this build has no provider objects.
 *
 * @module
 */
import { createAssistantMessageEventStream } from "../../ai/event_stream.ts";
import type { AssistantMessageEventStream } from "../../ai/event_stream.ts";
import { registerApiProvider, unregisterApiProviders } from "../../ai/api_registry.ts";
import { type AssistantMessage, type Context, emptyUsage, type Model } from "../../ai/types.ts";
import { createOutputMessage } from "../../ai/provider_utils.ts";
import { ToolCallArgumentsStream } from "./pi_ai_tool_arguments_stream.ts";
import { estimateUsage, tokensOf } from "./pi_ai_faux_usage.ts";

// deno-lint-ignore no-explicit-any -- messages and options of any API pass through unchanged
type Loose = any;

/** A queued reply: a message, or a function of the request that returns one. */
export type FauxResponseStep =
  | AssistantMessage
  | ((
    context: Context,
    options: Loose,
    state: FauxState,
    model: Model,
  ) => AssistantMessage | Promise<AssistantMessage>);

/** A model the faux provider offers (defaults fill what is left out). */
export interface FauxModelDefinition {
  id: string;
  name?: string;
  reasoning?: boolean;
  input?: ("text" | "image")[];
  inputLimits?: unknown;
  cost?: { input: number; output: number; cacheRead: number; cacheWrite: number };
  contextWindow?: number;
  maxTokens?: number;
}

/** Options of {@link createFauxCore} and {@link registerFauxProvider}. */
export interface FauxProviderOptions {
  api?: string;
  provider?: string;
  models?: FauxModelDefinition[];
  tokensPerSecond?: number;
  tokenSize?: { min?: number; max?: number };
  deferred?: { pollAfterMs?: number; pendingFetches?: number };
}

/** What the faux provider counted. */
export interface FauxState {
  callCount: number;
  deferredFetchCount: number;
  cancelledDeferred: Loose[];
}

// One shared zero usage, as 1.6.0 gives every reply without its own.
const USAGE = emptyUsage();
const FREE = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
const OK_RESPONSE = { status: 200, headers: {} };
const randomId = (prefix: string) => `${prefix}:${Date.now()}:${Math.random().toString(36).slice(2)}`;

function chunksOf(text: string, min: number, max: number): string[] {
  const chunks: string[] = [];
  for (let at = 0; at < text.length;) {
    const size = Math.max(1, (min + Math.floor(Math.random() * (max - min + 1))) * 4);
    chunks.push(text.slice(at, at + size));
    at += size;
  }
  return chunks.length > 0 ? chunks : [""];
}

function failed(error: unknown, api: string, provider: string, modelId: string): Loose {
  return {
    role: "assistant",
    content: [],
    api,
    provider,
    model: modelId,
    usage: USAGE,
    stopReason: "error",
    errorMessage: error instanceof Error ? error.message : String(error),
    timestamp: Date.now(),
  };
}

function deferredReply(model: Model, handle: Loose): Loose {
  return { ...createOutputMessage(model), usage: USAGE, stopReason: "deferred", deferred: handle };
}

function pause(chunk: string, tokensPerSecond: number | undefined): Promise<void> {
  if (!tokensPerSecond || tokensPerSecond <= 0) return new Promise((resolve) => queueMicrotask(resolve));
  return new Promise((resolve) => setTimeout(resolve, (tokensOf(chunk) / tokensPerSecond) * 1000));
}

/** Streams `message` block by block in chunks; an abort ends it with an aborted copy of the partial. */
async function streamReply(
  out: AssistantMessageEventStream,
  message: Loose,
  size: { min: number; max: number },
  tokensPerSecond: number | undefined,
  signal: AbortSignal | undefined,
): Promise<void> {
  const partial: Loose = { ...message, content: [], stopReason: "pending" };
  const stopped = () => {
    if (!signal?.aborted) return false;
    const aborted = {
      ...partial,
      stopReason: "aborted",
      errorMessage: "Request was aborted",
      timestamp: Date.now(),
    };
    out.push({ type: "error", reason: "aborted", error: aborted });
    out.end(aborted);
    return true;
  };
  if (stopped()) return;
  out.push({ type: "start", partial: { ...partial } });
  for (let index = 0; index < message.content.length; index++) {
    if (stopped()) return;
    const block = message.content[index];
    if (block.type === "thinking" || block.type === "text") {
      const key = block.type === "text" ? "text" : "thinking";
      partial.content = [...partial.content, { type: block.type, [key]: "" }];
      out.push({ type: `${key}_start`, contentIndex: index, partial: { ...partial } } as Loose);
      for (const chunk of chunksOf(block[key], size.min, size.max)) {
        await pause(chunk, tokensPerSecond);
        if (stopped()) return;
        partial.content[index][key] += chunk;
        out.push(
          { type: `${key}_delta`, contentIndex: index, delta: chunk, partial: { ...partial } } as Loose,
        );
      }
      out.push(
        { type: `${key}_end`, contentIndex: index, content: block[key], partial: { ...partial } } as Loose,
      );
      continue;
    }
    partial.content = [...partial.content, {
      type: "toolCall",
      id: block.id,
      name: block.name,
      arguments: {},
    }];
    out.push({ type: "toolcall_start", contentIndex: index, partial: { ...partial } });
    // The partial arguments grow as a real provider's do.
    const args = new ToolCallArgumentsStream();
    for (const chunk of chunksOf(JSON.stringify(block.arguments), size.min, size.max)) {
      await pause(chunk, tokensPerSecond);
      if (stopped()) return;
      partial.content[index].arguments = args.append(chunk);
      out.push({ type: "toolcall_delta", contentIndex: index, delta: chunk, partial: { ...partial } });
    }
    partial.content[index].arguments = block.arguments;
    out.push({ type: "toolcall_end", contentIndex: index, toolCall: block, partial: { ...partial } });
  }
  if (message.stopReason === "pending") throw new Error("Faux response ended without a stop reason");
  if (message.stopReason === "error" || message.stopReason === "aborted") {
    out.push({ type: "error", reason: message.stopReason, error: message });
  } else out.push({ type: "done", reason: message.stopReason, message });
  out.end(message);
}

/** The faux provider's models, streams and reply queue (see the module comment). */
export function createFauxCore(options: FauxProviderOptions) {
  const api = options.api ?? randomId("faux");
  const provider = options.provider ?? "faux";
  const min = Math.max(1, Math.min(options.tokenSize?.min ?? 3, options.tokenSize?.max ?? 5));
  const size = { min, max: Math.max(min, options.tokenSize?.max ?? 5) };
  const tokensPerSecond = options.tokensPerSecond;
  let queue: FauxResponseStep[] = [];
  const state: FauxState = { callCount: 0, deferredFetchCount: 0, cancelledDeferred: [] };
  const promptCache = new Map<string, string[]>();
  const deferredEntries = new Map<string, Loose>();
  const definitions: FauxModelDefinition[] = options.models?.length ? options.models : [{
    id: "faux-1",
    name: "Faux Model",
    reasoning: false,
    input: ["text", "image"],
    cost: FREE,
    contextWindow: 128000,
    maxTokens: 16384,
  }];
  const models: Model[] = definitions.map((definition) => ({
    id: definition.id,
    name: definition.name ?? definition.id,
    api,
    provider,
    baseUrl: "http://localhost:0",
    reasoning: definition.reasoning ?? false,
    input: definition.input ?? ["text", "image"],
    inputLimits: definition.inputLimits,
    cost: definition.cost ?? FREE,
    contextWindow: definition.contextWindow ?? 128000,
    maxTokens: definition.maxTokens ?? 16384,
  } as Loose));

  const resolve = async (step: FauxResponseStep, context: Context, streamOptions: Loose, model: Model) => {
    const reply = typeof step === "function" ? await step(context, streamOptions, state, model) : step;
    const copy: Loose = structuredClone(reply);
    const message = {
      ...copy,
      api,
      provider,
      model: model.id,
      timestamp: copy.timestamp ?? Date.now(),
      usage: copy.usage ?? USAGE,
    };
    return estimateUsage(message, context, streamOptions, promptCache);
  };
  /** Runs `body` on a fresh stream after a microtask; a throw ends the stream with an error reply. */
  const respond = (model: Model, body: (out: AssistantMessageEventStream) => Promise<void>) => {
    const out = createAssistantMessageEventStream();
    queueMicrotask(async () => {
      try {
        await body(out);
      } catch (error) {
        const message = failed(error, api, provider, model.id);
        out.push({ type: "error", reason: "error", error: message });
        out.end(message);
      }
    });
    return out;
  };

  const stream = (model: Model, context: Context, streamOptions?: Loose): AssistantMessageEventStream => {
    const step = queue.shift();
    state.callCount++;
    return respond(model, async (out) => {
      await streamOptions?.onResponse?.(OK_RESPONSE, model);
      if (!step) {
        const message = estimateUsage(
          failed(new Error("No more faux responses queued"), api, provider, model.id),
          context,
          streamOptions,
          promptCache,
        );
        out.push({ type: "error", reason: "error", error: message });
        out.end(message);
        return;
      }
      if (streamOptions?.deferred) {
        const handle = {
          provider: model.provider,
          modelId: model.id,
          api: model.api,
          id: randomId("deferred"),
          ...(options.deferred?.pollAfterMs !== undefined
            ? { pollAfterMs: options.deferred.pollAfterMs }
            : {}),
        };
        deferredEntries.set(handle.id, {
          handle,
          step,
          context,
          options: streamOptions,
          model,
          pendingFetches: Math.max(0, Math.floor(options.deferred?.pendingFetches ?? 0)),
          cancelled: false,
        });
        await streamReply(out, deferredReply(model, handle), size, tokensPerSecond, streamOptions.signal);
        return;
      }
      const message = await resolve(step, context, streamOptions, model);
      await streamReply(out, message, size, tokensPerSecond, streamOptions?.signal);
    });
  };

  const fetchDeferred = (model: Model, handle: Loose, fetchOptions?: Loose): AssistantMessageEventStream => {
    state.deferredFetchCount++;
    return respond(model, async (out) => {
      await fetchOptions?.onResponse?.(OK_RESPONSE, model);
      const entry = deferredEntries.get(handle.id);
      const same = entry && entry.handle.provider === handle.provider &&
        entry.handle.modelId === handle.modelId &&
        entry.handle.api === handle.api;
      if (!same) throw new Error(`Unknown faux deferred response: ${handle.id}`);
      if (entry.cancelled) throw new Error(`Faux deferred response was cancelled: ${handle.id}`);
      if (entry.pendingFetches > 0) {
        entry.pendingFetches--;
        await streamReply(
          out,
          deferredReply(model, entry.handle),
          size,
          tokensPerSecond,
          fetchOptions?.signal,
        );
        return;
      }
      if (!entry.final) {
        // The reply is built once, without the submission's own signal and callbacks.
        const { deferred: _d, signal: _s, onResponse: _r, ...submitted } = entry.options ?? {};
        try {
          entry.final = await resolve(entry.step, entry.context, submitted, entry.model);
        } catch (error) {
          entry.final = failed(error, api, provider, entry.model.id);
        }
      }
      await streamReply(out, entry.final, size, tokensPerSecond, fetchOptions?.signal);
    });
  };

  const cancelDeferred = async (model: Model, handle: Loose, cancelOptions?: Loose): Promise<void> => {
    state.cancelledDeferred.push(structuredClone(handle));
    const entry = deferredEntries.get(handle.id);
    if (entry) entry.cancelled = true;
    await cancelOptions?.onResponse?.(OK_RESPONSE, model);
  };

  return {
    api,
    provider,
    models,
    stream,
    streamSimple: (model: Model, context: Context, streamOptions?: Loose) =>
      stream(model, context, streamOptions),
    fetchDeferred,
    cancelDeferred,
    /** The model with `id`, or the first one without an id. */
    getModel(id?: string): Model | undefined {
      return id ? models.find((model) => model.id === id) : models[0];
    },
    state,
    /** Replaces the reply queue. */
    setResponses(responses: FauxResponseStep[]): void {
      queue = [...responses];
    },
    /** Adds replies to the queue. */
    appendResponses(responses: FauxResponseStep[]): void {
      queue.push(...responses);
    },
    /** Replies still queued. */
    getPendingResponseCount(): number {
      return queue.length;
    },
  };
}

/** A faux provider registered under its API in the API registry until `unregister()`. */
export function registerFauxProvider(options: FauxProviderOptions = {}) {
  const core = createFauxCore(options);
  const sourceId = `faux-provider-${Math.random().toString(36).slice(2, 10)}`;
  registerApiProvider(
    { api: core.api, stream: core.stream, streamSimple: core.streamSimple } as Loose,
    sourceId,
  );
  return {
    api: core.api,
    models: core.models,
    getModel: core.getModel,
    state: core.state,
    setResponses: core.setResponses,
    appendResponses: core.appendResponses,
    getPendingResponseCount: core.getPendingResponseCount,
    /** Takes the provider out of the registry. */
    unregister(): void {
      unregisterApiProviders(sourceId);
    },
  };
}
