/**
 * How models.json overrides combine with built-in model records (PROV-07).
 *
 * @module
 */

import type { Model, OpenAICompletionsCompat } from "../ai/types.ts";
import type { ModelOverride, ProviderCompat } from "./models_json.ts";

/** Merges compat objects; OpenRouter / Vercel routing objects merge one level deeper instead of replacing. */
export function mergeCompat(
  baseCompat: Model["compat"] | ProviderCompat | undefined,
  overrideCompat: Model["compat"] | ProviderCompat | undefined,
): Model["compat"] | undefined {
  if (!overrideCompat) return baseCompat as Model["compat"];
  const base = baseCompat as OpenAICompletionsCompat | undefined;
  const override = overrideCompat as OpenAICompletionsCompat;
  const merged: OpenAICompletionsCompat = { ...base, ...override };
  if (base?.openRouterRouting || override.openRouterRouting) {
    merged.openRouterRouting = { ...base?.openRouterRouting, ...override.openRouterRouting };
  }
  if (base?.vercelGatewayRouting || override.vercelGatewayRouting) {
    merged.vercelGatewayRouting = { ...base?.vercelGatewayRouting, ...override.vercelGatewayRouting };
  }
  return merged;
}

/** Applies a per-model override: scalars replace, cost merges per field, thinking map and compat merge. */
export function applyModelOverride(model: Model, override: ModelOverride): Model {
  const result: Model = { ...model };
  if (override.name !== undefined) result.name = override.name;
  if (override.reasoning !== undefined) result.reasoning = override.reasoning;
  if (override.thinkingLevelMap !== undefined) {
    result.thinkingLevelMap = { ...model.thinkingLevelMap, ...override.thinkingLevelMap };
  }
  if (override.input !== undefined) result.input = override.input;
  if (override.contextWindow !== undefined) result.contextWindow = override.contextWindow;
  if (override.maxTokens !== undefined) result.maxTokens = override.maxTokens;
  if (override.cost) {
    result.cost = {
      input: override.cost.input ?? model.cost.input,
      output: override.cost.output ?? model.cost.output,
      cacheRead: override.cost.cacheRead ?? model.cost.cacheRead,
      cacheWrite: override.cost.cacheWrite ?? model.cost.cacheWrite,
    };
  }
  result.compat = mergeCompat(model.compat, override.compat);
  return result;
}
