/**
 * Turns `streamSimple` options into provider options. Shared so every provider derives the
 * same defaults (output cap, thinking budgets) from the one `reasoning` knob.
 *
 * @module
 */
import type { Model, SimpleStreamOptions, StreamOptions, ThinkingBudgets, ThinkingLevel } from "./types.ts";

/** Default token budgets per thinking level for token-budget APIs. */
export const DEFAULT_THINKING_BUDGETS: Required<ThinkingBudgets> = {
  minimal: 1024,
  low: 2048,
  medium: 8192,
  high: 16384,
};

/** Output tokens kept free for the answer when the thinking budget would eat the whole cap. */
export const MIN_OUTPUT_TOKENS = 1024;

/** Default output cap of a simple request: the model's limit, at most 32000. */
export const DEFAULT_MAX_OUTPUT_TOKENS = 32000;

/**
 * The provider-independent options of a simple request. `maxTokens` defaults to
 * min(model.maxTokens, 32000); an explicitly resolved `apiKey` wins over `options.apiKey`.
 */
export function buildBaseOptions(
  model: Model,
  options?: SimpleStreamOptions,
  apiKey?: string,
): StreamOptions {
  return {
    temperature: options?.temperature,
    maxTokens: options?.maxTokens ??
      (model.maxTokens > 0 ? Math.min(model.maxTokens, DEFAULT_MAX_OUTPUT_TOKENS) : undefined),
    signal: options?.signal,
    apiKey: apiKey || options?.apiKey,
    transport: options?.transport,
    cacheRetention: options?.cacheRetention,
    sessionId: options?.sessionId,
    headers: options?.headers,
    onPayload: options?.onPayload,
    onResponse: options?.onResponse,
    timeoutMs: options?.timeoutMs,
    maxRetries: options?.maxRetries,
    maxRetryDelayMs: options?.maxRetryDelayMs,
    metadata: options?.metadata,
    env: options?.env,
  };
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
