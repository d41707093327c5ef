/**
 * Registry of OAuth providers that AuthStorage consults for login, token-to-key conversion and refresh.
 * Two layers: runtime registrations (models.json custom providers, extensions; cleared by
 * {@link resetOAuthProviders} on every model refresh) win over the built-in flows, which
 * src/config/oauth/builtin_oauth.ts loads on first use and which stay registered.
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

/** A device code the user enters at the verification page. */
export interface OAuthDeviceCodeInfo {
  /** The code to type. */
  userCode: string;
  /** Page where it is typed (already checked to be http/https). */
  verificationUri: string;
  /** Polling interval the server asked for, in seconds. */
  intervalSeconds?: number;
  /** Lifetime of the code, in seconds. */
  expiresInSeconds?: number;
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
  /**
   * Asks the user to paste the code (or redirect URL) by hand. Flows that race it against a callback
   * server pass a signal that aborts when the callback won (the prompt should then go away), and the
   * question to show (1.6.0's `manual_code` prompt); callers may ignore both.
   */
  onManualCodeInput?: (signal?: AbortSignal, prompt?: OAuthPrompt) => Promise<string>;
  /**
   * Shows a device code to enter at a verification page (device-authorization flows). Without it flows
   * fall back to `onAuth({ url: verificationUri, instructions: "Enter code: <userCode>" })`.
   */
  onDeviceCode?: (info: OAuthDeviceCodeInfo) => void;
  /** Asks the user to choose one option. */
  onSelect?: (prompt: { message: string; options: OAuthSelectOption[] }) => Promise<string | undefined>;
  /** Aborts the login. */
  signal?: AbortSignal;
}

/** What the app tells a login flow about itself (1.6.0's LoginOptions). */
export interface OAuthLoginOptions {
  /** The installation's stable id (settings `deviceId`), created on first call; e.g. OpenAI's agent host id. */
  getDeviceId?: () => string;
  /** Name the app introduces itself with (default pi's). */
  agentName?: string;
}

/** What an OAuth provider implements. */
export interface OAuthProviderInterface {
  /** Provider id. */
  readonly id: string;
  /** Provider name for people. */
  readonly name: string;
  /** Runs the login flow and returns the credentials to persist. */
  login(callbacks: OAuthLoginCallbacks, options?: OAuthLoginOptions): Promise<OAuthCredentials>;
  /** Whether the account is a subscription (`/login` says "subscription", else "account"); extensions set it. */
  isSubscription?: boolean;
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
const builtins = new Map<string, OAuthProviderInterface>();

/** The provider registered under `id`: a runtime registration, else a loaded built-in flow. */
export function getOAuthProvider(id: string): OAuthProviderInterface | undefined {
  return registry.get(id) ?? builtins.get(id);
}

/** Registers (or replaces) a runtime provider; it wins over a built-in flow of the same id. */
export function registerOAuthProvider(provider: OAuthProviderInterface): void {
  registry.set(provider.id, provider);
}

/**
 * Records a loaded built-in flow (called by builtin_oauth.ts only). Survives
 * {@link resetOAuthProviders}, since the module stays loaded.
 */
export function registerBuiltinOAuthProvider(provider: OAuthProviderInterface): void {
  builtins.set(provider.id, provider);
}

/** Drops every runtime registration (loaded built-in flows stay). */
export function resetOAuthProviders(): void {
  registry.clear();
}

/** Loaded built-in flows, then runtime providers, in registration order; a runtime one hides its built-in. */
export function getOAuthProviders(): OAuthProviderInterface[] {
  const hidden = [...builtins.values()].filter((provider) => !registry.has(provider.id));
  return [...hidden, ...registry.values()];
}

/** A token with less than this left is refreshed before use (1.6.0's five minutes). */
export const OAUTH_REFRESH_MARGIN_MS = 5 * 60 * 1000;

/**
 * Whether `credentials` must be refreshed before use: fewer than `minValidityMs` (at least
 * {@link OAUTH_REFRESH_MARGIN_MS}) left before `expires`.
 */
export function oauthNeedsRefresh(
  credentials: OAuthCredentials,
  minValidityMs = 0,
  now = Date.now(),
): boolean {
  return now + Math.max(OAUTH_REFRESH_MARGIN_MS, minValidityMs) >= credentials.expires;
}

/**
 * API key for `providerId` from a set of stored OAuth credentials, refreshing when it expires within
 * five minutes (or `minValidityMs`, when longer). Null when there are no credentials; throws when the provider is unknown or the refresh
 * fails (`OAuth refresh failed for <id>`, the provider's error as `cause`; no token in the message).
 */
export async function getOAuthApiKey(
  providerId: string,
  credentials: Record<string, OAuthCredentials>,
  minValidityMs = 0,
): Promise<{ newCredentials: OAuthCredentials; apiKey: string } | null> {
  const provider = getOAuthProvider(providerId);
  if (!provider) throw new Error(`Unknown OAuth provider: ${providerId}`);
  let creds = credentials[providerId];
  if (!creds) return null;
  if (oauthNeedsRefresh(creds, minValidityMs)) {
    try {
      creds = await provider.refreshToken(creds);
    } catch (error) {
      throw new Error(`OAuth refresh failed for ${providerId}`, { cause: error });
    }
  }
  return { newCredentials: creds, apiKey: provider.getApiKey(creds) };
}
