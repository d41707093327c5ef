/**
 * pi 1.6.0's login interaction for SDK callers (`ModelRuntime.login(provider, type, interaction)`):
 * prompts (`text`, `secret`, `select`, `manual_code`) and events (`auth_url`, `device_code`,
 * `progress`, `info`), adapted to the {@link OAuthLoginCallbacks} our flows drive.
 *
 * @module
 */

import type { OAuthLoginCallbacks, OAuthLoginOptions } from "../oauth_registry.ts";
import type { AuthCredential } from "../auth_credentials.ts";
import { loadOAuthProvider } from "./builtin_oauth.ts";

/** A question for the user; `signal` withdraws it (e.g. the browser callback won). */
export type AuthPrompt =
  & { signal?: AbortSignal }
  & (
    | { type: "text"; message: string; placeholder?: string }
    | { type: "secret"; message: string; placeholder?: string }
    | {
      type: "select";
      message: string;
      options: readonly { id: string; label: string; description?: string }[];
    }
    | { type: "manual_code"; message: string; placeholder?: string }
  );

/** Something to show the user. */
export type AuthEvent =
  | { type: "info"; message: string; links?: readonly { url: string; label?: string }[] }
  | { type: "auth_url"; url: string; instructions?: string }
  | {
    type: "device_code";
    userCode: string;
    verificationUri: string;
    openBrowserOnConfirm?: boolean;
    copyCodeOnConfirm?: boolean;
    intervalSeconds?: number;
    expiresInSeconds?: number;
  }
  | { type: "progress"; message: string };

/** The app's side of a login: answers prompts (rejecting on cancel) and shows events. */
export interface AuthInteraction {
  /** Aborts the whole login. */
  signal?: AbortSignal;
  /** Resolves with the answer (`select`: the option id); rejects when cancelled. */
  prompt(prompt: AuthPrompt): Promise<string>;
  /** Shows an event. */
  notify(event: AuthEvent): void;
}

/** The flows' callbacks over a 1.6.0 interaction (the same mapping 1.6.0 uses for extension flows). */
export function loginCallbacksFor(interaction: AuthInteraction): OAuthLoginCallbacks {
  return {
    signal: interaction.signal,
    onAuth: (info) => interaction.notify({ type: "auth_url", ...info }),
    onDeviceCode: (info) => interaction.notify({ type: "device_code", ...info }),
    onProgress: (message) => interaction.notify({ type: "progress", message }),
    onPrompt: (prompt) =>
      interaction.prompt({ type: "text", message: prompt.message, placeholder: prompt.placeholder }),
    onManualCodeInput: (signal, prompt) =>
      interaction.prompt({
        type: "manual_code",
        message: prompt?.message ?? "Paste the authorization code",
        placeholder: prompt?.placeholder,
        signal,
      }),
    onSelect: (prompt) => interaction.prompt({ type: "select", ...prompt }),
  };
}

/**
 * The credential a login produces, not yet stored: `"oauth"` runs the provider's account login
 * (built-in flows load now), `"api_key"` asks for the key with a `secret` prompt
 * (`Enter <apiKeyName>`). Throws when the provider has no account login, or the flow fails.
 */
export async function loginCredential(
  providerId: string,
  type: "oauth" | "api_key",
  interaction: AuthInteraction,
  apiKeyName: string,
  options?: OAuthLoginOptions,
): Promise<AuthCredential> {
  interaction.signal?.throwIfAborted();
  if (type === "api_key") {
    const key = await interaction.prompt({
      type: "secret",
      message: `Enter ${apiKeyName}`,
      signal: interaction.signal,
    });
    interaction.signal?.throwIfAborted();
    return { type: "api_key", key };
  }
  const provider = await loadOAuthProvider(providerId);
  if (!provider) throw new Error(`Provider "${providerId}" has no account login`);
  const credentials = await provider.login(loginCallbacksFor(interaction), options);
  // A flow that names the type itself keeps its key order (extensions' flows put it last, as 1.6.0 stores them).
  return "type" in credentials ? { ...credentials, type: "oauth" } : { type: "oauth", ...credentials };
}
