/**
 * Anthropic login with a Claude Pro/Max subscription (1.6.0's `anthropic` OAuth): PKCE with a local
 * callback server on 127.0.0.1:53692 (any free port when that one is taken, the pasted redirect URL
 * when none can be bound), or the "copy code" variant for machines without a browser. Requests then
 * carry the access token as the key; it is refreshed with the stored refresh token.
 *
 * Tests send every request of this flow to a fake server with `PI_ANTHROPIC_OAUTH_URL` (an origin).
 *
 * @module
 */

import { readEnv } from "../../util/env.ts";
import type { OAuthCredentials, OAuthLoginCallbacks, OAuthProviderInterface } from "../oauth_registry.ts";
import { startOAuthCallbackServer, waitForCallbackOrManualInput } from "./callback_server.ts";
import { oauthEndpoint } from "./endpoint_override.ts";
import {
  chooseLoginMethod,
  loginSignal,
  manualCodeInputFrom,
  parseAuthorizationInput,
} from "./login_input.ts";
import { generatePkce } from "./pkce.ts";
import { describeTokenError, readTokenJson, TOKEN_REQUEST_TIMEOUT_MS } from "./token_response.ts";

/** Environment variable (tests only) that sends this flow's requests to another origin. */
export const ANTHROPIC_OAUTH_URL_ENV = "PI_ANTHROPIC_OAUTH_URL";

/** Claude Code's public OAuth client id (kept encoded, as 1.6.0 does). */
const CLIENT_ID = atob("OWQxYzI1MGEtZTYxYi00NGQ5LTg4ZWQtNTk0NGQxOTYyZjVl");
const AUTHORIZE_URL = "https://claude.ai/oauth/authorize";
const TOKEN_URL = "https://platform.claude.com/v1/oauth/token";
/** Preferred so the port can be forwarded into a container or over SSH; Anthropic accepts any loopback port. */
const CALLBACK_PORT = 53692;
const CALLBACK_PATH = "/callback";
const DEFAULT_REDIRECT_URI = `http://localhost:${CALLBACK_PORT}${CALLBACK_PATH}`;
/** Where Anthropic shows the code to copy in the headless variant. */
const COPY_CODE_REDIRECT_URI = "https://platform.claude.com/oauth/code/callback";
const SCOPES =
  "org:create_api_key user:profile user:inference user:sessions:claude_code user:mcp_servers user:file_upload";
/** Tokens are treated as expired five minutes before Anthropic says (on top of the refresh margin). */
const EXPIRY_SKEW_MS = 5 * 60 * 1000;
const BROWSER = "browser";
const COPY_CODE = "copy_code";

/** Maps a production URL to the one to request (the test origin when one is set). */
type Endpoint = (url: string) => string;

/** Options of {@link createAnthropicOAuth}. */
export interface AnthropicOAuthOptions {
  /** Origin that replaces Anthropic's in every request (tests); default: `PI_ANTHROPIC_OAUTH_URL`. */
  origin?: string;
}

function authorizeUrl(endpoint: Endpoint, challenge: string, verifier: string, redirectUri: string): string {
  const params = new URLSearchParams({
    code: "true",
    client_id: CLIENT_ID,
    response_type: "code",
    redirect_uri: redirectUri,
    scope: SCOPES,
    code_challenge: challenge,
    code_challenge_method: "S256",
    state: verifier,
  });
  return `${endpoint(AUTHORIZE_URL)}?${params}`;
}

/** POSTs JSON to the token endpoint and turns the reply into credentials; `what` names the step in errors. */
async function tokenRequest(
  endpoint: Endpoint,
  body: Record<string, string>,
  what: string,
  signal?: AbortSignal,
): Promise<OAuthCredentials> {
  const url = endpoint(TOKEN_URL);
  const timeout = AbortSignal.timeout(TOKEN_REQUEST_TIMEOUT_MS);
  let response: Response;
  try {
    response = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify(body),
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
  } catch (error) {
    if (signal?.aborted) throw new Error("Login cancelled");
    throw new Error(`Anthropic ${what} request failed (${url}): ${(error as Error).message}`);
  }
  if (!response.ok) throw new Error(`Anthropic ${what} failed: ${await describeTokenError(response)}`);
  const json = await readTokenJson(response, `Anthropic ${what}`);
  if (
    typeof json.access_token !== "string" || typeof json.refresh_token !== "string" ||
    typeof json.expires_in !== "number"
  ) {
    throw new Error(`Anthropic ${what} reply lacks access_token, refresh_token or expires_in`);
  }
  return {
    refresh: json.refresh_token,
    access: json.access_token,
    expires: Date.now() + json.expires_in * 1000 - EXPIRY_SKEW_MS,
  };
}

function exchangeCode(
  endpoint: Endpoint,
  code: string,
  state: string,
  verifier: string,
  redirectUri: string,
  signal: AbortSignal,
): Promise<OAuthCredentials> {
  return tokenRequest(
    endpoint,
    {
      grant_type: "authorization_code",
      client_id: CLIENT_ID,
      code,
      state,
      redirect_uri: redirectUri,
      code_verifier: verifier,
    },
    "token exchange",
    signal,
  );
}

async function loginWithBrowser(
  endpoint: Endpoint,
  callbacks: OAuthLoginCallbacks,
): Promise<OAuthCredentials> {
  const signal = loginSignal(callbacks);
  const { verifier, challenge } = await generatePkce();
  const start = (port: number) =>
    startOAuthCallbackServer({
      providerName: "Anthropic",
      host: readEnv("PI_OAUTH_CALLBACK_HOST") || "127.0.0.1",
      port,
      path: CALLBACK_PATH,
      redirectHost: "localhost",
      state: verifier,
      complete: (code) => Promise.resolve(code),
      signal,
    });
  // Without any callback server the login goes on with the pasted redirect URL.
  const callback = await start(CALLBACK_PORT).catch(() => start(0)).catch(() => undefined);
  const redirectUri = callback?.redirectUri ?? DEFAULT_REDIRECT_URI;
  try {
    callbacks.onAuth({
      url: authorizeUrl(endpoint, challenge, verifier, redirectUri),
      instructions:
        "Complete login in your browser. If the browser is on another machine, paste the final redirect URL here.",
    });
    const result = await waitForCallbackOrManualInput(manualCodeInputFrom(callbacks), callback, {
      message: "Complete login in your browser, or paste the authorization code / redirect URL here:",
      placeholder: redirectUri,
    });
    let code: string | undefined;
    let state = verifier;
    if (result.type === "callback") {
      code = result.value;
    } else {
      const parsed = parseAuthorizationInput(result.input);
      if (parsed.state && parsed.state !== verifier) throw new Error("OAuth state mismatch");
      code = parsed.code;
      state = parsed.state ?? verifier;
    }
    if (!code) throw new Error("Missing authorization code");
    callbacks.onProgress?.("Exchanging authorization code for tokens...");
    return await exchangeCode(endpoint, code, state, verifier, redirectUri, signal);
  } finally {
    await callback?.close();
  }
}

async function loginWithCopiedCode(
  endpoint: Endpoint,
  callbacks: OAuthLoginCallbacks,
): Promise<OAuthCredentials> {
  const signal = loginSignal(callbacks);
  const { verifier, challenge } = await generatePkce();
  callbacks.onAuth({
    url: authorizeUrl(endpoint, challenge, verifier, COPY_CODE_REDIRECT_URI),
    instructions: "Complete login in your browser, then copy the code Anthropic shows and paste it here.",
  });
  const prompt = { message: "Paste the code Anthropic shows after you sign in:", placeholder: "code#state" };
  const input = callbacks.onManualCodeInput
    ? await callbacks.onManualCodeInput(signal, prompt)
    : await callbacks.onPrompt(prompt);
  const parsed = parseAuthorizationInput(input);
  if (parsed.state && parsed.state !== verifier) throw new Error("OAuth state mismatch");
  if (!parsed.code) throw new Error("Missing authorization code");
  callbacks.onProgress?.("Exchanging authorization code for tokens...");
  return await exchangeCode(
    endpoint,
    parsed.code,
    parsed.state ?? verifier,
    verifier,
    COPY_CODE_REDIRECT_URI,
    signal,
  );
}

/** An `anthropic` OAuth provider; `options.origin` points it at a test server. */
export function createAnthropicOAuth(options: AnthropicOAuthOptions = {}): OAuthProviderInterface {
  const endpoint: Endpoint = (url) => oauthEndpoint(url, ANTHROPIC_OAUTH_URL_ENV, options.origin);
  return {
    id: "anthropic",
    name: "Anthropic (Claude Pro/Max)",
    usesCallbackServer: true,
    async login(callbacks) {
      const method = await chooseLoginMethod(callbacks, "Select Anthropic login method:", [
        { id: BROWSER, label: "Browser login (default)" },
        { id: COPY_CODE, label: "Copy code login (headless)" },
      ]);
      if (method === COPY_CODE) return await loginWithCopiedCode(endpoint, callbacks);
      if (method !== BROWSER) throw new Error(`Unknown Anthropic login method: ${method}`);
      return await loginWithBrowser(endpoint, callbacks);
    },
    refreshToken(credentials) {
      return tokenRequest(
        endpoint,
        { grant_type: "refresh_token", client_id: CLIENT_ID, refresh_token: credentials.refresh },
        "token refresh",
      );
    },
    getApiKey: (credentials) => credentials.access,
  };
}

/** The `anthropic` OAuth provider (Claude Pro/Max subscription). */
export const anthropicOAuth: OAuthProviderInterface = createAnthropicOAuth();
