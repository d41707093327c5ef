/**
 * xAI login (pi 1.6.0's `xai` OAuth, "Sign in with SuperGrok or X Premium"): the RFC 8628 device flow
 * on auth.x.ai with form-encoded requests, and refresh-token rotation (xAI may keep the old refresh
 * token, omitting a new one).
 *
 * Tests send every request to a fake server with `PI_XAI_OAUTH_URL` (an origin; paths are kept).
 *
 * @module
 */

import { oauthEndpoint } from "./endpoint_override.ts";
import type { OAuthCredentials, OAuthLoginCallbacks, OAuthProviderInterface } from "../oauth_registry.ts";
import { DEVICE_FLOW_CANCELLED, pollDeviceCodeFlow } from "./device_code.ts";
import { loginSignal, showDeviceCode } from "./login_input.ts";

const CLIENT_ID = "b1a00492-073a-47ea-816f-4c329264a828";
const SCOPE = "openid profile email offline_access grok-cli:access api:access";
const DEVICE_CODE_URL = "https://auth.x.ai/oauth2/device/code";
const TOKEN_URL = "https://auth.x.ai/oauth2/token";
/** Tokens count as expired five minutes early, so none dies mid-request. */
const REFRESH_SKEW_MS = 5 * 60 * 1000;
const DEFAULT_TOKEN_LIFETIME_SECONDS = 3600;
/** Environment variable (tests only) that sends every request of this flow to another origin. */
export const XAI_OAUTH_URL_ENV = "PI_XAI_OAUTH_URL";

/** `url`, or the same path on the test origin when one is set. */
function endpoint(url: string): string {
  return oauthEndpoint(url, XAI_OAUTH_URL_ENV);
}

type Body = Record<string, unknown>;

function requiredString(body: Body, field: string): string {
  const value = body[field];
  if (typeof value !== "string" || value.length === 0) {
    throw new Error(`Invalid xAI OAuth response field: ${field}`);
  }
  return value;
}

function positiveNumber(body: Body, field: string): number {
  const value = body[field];
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) {
    throw new Error(`Invalid xAI OAuth response field: ${field}`);
  }
  return value;
}

/** The verification page is opened in a browser, so only https is accepted. */
function verificationUri(raw: string): string {
  if (!URL.canParse(raw) || new URL(raw).protocol !== "https:") {
    throw new Error("Untrusted verification URI in xAI OAuth response");
  }
  return new URL(raw).href;
}

async function postForm(
  url: string,
  fields: Record<string, string>,
  signal: AbortSignal | undefined,
): Promise<{ ok: boolean; status: number; body: Body }> {
  let response: Response;
  try {
    response = await fetch(endpoint(url), {
      method: "POST",
      headers: { Accept: "application/json", "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields),
      signal,
    });
  } catch (error) {
    if (signal?.aborted) throw new Error(DEVICE_FLOW_CANCELLED);
    throw error;
  }
  let body: Body;
  try {
    const parsed: unknown = await response.json();
    body = parsed && typeof parsed === "object" && !Array.isArray(parsed) ? parsed as Body : {};
  } catch {
    if (signal?.aborted) throw new Error(DEVICE_FLOW_CANCELLED);
    throw new Error(`xAI OAuth returned invalid JSON (HTTP ${response.status})`);
  }
  return { ok: response.ok, status: response.status, body };
}

function requestFailure(action: string, response: { status: number; body: Body }): Error {
  const error = typeof response.body.error === "string" ? response.body.error : undefined;
  const description = typeof response.body.error_description === "string"
    ? response.body.error_description
    : undefined;
  const detail = [error, description].filter(Boolean).join(": ");
  return new Error(`xAI OAuth ${action} failed (HTTP ${response.status})${detail ? `: ${detail}` : ""}`);
}

function credentialsFromToken(body: Body, previousRefresh?: string): OAuthCredentials {
  const access = requiredString(body, "access_token");
  // xAI may leave out refresh_token on refresh when it does not rotate it.
  const refresh = body.refresh_token === undefined && previousRefresh
    ? previousRefresh
    : requiredString(body, "refresh_token");
  const expiresIn = body.expires_in === undefined
    ? DEFAULT_TOKEN_LIFETIME_SECONDS
    : positiveNumber(body, "expires_in");
  return { access, refresh, expires: Date.now() + expiresIn * 1000 - REFRESH_SKEW_MS };
}

async function login(callbacks: OAuthLoginCallbacks): Promise<OAuthCredentials> {
  const signal = loginSignal(callbacks);
  const started = await postForm(
    DEVICE_CODE_URL,
    { client_id: CLIENT_ID, scope: SCOPE, referrer: "pi" },
    signal,
  );
  if (!started.ok) throw requestFailure("device authorization", started);
  const body = started.body;
  // RFC 8628 allows interval 0; a missing or odd value falls back to the poller's default.
  const interval = typeof body.interval === "number" && Number.isFinite(body.interval) && body.interval > 0
    ? body.interval
    : undefined;
  const complete =
    typeof body.verification_uri_complete === "string" && body.verification_uri_complete.length > 0
      ? verificationUri(body.verification_uri_complete)
      : undefined;
  const deviceCode = requiredString(body, "device_code");
  const userCode = requiredString(body, "user_code");
  const uri = verificationUri(requiredString(body, "verification_uri"));
  const expiresIn = positiveNumber(body, "expires_in");
  showDeviceCode(callbacks, {
    userCode,
    verificationUri: complete ?? uri,
    intervalSeconds: interval,
    expiresInSeconds: expiresIn,
  });
  return await pollDeviceCodeFlow<OAuthCredentials>({
    intervalSeconds: interval,
    expiresInSeconds: expiresIn,
    waitBeforeFirstPoll: true,
    signal,
    poll: async () => {
      const response = await postForm(TOKEN_URL, {
        grant_type: "urn:ietf:params:oauth:grant-type:device_code",
        client_id: CLIENT_ID,
        device_code: deviceCode,
      }, signal);
      if (response.ok) return { status: "complete", value: credentialsFromToken(response.body) };
      const error = response.body.error;
      if (error === "authorization_pending") return { status: "pending" };
      if (error === "slow_down") {
        const next = response.body.interval;
        return { status: "slow_down", intervalSeconds: typeof next === "number" ? next : undefined };
      }
      if (error === "access_denied" || error === "authorization_denied") {
        return { status: "failed", message: "xAI device authorization was denied" };
      }
      if (error === "expired_token") return { status: "failed", message: "xAI device code expired" };
      return { status: "failed", message: requestFailure("device token polling", response).message };
    },
  });
}

async function refreshToken(credentials: OAuthCredentials): Promise<OAuthCredentials> {
  const response = await postForm(TOKEN_URL, {
    grant_type: "refresh_token",
    client_id: CLIENT_ID,
    refresh_token: credentials.refresh,
  }, undefined);
  if (!response.ok) throw requestFailure("token refresh", response);
  return credentialsFromToken(response.body, credentials.refresh);
}

/** xAI's OAuth provider (`pi auth login xai`). */
export const xaiOAuth: OAuthProviderInterface = {
  id: "xai",
  name: "xAI (Grok/X subscription)",
  login,
  refreshToken,
  getApiKey: (credentials) => credentials.access,
};
