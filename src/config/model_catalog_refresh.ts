/**
 * `pi update --models`: asks the catalog server (https://pi.dev, as pi 1.6.0) for the catalog of each
 * built-in provider that has credentials, and caches the answers in models-store.json exactly as
 * 1.6.0 does (see model_catalog_cache.ts for how they are used). Per provider:
 * `GET /api/models/providers/<id>?types=chat,image,classifier` with `If-None-Match` when a cached
 * catalog has an ETag; 200 stores `{ models, lastModified, etag, checkedAt }`, 304 only moves
 * `checkedAt`, 404/501 (no catalog for this provider) stores `lastModified: 0`, any other status
 * keeps the cached models, moves `checkedAt` and is an error. Each attempt times out after 4 s and
 * is retried twice (also on 408/425/429/5xx), the whole refresh after 15 s.
 *
 * `PI_MODEL_CATALOG_URL` replaces the server's base URL (not in 1.6.0: used by the tests and for a
 * mirror; see docs/differences.md).
 *
 * @module
 */
import { VERSION } from "../version.ts";
import { FileAuthStorageBackend } from "./auth_storage_backend.ts";
import {
  CATALOG_MODEL_TYPES,
  type ModelsStoreData,
  modelsStorePath,
  parseModelsStore,
  type StoredCatalog,
} from "./model_catalog_cache.ts";

/** The catalog server pi 1.6.0 asks. */
export const DEFAULT_CATALOG_BASE_URL = "https://pi.dev";

const ATTEMPT_TIMEOUT_MS = 4_000;
const REFRESH_TIMEOUT_MS = 15_000;
const MAX_RETRIES = 2;
const RETRYABLE_STATUS = new Set([408, 425, 429, 500, 502, 503, 504]);

/** What to refresh and where. */
export interface CatalogRefreshOptions {
  agentDir: string;
  /** The built-in providers to ask for, in catalog order (those with credentials). */
  providers: readonly string[];
  /** The server's base URL (default {@link DEFAULT_CATALOG_BASE_URL}). */
  baseUrl?: string;
  /** Overall deadline (default 15 s, as 1.6.0). */
  timeoutMs?: number;
}

/** The providers whose refresh failed, each with its message, in the order given. */
export interface CatalogRefreshResult {
  failures: { provider: string; message: string }[];
  /** True when the overall deadline passed before every provider answered. */
  timedOut: boolean;
}

/** The User-Agent the server picks a catalog version by: `pi/<version> (<os>; deno/<v>; <arch>)`. */
function userAgent(): string {
  const arch = Deno.build.arch === "x86_64"
    ? "x64"
    : Deno.build.arch === "aarch64"
    ? "arm64"
    : Deno.build.arch;
  return `pi/${VERSION} (${Deno.build.os}; deno/${Deno.version.deno}; ${arch})`;
}

/** A network failure reads as in 1.6.0 ("fetch failed"), whatever the runtime calls it. */
class FetchFailed extends Error {
  constructor(cause: unknown) {
    super("fetch failed", { cause });
  }
}

async function fetchWithRetry(
  url: URL,
  headers: Record<string, string>,
  signal: AbortSignal,
): Promise<Response> {
  for (let attempt = 0;; attempt++) {
    signal.throwIfAborted();
    const attemptSignal = AbortSignal.any([signal, AbortSignal.timeout(ATTEMPT_TIMEOUT_MS)]);
    try {
      const response = await fetch(url, { headers, signal: attemptSignal });
      if (!RETRYABLE_STATUS.has(response.status) || attempt >= MAX_RETRIES) return response;
      await response.body?.cancel().catch(() => {});
    } catch (error) {
      if (signal.aborted) throw error;
      if (attempt >= MAX_RETRIES) throw error instanceof TypeError ? new FetchFailed(error) : error;
    }
  }
}

/** The catalog's entries with an id and a type this client reads, each given its provider. */
function parseCatalog(provider: string, value: unknown): Record<string, unknown>[] {
  const entries = Array.isArray(value)
    ? value
    : typeof value === "object" && value !== null && "models" in value &&
        Array.isArray((value as { models: unknown }).models)
    ? (value as { models: unknown[] }).models
    : typeof value === "object" && value !== null
    ? Object.values(value)
    : undefined;
  if (!entries) throw new Error(`Invalid model catalog for provider "${provider}"`);
  return entries
    .filter((entry): entry is Record<string, unknown> =>
      typeof entry === "object" && entry !== null && "id" in entry
    )
    .filter((model) =>
      model.type === undefined || (typeof model.type === "string" && CATALOG_MODEL_TYPES.includes(model.type))
    )
    .map((model) => ({ ...model, provider }));
}

/** Stores one provider's entry: a locked read-modify-write of the whole file, as 1.6.0's store. */
async function persist(
  backend: FileAuthStorageBackend,
  provider: string,
  entry: StoredCatalog,
): Promise<void> {
  await backend.withLockAsync((current) => {
    const data = parseModelsStore(current);
    data[provider] = structuredClone(entry);
    return Promise.resolve({ result: undefined, next: JSON.stringify(data, null, 2) });
  });
}

async function refreshProvider(
  provider: string,
  stored: StoredCatalog | undefined,
  baseUrl: string,
  backend: FileAuthStorageBackend,
  signal: AbortSignal,
): Promise<void> {
  const url = new URL(`/api/models/providers/${encodeURIComponent(provider)}`, baseUrl);
  url.searchParams.set("types", CATALOG_MODEL_TYPES.join(","));
  // Revalidate only when a cached body backs the ETag, so a 304 never leaves the catalog empty.
  const validator = stored && stored.models.length > 0 ? stored.etag : undefined;
  const response = await fetchWithRetry(url, {
    accept: "application/json",
    "User-Agent": userAgent(),
    ...(validator ? { "if-none-match": validator } : {}),
  }, signal);
  const checkedAt = Date.now();
  if (response.status === 304 && stored) {
    await response.body?.cancel().catch(() => {});
    return persist(backend, provider, { ...stored, checkedAt });
  }
  if (response.status === 404 || response.status === 501) {
    await response.body?.cancel().catch(() => {});
    return persist(backend, provider, {
      ...(stored ?? { models: [] }),
      checkedAt,
      lastModified: 0,
      etag: undefined,
    });
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => {});
    // The cached body and its ETag stay valid: the next refresh can still revalidate them.
    await persist(backend, provider, { ...(stored ?? { models: [] }), checkedAt });
    throw new Error(`Model catalog request failed for ${provider}: ${response.status}`);
  }
  const lastModified = Date.parse(response.headers.get("last-modified") ?? "");
  const etag = response.headers.get("etag") ?? undefined;
  const models = parseCatalog(provider, await response.json());
  await persist(backend, provider, {
    models,
    lastModified: Number.isNaN(lastModified) ? 0 : lastModified,
    etag,
    checkedAt,
  });
}

/**
 * Refreshes the catalogs of `providers` in parallel. Throws only when models-store.json cannot be
 * read (it is then left as it is); each provider's failure is in the result.
 */
export async function refreshModelCatalogs(options: CatalogRefreshOptions): Promise<CatalogRefreshResult> {
  const path = modelsStorePath(options.agentDir);
  let text: string | undefined;
  try {
    text = Deno.readTextFileSync(path);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  let stored: ModelsStoreData;
  try {
    stored = parseModelsStore(text);
  } catch (error) {
    throw new Error(
      `${path} could not be read (${(error as Error).message}); fix or delete it, nothing was changed`,
    );
  }
  const backend = new FileAuthStorageBackend(path);
  const baseUrl = options.baseUrl ?? DEFAULT_CATALOG_BASE_URL;
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), options.timeoutMs ?? REFRESH_TIMEOUT_MS);
  const failures: { provider: string; message: string }[] = [];
  try {
    const outcomes = await Promise.all(options.providers.map(async (provider) => {
      try {
        await refreshProvider(provider, stored[provider], baseUrl, backend, deadline.signal);
        return undefined;
      } catch (error) {
        if (deadline.signal.aborted) return undefined;
        return { provider, message: error instanceof Error ? error.message : String(error) };
      }
    }));
    for (const outcome of outcomes) if (outcome) failures.push(outcome);
  } finally {
    clearTimeout(timer);
  }
  return { failures, timedOut: deadline.signal.aborted };
}
