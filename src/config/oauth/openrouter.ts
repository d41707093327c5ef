/**
 * OpenRouter login (pi 1.6.0's `openrouter` OAuth): a PKCE flow whose authorization code is exchanged
 * for a permanent, user-controlled API key, not a token pair. The stored `access` is that key, with an
 * empty `refresh` and an expiry that never comes; "refreshing" keeps it as it is.
 *
 * The redirect goes to a loopback server on a free port with a random path (OpenRouter sends no
 * `state`, so the path keeps stray requests out), raced against the user pasting the code or the
 * redirect URL. `PI_OAUTH_CALLBACK_HOST` changes the listening address. Tests send the authorize and key
 * requests to a fake server with `PI_OPENROUTER_OAUTH_URL` (an origin; the path is kept).
 *
 * @module
 */

import { readEnv } from "../../util/env.ts";
import { oauthEndpoint } from "./endpoint_override.ts";
import type { OAuthCredentials, OAuthLoginCallbacks, OAuthProviderInterface } from "../oauth_registry.ts";
import { startOAuthCallbackServer, waitForCallbackOrManualInput } from "./callback_server.ts";
import { loginSignal, manualCodeInputFrom } from "./login_input.ts";
import { generatePkce } from "./pkce.ts";

const AUTHORIZE_URL = "https://openrouter.ai/auth";
const TOKEN_URL = "https://openrouter.ai/api/v1/auth/keys";
const LOGIN_TIMEOUT_MS = 5 * 60 * 1000;
const TOKEN_EXCHANGE_TIMEOUT_MS = 30_000;
/** Environment variable (tests only) that sends the key exchange to another origin. */
export const OPENROUTER_OAUTH_URL_ENV = "PI_OPENROUTER_OAUTH_URL";

/** `url`, or the same path on the test origin when one is set. */
function endpoint(url: string): string {
  return oauthEndpoint(url, OPENROUTER_OAUTH_URL_ENV);
}

/** The code in what the user pasted: a redirect URL, a `code=…` query, or the bare code. */
export function parseOpenRouterAuthorizationInput(input: string): string | undefined {
  const value = input.trim();
  if (!value) return undefined;
  if (URL.canParse(value)) return new URL(value).searchParams.get("code") ?? undefined;
  if (value.includes("code=")) return new URLSearchParams(value).get("code") ?? undefined;
  return value;
}

function errorDetail(body: Record<string, unknown>): string | undefined {
  if (typeof body.error_description === "string") return body.error_description;
  if (typeof body.message === "string") return body.message;
  if (typeof body.error === "string") return body.error;
  const nested = body.error;
  if (nested && typeof nested === "object" && !Array.isArray(nested)) {
    const message = (nested as Record<string, unknown>).message;
    if (typeof message === "string") return message;
  }
  return undefined;
}

async function exchangeCode(code: string, verifier: string, signal: AbortSignal): Promise<OAuthCredentials> {
  if (signal.aborted) throw new Error("Login cancelled");
  const timeout = AbortSignal.timeout(TOKEN_EXCHANGE_TIMEOUT_MS);
  let response: Response;
  let body: Record<string, unknown> = {};
  try {
    response = await fetch(endpoint(TOKEN_URL), {
      method: "POST",
      headers: { accept: "application/json", "content-type": "application/json" },
      body: JSON.stringify({ code, code_verifier: verifier, code_challenge_method: "S256" }),
      signal: AbortSignal.any([signal, timeout]),
    });
    try {
      const parsed: unknown = await response.json();
      if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) {
        body = parsed as Record<string, unknown>;
      }
    } catch {
      if (response.ok) throw new Error("OpenRouter OAuth returned invalid JSON");
    }
  } catch (error) {
    if (signal.aborted) throw new Error("Login cancelled");
    if (timeout.aborted) throw new Error("OpenRouter OAuth token exchange timed out");
    throw error;
  }
  if (!response.ok) {
    const detail = errorDetail(body);
    throw new Error(
      `OpenRouter OAuth key exchange failed (HTTP ${response.status})${detail ? `: ${detail}` : ""}`,
    );
  }
  if (typeof body.key !== "string" || body.key.length === 0) {
    throw new Error('OpenRouter OAuth response carries no "key"');
  }
  return { access: body.key, refresh: "", expires: Number.MAX_SAFE_INTEGER };
}

async function login(callbacks: OAuthLoginCallbacks): Promise<OAuthCredentials> {
  const signal = loginSignal(callbacks);
  const { verifier, challenge } = await generatePkce();
  const callback = await startOAuthCallbackServer({
    providerName: "OpenRouter",
    host: readEnv("PI_OAUTH_CALLBACK_HOST") || "127.0.0.1",
    port: 0,
    path: `/oauth/callback/${crypto.randomUUID()}`,
    complete: (code) => exchangeCode(code, verifier, signal),
    signal,
    timeoutMs: LOGIN_TIMEOUT_MS,
  });
  try {
    const authorizeUrl = new URL(endpoint(AUTHORIZE_URL));
    authorizeUrl.search = new URLSearchParams({
      callback_url: callback.redirectUri,
      code_challenge: challenge,
      code_challenge_method: "S256",
    }).toString();
    callbacks.onProgress?.(`Listening for OpenRouter OAuth callback on ${callback.redirectUri}`);
    callbacks.onAuth({
      url: authorizeUrl.toString(),
      instructions:
        "Complete sign-in in your browser. If the browser is on another machine, paste the final redirect URL here.",
    });
    const result = await waitForCallbackOrManualInput(manualCodeInputFrom(callbacks), callback, {
      message: "Complete sign-in in your browser, or paste the authorization code / redirect URL here:",
      placeholder: callback.redirectUri,
    });
    if (result.type === "callback") return result.value;
    const code = parseOpenRouterAuthorizationInput(result.input);
    if (!code) throw new Error("Missing authorization code");
    callbacks.onProgress?.("Exchanging authorization code for an API key...");
    return await exchangeCode(code, verifier, signal);
  } finally {
    await callback.close();
  }
}

/** OpenRouter's OAuth provider (`pi auth login openrouter`). */
export const openRouterOAuth: OAuthProviderInterface = {
  id: "openrouter",
  name: "OpenRouter OAuth",
  usesCallbackServer: true,
  login,
  // The key does not expire; there is nothing to refresh.
  refreshToken: (credentials) => Promise.resolve(credentials),
  getApiKey: (credentials) => credentials.access,
};
