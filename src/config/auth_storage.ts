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
  getOAuthProvider,
  getOAuthProviders,
  type OAuthCredentials,
  type OAuthLoginCallbacks,
  type OAuthProviderInterface,
} from "./oauth_registry.ts";
import { resolveConfigValue } from "./resolve_value.ts";

/** A stored API key (literal, env-var name or `!command`). */
export type ApiKeyCredential = { type: "api_key"; key: string };
/** Stored OAuth tokens. */
export type OAuthCredential = { type: "oauth" } & OAuthCredentials;
/** One auth.json record. */
export type AuthCredential = ApiKeyCredential | OAuthCredential;
/** The whole auth.json document, keyed by provider id. */
export type AuthStorageData = Record<string, AuthCredential>;

/** Where a provider's auth would come from, without revealing the value. */
export interface AuthStatus {
  configured: boolean;
  source?: "stored" | "runtime" | "environment" | "fallback" | "models_json_command" | "models_json_key";
  label?: string;
}

/** Resolves keys auth.json does not know about (models.json custom providers). */
export type ApiKeyFallbackResolver = (provider: string) => string | undefined;

function toError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

/** Credential store over auth.json (or memory). */
export class AuthStorage {
  private readonly storage: AuthStorageBackend;
  private data: AuthStorageData = {};
  private readonly runtimeOverrides = new Map<string, string>();
  private fallbackResolver: ApiKeyFallbackResolver | undefined;
  private loadError: Error | null = null;
  private errors: Error[] = [];

  private constructor(storage: AuthStorageBackend) {
    this.storage = storage;
    this.reload();
  }

  /** Store backed by auth.json (default `<agentDir>/auth.json`). */
  static create(authPath?: string): AuthStorage {
    return new AuthStorage(new FileAuthStorageBackend(authPath ?? join(getAgentDir(), "auth.json")));
  }

  /** Store over any backend. */
  static fromStorage(storage: AuthStorageBackend): AuthStorage {
    return new AuthStorage(storage);
  }

  /** Store with no file I/O, seeded with `data`. */
  static inMemory(data: AuthStorageData = {}): AuthStorage {
    const storage = new InMemoryAuthStorageBackend();
    storage.withLock(() => ({ result: undefined, next: JSON.stringify(data, null, 2) }));
    return AuthStorage.fromStorage(storage);
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

  private recordError(error: unknown): void {
    this.errors.push(toError(error));
  }

  private parseStorageData(content: string | undefined): AuthStorageData {
    if (!content) return {};
    return JSON.parse(content) as AuthStorageData;
  }

  /** Re-reads storage; a broken file is recorded as an error and then never written. */
  reload(): void {
    try {
      let content: string | undefined;
      this.storage.withLock((current) => {
        content = current;
        return { result: undefined };
      });
      this.data = this.parseStorageData(content);
      this.loadError = null;
    } catch (error) {
      this.loadError = toError(error);
      this.recordError(error);
    }
  }

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
    if (getEnvApiKey(provider)) return true;
    if (this.fallbackResolver?.(provider)) return true;
    return false;
  }

  /** Describes where auth comes from without exposing values or refreshing tokens. */
  getAuthStatus(provider: string): AuthStatus {
    if (this.data[provider]) return { configured: true, source: "stored" };
    if (this.runtimeOverrides.has(provider)) {
      return { configured: false, source: "runtime", label: "--api-key" };
    }
    const envKeys = findEnvKeys(provider);
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

  /** Runs a provider's OAuth login and stores the result. */
  async login(providerId: string, callbacks: OAuthLoginCallbacks): Promise<void> {
    const provider = getOAuthProvider(providerId);
    if (!provider) throw new Error(`Unknown OAuth provider: ${providerId}`);
    const credentials = await provider.login(callbacks);
    this.set(providerId, { type: "oauth", ...credentials });
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
  ): Promise<{ apiKey: string; newCredentials: OAuthCredentials } | null> {
    const provider = getOAuthProvider(providerId);
    if (!provider) return null;
    return await this.storage.withLockAsync(async (current) => {
      const currentData = this.parseStorageData(current);
      this.data = currentData;
      this.loadError = null;
      const cred = currentData[providerId];
      if (cred?.type !== "oauth") return { result: null };
      if (Date.now() < cred.expires) {
        return { result: { apiKey: provider.getApiKey(cred), newCredentials: cred } };
      }
      const oauthCreds: Record<string, OAuthCredentials> = {};
      for (const [key, value] of Object.entries(currentData)) {
        if (value.type === "oauth") oauthCreds[key] = value;
      }
      const refreshed = await getOAuthApiKey(providerId, oauthCreds);
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
   * token (refreshed under the lock when expired) → environment → fallback resolver (unless excluded).
   */
  async getApiKey(providerId: string, options?: { includeFallback?: boolean }): Promise<string | undefined> {
    const runtimeKey = this.runtimeOverrides.get(providerId);
    if (runtimeKey) return runtimeKey;
    const cred = this.data[providerId];
    if (cred?.type === "api_key") return resolveConfigValue(cred.key);
    if (cred?.type === "oauth") {
      const provider = getOAuthProvider(providerId);
      // No registered OAuth provider for these credentials: nothing can turn them into a key.
      if (!provider) return undefined;
      if (Date.now() < cred.expires) return provider.getApiKey(cred);
      const refreshed = await this.refreshExpired(providerId, provider);
      // A refresh that found nothing to refresh falls through to the environment, like the reference.
      if (refreshed.settled) return refreshed.apiKey;
    }
    const envKey = getEnvApiKey(providerId);
    if (envKey) return envKey;
    if (options?.includeFallback !== false) return this.fallbackResolver?.(providerId) ?? undefined;
    return undefined;
  }

  private async refreshExpired(
    providerId: string,
    provider: OAuthProviderInterface,
  ): Promise<{ settled: boolean; apiKey?: string }> {
    try {
      const result = await this.refreshOAuthTokenWithLock(providerId);
      return result ? { settled: true, apiKey: result.apiKey } : { settled: false };
    } catch (error) {
      this.recordError(error);
      // Another process may have refreshed successfully while ours failed.
      this.reload();
      const updated = this.data[providerId];
      if (updated?.type === "oauth" && Date.now() < updated.expires) {
        return { settled: true, apiKey: provider.getApiKey(updated) };
      }
      // Credentials are kept so /login can retry; the provider is skipped for now.
      return { settled: true, apiKey: undefined };
    }
  }

  /** All registered OAuth providers. */
  getOAuthProviders(): OAuthProviderInterface[] {
    return getOAuthProviders();
  }
}
