/**
 * 1.6.0's prompt-cache warming policy as pi-ai exports it to extensions: when a refresh of a
 * provider's prompt cache is due, whether a request can be replayed to refresh it, and whether a
 * refresh pays for itself. The numbers are 1.6.0's; hosts (an extension) own the scheduling.
 *
 * @module
 */
import { calculateCost } from "../../ai/cost.ts";
import { emptyUsage, type Model, type SimpleStreamOptions, type Usage } from "../../ai/types.ts";
import { readEnv } from "../../util/env.ts";

/** Whether a refresh is sent ("warm") or warming ends until the next real request ("stop"). */
export type CacheWarmingAction = "warm" | "stop";
/** "streaming" while the agent run that sent the request is active; "idle" after it settled. */
export type CacheWarmingPhase = "streaming" | "idle";

/** Inputs and outcome of one warm-or-stop decision. */
export interface CacheWarmingDecision {
  /** The phase decided for. */
  phase: CacheWarmingPhase;
  /** Price of this refresh: a cache read of the prompt plus one output token. */
  warmCost: number;
  /** Extra price of the next real request if the cache entry is lost. */
  missCost: number;
  /** Estimated chance that a real request arrives before the entry expires. */
  continuationProbability: number;
  /** `continuationProbability * missCost - warmCost`. */
  expectedSavings: number;
  /** False when the prompt size or the model's prices are unknown. */
  economicsAvailable: boolean;
  /** "warm" when `expectedSavings` reaches {@link CACHE_WARMING_MINIMUM_EXPECTED_SAVINGS}. */
  action: CacheWarmingAction;
}

/** Streaming warming never continues past this long after the real request that started it. */
export const CACHE_WARMING_MAX_AGE_MS: number = 60 * 60_000;
/** Idle warming stops sooner: the chance of a continuation estimate gets worse with age. */
export const CACHE_WARMING_MAX_IDLE_AGE_MS: number = 30 * 60_000;
/** A refresh is sent only when it is expected to save at least this many dollars. */
export const CACHE_WARMING_MINIMUM_EXPECTED_SAVINGS = 0.05;
/** Chance that a real request arrives before an idle agent's cache entry expires (1.6.0's figure). */
export const CACHE_WARMING_IDLE_CONTINUATION_PROBABILITY = 0.15;

/** When to refresh an entry living `ttlMs`: at 90% of it, keeping at least ten seconds of margin. */
export function getCacheWarmingDelayMs(ttlMs: number): number | undefined {
  if (ttlMs <= 10_000) return undefined;
  return Math.max(1, Math.floor(Math.min(ttlMs * 0.9, ttlMs - 10_000)));
}

/**
 * Lifetime in ms of the cache entry a request writes: the model's `promptCache` seconds for the
 * request's retention (option, else `PI_CACHE_RETENTION=long`, else short); undefined when the
 * model gives none or caching is off.
 */
export function getPromptCacheTtlMs(
  model: Model,
  options: SimpleStreamOptions | undefined,
): number | undefined {
  const retention = options?.cacheRetention ??
    ((options?.env?.PI_CACHE_RETENTION || readEnv("PI_CACHE_RETENTION")) === "long" ? "long" : "short");
  if (retention === "none") return undefined;
  const seconds = model.promptCache?.[retention];
  return seconds === undefined ? undefined : seconds * 1000;
}

/**
 * Whether replaying a request with a one-token output cap keeps its cache entry: not for
 * Anthropic's budget-based thinking, whose budget follows `max_tokens` and is part of the key.
 */
export function isCacheWarmingReplayable(model: Model, options: SimpleStreamOptions | undefined): boolean {
  if (!options?.reasoning || model.api !== "anthropic-messages") return true;
  return (model.compat as { forceAdaptiveThinking?: boolean } | undefined)?.forceAdaptiveThinking === true;
}

/** The options of a refresh: the request's own, one output token, no retries, no continuation. */
export function getCacheWarmingRequestOptions<T extends SimpleStreamOptions>(
  options: T,
  signal: AbortSignal,
): T {
  return { ...options, maxTokens: 1, disableContinuation: true, maxRetries: 0, signal };
}

/** Whether refreshing the cache entry of a `promptTokens`-token request pays for itself in `phase`. */
export function evaluateCacheWarming(
  model: Model,
  promptTokens: number,
  phase: CacheWarmingPhase,
): CacheWarmingDecision {
  const hit = price(model, { cacheRead: promptTokens });
  const miss = price(
    model,
    model.cost.cacheWrite > 0 ? { cacheWrite: promptTokens } : { input: promptTokens },
  );
  const warmCost = price(model, { cacheRead: promptTokens, output: 1 });
  const missCost = Math.max(0, miss - hit);
  const continuationProbability = phase === "idle" ? CACHE_WARMING_IDLE_CONTINUATION_PROBABILITY : 1;
  const expectedSavings = continuationProbability * missCost - warmCost;
  return {
    phase,
    warmCost,
    missCost,
    continuationProbability,
    expectedSavings,
    economicsAvailable: promptTokens > 0 && (hit > 0 || miss > 0),
    action: expectedSavings >= CACHE_WARMING_MINIMUM_EXPECTED_SAVINGS ? "warm" : "stop",
  };
}

function price(
  model: Model,
  tokens: Partial<Pick<Usage, "input" | "output" | "cacheRead" | "cacheWrite">>,
): number {
  return calculateCost(model, { ...emptyUsage(), ...tokens }).total;
}
