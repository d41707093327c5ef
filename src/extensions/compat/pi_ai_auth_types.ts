/**
 * The auth types of 1.6.0's pi-ai that its credential store and auth helpers use (the subset the
 * host modules implement): stored credentials, the environment access auth resolution reads,
 * and the api-key and OAuth auth objects a provider definition carries.
 *
 * @module
 */

/** Request auth for one model request. */
export interface ModelAuth {
  /** API key or bearer token. */
  apiKey?: string;
  /** Extra request headers; `null` removes a default header (pi-ai 1.6.0's ProviderHeaders). */
  headers?: Record<string, string | null>;
  /** A base URL the credential dictates. */
  baseUrl?: string;
}

/** A stored api-key credential; `env` holds provider-scoped configuration values. */
export interface ApiKeyCredential {
  /** Kind tag. */
  type: "api_key";
  /** The key. */
  key?: string;
  /** Provider-scoped environment values (account ids, …). */
  env?: Record<string, string>;
}

/** A stored OAuth credential. */
export interface OAuthCredential {
  /** Kind tag. */
  type: "oauth";
  /** Refresh token. */
  refresh: string;
  /** Access token. */
  access: string;
  /** Expiry, Unix ms. */
  expires: number;
  /** Provider-specific fields. */
  [key: string]: unknown;
}

/** One credential per provider. */
export type Credential = ApiKeyCredential | OAuthCredential;

/** A stored credential's non-secret facts. */
export interface CredentialInfo {
  /** Provider id. */
  providerId: string;
  /** Its kind. */
  type: Credential["type"];
}

/** Optional cancellation for auth and store operations. */
export interface AuthOperationOptions {
  /** Aborts the operation. */
  signal?: AbortSignal;
}

/** Environment access for auth resolution. */
export interface AuthContext {
  /** A non-blank environment value, or undefined. */
  env(name: string): Promise<string | undefined>;
  /** Whether a file exists (a leading `~` is the home directory). */
  fileExists(path: string): Promise<boolean>;
}

/** The outcome of resolving auth. */
export interface AuthResult {
  /** The request auth. */
  auth: ModelAuth;
  /** Provider-scoped environment values. */
  env?: Record<string, string>;
  /** What it came from, for status displays ("ANTHROPIC_API_KEY", "stored credential"). */
  source?: string;
}

/** A question a login flow asks. */
export type AuthPrompt =
  & { signal?: AbortSignal }
  & (
    | { type: "text" | "secret" | "manual_code"; message: string; placeholder?: string }
    | {
      type: "select";
      message: string;
      options: readonly { id: string; label: string; description?: string }[];
    }
  );

/** The callbacks a provider's login flow talks to the user through. */
export interface ProviderAuthInteraction {
  /** Aborts the whole login. */
  signal: AbortSignal;
  /** Asks a question; resolves with the answer (a select's option id). */
  prompt(prompt: AuthPrompt): Promise<string>;
  /** Tells the user something (an auth URL, progress). */
  notify(event: { type: string; [key: string]: unknown }): void;
}

/** Api-key auth: a stored key and ambient sources. */
export interface ApiKeyAuth {
  /** Display name, e.g. "Anthropic API key". */
  name: string;
  /** Interactive setup; absent for ambient-only auth. */
  login?(interaction: ProviderAuthInteraction): Promise<ApiKeyCredential>;
  /** Resolves auth from the stored credential and the environment; undefined when not configured. */
  resolve(input: { ctx: AuthContext; credential?: ApiKeyCredential; signal: AbortSignal }): Promise<
    AuthResult | undefined
  >;
}

/** Options a login flow may use. */
export interface LoginOptions {
  /** The stable id of this installation. */
  getDeviceId?: () => string;
  /** The name the app introduces itself with. */
  agentName?: string;
}

/** OAuth auth: login, refresh and deriving request auth from a credential. */
export interface OAuthAuth {
  /** Display name. */
  name: string;
  /** Whether the access is backed by a subscription. */
  isSubscription?: boolean;
  /** Label of the login option. */
  loginLabel?: string;
  /** Runs the login flow. */
  login(interaction: ProviderAuthInteraction, options?: LoginOptions): Promise<OAuthCredential>;
  /** Exchanges the refresh token. */
  refresh(credential: OAuthCredential, signal: AbortSignal): Promise<OAuthCredential>;
  /** Request auth from a valid credential. */
  toAuth(credential: OAuthCredential): Promise<ModelAuth>;
}
