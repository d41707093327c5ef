/**
 * AuthStorage: credentials from auth.json plus the order in which an API key is looked up for a provider.
 *
 * @module
 */

import { join } from "../util/path.ts";
import { findEnvKeys, getEnvApiKey } from "../ai/env_api_keys.ts";
import { getAgentDir } from "./paths.ts";
import {
  type AuthStorageBackend,
  FileAuthStorageBackend,
  InMemoryAuthStorageBackend,
} from "./auth_storage_backend.ts";
import {
  getOAuthApiKey,
  getOAuthProviders,
  type OAuthCredentials,
  type OAuthLoginCallbacks,
  type OAuthLoginOptions,
  oauthNeedsRefresh,
  type OAuthProviderInterface,
} from "./oauth_registry.ts";
import { loadOAuthProvider } from "./oauth/builtin_oauth.ts";
import { type ConfigValueEnv, resolveConfigValue } from "./resolve_value.ts";
import { describeJsonError } from "./json_error.ts";
import type { AuthCredential, AuthStorageData } from "./auth_credentials.ts";

export {
  type ApiKeyCredential,
  type AuthCredential,
  type AuthStorageData,
  credentialProblem,
  type OAuthCredential,
} from "./auth_credentials.ts";
import { credentialProblem } from "./auth_credentials.ts";

/** Where a provider's auth would come from, without revealing the value. */
export interface AuthStatus {
  /** Whether a credential is available. */
  configured: boolean;
  /** Where the credential comes from. */
  source?: "stored" | "runtime" | "environment" | "fallback" | "models_json_command" | "models_json_key";
  /** Human-readable name of the source (e.g. the environment variable). */
  label?: string;
}

/** Resolves keys auth.json does not know about (models.json custom providers). */
export type ApiKeyFallbackResolver = (provider: string) => string | undefined;

function toError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** Options of the {@link AuthStorage} factories. */
export interface AuthStorageOptions {
  /** Variables that win over the process environment (see {@link AuthStorage.env}). */
  env?: ConfigValueEnv;
}

/** Credential store over auth.json (or memory). */
export class AuthStorage {
  private readonly storage: AuthStorageBackend;
  private data: AuthStorageData = {};
  private readonly runtimeOverrides = new Map<string, string>();
  private fallbackResolver: ApiKeyFallbackResolver | undefined;
  private loadError: Error | null = null;
  private errors: Error[] = [];

  private readonly path: string | undefined;
  private problems: string[] = [];

  /**
   * Environment variables that win over the process environment wherever keys are read from the
   * environment (`OPENAI_API_KEY`, `$NAME` in auth.json and models.json); an embedder or a test
   * passes them instead of changing the process's.
   */
  readonly env: ConfigValueEnv | undefined;

  private constructor(storage: AuthStorageBackend, path?: string, options?: AuthStorageOptions) {
    this.storage = storage;
    this.path = path;
    this.env = options?.env;
    this.reload();
  }

  /** Store backed by auth.json (default `<agentDir>/auth.json`). */
  static create(authPath?: string, options?: AuthStorageOptions): AuthStorage {
    const path = authPath ?? join(getAgentDir(), "auth.json");
    return new AuthStorage(new FileAuthStorageBackend(path), path, options);
  }

  /** Store over any backend. */
  static fromStorage(storage: AuthStorageBackend, options?: AuthStorageOptions): AuthStorage {
    return new AuthStorage(storage, undefined, options);
  }

  /** Store with no file I/O, seeded with `data`. */
  static inMemory(data: AuthStorageData = {}, options?: AuthStorageOptions): AuthStorage {
    const storage = new InMemoryAuthStorageBackend();
    storage.withLock(() => ({ result: undefined, next: JSON.stringify(data, null, 2) }));
    return AuthStorage.fromStorage(storage, options);
  }

  /** Sets a key that wins over everything else and is never written (`--api-key`). */
  setRuntimeApiKey(provider: string, apiKey: string): void {
    this.runtimeOverrides.set(provider, apiKey);
  }

  /** Removes a runtime key. */
  removeRuntimeApiKey(provider: string): void {
    this.runtimeOverrides.delete(provider);
  }

  /** Installs the last-resort resolver (models.json provider keys). */
  setFallbackResolver(resolver: ApiKeyFallbackResolver): void {
    this.fallbackResolver = resolver;
  }

  /** Keeps an error for `drainErrors()` instead of throwing it at the caller. */
  private recordError(error: unknown): void {
    this.errors.push(toError(error));
  }

  /** Parses auth.json text; empty text is an empty store. */
  private parseStorageData(content: string | undefined): AuthStorageData {
    if (!content) return {};
    return JSON.parse(stripBom(content)) as AuthStorageData;
  }

  /** `auth.json (<path>)`, or just `auth.json` for in-memory stores: how messages name the file. */
  private fileLabel(): string {
    return this.path ? `auth.json (${this.path})` : "auth.json";
  }

  /**
   * The stored text under the lock; when this process may not write (a read-only sandbox), the lock cannot
   * be made, so the text is read as it is: nothing is written in that case either.
   */
  private readLocked(): string | undefined {
    try {
      let content: string | undefined;
      this.storage.withLock((current) => {
        content = current;
        return { result: undefined };
      });
      return content;
    } catch (error) {
      if (error instanceof Deno.errors.NotCapable && this.storage.readUnlocked) {
        return this.storage.readUnlocked();
      }
      throw error;
    }
  }

  /**
   * Re-reads storage. A file that is not valid JSON (or not an object) is reported and then never written;
   * an entry that is not a credential is reported and skipped, the others still work.
   */
  reload(): void {
    let content: string | undefined;
    try {
      content = this.readLocked();
    } catch (error) {
      this.loadError = toError(error);
      this.problems = [`Cannot read ${this.fileLabel()}: ${this.loadError.message}`];
      this.recordError(new Error(this.problems[0]));
      return;
    }
    let parsed: unknown;
    try {
      parsed = content ? JSON.parse(stripBom(content)) : {};
    } catch (error) {
      this.failLoad(describeJsonError(stripBom(content ?? ""), error));
      return;
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
      this.failLoad("expected an object with one entry per provider");
      return;
    }
    const data: AuthStorageData = {};
    const problems: string[] = [];
    for (const [provider, entry] of Object.entries(parsed)) {
      const problem = credentialProblem(entry);
      if (problem) problems.push(`Ignoring the "${provider}" entry of ${this.fileLabel()}: ${problem}`);
      else data[provider] = entry as AuthCredential;
    }
    this.data = data;
    this.loadError = null;
    this.problems = problems;
    for (const problem of problems) this.recordError(new Error(problem));
  }

  /** Marks the store as unreadable so that nothing overwrites the broken file. */
  private failLoad(detail: string): void {
    const message = `Cannot use ${this.fileLabel()}: ${detail}. ` +
      "Its credentials are ignored and the file is left as it is until you fix it.";
    this.data = {};
    this.loadError = new Error(message);
    this.problems = [message];
    this.recordError(this.loadError);
  }

  /**
   * What is wrong with auth.json as last loaded (unparsable file, invalid entries), naming the file and the
   * provider but never a credential value. Empty when the file is fine. Unlike drainErrors() this does not
   * forget, so start-up warnings and "no API key" messages can both show it.
   */
  getLoadProblems(): string[] {
    return [...this.problems];
  }

  /** Writes one provider's change to auth.json under the file lock, keeping other writers' entries. */
  private persistProviderChange(provider: string, credential: AuthCredential | undefined): void {
    if (this.loadError) return;
    try {
      this.storage.withLock((current) => {
        const merged = { ...this.parseStorageData(current) };
        if (credential) merged[provider] = credential;
        else delete merged[provider];
        return { result: undefined, next: JSON.stringify(merged, null, 2) };
      });
    } catch (error) {
      this.recordError(error);
    }
  }

  /** The stored credential for a provider. */
  get(provider: string): AuthCredential | undefined {
    return this.data[provider] ?? undefined;
  }

  /** Stores a credential (merged into the current file under the lock). */
  set(provider: string, credential: AuthCredential): void {
    this.data[provider] = credential;
    this.persistProviderChange(provider, credential);
  }

  /** Deletes a stored credential. */
  remove(provider: string): void {
    delete this.data[provider];
    this.persistProviderChange(provider, undefined);
  }

  /** Providers with stored credentials. */
  list(): string[] {
    return Object.keys(this.data);
  }

  /** Whether auth.json has an entry for the provider. */
  has(provider: string): boolean {
    return provider in this.data;
  }

  /** Whether any auth source is configured, without running refreshes. */
  hasAuth(provider: string): boolean {
    if (this.runtimeOverrides.has(provider)) return true;
    if (this.data[provider]) return true;
    if (getEnvApiKey(provider, this.env)) return true;
    if (this.fallbackResolver?.(provider)) return true;
    return false;
  }

  /** Describes where auth comes from without exposing values or refreshing tokens. */
  getAuthStatus(provider: string): AuthStatus {
    if (this.data[provider]) return { configured: true, source: "stored" };
    if (this.runtimeOverrides.has(provider)) {
      return { configured: false, source: "runtime", label: "--api-key" };
    }
    const envKeys = findEnvKeys(provider, this.env);
    if (envKeys?.[0]) return { configured: false, source: "environment", label: envKeys[0] };
    if (this.fallbackResolver?.(provider)) {
      return { configured: false, source: "fallback", label: "custom provider config" };
    }
    return { configured: false };
  }

  /** A copy of every stored credential. */
  getAll(): AuthStorageData {
    return { ...this.data };
  }

  /** Returns and forgets load/write/refresh errors. */
  drainErrors(): Error[] {
    const drained = [...this.errors];
    this.errors = [];
    return drained;
  }

  /** Runs a provider's OAuth login (a built-in flow is loaded first) and stores the result. */
  async login(
    providerId: string,
    callbacks: OAuthLoginCallbacks,
    options?: OAuthLoginOptions,
  ): Promise<void> {
    const provider = await loadOAuthProvider(providerId);
    if (!provider) throw new Error(`Unknown OAuth provider: ${providerId}`);
    const credentials = await provider.login(callbacks, options);
    // A flow that names the type itself keeps its key order (extensions' flows put it last, as 1.6.0 stores them).
    this.set(
      providerId,
      "type" in credentials ? { ...credentials, type: "oauth" } : { type: "oauth", ...credentials },
    );
  }

  /** Removes stored credentials for a provider. */
  logout(provider: string): void {
    this.remove(provider);
  }

  /**
   * Refreshes an expired OAuth token while holding the auth.json lock, re-reading the file first so that when
   * several pi processes race, only one refreshes and the others pick up its result.
   */
  async refreshOAuthTokenWithLock(
    providerId: string,
    minValidityMs = 0,
  ): Promise<{ apiKey: string; newCredentials: OAuthCredentials } | null> {
    const provider = await loadOAuthProvider(providerId);
    if (!provider) return null;
    return await this.storage.withLockAsync(async (current) => {
      const currentData = this.parseStorageData(current);
      this.data = currentData;
      this.loadError = null;
      const cred = currentData[providerId];
      if (cred?.type !== "oauth") return { result: null };
      // Checked again under the lock: another process may have refreshed meanwhile.
      if (!oauthNeedsRefresh(cred, minValidityMs)) {
        return { result: { apiKey: provider.getApiKey(cred), newCredentials: cred } };
      }
      const oauthCreds: Record<string, OAuthCredentials> = {};
      for (const [key, value] of Object.entries(currentData)) {
        if (value.type === "oauth") oauthCreds[key] = value;
      }
      const refreshed = await getOAuthApiKey(providerId, oauthCreds, minValidityMs);
      if (!refreshed) return { result: null };
      const merged: AuthStorageData = {
        ...currentData,
        [providerId]: { type: "oauth", ...refreshed.newCredentials },
      };
      this.data = merged;
      this.loadError = null;
      return { result: refreshed, next: JSON.stringify(merged, null, 2) };
    });
  }

  /**
   * API key for a provider, in priority order: runtime override → stored api_key (resolved) → stored OAuth
   * token (refreshed under the lock when it expires within five minutes, or `minOAuthValidityMs`) →
   * environment → fallback resolver (unless excluded). A failed refresh throws
   * `OAuth refresh failed for <provider>: <why>` unless another process has refreshed meanwhile.
   */
  async getApiKey(
    providerId: string,
    options?: { includeFallback?: boolean; minOAuthValidityMs?: number },
  ): Promise<string | undefined> {
    const runtimeKey = this.runtimeOverrides.get(providerId);
    if (runtimeKey) return runtimeKey;
    const cred = this.data[providerId];
    if (cred?.type === "api_key") {
      return cred.key === undefined ? undefined : resolveConfigValue(cred.key, this.entryEnv(cred.env));
    }
    if (cred?.type === "oauth") {
      const provider = await loadOAuthProvider(providerId);
      // No OAuth provider for these credentials: nothing can turn them into a key.
      if (!provider) return undefined;
      const minValidity = options?.minOAuthValidityMs ?? 0;
      if (!oauthNeedsRefresh(cred, minValidity)) return provider.getApiKey(cred);
      const refreshed = await this.refreshExpired(providerId, provider, minValidity);
      // A refresh that found nothing to refresh falls through to the environment, like the reference.
      if (refreshed.settled) return refreshed.apiKey;
    }
    const envKey = getEnvApiKey(providerId, this.env);
    if (envKey) return envKey;
    if (options?.includeFallback !== false) return this.fallbackResolver?.(providerId) ?? undefined;
    return undefined;
  }

  /** An entry's own variables over the store's (an empty entry value counts as unset, as there). */
  private entryEnv(entry: ConfigValueEnv | undefined): ConfigValueEnv | undefined {
    if (!this.env) return entry;
    const own = Object.entries(entry ?? {}).filter(([, value]) => value !== "");
    return { ...this.env, ...Object.fromEntries(own) };
  }

  /** Refreshes an expired OAuth token, or learns that another process already did. */
  private async refreshExpired(
    providerId: string,
    provider: OAuthProviderInterface,
    minValidityMs: number,
  ): Promise<{ settled: boolean; apiKey?: string }> {
    try {
      const result = await this.refreshOAuthTokenWithLock(providerId, minValidityMs);
      return result ? { settled: true, apiKey: result.apiKey } : { settled: false };
    } catch (error) {
      // Another process may have refreshed successfully while ours failed.
      this.reload();
      const updated = this.data[providerId];
      if (updated?.type === "oauth" && !oauthNeedsRefresh(updated, minValidityMs)) {
        return { settled: true, apiKey: provider.getApiKey(updated) };
      }
      // The login owns the provider: no silent fallback to the environment (1.6.0). The credentials
      // stay so that a new login can replace them; the message names the provider and the server's
      // answer, never a token.
      const cause = (error as Error).cause;
      const detail = cause instanceof Error ? `: ${cause.message}` : "";
      throw new Error(`${(error as Error).message}${detail}`);
    }
  }

  /** All registered OAuth providers. */
  getOAuthProviders(): OAuthProviderInterface[] {
    return getOAuthProviders();
  }
}
