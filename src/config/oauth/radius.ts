/**
 * Radius gateway login (pi 1.6.0's `radius` OAuth). The OAuth client APIs live on the configured
 * gateway (`/v1/oauth/token`, `/v1/oauth/device`); only the browser's authorization page is
 * discovered (`GET /v1/oauth`). The user picks a browser sign-in (PKCE, loopback redirect on
 * 127.0.0.1:1456) or a device code (for signing in from another device).
 *
 * The gateway is an option, so tests simply point it at a fake server.
 *
 * @module
 */

import type { OAuthCredentials, OAuthLoginCallbacks, OAuthProviderInterface } from "../oauth_registry.ts";
import { startOAuthCallbackServer } from "./callback_server.ts";
import { DEVICE_FLOW_CANCELLED, pollDeviceCodeFlow } from "./device_code.ts";
import { chooseLoginMethod, loginSignal, showDeviceCode } from "./login_input.ts";
import { generatePkce } from "./pkce.ts";
import { trustedHttpUrl } from "./trusted_url.ts";

const CALLBACK_HOST = "127.0.0.1";
const CALLBACK_PORT = 1456;
const CALLBACK_PATH = "/oauth/callback";
const REDIRECT_URI = `http://${CALLBACK_HOST}:${CALLBACK_PORT}${CALLBACK_PATH}`;
const TOKEN_EXPIRY_SKEW_MS = 60_000;
const LOGIN_METHOD_BROWSER = "browser";
const LOGIN_METHOD_DEVICE_CODE = "device-code";
const CLIENT_ID = "pi-gateway";
const SCOPE = "gateway offline_access";
const DEVICE_CODE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";

/** Options of {@link createRadiusOAuth}. */
export interface RadiusOAuthOptions {
  /** Provider id; default `radius`. */
  id?: string;
  /** Name shown to the user, e.g. `Radius`. */
  name: string;
  /** Gateway URL or host, e.g. `https://radius.pi.dev` or `radius.example.com`. */
  gateway: string;
}

/** `https://` added when there is no scheme, trailing slashes removed (1.6.0's normalisation). */
export function normalizeRadiusGatewayUrl(value: string): string {
  const withScheme = /^https?:\/\//iu.test(value) ? value : `https://${value}`;
  return withScheme.replace(/\/+$/u, "");
}

/** An OAuth error reply, keeping the `error` code so device polling can tell pending from failed. */
class OAuthResponseError extends Error {
  constructor(
    readonly status: number,
    readonly oauthError: string | undefined,
    description: string | undefined,
    message: string,
  ) {
    const detail = oauthError
      ? (description ? `${oauthError}: ${description}` : oauthError)
      : description || String(status);
    super(`${message}: ${detail}`);
  }
}

async function responseError(response: Response, message: string): Promise<OAuthResponseError> {
  const text = await response.text().catch(() => "");
  let oauthError: string | undefined;
  let description: string | undefined;
  if (text) {
    try {
      const data = JSON.parse(text) as Record<string, unknown>;
      oauthError = typeof data.error === "string" ? data.error : undefined;
      description = typeof data.error_description === "string" ? data.error_description : undefined;
    } catch {
      description = text;
    }
  }
  return new OAuthResponseError(response.status, oauthError, description, message);
}

async function postForm(url: URL, body: URLSearchParams, signal: AbortSignal | undefined): Promise<Response> {
  try {
    return await fetch(url, {
      method: "POST",
      headers: { accept: "application/json", "content-type": "application/x-www-form-urlencoded" },
      body,
      signal,
    });
  } catch (error) {
    if (signal?.aborted) throw new Error(DEVICE_FLOW_CANCELLED);
    throw error;
  }
}

async function requestToken(gateway: string, body: URLSearchParams, signal: AbortSignal | undefined) {
  const response = await postForm(new URL("/v1/oauth/token", gateway), body, signal);
  if (!response.ok) throw await responseError(response, "Radius OAuth token request failed");
  const data = await response.json() as Record<string, unknown>;
  const credentials: OAuthCredentials = {
    access: data.access_token as string,
    refresh: data.refresh_token as string,
    expires: Date.now() + (data.expires_in as number) * 1000 - TOKEN_EXPIRY_SKEW_MS,
  };
  if (data.scope !== undefined) credentials.scope = data.scope;
  return credentials;
}

async function loginWithBrowser(
  gateway: string,
  callbacks: OAuthLoginCallbacks,
  signal: AbortSignal,
): Promise<OAuthCredentials> {
  const discovery = await fetch(new URL("/v1/oauth", gateway), {
    headers: { accept: "application/json" },
    signal,
  });
  if (!discovery.ok) {
    throw new Error(
      `Could not load Radius OAuth config from ${gateway}: ${discovery.status} ${await discovery.text()}`,
    );
  }
  const config = await discovery.json() as Record<string, unknown>;
  const authorizationEndpoint = trustedHttpUrl(config.authorizationEndpoint);
  if (!authorizationEndpoint) throw new Error(`Invalid Radius OAuth config from ${gateway}`);
  const { verifier, challenge } = await generatePkce();
  const state = crypto.randomUUID();
  const authorizeUrl = new URL(authorizationEndpoint);
  authorizeUrl.search = new URLSearchParams({
    response_type: "code",
    client_id: CLIENT_ID,
    redirect_uri: REDIRECT_URI,
    scope: SCOPE,
    code_challenge: challenge,
    code_challenge_method: "S256",
    handoff: "url",
    state,
  }).toString();
  const callback = await startOAuthCallbackServer({
    providerName: "Radius",
    host: CALLBACK_HOST,
    port: CALLBACK_PORT,
    path: CALLBACK_PATH,
    state,
    complete: (code) =>
      requestToken(
        gateway,
        new URLSearchParams({
          grant_type: "authorization_code",
          client_id: CLIENT_ID,
          redirect_uri: REDIRECT_URI,
          code,
          code_verifier: verifier,
        }),
        signal,
      ),
    signal,
  });
  callbacks.onProgress?.(`Listening for OAuth callback on ${REDIRECT_URI}`);
  callbacks.onAuth({ url: authorizeUrl.toString(), instructions: "Continue in your browser." });
  try {
    const credentials = await callback.wait();
    if (!credentials) throw new Error("OAuth callback did not complete.");
    return credentials;
  } finally {
    await callback.close();
  }
}

async function loginWithDeviceCode(
  gateway: string,
  callbacks: OAuthLoginCallbacks,
  signal: AbortSignal,
): Promise<OAuthCredentials> {
  const response = await postForm(
    new URL("/v1/oauth/device", gateway),
    new URLSearchParams({ client_id: CLIENT_ID, scope: SCOPE }),
    signal,
  );
  if (!response.ok) throw await responseError(response, "Radius OAuth device authorization failed");
  const data = await response.json() as Record<string, unknown>;
  if (!data.device_code || !data.user_code || !data.verification_uri || !data.expires_in) {
    throw new Error("Radius OAuth device authorization response is missing required fields");
  }
  const verificationUri = trustedHttpUrl(data.verification_uri);
  if (!verificationUri) {
    throw new Error("Untrusted verification_uri in Radius OAuth device authorization response");
  }
  const interval = typeof data.interval === "number" ? data.interval : undefined;
  const expiresIn = data.expires_in as number;
  showDeviceCode(callbacks, {
    userCode: String(data.user_code),
    verificationUri,
    intervalSeconds: interval,
    expiresInSeconds: expiresIn,
  });
  return await pollDeviceCodeFlow<OAuthCredentials>({
    intervalSeconds: interval,
    expiresInSeconds: expiresIn,
    signal,
    poll: async () => {
      try {
        const body = new URLSearchParams({
          grant_type: DEVICE_CODE_GRANT,
          client_id: CLIENT_ID,
          device_code: String(data.device_code),
        });
        return { status: "complete", value: await requestToken(gateway, body, signal) };
      } catch (error) {
        if (!(error instanceof OAuthResponseError)) throw error;
        switch (error.oauthError) {
          case "authorization_pending":
            return { status: "pending" };
          case "slow_down":
            return { status: "slow_down" };
          case "expired_token":
            return { status: "failed", message: "Device authorization expired." };
          case "access_denied":
            return { status: "failed", message: "Device authorization was denied." };
          default:
            throw error;
        }
      }
    },
  });
}

/** The OAuth provider of a Radius gateway (`pi auth login radius`). */
export function createRadiusOAuth(options: RadiusOAuthOptions): OAuthProviderInterface {
  const gateway = normalizeRadiusGatewayUrl(options.gateway);
  return {
    id: options.id ?? "radius",
    name: options.name,
    usesCallbackServer: true,
    async login(callbacks) {
      const signal = loginSignal(callbacks);
      const choice = await chooseLoginMethod(callbacks, `Sign in to ${options.name}:`, [
        { id: LOGIN_METHOD_BROWSER, label: "Sign in with browser (recommended)" },
        {
          id: LOGIN_METHOD_DEVICE_CODE,
          label: "Sign in with device code (when signing in from another device)",
        },
      ]);
      if (choice === LOGIN_METHOD_DEVICE_CODE) return await loginWithDeviceCode(gateway, callbacks, signal);
      if (choice === LOGIN_METHOD_BROWSER) return await loginWithBrowser(gateway, callbacks, signal);
      throw new Error(`Unknown ${options.name} sign-in method: ${choice}`);
    },
    refreshToken: (credentials) =>
      requestToken(
        gateway,
        new URLSearchParams({
          grant_type: "refresh_token",
          client_id: CLIENT_ID,
          refresh_token: credentials.refresh,
        }),
        undefined,
      ),
    getApiKey: (credentials) => credentials.access,
  };
}
