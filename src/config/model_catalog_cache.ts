/**
 * The cached provider catalogs of `<agentDir>/models-store.json` (pi 1.6.0's `FileModelsStore`): one
 * entry per built-in provider, `{ models, lastModified, etag, checkedAt }`, written by
 * `pi update --models` (see model_catalog_refresh.ts). A cached catalog adds to (and by id replaces)
 * the built-in models of its provider only when the catalog server published it after the built-in
 * model data was generated, as 1.6.0 does; older ones are kept but not used.
 *
 * @module
 */
import type { Model } from "../ai/types.ts";
import { join } from "../util/path.ts";

/**
 * When the built-in model data was generated (pi-ai 1.6.0's data manifest, which src/ai/models
 * mirrors): a cached catalog is used only when its Last-Modified is later.
 */
export const BUILTIN_MODEL_DATA_GENERATED_AT: number = Date.parse("2026-11-20T10:48:49.496Z");

/** Model types this client reads from a catalog (1.6.0's `REMOTE_CATALOG_MODEL_TYPES`). */
export const CATALOG_MODEL_TYPES: readonly string[] = ["chat", "image", "classifier"];

/** One provider's cached catalog, as 1.6.0 stores it. */
export interface StoredCatalog {
  /** The catalog's models, each with its `provider`. */
  models: Record<string, unknown>[];
  /** The server's Last-Modified (ms since the epoch); 0 when it had none or no catalog exists. */
  lastModified?: number;
  /** The server's ETag, sent back as If-None-Match on the next refresh. */
  etag?: string;
  /** When the server was last asked (ms since the epoch). */
  checkedAt?: number;
}

/** The whole models-store.json: provider id → cached catalog. */
export type ModelsStoreData = Record<string, StoredCatalog>;

/** The store's path in an agent folder. */
export function modelsStorePath(agentDir: string): string {
  return join(agentDir, "models-store.json");
}

/**
 * Parses models-store.json's text (a leading BOM is ignored, empty text is an empty store). Throws a
 * SyntaxError for text that is not JSON, and an Error when the top level is not an object.
 */
export function parseModelsStore(text: string | undefined): ModelsStoreData {
  if (!text) return {};
  const value: unknown = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new Error("models-store.json does not hold a JSON object");
  }
  return value as ModelsStoreData;
}

function isChatModel(model: Record<string, unknown>): boolean {
  return model.type === undefined || model.type === "chat";
}

/**
 * The cached chat models to lay over each built-in provider: only catalogs newer than the built-in
 * data, only models of that provider. A missing or unreadable store gives no overlays (pi runs on the
 * built-in data then, as 1.6.0 does when the store cannot be read).
 */
export function readCatalogOverlays(agentDir: string): Map<string, Model[]> {
  const overlays = new Map<string, Model[]>();
  let data: ModelsStoreData;
  try {
    data = parseModelsStore(Deno.readTextFileSync(modelsStorePath(agentDir)));
  } catch {
    return overlays;
  }
  for (const [provider, entry] of Object.entries(data)) {
    if (typeof entry !== "object" || entry === null || !Array.isArray(entry.models)) continue;
    const lastModified = entry.lastModified;
    if (typeof lastModified !== "number" || !(lastModified > BUILTIN_MODEL_DATA_GENERATED_AT)) continue;
    const models = entry.models.filter((model) =>
      typeof model === "object" && model !== null && typeof model.id === "string" &&
      model.provider === provider && isChatModel(model)
    );
    if (models.length > 0) overlays.set(provider, models as unknown as Model[]);
  }
  return overlays;
}

/** The built-in models with a cached catalog laid over them: same id replaces in place, new ids append. */
export function withCatalogOverlay(
  builtIns: readonly Model[],
  overlay: readonly Model[] | undefined,
): Model[] {
  if (!overlay || overlay.length === 0) return [...builtIns];
  const merged = [...builtIns];
  for (const model of overlay) {
    const index = merged.findIndex((m) => m.id === model.id);
    if (index >= 0) merged[index] = model;
    else merged.push(model);
  }
  return merged;
}
