/**
 * The built-in model catalog with synchronous lookups, like the reference's. Importing this module
 * loads every provider's data (about 1 MB); the CLI uses src/ai/model_catalog.ts instead, which
 * loads only the providers a run needs.
 *
 * @module
 */
import { builtinProviders, loadBuiltinModels, loadedBuiltinModels } from "./model_catalog.ts";
import type { Model } from "./types.ts";

export { calculateCost } from "./cost.ts";
export { modelsAreEqual } from "./model_equality.ts";

await loadBuiltinModels();

/** The built-in model `id` of `provider`, or undefined. */
export function getModel(provider: string, id: string): Model | undefined {
  return loadedBuiltinModels(provider)?.find((model) => model.id === id);
}

/** All built-in models of `provider` in catalog order (empty for unknown providers). */
export function getModels(provider: string): Model[] {
  return [...loadedBuiltinModels(provider) ?? []];
}

/** Providers with built-in models, in catalog order. */
export function getProviders(): string[] {
  return [...builtinProviders()];
}
