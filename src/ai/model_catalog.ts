/**
 * The built-in model catalog, loaded per provider. Each provider's models are a JSON module of their
 * own (src/ai/models/<provider>.json), imported on first need: a run that names its model loads only
 * that provider's data instead of the whole catalog (about 1 MB, 1698 models). Lookups here are
 * synchronous over what has been loaded; {@link loadBuiltinModels} loads more.
 *
 * @module
 */
import index from "./models/_index.json" with { type: "json" };
import { MODEL_ID_HASH_WIDTH, modelIdHash } from "./model_id_hash.ts";
import type { Model } from "./types.ts";

const catalogIndex = index as { providers: string[]; slashIds: Record<string, string> };
const loaded = new Map<string, Model[]>();

/** Every built-in provider in catalog order, loaded or not. */
export function builtinProviders(): readonly string[] {
  return catalogIndex.providers;
}

/**
 * Loads the built-in models of `providers` (all providers when omitted); unknown names are ignored.
 * Loading twice is free.
 */
export async function loadBuiltinModels(
  providers: readonly string[] = catalogIndex.providers,
): Promise<void> {
  const missing = providers.filter((provider) => !loaded.has(provider));
  if (missing.length === 0) return;
  // The loader (one case per provider) loads only when some provider's data is needed.
  const { loadProviderModels } = await import("./models_generated.ts");
  await Promise.all(missing.map(async (provider) => {
    if (loaded.has(provider)) return;
    const pending = loadProviderModels(provider);
    if (!pending) return;
    const models = Object.values(await pending);
    loaded.set(provider, models);
  }));
}

/** Whether every built-in provider's models are loaded. */
export function allBuiltinModelsLoaded(): boolean {
  return loaded.size === catalogIndex.providers.length;
}

/** The loaded built-in models of `provider` in catalog order; undefined when not loaded (or unknown). */
export function loadedBuiltinModels(provider: string): Model[] | undefined {
  return loaded.get(provider);
}

/**
 * Built-in providers that may have a model whose id is `id` (case-insensitive; only ids containing
 * `/` are indexed). The index holds hashes, so a rare collision names a provider too many, never too few.
 */
export function providersWithSlashId(id: string): readonly string[] {
  const wanted = modelIdHash(id);
  return Object.entries(catalogIndex.slashIds).filter(([, hashes]) => {
    for (let at = 0; at < hashes.length; at += MODEL_ID_HASH_WIDTH) {
      if (hashes.startsWith(wanted, at)) return true;
    }
    return false;
  }).map(([provider]) => provider);
}
