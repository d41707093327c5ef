/**
 * ModelRuntime: pi 1.6.0's one object for models and their credentials. It replaces the pair of
 * `AuthStorage` and `ModelRegistry` that `createAgentSession` took up to pi 0.80: it lists the
 * models (built-ins, models.json, registered providers), tells which are usable, resolves the key
 * and headers of each request (refreshing OAuth tokens under auth.json's lock) and streams with
 * them. Here it wraps this build's credential store and model registry.
 *
 * @module
 */
import { join } from "../util/path.ts";
import { AssistantMessageEventStream } from "../ai/event_stream.ts";
import { createOutputMessage } from "../ai/provider_utils.ts";
import {
  stream as streamUnauthenticated,
  streamSimple as streamSimpleUnauthenticated,
} from "../ai/stream.ts";
import type {
  AssistantMessage,
  Context,
  Message,
  Model,
  SimpleStreamOptions,
  StreamOptions,
} from "../ai/types.ts";
import { type AuthCredential, type AuthStatus, AuthStorage } from "./auth_storage.ts";
import type { AuthInteraction } from "./oauth/auth_interaction.ts";
import type { OAuthLoginOptions } from "./oauth_registry.ts";
import { ModelRegistry, type ProviderConfigInput } from "./model_registry.ts";
import { loadBuiltinModels } from "../ai/model_catalog.ts";
import { getAgentDir } from "./paths.ts";
import {
  isVirtualModel,
  type ModelRoute,
  type ResolveRouteOptions,
  type VirtualModelDefinition,
} from "./virtual_models.ts";
import { loadBuiltinOAuthProviders } from "./oauth/builtin_oauth.ts";

/** Options of {@link ModelRuntime.create}. */
export interface CreateModelRuntimeOptions {
  /** auth.json to read and write credentials in (default: `<agentDir>/auth.json`). */
  authPath?: string;
  /** models.json to read (default: `<agentDir>/models.json`); `null` reads none (built-ins only). */
  modelsPath?: string | null;
  /**
   * Built-in providers whose models to load (default: all). The CLI names only the providers a run
   * needs, so that it does not load the whole catalog; {@link ModelRuntime.loadAllBuiltinModels} adds
   * the rest later. Providers that models.json configures are always loaded.
   * @internal
   */
  builtinProviders?: readonly string[];
}

/** What one {@link ModelRuntime.getAuth} call may override. */
export interface ModelRuntimeAuthOverrides {
  /** Use this key instead of the configured one. */
  apiKey?: string;
  /** Variables for `$NAME` in configured values, on top of the process environment. */
  env?: Record<string, string>;
  /** Cancels the lookup (a running `!command` or token refresh is not interrupted). */
  signal?: AbortSignal;
}

/** What a request to a provider is authenticated with. */
export interface ModelAuth {
  /** The API key or OAuth access token. */
  apiKey?: string;
  /** Headers the request carries (models.json, registered providers, `authHeader`). */
  headers?: Record<string, string>;
  /** A base URL the credential requires; unset when the model's own applies. */
  baseUrl?: string;
}

/** The result of {@link ModelRuntime.getAuth}. */
export interface AuthResult {
  /** How to authenticate the request. */
  auth: ModelAuth;
  /** Variables the credential defines for the provider. */
  env?: Record<string, string>;
  /** Where the credential came from, for status lines (e.g. `ANTHROPIC_API_KEY`, `OAuth`). */
  source?: string;
}

/** A stored credential without its secret. */
export interface CredentialInfo {
  /** Provider id. */
  providerId: string;
  /** Kind of credential. */
  type: "api_key" | "oauth";
}

/** The credential change whose follow-up (reloading models and auth) failed. */
export type CredentialSynchronizationOperation =
  | "login"
  | "logout"
  | "setRuntimeApiKey"
  | "removeRuntimeApiKey";

/** The credential change was made, but the runtime's models and auth could not be reloaded after it. */
export class CredentialSynchronizationError extends Error {
  /** Provider whose credential changed. */
  readonly providerId: string;
  /** The change that was made. */
  readonly operation: CredentialSynchronizationOperation;
  /** The credential now in effect; undefined after a removal. */
  readonly credential: { type: "api_key"; key: string } | undefined;

  /** `options.cause` carries the reload's error. */
  constructor(
    providerId: string,
    operation: CredentialSynchronizationOperation,
    credential: { type: "api_key"; key: string } | undefined,
    options: ErrorOptions,
  ) {
    super(`Credential ${operation} committed for ${providerId}, but local synchronization failed`, options);
    this.name = "CredentialSynchronizationError";
    this.providerId = providerId;
    this.operation = operation;
    this.credential = credential;
  }
}

/** Models and credentials, as `createAgentSession({ modelRuntime })` takes them. */
export class ModelRuntime {
  /**
   * The synchronous model registry over the same models and credentials, as pi 1.6.0 keeps it for
   * extensions (`ctx.modelRegistry`); new code uses the runtime's own methods.
   */
  readonly modelRegistry: ModelRegistry;
  readonly #auth: AuthStorage;
  readonly #runtimeKeys = new Set<string>();
  /** Created with only some built-in providers loaded (see {@link loadAllBuiltinModels}). */
  #partialCatalog = false;
  /** Per provider, the credential change in progress: changes to one provider run in order. */
  readonly #pending = new Map<string, Promise<void>>();

  private constructor(registry: ModelRegistry) {
    this.modelRegistry = registry;
    this.#auth = registry.authStorage;
  }

  /**
   * A runtime over auth.json and models.json (by default those of the agent folder, `~/.pi/agent`
   * or `PI_CODING_AGENT_DIR`). A broken models.json does not throw: built-ins stay usable and
   * {@link getError} names the problem.
   *
   * @example
   * ```ts
   * import { createAgentSession, ModelRuntime, SessionManager } from "@pi-deno/coding-agent";
   *
   * const modelRuntime = await ModelRuntime.create({
   *   authPath: "/tmp/my-app/auth.json",
   *   modelsPath: "/tmp/my-app/models.json",
   * });
   * await modelRuntime.setRuntimeApiKey("anthropic", "sk-ant-…"); // this process only, never written
   * const { session } = await createAgentSession({ modelRuntime, sessionManager: SessionManager.inMemory() });
   * ```
   */
  static async create(options: CreateModelRuntimeOptions = {}): Promise<ModelRuntime> {
    await loadBuiltinModels(options.builtinProviders);
    const auth = AuthStorage.create(options.authPath ?? join(getAgentDir(), "auth.json"));
    // A stored OAuth login may adjust its provider's models (Copilot: the account's host and model list), so
    // its flow is loaded before the registry reads them; without OAuth logins nothing is imported.
    const oauthIds = Object.entries(auth.getAll()).filter(([, c]) => c.type === "oauth").map(([id]) => id);
    if (oauthIds.length > 0) await loadBuiltinOAuthProviders(oauthIds);
    const modelsPath = options.modelsPath === undefined
      ? join(getAgentDir(), "models.json")
      : options.modelsPath;
    const registry = modelsPath === null
      ? ModelRegistry.inMemory(auth)
      : ModelRegistry.create(auth, modelsPath);
    const configured = registry.unloadedConfiguredProviders();
    if (configured.length > 0) {
      // models.json overrides or extends built-in providers that were not loaded: load, then read again.
      await loadBuiltinModels(configured);
      registry.refresh();
    }
    const runtime = new ModelRuntime(registry);
    runtime.#partialCatalog = options.builtinProviders !== undefined;
    return runtime;
  }

  /**
   * Loads every built-in provider's models when the runtime was created with only some of them
   * (`builtinProviders`), and rebuilds the model list. Needed before anything lists or searches all
   * models.
   * @internal
   */
  async loadAllBuiltinModels(): Promise<void> {
    if (!this.#partialCatalog) return;
    await loadBuiltinModels();
    if (!this.#partialCatalog) return; // Another caller finished meanwhile.
    this.#partialCatalog = false;
    this.modelRegistry.refreshBuiltins();
  }

  /** A runtime over a registry already built (the CLI builds one per working folder). */
  static fromRegistry(registry: ModelRegistry): ModelRuntime {
    return new ModelRuntime(registry);
  }

  // ── models ──────────────────────────────────────────────────────────────

  /** Every known model, or those of one provider. */
  getModels(providerId?: string): readonly Model[] {
    const all = this.modelRegistry.getAll();
    return providerId === undefined ? all : all.filter((m) => m.provider === providerId);
  }

  /** Every known model of any type; this build has chat models only, so the same as {@link getModels}. */
  getAllModels(providerId?: string): readonly Model[] {
    return this.getModels(providerId);
  }

  /** The model with this provider and id (custom models from models.json included). */
  getModel(providerId: string, modelId: string): Model | undefined {
    return this.modelRegistry.find(providerId, modelId);
  }

  /** Models whose provider has credentials configured, or those of one provider. */
  getAvailable(providerId?: string): Promise<readonly Model[]> {
    return Promise.resolve(this.#available(providerId));
  }

  /** {@link getAvailable} without waiting: what is known to be usable now. */
  getAvailableSnapshot(): readonly Model[] {
    return this.#available();
  }

  #available(providerId?: string): Model[] {
    return this.modelRegistry.getAvailable().filter((m) =>
      providerId === undefined || m.provider === providerId
    );
  }

  /** The problem found in models.json (file, place and what was wrong), if any. */
  getError(): string | undefined {
    return this.modelRegistry.getError();
  }

  /** Reloads auth.json and models.json; registered providers stay. */
  refresh(): Promise<{ aborted: boolean; errors: ReadonlyMap<string, Error> }> {
    this.#auth.reload();
    this.modelRegistry.refresh();
    return Promise.resolve({ aborted: false, errors: new Map() });
  }

  // ── credentials ─────────────────────────────────────────────────────────

  /** Whether a runtime key, auth.json, the environment or models.json gives the provider credentials. */
  hasConfiguredAuth(providerId: string): boolean {
    // The registry answers per model (a models.json key counts); every model of a provider shares it.
    const model = this.getModels(providerId)[0];
    return model ? this.modelRegistry.hasConfiguredAuth(model) : this.#auth.hasAuth(providerId);
  }

  /** Whether the provider's stored credential is an OAuth login. */
  isUsingOAuth(providerId: string): boolean {
    return this.#auth.get(providerId)?.type === "oauth";
  }

  /** Where the provider's credential comes from, without its value and without running commands. */
  getProviderAuthStatus(providerId: string): AuthStatus {
    if (this.#runtimeKeys.has(providerId)) return { configured: true, source: "runtime" };
    return this.modelRegistry.getProviderAuthStatus(providerId);
  }

  /**
   * The key and headers a request to the provider (or the model) is sent with: a runtime key, then
   * auth.json (an expired OAuth token is refreshed under the file's lock), the environment, then
   * models.json. Undefined when the provider has no credential; a failing `!command` or a header
   * variable that is not set throws, naming the provider.
   */
  async getAuth(
    provider: string | Model,
    overrides: ModelRuntimeAuthOverrides = {},
  ): Promise<AuthResult | undefined> {
    overrides.signal?.throwIfAborted();
    const providerId = typeof provider === "string" ? provider : provider.provider;
    let apiKey: string | undefined;
    let headers: Record<string, string> | undefined;
    if (typeof provider === "string") {
      apiKey = await this.modelRegistry.getApiKeyForProvider(provider);
    } else {
      const resolved = await this.modelRegistry.getApiKeyAndHeaders(provider);
      if (!resolved.ok) throw new Error(resolved.error);
      apiKey = resolved.apiKey;
      headers = resolved.headers;
    }
    overrides.signal?.throwIfAborted();
    if (overrides.apiKey !== undefined) apiKey = overrides.apiKey;
    if (apiKey === undefined && headers === undefined) return undefined;
    const status = this.getProviderAuthStatus(providerId);
    const source = this.isUsingOAuth(providerId) ? "OAuth" : status.label;
    return {
      auth: { ...(apiKey !== undefined ? { apiKey } : {}), ...(headers ? { headers } : {}) },
      ...(overrides.env ? { env: { ...overrides.env } } : {}),
      ...(source ? { source } : {}),
    };
  }

  /** Stored credentials, without their secrets (`!command` keys are not run). */
  listCredentials(): Promise<readonly CredentialInfo[]> {
    const all = this.#auth.getAll();
    return Promise.resolve(
      Object.entries(all).map(([providerId, credential]) => ({ providerId, type: credential.type })),
    );
  }

  /** Uses `apiKey` for the provider in this process, before every other source; it is never written. */
  setRuntimeApiKey(providerId: string, apiKey: string): Promise<void> {
    return this.#change(providerId, "setRuntimeApiKey", { type: "api_key", key: apiKey }, false, () => {
      this.#auth.setRuntimeApiKey(providerId, apiKey);
      this.#runtimeKeys.add(providerId);
    });
  }

  /** Drops a key set with {@link setRuntimeApiKey}. */
  removeRuntimeApiKey(providerId: string): Promise<void> {
    return this.#change(providerId, "removeRuntimeApiKey", undefined, false, () => {
      this.#auth.removeRuntimeApiKey(providerId);
      this.#runtimeKeys.delete(providerId);
    });
  }

  /**
   * Signs in to the provider (`"oauth"`: its account login, driven through `interaction` as in pi
   * 1.6.0) or asks for an API key (`"api_key"`), stores the credential in auth.json and reloads the
   * models; resolves with the stored credential. `options.getDeviceId` supplies the installation id
   * that some flows send (ChatGPT sign-in). The login code loads only here.
   */
  async login(
    providerId: string,
    type: "oauth" | "api_key",
    interaction: AuthInteraction,
    options?: OAuthLoginOptions & {
      /** The provider's own API-key flow (llama.cpp asks for its router's URL too). */
      credential?: (interaction: AuthInteraction) => Promise<AuthCredential>;
    },
  ): Promise<AuthCredential> {
    const { loginCredential } = await import("./oauth/auth_interaction.ts");
    const name = `${this.modelRegistry.getProviderDisplayName(providerId)} API key`;
    const credential = options?.credential
      ? await options.credential(interaction)
      : await loginCredential(providerId, type, interaction, name, options);
    await this.#change(providerId, "login", undefined, true, () => this.#auth.set(providerId, credential));
    return credential;
  }

  /** Removes the provider's credential from auth.json. */
  logout(providerId: string): Promise<void> {
    return this.#change(providerId, "logout", undefined, true, () => this.#auth.logout(providerId));
  }

  /** Waits for credential changes in progress (call before exiting, so a rotated token is kept). */
  async settleCredentialWrites(): Promise<void> {
    await Promise.all([...this.#pending.values()]);
  }

  /**
   * Runs one credential change after the provider's previous one; with `reload`, reloads the
   * models afterwards (an OAuth login may change a provider's model list). Availability needs no
   * reload: it is worked out on every call.
   */
  #change(
    providerId: string,
    operation: CredentialSynchronizationOperation,
    credential: { type: "api_key"; key: string } | undefined,
    reload: boolean,
    apply: () => void,
  ): Promise<void> {
    const previous = this.#pending.get(providerId) ?? Promise.resolve();
    const next = previous.then(() => {
      apply();
      if (!reload) return;
      try {
        this.modelRegistry.refresh();
      } catch (cause) {
        throw new CredentialSynchronizationError(providerId, operation, credential, { cause });
      }
    });
    const tail = next.catch(() => {});
    this.#pending.set(providerId, tail);
    void tail.then(() => {
      if (this.#pending.get(providerId) === tail) this.#pending.delete(providerId);
    });
    return next;
  }

  // ── requests ────────────────────────────────────────────────────────────

  /**
   * The options one request to `model` is sent with: the resolved key and headers merged under the
   * caller's (the caller's win). Throws when the credential cannot be resolved.
   */
  async requestOptions<T extends StreamOptions>(model: Model, options?: T): Promise<T> {
    const resolved = await this.getAuth(model, { signal: options?.signal });
    const headers = resolved?.auth.headers || options?.headers
      ? { ...resolved?.auth.headers, ...options?.headers }
      : undefined;
    return {
      ...options,
      apiKey: options?.apiKey ?? resolved?.auth.apiKey,
      ...(headers ? { headers } : {}),
    } as T;
  }

  /** Streams one request with the model's wire API, authenticated as {@link getAuth} resolves it. */
  stream(model: Model, context: Context, options?: StreamOptions): AssistantMessageEventStream {
    return this.#authenticated(model, options, (opts) => streamUnauthenticated(model, context, opts));
  }

  /** Like {@link stream}, resolving to the final message. */
  complete(model: Model, context: Context, options?: StreamOptions): Promise<AssistantMessage> {
    return this.stream(model, context, options).result();
  }

  /** Streams one request with the unified `reasoning` option, authenticated as {@link getAuth} resolves it. */
  streamSimple(model: Model, context: Context, options?: SimpleStreamOptions): AssistantMessageEventStream {
    return this.#authenticated(model, options, (opts) => streamSimpleUnauthenticated(model, context, opts));
  }

  /** Like {@link streamSimple}, resolving to the final message. */
  completeSimple(model: Model, context: Context, options?: SimpleStreamOptions): Promise<AssistantMessage> {
    return this.streamSimple(model, context, options).result();
  }

  /** A stream that resolves the credential first; a failure ends it with an error message. */
  #authenticated<T extends StreamOptions>(
    model: Model,
    options: T | undefined,
    start: (options: T) => AssistantMessageEventStream,
  ): AssistantMessageEventStream {
    const out = new AssistantMessageEventStream();
    void (async () => {
      let inner: AssistantMessageEventStream;
      try {
        inner = start(await this.requestOptions(model, options));
      } catch (error) {
        const failed = createOutputMessage(model);
        failed.stopReason = "error";
        failed.errorMessage = error instanceof Error ? error.message : String(error);
        out.push({ type: "error", reason: "error", error: failed });
        out.end();
        return;
      }
      for await (const event of inner) out.push(event);
      out.end(await inner.result());
    })();
    return out;
  }

  // ── providers ───────────────────────────────────────────────────────────

  /**
   * Adds or changes a provider at runtime: with `models` it replaces the provider's models; with
   * only `baseUrl`/`headers` it redirects the existing ones. Throws when the configuration cannot
   * work (models without `baseUrl`, or without `apiKey` or `oauth`).
   */
  registerProvider(providerId: string, config: ProviderConfigInput): void {
    this.modelRegistry.registerProvider(providerId, config);
  }

  /** Removes a provider added with {@link registerProvider}; built-ins it overrode come back. */
  unregisterProvider(providerId: string): void {
    this.modelRegistry.unregisterProvider(providerId);
  }

  // ── virtual models ──────────────────────────────────────────────────────

  /**
   * Registers a virtual model: a selectable catalog entry whose `route` picks a physical model for
   * each request (see docs/extensions.md). The same provider and id again replaces it; the id of a
   * physical model of that provider throws.
   */
  registerVirtualModel<TState>(definition: VirtualModelDefinition<TState>): void {
    this.modelRegistry.registerVirtualModel(definition);
  }

  /** Removes a virtual model; {@link unregisterProvider} leaves them alone. */
  unregisterVirtualModel(providerId: string, modelId: string): void {
    this.modelRegistry.unregisterVirtualModel(providerId, modelId);
  }

  /**
   * Asks a virtual model's router for one request's physical model and thinking level (clamped to
   * that model). Throws when the router throws or picks a virtual model or one without credentials.
   */
  resolveModel(
    model: Model,
    messages: readonly Message[],
    options: ResolveRouteOptions,
  ): Promise<ModelRoute> {
    return this.modelRegistry.resolveVirtualModel(model, messages, options);
  }

  /** A catalog model that is not virtual. */
  getPhysicalModel(providerId: string, modelId: string): Model | undefined {
    const model = this.getModel(providerId, modelId);
    return model && !isVirtualModel(model) ? model : undefined;
  }
}
