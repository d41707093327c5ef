/**
 * Which code streams which wire API. Built-in providers are loaded on first use through
 * literal dynamic imports (cheap start-up, and `deno compile` still sees every module);
 * custom providers and extensions register theirs directly.
 *
 * @module
 */
import type { ApiProvider, ApiProviderModule } from "./api_provider.ts";
import type { Api } from "./types.ts";

const builtinLoaders: Record<string, () => Promise<ApiProviderModule>> = {
  "anthropic-messages": () => import("./providers/anthropic.ts"),
  "openai-completions": () => import("./providers/openai_completions.ts"),
  "openai-responses": () => import("./providers/openai_responses.ts"),
  "google-generative-ai": () => import("./providers/google.ts"),
  "google-vertex": () => import("./providers/google_vertex.ts"),
  "bedrock-converse-stream": () => import("./providers/bedrock.ts"),
  "azure-openai-responses": () => import("./providers/azure_openai_responses.ts"),
  "mistral-conversations": () => import("./providers/mistral.ts"),
  "openai-codex-responses": () => import("./providers/openai_codex_responses.ts"),
  "pi-messages": () => import("./providers/pi_messages.ts"),
};

const registered = new Map<string, { provider: ApiProvider; sourceId?: string }>();

/** Registers (or replaces) the implementation of an API; `sourceId` allows bulk removal. */
export function registerApiProvider(provider: ApiProvider, sourceId?: string): void {
  registered.set(provider.api, { provider, sourceId });
}

/** The registered implementation of an API, if it is loaded. */
export function getApiProvider(api: Api): ApiProvider | undefined {
  return registered.get(api)?.provider;
}

/** All registered implementations. */
export function getApiProviders(): ApiProvider[] {
  return [...registered.values()].map((r) => r.provider);
}

/** Removes every implementation registered with `sourceId`. */
export function unregisterApiProviders(sourceId: string): void {
  for (const [api, entry] of registered) if (entry.sourceId === sourceId) registered.delete(api);
}

/** Removes every registered implementation (built-ins load again on next use). */
export function clearApiProviders(): void {
  registered.clear();
}

/** True when a built-in implementation exists for the API. */
export function hasBuiltinApi(api: Api): boolean {
  return api in builtinLoaders;
}

/** The APIs with a built-in implementation. */
export function builtinApis(): Api[] {
  return Object.keys(builtinLoaders);
}

/** Loads the built-in implementation of an API (whatever is registered for it). */
export async function loadBuiltinApiProvider(api: Api): Promise<ApiProvider | undefined> {
  const load = builtinLoaders[api];
  return load ? (await load()).provider : undefined;
}

/** Resolves the implementation of an API, loading a built-in one on first use. */
export async function loadApiProvider(api: Api): Promise<ApiProvider | undefined> {
  const existing = getApiProvider(api);
  if (existing) return existing;
  const load = builtinLoaders[api];
  if (!load) return undefined;
  const { provider } = await load();
  if (!registered.has(api)) registered.set(api, { provider });
  return getApiProvider(api);
}
