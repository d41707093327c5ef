/**
 * Dollar cost of a reply from its token counts and the model's per-million prices.
 *
 * @module
 */
import type { Model, Usage } from "./types.ts";

/**
 * Fills `usage.cost` (mutating it, as the reference does, so streamed messages carry their
 * cost) and returns it. `usage.input` excludes cache reads and writes; each is priced apart.
 */
export function calculateCost(model: Pick<Model, "cost">, usage: Usage): Usage["cost"] {
  usage.cost.input = (model.cost.input / 1000000) * usage.input;
  usage.cost.output = (model.cost.output / 1000000) * usage.output;
  usage.cost.cacheRead = (model.cost.cacheRead / 1000000) * usage.cacheRead;
  usage.cost.cacheWrite = (model.cost.cacheWrite / 1000000) * usage.cacheWrite;
  usage.cost.total = usage.cost.input + usage.cost.output + usage.cost.cacheRead + usage.cost.cacheWrite;
  return usage.cost;
}
