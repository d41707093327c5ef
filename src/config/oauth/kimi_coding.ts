/**
 * Kimi Code login (pi 1.6.0's `kimi-coding` OAuth): the RFC 8628 device flow on auth.kimi.com with
 * JSON replies; the access token is the bearer key for api.kimi.com/coding. Refreshes retry HTTP 429
 * and 5xx with backoff; 401/403/`invalid_grant` mean the sign-in is gone.
 *
 * `KIMI_CODE_OAUTH_HOST` (or `KIMI_OAUTH_HOST`) replaces `https://auth.kimi.com`, as in 1.6.0; tests
 * use it to reach a fake server.
 *
 * @module
 */

import { readEnv } from "../../util/env.ts";
import type { OAuthCredentials, OAuthLoginCallbacks, OAuthProviderInterface } from "../oauth_registry.ts";
import { abortableSleep, pollDeviceCodeFlow } from "./device_code.ts";
import { loginSignal, showDeviceCode } from "./login_input.ts";
import { trustedHttpUrl } from "./trusted_url.ts";

const CLIENT_ID = "17e5f671-d194-4dfb-9706-5516cb48c098";
const DEFAULT_OAUTH_HOST = "https://auth.kimi.com";
const DEVICE_CODE_TIMEOUT_SECONDS = 15 * 60;
const DEFAULT_POLL_INTERVAL_SECONDS = 5;
const REQUEST_TIMEOUT_MS = 30 * 1000;
const REFRESH_MAX_RETRIES = 3;

function oauthHost(): string {
  return (readEnv("KIMI_CODE_OAUTH_HOST") || readEnv("KIMI_OAUTH_HOST") || DEFAULT_OAUTH_HOST).replace(
    /\/+$/,
    "",
  );
}

/** `signal`, also aborting after 30 s (each request's limit, as 1.6.0). */
export function requestSignal(signal: AbortSignal): AbortSignal {
  return AbortSignal.any([AbortSignal.timeout(REQUEST_TIMEOUT_MS), signal]);
}

type Json = Record<string, unknown> | null;

/** The reply's JSON when it is an object (arrays included, as 1.6.0), else null. */
export async function readJson(response: Response): Promise<Json> {
  try {
    const json: unknown = await response.json();
    return json && typeof json === "object" ? json as Record<string, unknown> : null;
  } catch {
    return null;
  }
}

function post(path: string, fields: Record<string, string>, signal: AbortSignal): Promise<Response> {
  return fetch(`${oauthHost()}${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "application/json" },
    body: new URLSearchParams(fields).toString(),
    signal: requestSignal(signal),
  });
}

/** Names of the token fields that are missing or invalid (never their values: they are secrets). */
function missingTokenFields(json: Json): string[] {
  const missing: string[] = [];
  if (typeof json?.access_token !== "string" || !json.access_token) missing.push("access_token");
  if (typeof json?.refresh_token !== "string" || !json.refresh_token) missing.push("refresh_token");
  const expiresIn = json?.expires_in;
  if (typeof expiresIn !== "number" || !Number.isFinite(expiresIn) || expiresIn <= 0) {
    missing.push("expires_in");
  }
  return missing;
}

function parseToken(json: Json, operation: string): OAuthCredentials {
  const missing = missingTokenFields(json);
  // 1.6.0 echoes the whole reply here, which may hold a token; the field names say enough.
  if (missing.length > 0 || !json) {
    throw new Error(`Kimi Code token ${operation} response missing fields: ${missing.join(", ")}`);
  }
  return {
    access: json.access_token as string,
    refresh: json.refresh_token as string,
    expires: Date.now() + (json.expires_in as number) * 1000,
  };
}

async function login(callbacks: OAuthLoginCallbacks): Promise<OAuthCredentials> {
  const signal = loginSignal(callbacks);
  const response = await post("/api/oauth/device_authorization", { client_id: CLIENT_ID }, signal);
  if (!response.ok) {
    const text = await response.text().catch(() => "");
    throw new Error(
      `Kimi Code device authorization failed with status ${response.status}${text ? `: ${text}` : ""}`,
    );
  }
  const json = await readJson(response);
  const deviceCode = json?.device_code;
  const userCode = json?.user_code;
  const verificationUri = trustedHttpUrl(json?.verification_uri);
  const verificationUriComplete = trustedHttpUrl(json?.verification_uri_complete);
  if (
    typeof deviceCode !== "string" || typeof userCode !== "string" || !verificationUri ||
    !verificationUriComplete
  ) {
    throw new Error(`Invalid Kimi Code device authorization response: ${JSON.stringify(json)}`);
  }
  const interval = json?.interval;
  const expires = json?.expires_in;
  const intervalSeconds = typeof interval === "number" && Number.isFinite(interval) && interval > 0
    ? interval
    : DEFAULT_POLL_INTERVAL_SECONDS;
  const expiresInSeconds = typeof expires === "number" && Number.isFinite(expires) && expires > 0
    ? expires
    : DEVICE_CODE_TIMEOUT_SECONDS;
  showDeviceCode(callbacks, {
    userCode,
    verificationUri: verificationUriComplete,
    intervalSeconds,
    expiresInSeconds,
  });
  return await pollDeviceCodeFlow<OAuthCredentials>({
    intervalSeconds,
    expiresInSeconds,
    waitBeforeFirstPoll: true,
    signal,
    poll: async () => {
      const response = await post("/api/oauth/token", {
        client_id: CLIENT_ID,
        device_code: deviceCode,
        grant_type: "urn:ietf:params:oauth:grant-type:device_code",
      }, signal);
      if (response.status >= 500) {
        const text = await response.text().catch(() => "");
        return {
          status: "failed",
          message: `Kimi Code device token request failed with status ${response.status}${
            text ? `: ${text}` : ""
          }`,
        };
      }
      const json = await readJson(response);
      if (response.ok && typeof json?.access_token === "string") {
        try {
          return { status: "complete", value: parseToken(json, "poll") };
        } catch (error) {
          return { status: "failed", message: error instanceof Error ? error.message : String(error) };
        }
      }
      const error = json?.error;
      const description = typeof json?.error_description === "string" ? `: ${json.error_description}` : "";
      if (error === "authorization_pending") return { status: "pending" };
      if (error === "slow_down") {
        const next = json?.interval;
        return {
          status: "slow_down",
          intervalSeconds: typeof next === "number" && next > 0 ? next : undefined,
        };
      }
      if (error === "expired_token") {
        return { status: "failed", message: "Kimi Code device authorization expired. Please restart login." };
      }
      if (error === "access_denied") return { status: "failed", message: "Kimi Code login was denied." };
      return {
        status: "failed",
        message: `Kimi Code device token request failed (status ${response.status})${
          typeof error === "string" ? `: ${error}${description}` : ""
        }`,
      };
    },
  });
}

async function refreshToken(credentials: OAuthCredentials): Promise<OAuthCredentials> {
  const signal = new AbortController().signal;
  let lastError: Error | undefined;
  for (let attempt = 0; attempt <= REFRESH_MAX_RETRIES; attempt++) {
    if (attempt > 0) {
      await abortableSleep(1000 * 2 ** (attempt - 1), signal, "Kimi Code token refresh aborted");
    }
    let response: Response;
    try {
      response = await post("/api/oauth/token", {
        client_id: CLIENT_ID,
        grant_type: "refresh_token",
        refresh_token: credentials.refresh,
      }, signal);
    } catch (error) {
      lastError = error instanceof Error ? error : new Error(String(error));
      continue;
    }
    const json = await readJson(response);
    if (response.ok) return parseToken(json, "refresh");
    // The stored sign-in is dead: only a new login helps.
    if (response.status === 401 || response.status === 403 || json?.error === "invalid_grant") {
      const description = typeof json?.error_description === "string" ? `: ${json.error_description}` : "";
      throw new Error(`Kimi Code token refresh unauthorized (status ${response.status})${description}`);
    }
    if ((response.status === 429 || response.status >= 500) && attempt < REFRESH_MAX_RETRIES) {
      lastError = new Error(`Kimi Code token refresh failed with status ${response.status}`);
      continue;
    }
    throw new Error(`Kimi Code token refresh failed with status ${response.status}: ${JSON.stringify(json)}`);
  }
  throw lastError ?? new Error("Kimi Code token refresh failed");
}

/** Kimi Code's OAuth provider (`pi auth login kimi-coding`). */
export const kimiCodingOAuth: OAuthProviderInterface = {
  id: "kimi-coding",
  name: "Kimi Code (subscription)",
  login,
  refreshToken,
  getApiKey: (credentials) => credentials.access,
};
