/**
 * Meta login (pi 1.6.0's `meta` OAuth, "Sign in with Meta"): the RFC 8628 device flow on
 * auth.meta.com yields an identity token that inference does not accept; it is exchanged for a Model
 * API key (valid about a day) at the Muse Code key-mint endpoint. The identity token is stored as
 * `refresh` and the key as `access`, so an ordinary refresh mints a new key. The identity token itself
 * cannot be renewed: a 401/403 from the mint means signing in again.
 *
 * Tests send every request to a fake server with `PI_META_OAUTH_URL` (an origin; paths are kept).
 *
 * @module
 */

import { oauthEndpoint } from "./endpoint_override.ts";
import type { OAuthCredentials, OAuthLoginCallbacks, OAuthProviderInterface } from "../oauth_registry.ts";
import { DEVICE_FLOW_CANCELLED, pollDeviceCodeFlow } from "./device_code.ts";
import { loginSignal, showDeviceCode } from "./login_input.ts";
import { readJson, requestSignal } from "./kimi_coding.ts";
import { trustedHttpUrl } from "./trusted_url.ts";

/** Muse Code CLI client id. */
const CLIENT_ID = "1031625952748946";
const DEVICE_AUTHORIZATION_URL = "https://auth.meta.com/oidc/device/authorization/";
const DEVICE_TOKEN_URL = "https://auth.meta.com/oidc/device/token/";
const API_KEY_MINT_URL = "https://api.meta.ai/muse-code/key";
const API_KEY_LIFETIME_MS = 24 * 60 * 60 * 1000;
/** Environment variable (tests only) that sends every request of this flow to another origin. */
export const META_OAUTH_URL_ENV = "PI_META_OAUTH_URL";

/** `url`, or the same path on the test origin when one is set. */
function endpoint(url: string): string {
  return oauthEndpoint(url, META_OAUTH_URL_ENV);
}

type Json = Record<string, unknown> | null;

function errorDetail(json: Json): string {
  for (const key of ["error_description", "detail", "message", "error"]) {
    const value = json?.[key];
    if (typeof value === "string" && value.trim()) return `: ${value.trim()}`;
  }
  return "";
}

function positiveNumber(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : undefined;
}

function postForm(url: string, fields: Record<string, string>, signal: AbortSignal): Promise<Response> {
  return fetch(endpoint(url), {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "application/json" },
    body: new URLSearchParams(fields).toString(),
    signal: requestSignal(signal),
  });
}

/** Exchanges the identity token for a Model API key. */
async function mintApiKey(identityToken: string, signal: AbortSignal): Promise<OAuthCredentials> {
  const response = await fetch(endpoint(API_KEY_MINT_URL), {
    method: "POST",
    headers: {
      Accept: "application/json",
      Authorization: `Bearer ${identityToken}`,
      "Content-Type": "application/json",
      "x-api-version": "1.0.0",
    },
    body: "{}",
    signal: requestSignal(signal),
  });
  const json = await readJson(response);
  if (response.status === 401 || response.status === 403) {
    throw new Error(
      `Meta session expired (status ${response.status}). Run \`/login meta\` to sign in again.${
        errorDetail(json)
      }`,
    );
  }
  if (!response.ok) {
    throw new Error(`Meta API key mint failed with status ${response.status}${errorDetail(json)}`);
  }
  const apiKey = json?.api_key;
  if (typeof apiKey !== "string" || !apiKey) {
    const actionUrl = trustedHttpUrl(json?.action_url);
    throw new Error(`Meta did not issue an API key.${actionUrl ? ` Complete setup at ${actionUrl}` : ""}`);
  }
  return { refresh: identityToken, access: apiKey, expires: Date.now() + API_KEY_LIFETIME_MS };
}

async function signIn(callbacks: OAuthLoginCallbacks, signal: AbortSignal): Promise<OAuthCredentials> {
  const response = await postForm(DEVICE_AUTHORIZATION_URL, { client_id: CLIENT_ID }, signal);
  const json = await readJson(response);
  if (!response.ok) {
    throw new Error(`Meta device authorization failed with status ${response.status}${errorDetail(json)}`);
  }
  const deviceCode = json?.device_code;
  const userCode = json?.user_code;
  const verificationUri = trustedHttpUrl(json?.verification_uri_complete) ??
    trustedHttpUrl(json?.verification_uri);
  if (
    typeof deviceCode !== "string" || !deviceCode || typeof userCode !== "string" || !userCode ||
    !verificationUri
  ) {
    throw new Error(`Invalid Meta device authorization response: ${JSON.stringify(json)}`);
  }
  const intervalSeconds = positiveNumber(json?.interval);
  const expiresInSeconds = positiveNumber(json?.expires_in);
  showDeviceCode(callbacks, { userCode, verificationUri, intervalSeconds, expiresInSeconds });
  const identityToken = await pollDeviceCodeFlow<string>({
    intervalSeconds,
    expiresInSeconds,
    waitBeforeFirstPoll: true,
    signal,
    poll: async () => {
      const response = await postForm(DEVICE_TOKEN_URL, {
        grant_type: "urn:ietf:params:oauth:grant-type:device_code",
        device_code: deviceCode,
        client_id: CLIENT_ID,
      }, signal);
      const json = await readJson(response);
      if (response.ok && typeof json?.access_token === "string" && json.access_token) {
        return { status: "complete", value: json.access_token };
      }
      switch (json?.error) {
        case "authorization_pending":
          return { status: "pending" };
        case "slow_down":
          return { status: "slow_down", intervalSeconds: positiveNumber(json?.interval) };
        case "access_denied":
          return { status: "failed", message: "Meta login was denied." };
        case "expired_token":
          return { status: "failed", message: "Meta device authorization expired. Please restart login." };
        default:
          return {
            status: "failed",
            message: `Meta device token request failed with status ${response.status}${errorDetail(json)}`,
          };
      }
    },
  });
  callbacks.onProgress?.("Enabling Meta Model API access...");
  return await mintApiKey(identityToken, signal);
}

async function login(callbacks: OAuthLoginCallbacks): Promise<OAuthCredentials> {
  const signal = loginSignal(callbacks);
  try {
    return await signIn(callbacks, signal);
  } catch (error) {
    // An aborted fetch rejects with a DOMException; hosts recognise the cancellation by this message.
    if (signal.aborted) throw new Error(DEVICE_FLOW_CANCELLED);
    throw error;
  }
}

/** Meta's OAuth provider (`pi auth login meta`). */
export const metaOAuth: OAuthProviderInterface = {
  id: "meta",
  name: "Meta (Muse subscription)",
  login,
  refreshToken: (credentials) => mintApiKey(credentials.refresh, new AbortController().signal),
  getApiKey: (credentials) => credentials.access,
};
