/**
 * OpenAI Codex login with a ChatGPT Plus/Pro account (1.6.0's `openai-codex` OAuth): PKCE with a local
 * callback server on port 1455 (shared with OpenAI's Codex CLI; when it is taken, the pasted redirect
 * URL), or the device-code variant for machines without a browser. The access token is a JWT whose
 * `chatgpt_account_id` claim is stored as `accountId`; requests carry the access token as the key.
 *
 * Tests send every request of this flow to a fake server with `PI_OPENAI_CODEX_OAUTH_URL` (an origin).
 *
 * @module
 */

import { readEnv } from "../../util/env.ts";
import { fromBase64, randomHex } from "../../util/bytes.ts";
import type { OAuthCredentials, OAuthLoginCallbacks, OAuthProviderInterface } from "../oauth_registry.ts";
import { startOAuthCallbackServer, waitForCallbackOrManualInput } from "./callback_server.ts";
import { type DeviceCodePollResult, pollDeviceCodeFlow } from "./device_code.ts";
import { oauthEndpoint } from "./endpoint_override.ts";
import {
  chooseLoginMethod,
  loginSignal,
  manualCodeInputFrom,
  parseAuthorizationInput,
  showDeviceCode,
} from "./login_input.ts";
import { generatePkce } from "./pkce.ts";
import { describeTokenError, readTokenJson, TOKEN_REQUEST_TIMEOUT_MS } from "./token_response.ts";
import { trustedHttpUrl } from "./trusted_url.ts";

/** Environment variable (tests only) that sends this flow's requests to another origin. */
export const OPENAI_CODEX_OAUTH_URL_ENV = "PI_OPENAI_CODEX_OAUTH_URL";

const CLIENT_ID = "app_EMoamEEZ73f0CkXaXp7hrann";
const AUTH_BASE_URL = "https://auth.openai.com";
const AUTHORIZE_URL = `${AUTH_BASE_URL}/oauth/authorize`;
const TOKEN_URL = `${AUTH_BASE_URL}/oauth/token`;
const CALLBACK_PORT = 1455;
const CALLBACK_PATH = "/auth/callback";
/** Registered with OpenAI for this client; the authorize URL and the exchange always name it. */
const REDIRECT_URI = `http://localhost:${CALLBACK_PORT}${CALLBACK_PATH}`;
const DEVICE_USER_CODE_URL = `${AUTH_BASE_URL}/api/accounts/deviceauth/usercode`;
const DEVICE_TOKEN_URL = `${AUTH_BASE_URL}/api/accounts/deviceauth/token`;
const DEVICE_VERIFICATION_URI = `${AUTH_BASE_URL}/codex/device`;
const DEVICE_REDIRECT_URI = `${AUTH_BASE_URL}/deviceauth/callback`;
/** OpenAI does not say how long a device code lives; 1.6.0 gives up after 15 minutes. */
const DEVICE_CODE_TIMEOUT_SECONDS = 15 * 60;
const SCOPE = "openid profile email offline_access";
const JWT_CLAIM_PATH = "https://api.openai.com/auth";
const BROWSER = "browser";
const DEVICE_CODE = "device_code";

/** Maps a production URL to the one to request (the test origin when one is set). */
type Endpoint = (url: string) => string;

/** Options of {@link createOpenAICodexOAuth}. */
export interface OpenAICodexOAuthOptions {
  /** Origin that replaces auth.openai.com in every request (tests); default: `PI_OPENAI_CODEX_OAUTH_URL`. */
  origin?: string;
}

/** The `chatgpt_account_id` claim of an access-token JWT, or null. */
export function codexAccountId(accessToken: string): string | null {
  const parts = accessToken.split(".");
  if (parts.length !== 3) return null;
  try {
    const payload = JSON.parse(new TextDecoder().decode(fromBase64(parts[1])));
    const accountId = payload?.[JWT_CLAIM_PATH]?.chatgpt_account_id;
    return typeof accountId === "string" && accountId.length > 0 ? accountId : null;
  } catch {
    return null;
  }
}

/** `fetch` that reports an abort as `Login cancelled`. */
async function loginFetch(url: string, init: RequestInit, signal: AbortSignal): Promise<Response> {
  try {
    return await fetch(url, {
      ...init,
      signal: AbortSignal.any([signal, AbortSignal.timeout(TOKEN_REQUEST_TIMEOUT_MS)]),
    });
  } catch (error) {
    if (signal.aborted) throw new Error("Login cancelled");
    throw error;
  }
}

/** Turns a token reply into credentials with the account id; `operation` is "exchange" or "refresh". */
async function credentialsFrom(response: Response, operation: string): Promise<OAuthCredentials> {
  if (!response.ok) {
    throw new Error(`OpenAI Codex token ${operation} failed: ${await describeTokenError(response)}`);
  }
  const json = await readTokenJson(response, `OpenAI Codex token ${operation}`);
  if (
    typeof json.access_token !== "string" || typeof json.refresh_token !== "string" ||
    typeof json.expires_in !== "number"
  ) {
    throw new Error(`OpenAI Codex token ${operation} reply lacks access_token, refresh_token or expires_in`);
  }
  const accountId = codexAccountId(json.access_token);
  if (!accountId) throw new Error("Failed to extract accountId from token");
  return {
    access: json.access_token,
    refresh: json.refresh_token,
    expires: Date.now() + json.expires_in * 1000,
    accountId,
  };
}

async function exchangeCode(
  endpoint: Endpoint,
  code: string,
  verifier: string,
  redirectUri: string,
  signal: AbortSignal,
): Promise<OAuthCredentials> {
  const response = await loginFetch(endpoint(TOKEN_URL), {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "authorization_code",
      client_id: CLIENT_ID,
      code,
      code_verifier: verifier,
      redirect_uri: redirectUri,
    }),
  }, signal);
  return await credentialsFrom(response, "exchange");
}

async function loginWithBrowser(
  endpoint: Endpoint,
  callbacks: OAuthLoginCallbacks,
): Promise<OAuthCredentials> {
  const signal = loginSignal(callbacks);
  const { verifier, challenge } = await generatePkce();
  const state = randomHex(16);
  const url = new URL(endpoint(AUTHORIZE_URL));
  url.searchParams.set("response_type", "code");
  url.searchParams.set("client_id", CLIENT_ID);
  url.searchParams.set("redirect_uri", REDIRECT_URI);
  url.searchParams.set("scope", SCOPE);
  url.searchParams.set("code_challenge", challenge);
  url.searchParams.set("code_challenge_method", "S256");
  url.searchParams.set("state", state);
  url.searchParams.set("id_token_add_organizations", "true");
  url.searchParams.set("codex_cli_simplified_flow", "true");
  url.searchParams.set("originator", "pi");
  // The port is shared with the Codex CLI; when it is taken the login goes on with the pasted URL.
  const callback = await startOAuthCallbackServer({
    providerName: "OpenAI",
    host: readEnv("PI_OAUTH_CALLBACK_HOST") || "127.0.0.1",
    port: CALLBACK_PORT,
    path: CALLBACK_PATH,
    state,
    complete: (code) => Promise.resolve(code),
    signal,
  }).catch(() => undefined);
  try {
    callbacks.onAuth({
      url: url.toString(),
      instructions: "A browser window should open. Complete login to finish.",
    });
    const result = await waitForCallbackOrManualInput(manualCodeInputFrom(callbacks), callback, {
      message: "Complete login in your browser, or paste the authorization code / redirect URL here:",
      placeholder: REDIRECT_URI,
    });
    let code: string | undefined;
    if (result.type === "callback") {
      code = result.value;
    } else {
      const parsed = parseAuthorizationInput(result.input);
      if (parsed.state && parsed.state !== state) throw new Error("State mismatch");
      code = parsed.code;
    }
    if (!code) throw new Error("Missing authorization code");
    return await exchangeCode(endpoint, code, verifier, REDIRECT_URI, signal);
  } finally {
    await callback?.close();
  }
}

interface DeviceAuth {
  deviceAuthId: string;
  userCode: string;
  intervalSeconds: number;
}

async function startDeviceAuth(endpoint: Endpoint, signal: AbortSignal): Promise<DeviceAuth> {
  const response = await loginFetch(endpoint(DEVICE_USER_CODE_URL), {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ client_id: CLIENT_ID }),
  }, signal);
  if (response.status === 404) {
    await response.body?.cancel();
    throw new Error(
      "OpenAI Codex device code login is not enabled for this server. Use browser login or verify the server URL.",
    );
  }
  if (!response.ok) {
    throw new Error(`OpenAI Codex device code request failed: ${await describeTokenError(response)}`);
  }
  const json = await readTokenJson(response, "OpenAI Codex device code");
  const interval = typeof json.interval === "string" ? Number(json.interval.trim()) : json.interval;
  if (
    typeof json.device_auth_id !== "string" || !json.device_auth_id || typeof json.user_code !== "string" ||
    !json.user_code || typeof interval !== "number" || !Number.isFinite(interval) || interval < 0
  ) {
    throw new Error(
      "Invalid OpenAI Codex device code response: device_auth_id, user_code or interval missing",
    );
  }
  return { deviceAuthId: json.device_auth_id, userCode: json.user_code, intervalSeconds: interval };
}

type DeviceGrant = { authorizationCode: string; codeVerifier: string };

async function pollDeviceOnce(
  endpoint: Endpoint,
  device: DeviceAuth,
  signal: AbortSignal,
): Promise<DeviceCodePollResult<DeviceGrant>> {
  const response = await loginFetch(endpoint(DEVICE_TOKEN_URL), {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ device_auth_id: device.deviceAuthId, user_code: device.userCode }),
  }, signal);
  if (response.ok) {
    const json = await readTokenJson(response, "OpenAI Codex device auth token");
    if (typeof json.authorization_code !== "string" || typeof json.code_verifier !== "string") {
      return {
        status: "failed",
        message:
          "Invalid OpenAI Codex device auth token response: authorization_code or code_verifier missing",
      };
    }
    return {
      status: "complete",
      value: { authorizationCode: json.authorization_code, codeVerifier: json.code_verifier },
    };
  }
  if (response.status === 403 || response.status === 404) {
    await response.body?.cancel();
    return { status: "pending" };
  }
  const text = await response.text().catch(() => "");
  let code: unknown;
  try {
    const error = JSON.parse(text)?.error;
    code = typeof error === "object" && error !== null ? error.code : error;
  } catch {
    // not JSON: a failure, described below
  }
  if (code === "deviceauth_authorization_pending") return { status: "pending" };
  if (code === "slow_down") return { status: "slow_down" };
  const detail = await describeTokenError(new Response(text, { status: response.status }));
  return { status: "failed", message: `OpenAI Codex device auth failed: ${detail}` };
}

async function loginWithDeviceCode(
  endpoint: Endpoint,
  callbacks: OAuthLoginCallbacks,
): Promise<OAuthCredentials> {
  const signal = loginSignal(callbacks);
  const device = await startDeviceAuth(endpoint, signal);
  showDeviceCode(callbacks, {
    userCode: device.userCode,
    verificationUri: trustedHttpUrl(endpoint(DEVICE_VERIFICATION_URI)) ?? DEVICE_VERIFICATION_URI,
    intervalSeconds: device.intervalSeconds,
    expiresInSeconds: DEVICE_CODE_TIMEOUT_SECONDS,
  });
  const grant = await pollDeviceCodeFlow({
    intervalSeconds: device.intervalSeconds,
    expiresInSeconds: DEVICE_CODE_TIMEOUT_SECONDS,
    signal,
    poll: () => pollDeviceOnce(endpoint, device, signal),
  });
  return await exchangeCode(
    endpoint,
    grant.authorizationCode,
    grant.codeVerifier,
    DEVICE_REDIRECT_URI,
    signal,
  );
}

/** An `openai-codex` OAuth provider; `options.origin` points it at a test server. */
export function createOpenAICodexOAuth(options: OpenAICodexOAuthOptions = {}): OAuthProviderInterface {
  const endpoint: Endpoint = (url) => oauthEndpoint(url, OPENAI_CODEX_OAUTH_URL_ENV, options.origin);
  return {
    id: "openai-codex",
    name: "OpenAI (ChatGPT Plus/Pro)",
    usesCallbackServer: true,
    async login(callbacks) {
      const method = await chooseLoginMethod(callbacks, "Select OpenAI Codex login method:", [
        { id: BROWSER, label: "Browser login (default)" },
        { id: DEVICE_CODE, label: "Device code login (headless)" },
      ]);
      if (method === DEVICE_CODE) return await loginWithDeviceCode(endpoint, callbacks);
      if (method !== BROWSER) throw new Error(`Unknown OpenAI Codex login method: ${method}`);
      return await loginWithBrowser(endpoint, callbacks);
    },
    async refreshToken(credentials) {
      let response: Response;
      try {
        response = await fetch(endpoint(TOKEN_URL), {
          method: "POST",
          headers: { "Content-Type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({
            grant_type: "refresh_token",
            refresh_token: credentials.refresh,
            client_id: CLIENT_ID,
          }),
          signal: AbortSignal.timeout(TOKEN_REQUEST_TIMEOUT_MS),
        });
      } catch (error) {
        throw new Error(`OpenAI Codex token refresh error: ${(error as Error).message}`);
      }
      return await credentialsFrom(response, "refresh");
    },
    getApiKey: (credentials) => credentials.access,
  };
}

/** The `openai-codex` OAuth provider (ChatGPT Plus/Pro subscription). */
export const openaiCodexOAuth: OAuthProviderInterface = createOpenAICodexOAuth();
