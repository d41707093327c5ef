/**
 * The `llama.cpp` provider of pi 1.6.0's built-in extension in this build's model registry. The
 * router is configured by a stored credential (`/login llama.cpp` in 1.6.0: auth.json
 * `{"llama.cpp": {"type": "api_key", "key"?, "env": {"LLAMA_BASE_URL": …}}}`) or by the
 * `LLAMA_BASE_URL` variable; the key is the credential's, else `LLAMA_API_KEY`, else `local`.
 * Unconfigured, the provider has no usable models and nothing contacts a server.
 *
 * Start-up never asks the router: the models come from the models-store.json cache (as 1.6.0's
 * refresh without network). The interactive mode refreshes them from the router in the background
 * (1.6.0's start-up catalog refresh), and `/llama` after each change.
 *
 * @module
 */
import type { Model } from "../../../ai/types.ts";
import type { ModelRegistry } from "../../../config/model_registry.ts";
import { readEnv } from "../../../util/env.ts";
import { LlamaClient } from "./client.ts";
import { type LlamaCatalog, readLlamaCatalog, readStoredLlamaModels, storeLlamaModels } from "./catalog.ts";
import { LLAMA_PROVIDER_ID, llamaInferenceUrl, normalizeLlamaServerUrl } from "./server_url.ts";

/** Where the router is and how to reach it. */
export interface LlamaConnection {
  /** The router's URL (no `/v1`). */
  serverUrl: string;
  /** The key sent as a bearer token (`local` when none is configured, as 1.6.0). */
  apiKey: string;
  /** What configured it, as 1.6.0 names it. */
  source: "stored credential" | "LLAMA_BASE_URL";
}

/** What the connection is read from: the credential store and the environment. */
export interface LlamaConnectionSources {
  /** The stored credential of `llama.cpp`, if any. */
  credential?: { type: string; key?: string; env?: Record<string, string> };
  /** A variable of the environment (the store's variables first). */
  env(name: string): string | undefined;
}

/** The router's connection, or undefined when neither a credential nor `LLAMA_BASE_URL` names one. */
export function llamaConnection(sources: LlamaConnectionSources): LlamaConnection | undefined {
  const credential = sources.credential?.type === "api_key" ? sources.credential : undefined;
  const stored = credential?.env?.LLAMA_BASE_URL?.trim();
  const configured = stored || sources.env("LLAMA_BASE_URL")?.trim();
  if (!configured) return undefined;
  let serverUrl: string;
  try {
    serverUrl = normalizeLlamaServerUrl(configured);
  } catch {
    return undefined;
  }
  return {
    serverUrl,
    apiKey: credential?.key ?? sources.env("LLAMA_API_KEY") ?? "local",
    source: credential ? "stored credential" : "LLAMA_BASE_URL",
  };
}

/** The connection as the registry's credential store and the process environment give it. */
export function registryLlamaConnection(registry: ModelRegistry): LlamaConnection | undefined {
  const store = registry.authStorage;
  const credential = store.get(LLAMA_PROVIDER_ID);
  return llamaConnection({
    credential: credential as LlamaConnectionSources["credential"],
    env: (name) => store.env?.[name] || readEnv(name),
  });
}

/** A literal for the registry's config values (`$` and a leading `!` are not special). */
function literalConfigValue(value: string): string {
  return value.replaceAll("$", "$$$$").replace(/^!/, "$$!");
}

/**
 * Makes `models` the provider's models, served at the connection's router (the URL of the
 * configuration wins over the cached one, as 1.6.0 resolves it per request).
 */
export function registerLlamaModels(
  registry: ModelRegistry,
  connection: LlamaConnection,
  models: Model[],
): void {
  if (models.length === 0) {
    // The registry keeps a provider's models when a registration brings none.
    registry.unregisterProvider(LLAMA_PROVIDER_ID);
    return;
  }
  const baseUrl = llamaInferenceUrl(connection.serverUrl);
  registry.registerProvider(LLAMA_PROVIDER_ID, {
    name: "llama.cpp",
    baseUrl,
    api: "openai-completions",
    apiKey: literalConfigValue(connection.apiKey),
    models: models.map((model) => ({
      id: model.id,
      name: model.name,
      api: "openai-completions",
      baseUrl,
      reasoning: model.reasoning,
      ...(model.thinkingLevelMap ? { thinkingLevelMap: model.thinkingLevelMap } : {}),
      input: model.input,
      cost: model.cost,
      contextWindow: model.contextWindow,
      maxTokens: model.maxTokens,
      ...(model.compat ? { compat: model.compat } : {}),
    })),
  });
}

/** Registers the cached models at start-up; nothing when the router is not configured or none are cached. */
export function registerCachedLlamaModels(registry: ModelRegistry, agentDir: string): void {
  const connection = registryLlamaConnection(registry);
  if (!connection) return;
  const models = readStoredLlamaModels(agentDir);
  if (models.length > 0) registerLlamaModels(registry, connection, models);
}

/**
 * Reads the router's catalog, stores it in models-store.json and makes it the provider's models
 * (an empty catalog removes them). Throws when the router cannot be read.
 */
export async function refreshLlamaModels(
  registry: ModelRegistry,
  agentDir: string,
  connection: LlamaConnection,
  signal: AbortSignal,
  catalog?: Parameters<typeof readLlamaCatalog>[3],
): Promise<LlamaCatalog> {
  const cached = new Map(readStoredLlamaModels(agentDir).map((model) => [model.id, model.contextWindow]));
  const client = new LlamaClient(connection.serverUrl, connection.apiKey);
  const read = await readLlamaCatalog(client, signal, cached, catalog);
  signal.throwIfAborted();
  await storeLlamaModels(agentDir, read.stored);
  registerLlamaModels(registry, connection, read.models);
  return read;
}

/** The interactive mode's background refresh at start-up: silent, whatever happens (as 1.6.0). */
export async function refreshLlamaModelsQuietly(registry: ModelRegistry, agentDir: string): Promise<boolean> {
  const connection = registryLlamaConnection(registry);
  if (!connection) return false;
  try {
    await refreshLlamaModels(registry, agentDir, connection, AbortSignal.timeout(15_000));
    return true;
  } catch {
    return false;
  }
}
