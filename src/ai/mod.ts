/**
 * The LLM layer (pi-ai's names): models and their catalog, `stream`/`complete` on the built-in wire
 * APIs, the provider registry, API keys from the environment, thinking levels and overflow checks.
 * It imports nothing else of pi, so a script that only talks to models loads only this.
 *
 * @example
 * ```ts
 * import { complete, getModel } from "@pi-deno/coding-agent/ai";
 *
 * const model = getModel("anthropic", "claude-sonnet-4-5");
 * if (!model) throw new Error("model not in the catalog");
 * const reply = await complete(model, {
 *   messages: [{ role: "user", content: "Say hello", timestamp: Date.now() }],
 * });
 * console.log(reply.content);
 * ```
 *
 * @module
 */

export * from "./types.ts";
export * from "./event_stream.ts";
export {
  clearApiProviders,
  getApiProvider,
  getApiProviders,
  registerApiProvider,
  unregisterApiProviders,
} from "./api_registry.ts";
export type { ApiProvider, ApiStreamFunction, ApiStreamSimpleFunction } from "./api_provider.ts";
export { complete, completeSimple, stream, streamSimple } from "./stream.ts";
export { findEnvKeys, getApiKeyEnvVars, getEnvApiKey } from "./env_api_keys.ts";
export type { ProviderEnv } from "./env_api_keys.ts";
export { calculateCost, getModel, getModels, getProviders, modelsAreEqual } from "./models.ts";
export {
  clampThinkingLevel,
  getSupportedThinkingLevels,
  supportsXhigh,
  THINKING_LEVELS,
} from "./thinking.ts";
export { getOverflowPatterns, isContextOverflow } from "./overflow.ts";
export { isRetryableError } from "./retryable.ts";
export { parseStreamingJson } from "./json_parse.ts";
export { transformMessages } from "./transform_messages.ts";
export type { NormalizeToolCallId } from "./transform_messages.ts";
export { validateToolArguments, validateToolCall } from "./validation.ts";
export { streamAnthropic, streamSimpleAnthropic } from "./providers/anthropic.ts";
export type { AnthropicOptions } from "./providers/anthropic.ts";
export type {
  AnthropicEffort,
  AnthropicThinkingDisplay,
  AnthropicToolChoice,
} from "./providers/anthropic_request.ts";
export { streamOpenAICompletions, streamSimpleOpenAICompletions } from "./providers/openai_completions.ts";
export type { OpenAICompletionsOptions } from "./providers/openai_completions.ts";
export { streamOpenAIResponses, streamSimpleOpenAIResponses } from "./providers/openai_responses.ts";
export type { OpenAIResponsesOptions } from "./providers/openai_responses.ts";
export { streamGoogle, streamSimpleGoogle } from "./providers/google.ts";
export type { GoogleOptions } from "./providers/google.ts";
export type { GoogleThinkingLevel, GoogleToolChoice } from "./providers/google_convert.ts";
