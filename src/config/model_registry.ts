/**
 * ModelRegistry: the built-in catalog merged with models.json and extension-registered providers, plus
 * per-request API key and header resolution.
 *
 * @module
 */

import { dirname, join } from "../util/path.ts";
import { builtinProviders, loadedBuiltinModels } from "../ai/model_catalog.ts";
import { clearApiProviders, registerApiProvider } from "../ai/api_registry.ts";
import type { AssistantMessageEventStream } from "../ai/event_stream.ts";
import type { Api, Context, Message, Model, SimpleStreamOptions } from "../ai/types.ts";
import type { AuthStatus, AuthStorage } from "./auth_storage.ts";
import { readCatalogOverlays, withCatalogOverlay } from "./model_catalog_cache.ts";
import { applyModelOverride, mergeCompat } from "./model_overrides.ts";
import type { ModelOverride, ModelsConfig, ModelsJsonResult, ProviderCompat } from "./models_json.ts";
import { readModelsJson } from "./models_json.ts";
import { type OAuthProviderInterface, registerOAuthProvider, resetOAuthProviders } from "./oauth_registry.ts";
import { getAgentDir } from "./paths.ts";
import {
  isVirtualModel,
  type ModelRoute,
  type ResolveRouteOptions,
  type VirtualModelDefinition,
  VirtualModels,
} from "./virtual_models.ts";
import { BUILT_IN_PROVIDER_DISPLAY_NAMES } from "./provider_display_names.ts";
import {
  configValueEnvNames,
  missingConfigValueEnvNames,
  resolveConfigValueOrThrow,
  resolveConfigValueUncached,
  resolveHeadersOrThrow,
} from "./resolve_value.ts";

/** Outcome of resolving what a request to a model needs. */
export type ResolvedRequestAuth =
  | { ok: true; apiKey?: string; headers?: Record<string, string> }
  | { ok: false; error: string };

/** A provider registered at runtime (extensions' `pi.registerProvider`). */
export interface ProviderConfigInput {
  /** Display name of the provider. */
  name?: string;
  /** Base URL of the API. */
  baseUrl?: string;
  /** API key, an environment variable name or a `!command`. */
  apiKey?: string;
  /** Wire API of the provider's models. */
  api?: Api;
  /** Stream function for a custom API. */
  streamSimple?: (
    model: Model,
    context: Context,
    options?: SimpleStreamOptions,
  ) => AssistantMessageEventStream;
  /** Extra HTTP headers. */
  headers?: Record<string, string>;
  /** Send the key as an `Authorization: Bearer` header. */
  authHeader?: boolean;
  /** OAuth login flow of the provider. */
  oauth?: Omit<OAuthProviderInterface, "id">;
  /** Models of the provider; when given they replace the provider's models. */
  models?: Array<{
    id: string;
    name: string;
    api?: Api;
    baseUrl?: string;
    reasoning: boolean;
    thinkingLevelMap?: Model["thinkingLevelMap"];
    input: ("text" | "image")[];
    cost: { input: number; output: number; cacheRead: number; cacheWrite: number };
    contextWindow: number;
    maxTokens: number;
    headers?: Record<string, string>;
    compat?: Model["compat"];
  }>;
}

interface ProviderRequestConfig {
  apiKey?: string;
  headers?: Record<string, string>;
  authHeader?: boolean;
}

interface ProviderOverride {
  baseUrl?: string;
  compat?: ProviderCompat;
}

interface CustomModelsResult {
  models: Model[];
  overrides: Map<string, ProviderOverride>;
  modelOverrides: Map<string, Map<string, ModelOverride>>;
  error?: string;
}

function emptyCustomModels(error?: string): CustomModelsResult {
  return { models: [], overrides: new Map(), modelOverrides: new Map(), error };
}

/**
 * Makes sure `<agentDir>/models-store.json` exists (`{}`, mode 0600), as pi 1.6.0 creates it at start-up
 * (it caches provider catalogs there), so an agent folder shared with 1.6.0 looks the same after either ran.
 * An existing file is left alone; a folder that cannot be written is not an error (pi works without it).
 */
export function ensureModelsStore(agentDir: string): void {
  try {
    Deno.mkdirSync(agentDir, { recursive: true, mode: 0o700 });
    Deno.writeTextFileSync(join(agentDir, "models-store.json"), "{}", { createNew: true, mode: 0o600 });
  } catch {
    // Exists already, or cannot be written.
  }
}

/** Loads and manages the model list; resolves keys through AuthStorage. */
export class ModelRegistry {
  /**
   * Credential store used for key lookups.
   * @internal The SDK reaches credentials through ModelRuntime (pi 1.6.0 exports no store).
   */
  readonly authStorage: AuthStorage;
  private readonly modelsJsonPath: string | undefined;
  private models: Model[] = [];
  private readonly providerRequestConfigs = new Map<string, ProviderRequestConfig>();
  private readonly modelRequestHeaders = new Map<string, Record<string, string>>();
  private readonly registeredProviders = new Map<string, ProviderConfigInput>();
  private loadError: string | undefined = undefined;
  /** Built-in providers that models.json configures, whose data was not loaded at the last load. */
  private unloadedNamedProviders: string[] = [];
  /** What the last load read from disk, which {@link refreshBuiltins} uses again. */
  private lastReads: { modelsJson?: ModelsJsonResult; overlays?: Map<string, Model[]> } = {};
  /** Set while {@link refreshBuiltins} reloads: the files are not read again. */
  private reuseReads = false;
  /** Virtual models (extensions' `pi.registerVirtualModel`), kept apart from the physical catalog. */
  private readonly virtualModels = new VirtualModels({
    find: (provider, id) => this.models.find((m) => m.provider === provider && m.id === id),
    hasAuth: (provider) => this.hasProviderAuth(provider),
  });

  private constructor(authStorage: AuthStorage, modelsJsonPath: string | undefined) {
    this.authStorage = authStorage;
    this.modelsJsonPath = modelsJsonPath;
    this.loadModels();
  }

  /** Registry reading `<agentDir>/models.json` (or the given path). */
  static create(
    authStorage: AuthStorage,
    modelsJsonPath: string = join(getAgentDir(), "models.json"),
  ): ModelRegistry {
    return new ModelRegistry(authStorage, modelsJsonPath);
  }

  /** Registry with built-in models only. */
  static inMemory(authStorage: AuthStorage): ModelRegistry {
    return new ModelRegistry(authStorage, undefined);
  }

  /** Reloads built-ins and models.json, then re-applies runtime-registered providers. */
  refresh(): void {
    this.providerRequestConfigs.clear();
    this.modelRequestHeaders.clear();
    this.loadError = undefined;
    clearApiProviders();
    resetOAuthProviders();
    this.loadModels();
    for (const [providerName, config] of this.registeredProviders) {
      this.applyProviderConfig(providerName, config);
    }
  }

  /**
   * {@link refresh} after more built-in providers' data was loaded (`loadBuiltinModels`), with the
   * models.json and cached catalogs of the last load rather than the files as they are now: the list
   * is the one the whole catalog would have given at that load (RPC loads the rest of the catalog at
   * the first command that needs it, and pi 1.6.0 reads these files once at start-up).
   * @internal
   */
  refreshBuiltins(): void {
    this.reuseReads = true;
    try {
      this.refresh();
    } finally {
      this.reuseReads = false;
    }
  }

  /**
   * Built-in providers that models.json configures but whose catalog data is not loaded yet (the CLI
   * loads only what a run needs); load them with `loadBuiltinModels` and {@link refresh}.
   * @internal
   */
  unloadedConfiguredProviders(): readonly string[] {
    return this.unloadedNamedProviders;
  }

  /** The models.json problem from the last load, if any (built-ins stay usable). */
  getError(): string | undefined {
    return this.loadError;
  }

  /** Rebuilds the model list from the catalog and models.json. */
  private loadModels(): void {
    const custom = this.modelsJsonPath ? this.loadCustomModels(this.modelsJsonPath) : emptyCustomModels();
    if (custom.error) this.loadError = custom.error;
    const builtIns = this.loadBuiltInModels(custom.overrides, custom.modelOverrides);
    let combined = this.mergeCustomModels(builtIns, custom.models);
    for (const oauthProvider of this.authStorage.getOAuthProviders()) {
      const cred = this.authStorage.get(oauthProvider.id);
      if (cred?.type === "oauth" && oauthProvider.modifyModels) {
        combined = oauthProvider.modifyModels(combined, cred);
      }
    }
    this.models = combined;
  }

  /** The catalog's models with models.json's provider overrides applied. */
  private loadBuiltInModels(
    overrides: Map<string, ProviderOverride>,
    modelOverrides: Map<string, Map<string, ModelOverride>>,
  ): Model[] {
    // Catalogs cached by `pi update --models` extend the built-in data (model_catalog_cache.ts).
    const cached = this.modelsJsonPath
      ? (this.reuseReads && this.lastReads.overlays) ||
        (this.lastReads.overlays = readCatalogOverlays(dirname(this.modelsJsonPath)))
      : undefined;
    // Only the providers whose data is loaded (see src/ai/model_catalog.ts).
    return builtinProviders().flatMap((provider) => {
      const providerOverride = overrides.get(provider);
      const perModel = modelOverrides.get(provider);
      const loaded = loadedBuiltinModels(provider);
      return (loaded ? withCatalogOverlay(loaded, cached?.get(provider)) : []).map((builtIn) => {
        let model = builtIn;
        if (providerOverride) {
          model = {
            ...model,
            baseUrl: providerOverride.baseUrl ?? model.baseUrl,
            compat: mergeCompat(model.compat, providerOverride.compat),
          };
        }
        const override = perModel?.get(builtIn.id);
        return override ? applyModelOverride(model, override) : model;
      });
    });
  }

  /** Custom models replace built-in ones with the same provider and id. */
  private mergeCustomModels(builtIns: Model[], custom: Model[]): Model[] {
    const merged = [...builtIns];
    for (const model of custom) {
      const index = merged.findIndex((m) => m.provider === model.provider && m.id === model.id);
      if (index >= 0) merged[index] = model;
      else merged.push(model);
    }
    return merged;
  }

  /** Reads models.json; problems are kept as the load error rather than thrown. */
  private loadCustomModels(path: string): CustomModelsResult {
    const builtIns = new Set(builtinProviders());
    const { config, error } = (this.reuseReads && this.lastReads.modelsJson) ||
      (this.lastReads.modelsJson = readModelsJson(path, builtIns));
    this.unloadedNamedProviders = config
      ? Object.keys(config.providers).filter((p) => builtIns.has(p) && !loadedBuiltinModels(p))
      : [];
    if (!config) return emptyCustomModels(error);
    const overrides = new Map<string, ProviderOverride>();
    const modelOverrides = new Map<string, Map<string, ModelOverride>>();
    for (const [providerName, providerConfig] of Object.entries(config.providers)) {
      if (providerConfig.baseUrl || providerConfig.compat) {
        overrides.set(providerName, { baseUrl: providerConfig.baseUrl, compat: providerConfig.compat });
      }
      this.storeProviderRequestConfig(providerName, providerConfig);
      if (providerConfig.modelOverrides) {
        modelOverrides.set(providerName, new Map(Object.entries(providerConfig.modelOverrides)));
        for (const [modelId, override] of Object.entries(providerConfig.modelOverrides)) {
          this.storeModelHeaders(providerName, modelId, override.headers);
        }
      }
    }
    return { models: this.parseModels(config), overrides, modelOverrides, error };
  }

  /** Turns models.json's providers into models. */
  private parseModels(config: ModelsConfig): Model[] {
    const models: Model[] = [];
    const builtInProviders = new Set(builtinProviders());
    const defaultsCache = new Map<string, { api: Api; baseUrl: string }>();
    const builtInDefaults = (provider: string) => {
      if (!builtInProviders.has(provider)) return undefined;
      if (!defaultsCache.has(provider)) {
        const first = loadedBuiltinModels(provider)?.[0];
        if (!first) return undefined;
        defaultsCache.set(provider, { api: first.api, baseUrl: first.baseUrl });
      }
      return defaultsCache.get(provider);
    };
    for (const [providerName, providerConfig] of Object.entries(config.providers)) {
      const defs = providerConfig.models ?? [];
      if (defs.length === 0) continue;
      const defaults = builtInDefaults(providerName);
      for (const def of defs) {
        const api = def.api ?? providerConfig.api ?? defaults?.api;
        if (!api) continue;
        const baseUrl = def.baseUrl ?? providerConfig.baseUrl ?? defaults?.baseUrl;
        if (!baseUrl) continue;
        this.storeModelHeaders(providerName, def.id, def.headers);
        models.push({
          id: def.id,
          name: def.name ?? def.id,
          api,
          provider: providerName,
          baseUrl,
          reasoning: def.reasoning ?? false,
          thinkingLevelMap: def.thinkingLevelMap,
          input: def.input ?? ["text"],
          // 1.6.0's fields are carried as given; src/ai reads the ones it supports.
          ...(def.inputLimits ? { inputLimits: def.inputLimits } : {}),
          cost: def.cost ?? { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
          ...(def.promptCache ? { promptCache: def.promptCache } : {}),
          contextWindow: def.contextWindow ?? 128000,
          maxTokens: def.maxTokens ?? 16384,
          ...(def.samplingParams ? { samplingParams: def.samplingParams } : {}),
          ...(def.samplingParamsByThinkingLevel
            ? { samplingParamsByThinkingLevel: def.samplingParamsByThinkingLevel }
            : {}),
          headers: undefined,
          compat: mergeCompat(providerConfig.compat, def.compat),
        } as Model);
      }
    }
    return models;
  }

  /** Every model: built-in (with overrides) plus custom, then the virtual ones. */
  getAll(): Model[] {
    const virtual = this.virtualModels.list();
    if (virtual.length === 0) return this.models;
    // A virtual model hides a physical one with the same id that a catalog reload added later.
    const hidden = new Set(virtual.map((m) => `${m.provider}/${m.id}`));
    return [...this.models.filter((m) => !hidden.has(`${m.provider}/${m.id}`)), ...virtual];
  }

  /** Models whose provider has auth configured (no token refresh involved). */
  getAvailable(): Model[] {
    return this.getAll().filter((m) => this.hasConfiguredAuth(m));
  }

  /** The model with this provider and id. */
  find(provider: string, modelId: string): Model | undefined {
    return this.virtualModels.get(provider, modelId) ??
      this.models.find((m) => m.provider === provider && m.id === modelId);
  }

  /**
   * Whether auth.json, the environment, a runtime key or models.json provides auth for the model's
   * provider. A virtual model under a provider without physical models needs none.
   */
  hasConfiguredAuth(model: Model): boolean {
    if (isVirtualModel(model) && !this.models.some((m) => m.provider === model.provider)) return true;
    return this.hasProviderAuth(model.provider);
  }

  /** Whether the provider has credentials (auth storage or a configured key). */
  private hasProviderAuth(provider: string): boolean {
    return this.authStorage.hasAuth(provider) ||
      this.providerRequestConfigs.get(provider)?.apiKey !== undefined;
  }

  /**
   * Registers a virtual model (pi 1.6.0's `registerVirtualModel`): a catalog entry whose route picks
   * a physical model per request. The same provider and id again replaces it; the id of a physical
   * model of that provider throws.
   */
  registerVirtualModel<TState>(definition: VirtualModelDefinition<TState>): void {
    this.virtualModels.register(definition as VirtualModelDefinition);
  }

  /** Removes a virtual model; `unregisterProvider` leaves them alone. */
  unregisterVirtualModel(provider: string, id: string): void {
    this.virtualModels.unregister(provider, id);
  }

  /**
   * Asks a virtual model's router for one request's physical model and thinking level (see
   * {@link VirtualModels.resolve}); throws when routing fails.
   */
  resolveVirtualModel(
    model: Model,
    messages: readonly Message[],
    options: ResolveRouteOptions,
  ): Promise<ModelRoute> {
    return this.virtualModels.resolve(model, messages, options);
  }

  /** Keeps a provider's API key, headers and auth-header switch for its requests. */
  private storeProviderRequestConfig(providerName: string, config: ProviderRequestConfig): void {
    if (!config.apiKey && !config.headers && !config.authHeader) return;
    this.providerRequestConfigs.set(providerName, {
      apiKey: config.apiKey,
      headers: config.headers,
      authHeader: config.authHeader,
    });
  }

  /** Keeps the headers of one model for requests. */
  private storeModelHeaders(
    provider: string,
    modelId: string,
    headers: Record<string, string> | undefined,
  ): void {
    const key = `${provider}:${modelId}`;
    if (!headers || Object.keys(headers).length === 0) this.modelRequestHeaders.delete(key);
    else this.modelRequestHeaders.set(key, headers);
  }

  /**
   * API key and headers for one request: auth storage first, then the models.json key; headers from the
   * model, provider and per-model config (later wins); `authHeader` adds `Authorization: Bearer <key>`.
   */
  async getApiKeyAndHeaders(model: Model): Promise<ResolvedRequestAuth> {
    try {
      const providerConfig = this.providerRequestConfigs.get(model.provider);
      const stored = await this.authStorage.getApiKey(model.provider, { includeFallback: false });
      const env = this.authStorage.env;
      const apiKey = stored ??
        (providerConfig?.apiKey
          ? resolveConfigValueOrThrow(providerConfig.apiKey, `API key for provider "${model.provider}"`, env)
          : undefined);
      const providerHeaders = resolveHeadersOrThrow(
        providerConfig?.headers,
        `provider "${model.provider}"`,
        env,
      );
      const modelHeaders = resolveHeadersOrThrow(
        this.modelRequestHeaders.get(`${model.provider}:${model.id}`),
        `model "${model.provider}/${model.id}"`,
        env,
      );
      // 1.6.0's order: model and provider headers, the Authorization header, then per-model headers.
      let headers = model.headers || providerHeaders ? { ...model.headers, ...providerHeaders } : undefined;
      if (providerConfig?.authHeader) {
        if (!apiKey) return { ok: false, error: `No API key found for "${model.provider}"` };
        headers = { ...headers, Authorization: `Bearer ${apiKey}` };
      }
      if (modelHeaders) headers = { ...headers, ...modelHeaders };
      return { ok: true, apiKey, headers: headers && Object.keys(headers).length > 0 ? headers : undefined };
    } catch (error) {
      return { ok: false, error: error instanceof Error ? error.message : String(error) };
    }
  }

  /** Auth status including models.json keys, without running key commands. */
  getProviderAuthStatus(provider: string): AuthStatus {
    const status = this.authStorage.getAuthStatus(provider);
    if (status.source) return status;
    const providerApiKey = this.providerRequestConfigs.get(provider)?.apiKey;
    if (!providerApiKey) return status;
    if (providerApiKey.startsWith("!")) return { configured: true, source: "models_json_command" };
    // `$NAME` alone names the variable (1.6.0 shows it); a set variable configures the provider.
    const names = configValueEnvNames(providerApiKey);
    if (names.length > 0) {
      if (missingConfigValueEnvNames(providerApiKey, this.authStorage.env).length > 0) {
        return { configured: false };
      }
      const onlyVariable = names.length === 1 && providerApiKey.replace(/^\$\{?|\}$/g, "") === names[0];
      return onlyVariable
        ? { configured: true, source: "environment", label: names[0] }
        : { configured: true, source: "models_json_key" };
    }
    return { configured: true, source: "models_json_key" };
  }

  /**
   * Display name: registered name → its OAuth name → built-in table → OAuth provider name → id (a
   * built-in provider keeps its own name once its login flow is loaded: "Anthropic", not the flow's).
   */
  getProviderDisplayName(provider: string): string {
    const registered = this.registeredProviders.get(provider);
    const oauthProvider = this.authStorage.getOAuthProviders().find((p) => p.id === provider);
    return registered?.name ?? registered?.oauth?.name ?? BUILT_IN_PROVIDER_DISPLAY_NAMES[provider] ??
      oauthProvider?.name ?? provider;
  }

  /** API key for a provider from auth storage, else models.json (commands re-run). */
  async getApiKeyForProvider(provider: string): Promise<string | undefined> {
    const apiKey = await this.authStorage.getApiKey(provider, { includeFallback: false });
    if (apiKey !== undefined) return apiKey;
    const providerApiKey = this.providerRequestConfigs.get(provider)?.apiKey;
    return providerApiKey ? resolveConfigValueUncached(providerApiKey, this.authStorage.env) : undefined;
  }

  /** Whether the model's provider is authenticated through a subscription (OAuth). */
  isUsingOAuth(model: Model): boolean {
    return this.authStorage.get(model.provider)?.type === "oauth";
  }

  /**
   * Registers a provider at runtime. With models it replaces the provider's models; with only baseUrl/headers
   * it redirects existing ones; with oauth it becomes available to /login.
   */
  registerProvider(providerName: string, config: ProviderConfigInput): void {
    this.validateProviderConfig(providerName, config);
    this.applyProviderConfig(providerName, config);
    const existing = this.registeredProviders.get(providerName);
    if (!existing) {
      this.registeredProviders.set(providerName, config);
      return;
    }
    const target = existing as Record<string, unknown>;
    for (const [key, value] of Object.entries(config)) if (value !== undefined) target[key] = value;
  }

  /**
   * Whether models.json or a registration gives the provider an API key (literal, `$VAR` or `!command`; not
   * resolved). `/login` offers an API key for an extension's OAuth provider only then, as 1.6.0 does.
   * @internal
   */
  hasConfiguredApiKey(provider: string): boolean {
    return this.providerRequestConfigs.get(provider)?.apiKey !== undefined;
  }

  /** Removes a runtime provider and reloads so overridden built-ins come back. */
  unregisterProvider(providerName: string): void {
    if (!this.registeredProviders.has(providerName)) return;
    this.registeredProviders.delete(providerName);
    this.refresh();
  }

  /**
   * Rejects a registration that cannot work, with 1.6.0's messages: a stream function without `api`, a model
   * whose `api` or `baseUrl` is neither given nor inherited from the provider's existing models. A missing key is
   * no error (the provider then waits for one, as in 1.6.0).
   */
  private validateProviderConfig(providerName: string, config: ProviderConfigInput): void {
    if (config.streamSimple && !config.api) {
      throw new Error(`Provider ${providerName}: "api" is required when registering streamSimple.`);
    }
    for (const def of config.models ?? []) this.modelEndpoint(providerName, config, def);
  }

  /**
   * A registered model's `api` and `baseUrl`: its own, else the provider config's, else those of the provider's
   * current model that 1.6.0 takes defaults from (same id, same api, an `openai-completions` one, the first).
   */
  private modelEndpoint(
    providerName: string,
    config: ProviderConfigInput,
    def: NonNullable<ProviderConfigInput["models"]>[number],
  ): { api: Api; baseUrl: string } {
    const existing = this.models.filter((m) => m.provider === providerName);
    const defaults = existing.find((m) => m.id === def.id) ??
      (def.api ? existing.find((m) => m.api === def.api) : undefined) ??
      existing.find((m) => m.api === "openai-completions") ?? existing[0];
    const api = def.api ?? config.api ?? defaults?.api;
    if (!api) {
      throw new Error(
        `Provider ${providerName}, model ${def.id}: no "api" specified. Set it at model level or provider level.`,
      );
    }
    const baseUrl = def.baseUrl ?? config.baseUrl ?? defaults?.baseUrl;
    if (!baseUrl) {
      throw new Error(`Provider ${providerName}: "baseUrl" is required when defining custom models.`);
    }
    return { api, baseUrl };
  }

  /** Applies a validated provider registration to the model list. */
  private applyProviderConfig(providerName: string, config: ProviderConfigInput): void {
    if (config.oauth) {
      const oauth = config.oauth;
      // 1.6.0 stores an extension login's credentials with `type` after them (`{ ...credentials, type }`).
      registerOAuthProvider({
        ...oauth,
        id: providerName,
        login: async (callbacks, options) => ({ ...(await oauth.login(callbacks, options)), type: "oauth" }),
      });
    }
    if (config.streamSimple && config.api) {
      const streamSimple = config.streamSimple;
      registerApiProvider({
        api: config.api,
        stream: (model, context, options) => streamSimple(model, context, options),
        streamSimple,
      }, `provider:${providerName}`);
    }
    // As in 1.6.0 the registration's key, headers and authHeader go over models.json's, not instead of them.
    const previous = this.providerRequestConfigs.get(providerName);
    this.storeProviderRequestConfig(providerName, {
      apiKey: config.apiKey ?? previous?.apiKey,
      headers: previous?.headers || config.headers ? { ...previous?.headers, ...config.headers } : undefined,
      authHeader: config.authHeader ?? previous?.authHeader,
    });
    if (config.models && config.models.length > 0) {
      const endpoints = config.models.map((def) => this.modelEndpoint(providerName, config, def));
      this.models = this.models.filter((m) => m.provider !== providerName);
      for (const [index, def] of config.models.entries()) {
        this.storeModelHeaders(providerName, def.id, def.headers);
        this.models.push({
          id: def.id,
          name: def.name,
          api: endpoints[index].api,
          provider: providerName,
          baseUrl: endpoints[index].baseUrl,
          reasoning: def.reasoning,
          thinkingLevelMap: def.thinkingLevelMap,
          input: def.input,
          cost: def.cost,
          contextWindow: def.contextWindow,
          maxTokens: def.maxTokens,
          headers: undefined,
          compat: def.compat,
        });
      }
      if (config.oauth?.modifyModels) {
        const cred = this.authStorage.get(providerName);
        if (cred?.type === "oauth") this.models = config.oauth.modifyModels(this.models, cred);
      }
    } else if (config.baseUrl || config.headers) {
      this.models = this.models.map((m) =>
        m.provider === providerName ? { ...m, baseUrl: config.baseUrl ?? m.baseUrl } : m
      );
    }
  }
}
