/**
 * pi's two uses of the MCP OAuth flow, as 1.6.0 has them. Connections (`createMcpAuth`) send the
 * stored access token, refresh it when it is about to expire or after a 401, and otherwise fail with
 * {@link McpOAuthAuthorizationRequiredError}: they never start a browser on their own. A sign-in
 * (`signInMcpServer`, from `pi mcp login` or `/mcp`) refreshes when it can, else listens on a
 * loopback callback, shows the authorization URL, waits for the browser's redirect (or a redirect URL
 * the user pastes) and exchanges the code.
 *
 * @module
 */
import { oauthResultPage } from "../../../config/oauth/callback_server.ts";
import {
  authorizeMcp,
  type AuthorizeOptions,
  loopbackSettings,
  McpOAuthAuthorizationRequiredError,
  type McpOAuthChallenge,
  type McpOAuthSettings,
  parseWwwAuthenticate,
  refreshRedirectUrl,
  registeredRedirectUrls,
} from "./oauth_flow.ts";
import type { McpOAuthServerStore, McpOAuthState } from "./oauth_store.ts";

/** The client name pi registers with. */
const CLIENT_NAME = "pi";
/** Access tokens this close to expiry are refreshed before they are sent. */
const REFRESH_SKEW_MS = 30_000;
/** How long a loopback callback waits at most. */
const CALLBACK_TIMEOUT_MS = 5 * 60_000;

/** The user or the caller cancelled a sign-in, or it ran out of time. */
export class McpSignInCancelledError extends Error {
  constructor() {
    super("Sign-in cancelled");
    this.name = "McpSignInCancelledError";
  }
}

/** Options of {@link createMcpAuth}. */
export interface McpAuthOptions {
  serverUrl: string;
  store: McpOAuthServerStore;
  /** Read only when a refresh is needed, so a secret that fails to resolve fails the refresh alone. */
  settings: () => McpOAuthSettings;
  onChallenge: (challenge: McpOAuthChallenge) => void;
}

/** The auth side of an OAuth server's connection. */
export interface McpAuth {
  token(): Promise<string | undefined>;
  /** After a 401: refreshes, or throws {@link McpOAuthAuthorizationRequiredError}. */
  onUnauthorized(response: Response, token: string | undefined): Promise<void>;
  /** Resolves once no refresh is running (its answer must be saved before exit). */
  settled(): Promise<void>;
}

function refreshOptions(
  options: McpAuthOptions,
  state: McpOAuthState,
  challenge?: McpOAuthChallenge,
): AuthorizeOptions {
  const settings = options.settings();
  return {
    serverUrl: options.serverUrl,
    store: options.store,
    settings,
    redirectUrl: refreshRedirectUrl(settings, state),
    clientName: CLIENT_NAME,
    ...(challenge?.resourceMetadataUrl ? { resourceMetadataUrl: challenge.resourceMetadataUrl } : {}),
    refreshOnly: true,
  };
}

/**
 * Tokens for a connection. Requests in this process share one refresh and other processes are kept
 * out by the store's refresh lock: with rotating refresh tokens, two refreshes would lose the grant.
 */
export function createMcpAuth(options: McpAuthOptions): McpAuth {
  const { store } = options;
  let refreshing: Promise<void> | undefined;
  const refresh = (staleToken: string | undefined, challenge?: McpOAuthChallenge) => {
    refreshing ??= store.withRefreshLock(async () => {
      const state = store.load();
      // Another process refreshed, or the user signed in: use the new token.
      if (state?.tokens?.access_token !== staleToken) return;
      if (!state?.tokens?.refresh_token) throw new McpOAuthAuthorizationRequiredError();
      if (await authorizeMcp(refreshOptions(options, state, challenge)) === "REDIRECT") {
        throw new McpOAuthAuthorizationRequiredError();
      }
    }).finally(() => {
      refreshing = undefined;
    });
    return refreshing;
  };
  return {
    async token() {
      await refreshing?.catch(() => undefined);
      const state = store.load();
      const token = state?.tokens?.access_token;
      const expired = state?.tokensExpireAt !== undefined &&
        state.tokensExpireAt - REFRESH_SKEW_MS <= Date.now();
      if (!expired || !state?.tokens?.refresh_token) return token;
      // A failed refresh sends the old token; the 401 then decides.
      await refresh(token).catch(() => undefined);
      return store.load()?.tokens?.access_token;
    },
    async onUnauthorized(response, token) {
      const challenge = parseWwwAuthenticate(response.headers.get("www-authenticate"));
      options.onChallenge(challenge);
      // A refresh keeps the granted scope; more scope needs a new sign-in.
      if (challenge.error === "insufficient_scope") throw new McpOAuthAuthorizationRequiredError();
      await refresh(token, challenge);
    },
    async settled() {
      await refreshing?.catch(() => undefined);
    },
  };
}

/**
 * A `fetch` for the streamable HTTP transport that authenticates with `auth`: the access token on
 * every request, and after a 401 one retry with refreshed tokens; a second 401 needs a sign-in.
 */
export function authenticatedFetch(auth: McpAuth): typeof fetch {
  return async (input, init) => {
    for (let attempt = 0;; attempt++) {
      const token = await auth.token();
      const headers = new Headers(init?.headers);
      if (token) headers.set("Authorization", `Bearer ${token}`);
      const response = await fetch(input, { ...init, headers });
      if (response.status !== 401) return response;
      await response.body?.cancel().catch(() => undefined);
      if (attempt > 0) throw new McpOAuthAuthorizationRequiredError();
      await auth.onUnauthorized(response, token);
    }
  };
}

/** How a sign-in talks to the user. */
export interface McpSignInPrompt {
  showAuthorizationUrl(url: URL): void;
  /** A redirect URL the user pasted; undefined when they gave none (the browser callback may still come). */
  promptForRedirectUrl?(signal: AbortSignal): Promise<string | undefined>;
}

/** Options of {@link signInMcpServer}. */
export interface McpSignInOptions {
  serverUrl: string;
  store: McpOAuthServerStore;
  settings: McpOAuthSettings;
  challenge?: McpOAuthChallenge;
  prompt: McpSignInPrompt;
  signal?: AbortSignal;
}

interface AuthorizationResponse {
  code: string;
  state: string;
}

/** A loopback server that hands the authorization response of the pending `state` over. */
interface CallbackServer {
  redirectUrl: string;
  wait(state: string, path: string): Promise<AuthorizationResponse>;
  close(): Promise<void>;
}

function htmlPage(status: number, ok: boolean, message: string, details?: string): Response {
  const title = ok ? "Authentication successful" : "Authentication failed";
  return new Response(oauthResultPage(title, message, details), {
    status,
    headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" },
  });
}

function listenCallback(host: string, redirectHost: string, port: number, path: string): CallbackServer {
  const pending = new Map<
    string,
    {
      resolve: (response: AuthorizationResponse) => void;
      reject: (error: Error) => void;
      path: string;
      timer: ReturnType<typeof setTimeout>;
    }
  >();
  const server = Deno.serve({ hostname: host, port, onListen: () => {} }, (request) => {
    const url = new URL(request.url);
    if (url.pathname !== path) return htmlPage(404, false, "Not found");
    const state = url.searchParams.get("state");
    const waiting = state ? pending.get(state) : undefined;
    if (!state || !waiting) return htmlPage(400, false, "Invalid or expired OAuth state");
    clearTimeout(waiting.timer);
    pending.delete(state);
    const error = url.searchParams.get("error");
    if (error) {
      const description = url.searchParams.get("error_description") ?? error;
      waiting.reject(new Error(description));
      return htmlPage(200, false, "Authorization failed. You may close this window.", description);
    }
    const code = url.searchParams.get("code");
    if (!code) {
      waiting.reject(new Error("OAuth callback did not include an authorization code"));
      return htmlPage(400, false, "Missing authorization code");
    }
    waiting.resolve({ code, state });
    return htmlPage(200, true, "Signed in to the MCP server. You may now close this page.");
  });
  const hostPart = redirectHost.includes(":") ? `[${redirectHost}]` : redirectHost;
  return {
    redirectUrl: `http://${hostPart}:${server.addr.port}${path}`,
    wait: (state, waitPath) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          pending.delete(state);
          reject(new Error("OAuth callback timed out"));
        }, CALLBACK_TIMEOUT_MS);
        pending.set(state, { resolve, reject, path: waitPath, timer });
      }),
    async close() {
      for (const waiting of pending.values()) {
        clearTimeout(waiting.timer);
        waiting.reject(new Error("OAuth callback server closed"));
      }
      pending.clear();
      await server.shutdown();
    },
  };
}

/** The authorization response in a pasted redirect URL, checked against the sign-in. */
function responseFromRedirectUrl(input: string, redirectUrl: string, state: string): AuthorizationResponse {
  if (!URL.canParse(input.trim())) {
    throw new Error("Expected the full redirect URL from the browser address bar");
  }
  const url = new URL(input.trim());
  const expected = new URL(redirectUrl);
  if (url.origin !== expected.origin || url.pathname !== expected.pathname) {
    throw new Error("The redirect URL does not match this sign-in's redirect URI");
  }
  const error = url.searchParams.get("error");
  if (error) throw new Error(url.searchParams.get("error_description") ?? error);
  if (url.searchParams.get("state") !== state) {
    throw new Error("The redirect URL belongs to a different sign-in");
  }
  const code = url.searchParams.get("code");
  if (!code) throw new Error("The redirect URL does not contain an authorization code");
  return { code, state };
}

async function cancellable<T>(signal: AbortSignal | undefined, run: () => Promise<T>): Promise<T> {
  if (signal?.aborted) throw new McpSignInCancelledError();
  if (!signal) return await run();
  let onAbort = () => {};
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(new McpSignInCancelledError());
    signal.addEventListener("abort", onAbort, { once: true });
  });
  try {
    return await Promise.race([run(), aborted]);
  } catch (error) {
    if (signal.aborted) throw new McpSignInCancelledError();
    throw error;
  } finally {
    signal.removeEventListener("abort", onAbort);
  }
}

/**
 * Signs in to an MCP server: the stored refresh token when it still works, else the browser. The
 * callback listens where the settings say, else on the stored client's port (so its registration
 * stays valid), else on a free port.
 */
export async function signInMcpServer(options: McpSignInOptions): Promise<void> {
  const { store, settings, signal } = options;
  if (settings.clientRegistration === "cimd") {
    // 1.6.0 identifies with pi's Client ID Metadata Documents on pi.dev; this build registers instead.
    throw new Error(
      'oauth.clientRegistration "cimd" is not available in this build yet; use "auto" or "dcr"',
    );
  }
  const loopback = loopbackSettings(settings);
  const registered = registeredRedirectUrls(store.load()?.clientInformation)[0];
  const port = loopback.port ?? (registered ? Number(new URL(registered).port) || undefined : undefined);
  let callback: CallbackServer;
  try {
    callback = listenCallback(loopback.host, loopback.redirectHost, port ?? 0, loopback.path);
  } catch (error) {
    // A configured port is required; the stored client's port is only preferred.
    if (loopback.port !== undefined || port === undefined) throw error;
    callback = listenCallback(loopback.host, loopback.redirectHost, 0, loopback.path);
  }
  const redirectUrl = loopback.fixedRedirectUrl ?? callback.redirectUrl;
  const base: AuthorizeOptions = {
    serverUrl: options.serverUrl,
    store,
    settings,
    redirectUrl,
    clientName: CLIENT_NAME,
    ...(options.challenge?.resourceMetadataUrl
      ? { resourceMetadataUrl: options.challenge.resourceMetadataUrl }
      : {}),
    ...(signal ? { signal } : {}),
  };
  try {
    const stepUp = options.challenge?.error === "insufficient_scope";
    if (!stepUp && await cancellable(signal, () => refreshFirst(base))) return;
    // The browser step: a fresh `state`; a registered client that cannot use this redirect URI goes,
    // with its tokens.
    const stored = store.load();
    if (stored) {
      const next = { ...stored };
      delete next.oauthState;
      const keepClient = settings.clientId ||
        (stored.clientInformation !== undefined && settings.clientRegistration !== "cimd" &&
          registeredRedirectUrls(stored.clientInformation).includes(redirectUrl));
      if (!keepClient) {
        delete next.clientInformation;
        delete next.tokens;
        delete next.tokensExpireAt;
      }
      store.save(next);
    }
    const scope = mergeScopes(
      settings.scope,
      stepUp ? stepUpScope(stored?.tokens?.scope, options.challenge?.scope) : options.challenge?.scope,
    );
    let authorizationUrl: URL | undefined;
    await cancellable(signal, () =>
      authorizeMcp({
        ...base,
        ...(scope ? { scope } : {}),
        skipRefresh: true,
        onRedirect: (url) => (authorizationUrl = url),
      }));
    if (!authorizationUrl) throw new Error("OAuth flow did not produce an authorization URL");
    const state = authorizationUrl.searchParams.get("state") ?? "";
    const requestedScope = authorizationUrl.searchParams.get("scope") ?? undefined;
    options.prompt.showAuthorizationUrl(authorizationUrl);
    const response = await waitForResponse(options, callback, redirectUrl, state);
    await cancellable(signal, async () => {
      if (store.load()?.oauthState !== state) {
        throw new Error("Another sign-in to this MCP server started since; sign in again");
      }
      await authorizeMcp({
        ...base,
        ...(requestedScope ? { scope: requestedScope } : {}),
        authorizationCode: response.code,
        authorizationRedirectUrl: redirectUrl,
      });
    });
  } finally {
    await callback.close();
  }
}

/** Refreshes the stored tokens when there are any; whether that signed in. */
async function refreshFirst(options: AuthorizeOptions): Promise<boolean> {
  return await options.store.withRefreshLock(async () => {
    if (options.signal?.aborted) return false;
    const state = options.store.load();
    if (!state?.tokens?.refresh_token) return false;
    if (
      options.settings.clientRegistration === "cimd" && state.clientInformation && !options.settings.clientId
    ) {
      return false;
    }
    return await authorizeMcp({ ...options, refreshOnly: true }) === "AUTHORIZED";
  });
}

async function waitForResponse(
  options: McpSignInOptions,
  callback: CallbackServer,
  redirectUrl: string,
  state: string,
): Promise<AuthorizationResponse> {
  const controller = new AbortController();
  const signal = options.signal ? AbortSignal.any([controller.signal, options.signal]) : controller.signal;
  const fromBrowser = callback.wait(state, new URL(redirectUrl).pathname);
  const fromUser = options.prompt.promptForRedirectUrl
    ? options.prompt.promptForRedirectUrl(signal).then((input) => {
      if (!input?.trim()) throw new McpSignInCancelledError();
      return responseFromRedirectUrl(input, redirectUrl, state);
    })
    : new Promise<never>((_, reject) => {
      signal.addEventListener("abort", () => reject(new McpSignInCancelledError()), { once: true });
    });
  try {
    return await cancellable(options.signal, () => Promise.race([fromBrowser, fromUser]));
  } finally {
    controller.abort();
    fromBrowser.catch(() => undefined);
    fromUser.catch(() => undefined);
  }
}

function mergeScopes(...scopes: (string | undefined)[]): string | undefined {
  const merged = [...new Set(scopes.flatMap((scope) => scope?.split(/\s+/).filter(Boolean) ?? []))];
  return merged.length > 0 ? merged.join(" ") : undefined;
}

/** The challenged scopes plus the granted ones: a challenge may list only the missing scopes. */
function stepUpScope(granted: string | undefined, challenged: string | undefined): string | undefined {
  if (!challenged) return undefined;
  return mergeScopes(granted, challenged);
}

export { McpOAuthAuthorizationRequiredError };
