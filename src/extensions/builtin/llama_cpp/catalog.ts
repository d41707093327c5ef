/**
 * The llama.cpp provider's models, as pi 1.6.0 derives them from the router's catalog: which
 * router models can be chosen (loaded, sleeping, and with router autoload unloaded presets), each
 * as an `openai-completions` model at `<server>/v1` with free cost, its context window (runtime
 * `n_ctx`, else `--ctx-size` of its arguments, else the cached one, else `n_ctx_train`, else
 * 128000), thinking when its chat template knows `enable_thinking`, and the compatibility switches
 * llama-server needs. They are cached in models-store.json under `llama.cpp` as
 * `{models, checkedAt}` (chat models, then each model again as a classifier entry, as 1.6.0 writes
 * them; this build reads only the chat models back).
 *
 * @module
 */
import type { Model } from "../../../ai/types.ts";
import { FileAuthStorageBackend } from "../../../config/auth_storage_backend.ts";
import { modelsStorePath, parseModelsStore } from "../../../config/model_catalog_cache.ts";
import type { LlamaClient, RouterModel, RouterProps } from "./client.ts";
import { LLAMA_PROVIDER_ID, llamaInferenceUrl } from "./server_url.ts";

const FREE = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
const DEFAULT_CONTEXT_WINDOW = 128000;

/** Whether a model can be chosen: requests reach loaded and sleeping ones (a sleeping one wakes). */
export function isSelectable(model: RouterModel, routerAutoload: boolean): boolean {
  const status = model.status.value;
  if (status === "loaded" || status === "sleeping") return true;
  // An unloaded preset loads on first use only when the router autoloads.
  return routerAutoload && status === "unloaded" && !model.status.failed && model.source === "preset";
}

/** Decision models (llama.cpp 0.6.0 reports `decisions` output) only classify; they are not chat models. */
function isChatModel(model: RouterModel): boolean {
  const outputs = model.architecture?.output_modalities;
  return !outputs?.includes("decisions") || outputs.includes("text");
}

/** The context size of the model's router arguments (`--ctx-size`, `-c`, `-ctx`). */
export function configuredContextWindow(model: RouterModel): number | undefined {
  const args = model.status.args ?? [];
  for (let index = 0; index < args.length - 1; index++) {
    if (args[index] !== "--ctx-size" && args[index] !== "-c" && args[index] !== "-ctx") continue;
    const value = Number(args[index + 1]);
    if (Number.isSafeInteger(value) && value > 0) return value;
  }
  return undefined;
}

function contextWindowOf(model: RouterModel, cached?: number): number {
  const runtime = model.meta?.n_ctx;
  if (runtime && runtime > 0) return runtime;
  const configured = configuredContextWindow(model);
  if (configured) return configured;
  if (cached && cached > 0) return cached;
  const training = model.meta?.n_ctx_train;
  return training && training > 0 ? training : DEFAULT_CONTEXT_WINDOW;
}

/** The pi model of a router model; `props` (a loaded model's) tells whether it thinks. */
export function toPiModel(
  model: RouterModel,
  serverUrl: string,
  props?: RouterProps,
  cached?: number,
): Model {
  const contextWindow = contextWindowOf(model, cached);
  const reasoning = props?.chat_template?.includes("enable_thinking") === true;
  return {
    id: model.id,
    name: model.id,
    api: "openai-completions",
    provider: LLAMA_PROVIDER_ID,
    baseUrl: llamaInferenceUrl(serverUrl),
    reasoning,
    ...(reasoning
      ? {
        thinkingLevelMap: { off: "off", minimal: null, low: null, medium: "medium", high: null, xhigh: null },
      }
      : {}),
    input: model.architecture?.input_modalities?.includes("image") ? ["text", "image"] : ["text"],
    cost: { ...FREE },
    contextWindow,
    maxTokens: contextWindow,
    compat: {
      supportsStore: false,
      supportsReasoningEffort: false,
      supportsUsageInStreaming: true,
      supportsStrictMode: false,
      maxTokensField: "max_tokens",
      ...(reasoning ? { thinkingFormat: "qwen-chat-template" as const } : {}),
    },
  } as Model;
}

/** The classifier entry 1.6.0 stores beside each model (decision models answer natively). */
function toClassifierEntry(model: RouterModel, serverUrl: string, cached?: number): Record<string, unknown> {
  const decision = model.architecture?.output_modalities?.includes("decisions") === true;
  const image = decision && model.architecture?.input_modalities?.includes("image") === true;
  return {
    type: "classifier",
    id: model.id,
    name: model.id,
    api: decision ? "typesafe-system-one" : "llama-cpp-classify",
    provider: LLAMA_PROVIDER_ID,
    baseUrl: decision ? llamaInferenceUrl(serverUrl) : serverUrl,
    input: image ? ["text", "image"] : ["text"],
    cost: { ...FREE },
    contextWindow: contextWindowOf(model, cached),
    ...(image ? { compat: { imageInput: "images", sendImageOptInHeader: false } } : {}),
  };
}

/** What one catalog read produced: the chat models and everything to store. */
export interface LlamaCatalog {
  models: Model[];
  stored: Record<string, unknown>[];
}

/**
 * Reads the router's catalog and turns it into models: asks `/props` for the router's autoload
 * only when an unloaded preset could use it, and for each loaded model's chat template (sleeping
 * and unloaded ones are not asked, so nothing wakes up or loads). `cached` holds context windows
 * of an earlier read by model id.
 */
export async function readLlamaCatalog(
  client: LlamaClient,
  signal: AbortSignal,
  cached: ReadonlyMap<string, number> = new Map(),
  catalog?: RouterModel[],
): Promise<LlamaCatalog> {
  const routerModels = catalog ?? await client.list({ signal });
  let autoload = false;
  if (routerModels.some((model) => model.status.value === "unloaded" && model.source === "preset")) {
    autoload = await client.props({ signal }).then((props) => props.models_autoload === true, () => false);
  }
  const selectable = routerModels.filter((model) => isSelectable(model, autoload));
  const models = await Promise.all(
    selectable.filter(isChatModel).map(async (model) => {
      if (model.status.value !== "loaded") {
        return toPiModel(model, client.serverUrl, undefined, cached.get(model.id));
      }
      const props = await client.props({ model: model.id, signal });
      return toPiModel(model, client.serverUrl, props, cached.get(model.id));
    }),
  );
  const classifiers = selectable.map((model) =>
    toClassifierEntry(model, client.serverUrl, cached.get(model.id))
  );
  return { models, stored: [...models as unknown as Record<string, unknown>[], ...classifiers] };
}

/** The chat models cached in `<agentDir>/models-store.json`; none when it is missing or unreadable. */
export function readStoredLlamaModels(agentDir: string): Model[] {
  let entry: unknown;
  try {
    entry = parseModelsStore(Deno.readTextFileSync(modelsStorePath(agentDir)))[LLAMA_PROVIDER_ID];
  } catch {
    return [];
  }
  const models = (entry as { models?: unknown } | undefined)?.models;
  if (!Array.isArray(models)) return [];
  return models.filter((model): model is Model =>
    typeof model === "object" && model !== null && typeof model.id === "string" &&
    model.provider === LLAMA_PROVIDER_ID && (model.type === undefined || model.type === "chat") &&
    model.api === "openai-completions"
  );
}

/** Replaces the `llama.cpp` entry of models-store.json (a locked read-modify-write, as 1.6.0's store). */
export async function storeLlamaModels(agentDir: string, stored: Record<string, unknown>[]): Promise<void> {
  const backend = new FileAuthStorageBackend(modelsStorePath(agentDir));
  await backend.withLockAsync((current) => {
    const data = parseModelsStore(current);
    data[LLAMA_PROVIDER_ID] = { models: structuredClone(stored), checkedAt: Date.now() };
    return Promise.resolve({ result: undefined, next: JSON.stringify(data, null, 2) });
  });
}
