/**
 * Dollar cost of a reply from its token counts and the model's per-million prices.
 *
 * @module
 */
import type { Model, ModelCostRates, Usage } from "./types.ts";

/**
 * Fills `usage.cost` (mutating it, as the reference does, so streamed messages carry their
 * cost) and returns it. `usage.input` excludes cache reads and writes; each is priced apart.
 * As pi-ai 1.x: the prompt size (input plus cache reads and writes) picks the highest price
 * tier it exceeds, 1-hour cache writes cost twice the input price, and the total is marked as
 * an estimate (`totalFromProvider: false`).
 */
export function calculateCost(model: Pick<Model, "cost">, usage: Usage): Usage["cost"] {
  const promptTokens = usage.input + usage.cacheRead + usage.cacheWrite;
  let rates: ModelCostRates = model.cost;
  let threshold = -1;
  for (const tier of model.cost.tiers ?? []) {
    if (promptTokens > tier.inputTokensAbove && tier.inputTokensAbove > threshold) {
      rates = tier;
      threshold = tier.inputTokensAbove;
    }
  }
  const longWrite = usage.cacheWrite1h ?? 0;
  const shortWrite = usage.cacheWrite - longWrite;
  usage.cost.input = (rates.input / 1000000) * usage.input;
  usage.cost.output = (rates.output / 1000000) * usage.output;
  usage.cost.cacheRead = (rates.cacheRead / 1000000) * usage.cacheRead;
  usage.cost.cacheWrite = (rates.cacheWrite * shortWrite + rates.input * 2 * longWrite) / 1000000;
  usage.cost.total = usage.cost.input + usage.cost.output + usage.cost.cacheRead + usage.cost.cacheWrite;
  usage.cost.totalFromProvider = false;
  return usage.cost;
}
