/**
 * Registry of OAuth providers that AuthStorage consults for login, token-to-key conversion and refresh.
 * There are no built-in providers yet (their login flows do not exist); custom providers from
 * models.json and, later, extensions register theirs at runtime.
 *
 * @module
 */

import type { Api, Model } from "../ai/types.ts";

/** Stored OAuth credentials: tokens, expiry in epoch ms, plus provider-specific extras. */
export type OAuthCredentials = {
  refresh: string;
  access: string;
  expires: number;
  [key: string]: unknown;
};

/** A question the login flow needs answered. */
export interface OAuthPrompt {
  /** The question. */
  message: string;
  /** Example input shown in the field. */
  placeholder?: string;
  /** Whether an empty answer is accepted. */
  allowEmpty?: boolean;
}

/** Where the user should go to authorize. */
export interface OAuthAuthInfo {
  /** URL the user opens to log in. */
  url: string;
  /** What to do there. */
  instructions?: string;
}

/** One choice in a login selector. */
export interface OAuthSelectOption {
  /** Value returned when chosen. */
  id: string;
  /** Text shown. */
  label: string;
}

/** UI hooks a login flow drives. */
export interface OAuthLoginCallbacks {
  /** Shows the login URL. */
  onAuth: (info: OAuthAuthInfo) => void;
  /** Asks the user for text. */
  onPrompt: (prompt: OAuthPrompt) => Promise<string>;
  /** Reports progress. */
  onProgress?: (message: string) => void;
  /** Asks the user to paste the code by hand. */
  onManualCodeInput?: () => Promise<string>;
  /** Asks the user to choose one option. */
  onSelect?: (prompt: { message: string; options: OAuthSelectOption[] }) => Promise<string | undefined>;
  /** Aborts the login. */
  signal?: AbortSignal;
}

/** What an OAuth provider implements. */
export interface OAuthProviderInterface {
  /** Provider id. */
  readonly id: string;
  /** Provider name for people. */
  readonly name: string;
  /** Runs the login flow and returns the credentials to persist. */
  login(callbacks: OAuthLoginCallbacks): Promise<OAuthCredentials>;
  /** Whether login uses a local callback server and supports manual code input. */
  usesCallbackServer?: boolean;
  /** Exchanges expired credentials for fresh ones. */
  refreshToken(credentials: OAuthCredentials): Promise<OAuthCredentials>;
  /** Turns credentials into the key sent to the provider. */
  getApiKey(credentials: OAuthCredentials): string;
  /** Adjusts this provider's models for the logged-in account (e.g. baseUrl). */
  modifyModels?(models: Model<Api>[], credentials: OAuthCredentials): Model<Api>[];
}

const registry = new Map<string, OAuthProviderInterface>();

/** The provider registered under `id`. */
export function getOAuthProvider(id: string): OAuthProviderInterface | undefined {
  return registry.get(id);
}

/** Registers (or replaces) a provider. */
export function registerOAuthProvider(provider: OAuthProviderInterface): void {
  registry.set(provider.id, provider);
}

/** Drops every runtime registration. */
export function resetOAuthProviders(): void {
  registry.clear();
}

/** All registered providers in registration order. */
export function getOAuthProviders(): OAuthProviderInterface[] {
  return [...registry.values()];
}

/**
 * API key for `providerId` from a set of stored OAuth credentials, refreshing when expired.
 * Null when there are no credentials; throws when the provider is unknown or the refresh fails.
 */
export async function getOAuthApiKey(
  providerId: string,
  credentials: Record<string, OAuthCredentials>,
): Promise<{ newCredentials: OAuthCredentials; apiKey: string } | null> {
  const provider = getOAuthProvider(providerId);
  if (!provider) throw new Error(`Unknown OAuth provider: ${providerId}`);
  let creds = credentials[providerId];
  if (!creds) return null;
  if (Date.now() >= creds.expires) {
    try {
      creds = await provider.refreshToken(creds);
    } catch {
      throw new Error(`Failed to refresh OAuth token for ${providerId}`);
    }
  }
  return { newCredentials: creds, apiKey: provider.getApiKey(creds) };
}
