/**
 * Turns `streamSimple` options into provider options. Shared so every provider derives the
 * same defaults (output cap, thinking budgets) from the one `reasoning` knob.
 *
 * @module
 */
import { estimateContextTokens } from "./context_estimate.ts";
import { clampThinkingLevel } from "./thinking.ts";
import type {
  Context,
  Model,
  ModelThinkingLevel,
  SimpleStreamOptions,
  StreamOptions,
  ThinkingBudgets,
  ThinkingLevel,
} from "./types.ts";

/** Default token budgets per thinking level for token-budget APIs. */
export const DEFAULT_THINKING_BUDGETS: Required<ThinkingBudgets> = {
  minimal: 1024,
  low: 2048,
  medium: 8192,
  high: 16384,
};

/** Output tokens kept free for the answer when the thinking budget would eat the whole cap. */
export const MIN_OUTPUT_TOKENS = 1024;

// Room kept free besides the estimated input: OpenRouter counts input with its own tokenizer and
// rejects input + max_tokens above the window (it counted prose up to 12% high).
const CONTEXT_SAFETY_TOKENS = 4096;
const CONTEXT_SAFETY_RATIO = 0.15;
// The 15% margin only while it leaves this much output; otherwise the fixed margin, with output
// capped at this size.
const MIN_OUTPUT_WITH_RATIO_MARGIN = 32768;

/**
 * `maxTokens` fitted into the model's context window, leaving room for the input being counted
 * higher than estimated (pi-ai 1.x). Never below 1.
 */
export function clampMaxTokensToContext(model: Model, context: Context, maxTokens: number): number {
  if (model.contextWindow <= 0) return Math.max(1, maxTokens);
  const input = estimateContextTokens(context);
  const margin = Math.max(CONTEXT_SAFETY_TOKENS, Math.ceil(input * CONTEXT_SAFETY_RATIO));
  let room = model.contextWindow - input - margin;
  if (room < MIN_OUTPUT_WITH_RATIO_MARGIN) {
    room = Math.min(MIN_OUTPUT_WITH_RATIO_MARGIN, model.contextWindow - input - CONTEXT_SAFETY_TOKENS);
  }
  return Math.min(maxTokens, Math.max(1, room));
}

/**
 * The provider-independent options of a simple request. `maxTokens` defaults to the model's
 * limit, fitted into the context window with the request's estimated size (pi-ai 1.x; 0.73
 * capped it at 32000); an explicitly resolved `apiKey` wins over `options.apiKey`.
 */
export function buildBaseOptions(
  model: Model,
  context: Context,
  options?: SimpleStreamOptions,
  apiKey?: string,
): StreamOptions {
  return {
    temperature: options?.temperature,
    samplingParams: resolveSamplingParams(model, options?.reasoning ?? "off", options?.samplingParams),
    maxTokens: clampMaxTokensToContext(model, context, options?.maxTokens ?? model.maxTokens),
    signal: options?.signal,
    apiKey: apiKey || options?.apiKey,
    transport: options?.transport,
    websocketConnectTimeoutMs: options?.websocketConnectTimeoutMs,
    cacheRetention: options?.cacheRetention,
    sessionId: options?.sessionId,
    headers: options?.headers,
    onPayload: options?.onPayload,
    onResponse: options?.onResponse,
    onProviderStreamEvent: options?.onProviderStreamEvent,
    timeoutMs: options?.timeoutMs,
    idleTimeoutMs: options?.idleTimeoutMs,
    maxRetries: options?.maxRetries,
    maxRetryDelayMs: options?.maxRetryDelayMs,
    metadata: options?.metadata,
    env: options?.env,
  };
}

/**
 * The sampling fields of a request at `level` (clamped to the model): the model's `samplingParams`, then its
 * `samplingParamsByThinkingLevel` entry, then the request's own, each key overriding the one before; undefined
 * when none of them exists.
 */
export function resolveSamplingParams(
  model: Pick<Model, "reasoning" | "thinkingLevelMap" | "samplingParams" | "samplingParamsByThinkingLevel">,
  level: ModelThinkingLevel,
  requestParams?: Record<string, unknown>,
): Record<string, unknown> | undefined {
  const byLevel = model.samplingParamsByThinkingLevel?.[clampThinkingLevel(model, level)];
  if (!model.samplingParams && !byLevel && !requestParams) return undefined;
  return { ...model.samplingParams, ...byLevel, ...requestParams };
}

/** A level token-budget APIs know: everything below "xhigh". */
export type BudgetThinkingLevel = Exclude<ThinkingLevel, "xhigh" | "max">;

/** Levels APIs without "xhigh" or "max" efforts accept: both become high. */
export function clampReasoning(effort: ThinkingLevel): BudgetThinkingLevel;
export function clampReasoning(effort: ThinkingLevel | undefined): BudgetThinkingLevel | undefined;
export function clampReasoning(effort: ThinkingLevel | undefined): BudgetThinkingLevel | undefined {
  return effort === "xhigh" || effort === "max" ? "high" : effort;
}

/**
 * For token-budget thinking: the thinking budget is added on top of the requested output, capped
 * by the model's limit; if the cap leaves no room for an answer, the budget shrinks so that at
 * least 1024 tokens remain for output.
 */
export function adjustMaxTokensForThinking(
  baseMaxTokens: number,
  modelMaxTokens: number,
  reasoningLevel: ThinkingLevel,
  customBudgets?: ThinkingBudgets,
): { maxTokens: number; thinkingBudget: number } {
  const budgets = { ...DEFAULT_THINKING_BUDGETS, ...customBudgets };
  let thinkingBudget = budgets[clampReasoning(reasoningLevel)];
  const maxTokens = Math.min(baseMaxTokens + thinkingBudget, modelMaxTokens);
  if (maxTokens <= thinkingBudget) thinkingBudget = Math.max(0, maxTokens - MIN_OUTPUT_TOKENS);
  return { maxTokens, thinkingBudget };
}

/**
 * Simple-request options for the wire APIs that take a reasoning effort (the two OpenAI APIs):
 * the base options, the tool choice, and `reasoning` clamped to the model ("off" sends none).
 */
export function buildEffortOptions(
  model: Model,
  context: Context,
  options?: SimpleStreamOptions,
): StreamOptions & { toolChoice?: "auto" | "none"; reasoningEffort?: ThinkingLevel } {
  const level = options?.reasoning ? clampThinkingLevel(model, options.reasoning) : undefined;
  return {
    ...buildBaseOptions(model, context, options, options?.apiKey),
    toolChoice: options?.toolChoice,
    reasoningEffort: level === "off" ? undefined : level,
  };
}
