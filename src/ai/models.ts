/**
 * The built-in model catalog. Lookups are synchronous like the reference's; the catalog data
 * is parsed on the first lookup, and only code that needs models imports this module (the
 * `--version` path never does).
 *
 * @module
 */
import { builtinModels } from "./models_generated.ts";
import type { Model } from "./types.ts";

export { calculateCost } from "./cost.ts";

let registry: Map<string, Map<string, Model>> | undefined;

function catalog(): Map<string, Map<string, Model>> {
  if (!registry) {
    registry = new Map();
    for (const [provider, models] of Object.entries(builtinModels())) {
      registry.set(provider, new Map(Object.entries(models)));
    }
  }
  return registry;
}

/** The built-in model `id` of `provider`, or undefined. */
export function getModel(provider: string, id: string): Model | undefined {
  return catalog().get(provider)?.get(id);
}

/** All built-in models of `provider` in catalog order (empty for unknown providers). */
export function getModels(provider: string): Model[] {
  const models = catalog().get(provider);
  return models ? [...models.values()] : [];
}

/** Providers with built-in models, in catalog order. */
export function getProviders(): string[] {
  return [...catalog().keys()];
}

/** Same model: equal id and provider; false when either is missing. */
export function modelsAreEqual(
  a: Pick<Model, "id" | "provider"> | null | undefined,
  b: Pick<Model, "id" | "provider"> | null | undefined,
): boolean {
  if (!a || !b) return false;
  return a.id === b.id && a.provider === b.provider;
}
