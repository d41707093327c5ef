/**
 * "Sign in with ChatGPT" for the `openai` provider (pi 1.6.0's `openai` OAuth): a public-client PKCE
 * flow on auth.openai.com whose user access token goes straight to api.openai.com. Every login
 * registers a new client (`dynamic_agent_client`); OpenAI names the issued client id in the redirect,
 * and refreshes use it. OpenAI identifies the installation by a stable UUID (`urn:uuid:…`), which the
 * caller supplies as `getDeviceId` (pi keeps it in settings as `deviceId`).
 *
 * The redirect goes to a loopback server on 127.0.0.1:1455 (`PI_OAUTH_CALLBACK_HOST` changes the
 * listening address; tests choose another port with `PI_OPENAI_OAUTH_CALLBACK_PORT`); the user may instead paste the final redirect URL. Tests send the authorize and token
 * requests to a fake server with `PI_OPENAI_OAUTH_URL` (an origin; paths are kept).
 *
 * @module
 */

import { readEnv } from "../../util/env.ts";
import { oauthEndpoint } from "./endpoint_override.ts";
import type { OAuthCredentials, OAuthLoginCallbacks, OAuthProviderInterface } from "../oauth_registry.ts";
import { oauthResultPage } from "./callback_server.ts";
import { loginSignal, manualCodeInputFrom } from "./login_input.ts";
import { base64UrlEncode, generatePkce } from "./pkce.ts";

const DYNAMIC_CLIENT_ID = "dynamic_agent_client";
const AGENT_NAME_HINT = "Pi";
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const AUTHORIZE_URL = "https://auth.openai.com/api/accounts/authorize";
const TOKEN_URL = "https://auth.openai.com/api/accounts/oauth/token";
const RESOURCE = "https://api.openai.com/v1";
const CALLBACK_PORT = 1455;
const CALLBACK_PATH = "/auth/callback";
const DIRECT_TOKEN_SCOPE = "chatgpt.tokens.use.direct";
const SCOPE = `openid profile email offline_access resource.invoke ${DIRECT_TOKEN_SCOPE}`;
/** Tokens count as expired three minutes early, so no request starts with one about to die. */
const EXPIRY_MARGIN_MS = 3 * 60 * 1000;
/** Environment variable (tests only) that sends the token requests to another origin. */
export const OPENAI_CHATGPT_OAUTH_URL_ENV = "PI_OPENAI_OAUTH_URL";
/**
 * Environment variable (tests only) with another callback port; `0` takes a free one, so tests running
 * in parallel with other sign-ins on 1455 (OpenAI Codex) do not collide.
 */
export const OPENAI_CHATGPT_CALLBACK_PORT_ENV = "PI_OPENAI_OAUTH_CALLBACK_PORT";

function callbackPort(): number {
  const value = Number(readEnv(OPENAI_CHATGPT_CALLBACK_PORT_ENV) ?? Number.NaN);
  return Number.isInteger(value) && value >= 0 && value < 65536 ? value : CALLBACK_PORT;
}

/** What the app tells the login about itself. */
export interface ChatGPTLoginOptions {
  /** The installation's stable UUID (required by OpenAI). */
  getDeviceId?: () => string;
  /** Name shown by OpenAI for the agent; default `Pi`. */
  agentName?: string;
}

/** `url`, or the same path on the test origin when one is set. */
function endpoint(url: string): string {
  return oauthEndpoint(url, OPENAI_CHATGPT_OAUTH_URL_ENV);
}

function randomValue(): string {
  return base64UrlEncode(crypto.getRandomValues(new Uint8Array(32)));
}

interface AuthorizationResult {
  code: string;
  clientId: string;
}

function resultFromCallback(url: URL, expectedState: string): AuthorizationResult {
  const code = url.searchParams.get("code");
  if (!code) throw new Error("Missing authorization code");
  const state = url.searchParams.get("state");
  if (!state) throw new Error("Missing OAuth state");
  if (state !== expectedState) throw new Error("OAuth state mismatch");
  const clientId = url.searchParams.get("client_id")?.trim();
  if (!clientId) throw new Error("OpenAI OAuth registration callback did not contain an issued client ID");
  return { code, clientId };
}

function resultFromPastedUrl(input: string, expectedState: string, redirectUri: string): AuthorizationResult {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    throw new Error("Paste the full callback URL from the browser");
  }
  const expected = new URL(redirectUri);
  if (url.origin !== expected.origin || url.pathname !== expected.pathname) {
    throw new Error(`The pasted callback URL must start with ${redirectUri}`);
  }
  const error = url.searchParams.get("error");
  if (error) throw new Error(`ChatGPT authorization failed: ${error}`);
  return resultFromCallback(url, expectedState);
}

function htmlPage(status: number, title: string, message: string, details?: string): Response {
  return new Response(oauthResultPage(title, message, details), {
    status,
    headers: { "content-type": "text/html; charset=utf-8" },
  });
}

/**
 * The loopback server for this flow. Unlike the shared one it needs the issued `client_id` from the
 * redirect, and a callback with a wrong state keeps the login waiting (another login's browser tab).
 */
function startCallbackServer(
  expectedState: string,
): { result: Promise<AuthorizationResult>; redirectUri: string; close(): Promise<void> } {
  const port = callbackPort();
  let resolveResult!: (value: AuthorizationResult) => void;
  let rejectResult!: (error: Error) => void;
  const result = new Promise<AuthorizationResult>((resolve, reject) => {
    resolveResult = resolve;
    rejectResult = reject;
  });
  result.catch(() => undefined);
  let server: Deno.HttpServer<Deno.NetAddr>;
  try {
    server = Deno.serve({
      hostname: readEnv("PI_OAUTH_CALLBACK_HOST") || "127.0.0.1",
      port,
      onListen: () => {},
    }, (request) => {
      const url = new URL(request.url);
      if (url.pathname !== CALLBACK_PATH) {
        return htmlPage(404, "Authentication failed", "Callback route not found.");
      }
      const error = url.searchParams.get("error");
      if (error) {
        rejectResult(new Error(`ChatGPT authorization failed: ${error}`));
        return htmlPage(400, "Authentication failed", "ChatGPT was not connected.", `Error: ${error}`);
      }
      try {
        resolveResult(resultFromCallback(url, expectedState));
      } catch (caught) {
        return htmlPage(
          400,
          "Authentication failed",
          caught instanceof Error ? caught.message : "Invalid callback",
        );
      }
      return htmlPage(
        200,
        "Authentication successful",
        "ChatGPT authentication completed. You can close this window.",
      );
    });
  } catch (error) {
    if (error instanceof Deno.errors.AddrInUse) {
      throw new Error(
        `Port ${port} is in use, probably by an unfinished login in another pi session or by the Codex CLI. Cancel that login and try again.`,
      );
    }
    throw error;
  }
  // Always 127.0.0.1 in the redirect, whatever address is listened on (as 1.6.0).
  const redirectUri = `http://127.0.0.1:${server.addr.port}${CALLBACK_PATH}`;
  return { result, redirectUri, close: () => server.shutdown() };
}

async function requestToken(
  body: URLSearchParams,
  signal: AbortSignal | undefined,
): Promise<Record<string, unknown>> {
  const response = await fetch(endpoint(TOKEN_URL), {
    method: "POST",
    headers: { accept: "application/json", "content-type": "application/x-www-form-urlencoded" },
    body,
    signal,
  });
  if (!response.ok) {
    const text = await response.text().catch(() => "");
    throw new Error(`OpenAI OAuth token request failed (${response.status}): ${text || response.statusText}`);
  }
  const data: unknown = await response.json();
  if (typeof data !== "object" || data === null || Array.isArray(data)) {
    throw new Error("OpenAI OAuth token response must be an object");
  }
  return data as Record<string, unknown>;
}

function requireString(value: unknown, field: string): string {
  if (typeof value !== "string" || value.trim().length === 0) {
    throw new Error(`OpenAI OAuth token response has invalid ${field}`);
  }
  return value;
}

function credentialsFromToken(token: Record<string, unknown>, clientId: string): OAuthCredentials {
  const access = requireString(token.access_token, "access_token");
  const refresh = requireString(token.refresh_token, "refresh_token");
  const scope = requireString(token.scope, "scope");
  const expiresIn = token.expires_in;
  if (typeof expiresIn !== "number" || !Number.isFinite(expiresIn) || expiresIn <= 0) {
    throw new Error("OpenAI OAuth token response has invalid expires_in");
  }
  const scopes = scope.trim().split(/\s+/).filter(Boolean);
  if (!scopes.includes(DIRECT_TOKEN_SCOPE)) {
    throw new Error(`OpenAI OAuth grant did not include ${DIRECT_TOKEN_SCOPE}`);
  }
  return { access, refresh, expires: Date.now() + expiresIn * 1000 - EXPIRY_MARGIN_MS, clientId, scopes };
}

async function exchangeCode(
  result: AuthorizationResult,
  verifier: string,
  redirectUri: string,
  signal: AbortSignal | undefined,
): Promise<OAuthCredentials> {
  const token = await requestToken(
    new URLSearchParams({
      grant_type: "authorization_code",
      client_id: result.clientId,
      code: result.code,
      code_verifier: verifier,
      redirect_uri: redirectUri,
      resource: RESOURCE,
    }),
    signal,
  );
  // The ID token is not used (no profile is read), but its presence is part of the response contract.
  if (typeof token.id_token !== "string" || token.id_token.trim().length === 0) {
    throw new Error("OpenAI OAuth token response did not contain an ID token");
  }
  return credentialsFromToken(token, result.clientId);
}

async function refreshToken(credentials: OAuthCredentials): Promise<OAuthCredentials> {
  const clientId = credentials.clientId;
  if (typeof clientId !== "string" || clientId.trim().length === 0) {
    throw new Error("Stored OpenAI OAuth credential does not contain an issued client ID; reconnect ChatGPT");
  }
  const token = await requestToken(
    new URLSearchParams({
      grant_type: "refresh_token",
      client_id: clientId,
      refresh_token: credentials.refresh,
      resource: RESOURCE,
    }),
    undefined,
  );
  return credentialsFromToken(token, clientId);
}

function agentHostId(deviceId: string | undefined): string {
  if (!deviceId || !UUID_PATTERN.test(deviceId)) {
    throw new Error("Sign in with ChatGPT requires a device ID (UUID) for this installation");
  }
  return `urn:uuid:${deviceId.toLowerCase()}`;
}

async function login(
  callbacks: OAuthLoginCallbacks,
  options?: ChatGPTLoginOptions,
): Promise<OAuthCredentials> {
  const hostId = agentHostId(options?.getDeviceId?.());
  const signal = loginSignal(callbacks);
  if (signal.aborted) throw new Error("Login cancelled");
  const { verifier, challenge } = await generatePkce();
  const state = randomValue();
  const nonce = randomValue();
  // Without our own server the browser's redirect would reach whatever else holds the port.
  const callback = startCallbackServer(state);
  const authorizeUrl = new URL(endpoint(AUTHORIZE_URL));
  authorizeUrl.search = new URLSearchParams({
    client_id: DYNAMIC_CLIENT_ID,
    agent_name_hint: options?.agentName ?? AGENT_NAME_HINT,
    ext_agent_host_id: hostId,
    response_type: "code",
    redirect_uri: callback.redirectUri,
    resource: RESOURCE,
    scope: SCOPE,
    state,
    code_challenge: challenge,
    code_challenge_method: "S256",
    nonce,
  }).toString();
  callbacks.onAuth({
    url: authorizeUrl.toString(),
    instructions:
      "Complete sign-in in your browser. If the callback does not complete, paste the final redirect URL here.",
  });
  // The pasted URL races the browser's redirect; the prompt goes away when the redirect wins.
  const manualAbort = new AbortController();
  const ask = manualCodeInputFrom(callbacks);
  const pasted = ask
    ? ask({
      message: "Complete login in your browser, or paste the final redirect URL here:",
      placeholder: callback.redirectUri,
      signal: AbortSignal.any([manualAbort.signal, signal]),
    }).then((input) => resultFromPastedUrl(input, state, callback.redirectUri))
    : new Promise<never>(() => {});
  pasted.catch(() => undefined);
  const cancelled = new Promise<never>((_, reject) => {
    const onAbort = () => reject(new Error("Login cancelled"));
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });
  });
  cancelled.catch(() => undefined);
  try {
    const result = await Promise.race([callback.result, pasted, cancelled]);
    callbacks.onProgress?.("Exchanging authorization code for tokens...");
    return await exchangeCode(result, verifier, callback.redirectUri, signal);
  } catch (error) {
    if (signal.aborted) throw new Error("Login cancelled");
    throw error;
  } finally {
    manualAbort.abort();
    await callback.close();
  }
}

/** Sign in with ChatGPT for the `openai` provider (`pi auth login openai`). */
export const openaiChatGPTOAuth: OAuthProviderInterface & {
  login(callbacks: OAuthLoginCallbacks, options?: ChatGPTLoginOptions): Promise<OAuthCredentials>;
} = {
  id: "openai",
  name: "OpenAI (ChatGPT subscription)",
  usesCallbackServer: true,
  login,
  refreshToken,
  getApiKey: (credentials) => credentials.access,
};
