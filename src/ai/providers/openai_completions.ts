/**
 * Placeholder until the openai-completions implementation lands.
 *
 * @module
 */
import type { ApiProvider } from "../api_registry.ts";
import { AssistantMessageEventStream } from "../event_stream.ts";

/** Not implemented yet: every call ends in an error event. */
export const provider: ApiProvider = {
  api: "openai-completions",
  stream: (model) => notImplemented(model.api, model.provider, model.id),
  streamSimple: (model) => notImplemented(model.api, model.provider, model.id),
};

function notImplemented(api: string, providerName: string, id: string): AssistantMessageEventStream {
  const s = new AssistantMessageEventStream();
  const message = {
    role: "assistant" as const,
    content: [],
    api,
    provider: providerName,
    model: id,
    usage: {
      input: 0,
      output: 0,
      cacheRead: 0,
      cacheWrite: 0,
      totalTokens: 0,
      cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
    },
    stopReason: "error" as const,
    errorMessage: "openai-completions is not implemented yet",
    timestamp: Date.now(),
  };
  queueMicrotask(() => s.push({ type: "error", reason: "error", error: message }));
  return s;
}
