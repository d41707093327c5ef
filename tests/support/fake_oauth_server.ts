/**
 * A fake OAuth authorization server on 127.0.0.1 for the login-flow tests: an authorize endpoint that
 * redirects like a browser sign-in, a token endpoint (authorization code, refresh with rotation,
 * RFC 8628 device code), OpenAI's device-auth endpoints, and per-route overrides for anything else.
 * Every request is recorded.
 *
 * API (`const server = startFakeOAuthServer(options)`):
 * - `server.url` — the origin, `http://127.0.0.1:<port>`; point a flow at it with its endpoint
 *   override variable (`PI_ANTHROPIC_OAUTH_URL`, `PI_OPENAI_CODEX_OAUTH_URL`, …), which keeps each
 *   URL's path and swaps the origin.
 * - `server.requests` — every request in arrival order ({@link FakeOAuthRequest}: method, path,
 *   query, headers, raw body and its parsed `params` from JSON or form bodies).
 * - `server.authorize(authorizeUrl)` — plays the browser: GETs the URL on this server and follows its
 *   302 to the `redirect_uri` (the flow's callback server); resolves with the callback page's status
 *   and body. The redirect carries `code=<issued code>&state=<state from the URL>`; a `localhost`
 *   redirect is fetched on 127.0.0.1, where the callback servers listen.
 * - `server.approveDevice()` — the user approves pending device codes; until then device token
 *   polls answer "pending". `server.denyDevice()` makes them fail with `access_denied`.
 * - `server.route(method, path, handler)` — replaces (or adds) a route; the handler gets the
 *   recorded request and returns a `Response`. Later routes win.
 * - `server.issuedTokens()` — every access and refresh token handed out, for leak checks.
 * - `server.tokenGrants(grantType)` — the recorded token requests with that `grant_type`.
 * - `server.currentRefreshToken` — the one refresh token that is valid now (rotation: each refresh
 *   invalidates the one used, a reused old token gets `400 {"error":"invalid_grant"}`).
 * - `server.close()`.
 *
 * Default routes:
 * - `GET <any path ending in /authorize>` → 302 to `redirect_uri?code=…&state=…`, or to
 *   `redirect_uri?error=access_denied…` when `options.denyAuthorize` is set.
 * - `POST /v1/oauth/token`, `/oauth/token`, `/token` (JSON or form): `authorization_code` (the code
 *   must have been issued and not used), `refresh_token` (must be current), and
 *   `urn:ietf:params:oauth:grant-type:device_code`. Success is
 *   `{access_token, refresh_token, expires_in, token_type, id_token?}` with `expires_in` from options.
 * - `POST /api/accounts/deviceauth/usercode` → `{device_auth_id, user_code, interval}` (OpenAI Codex);
 *   `POST /api/accounts/deviceauth/token` → 403 until approved, then
 *   `{authorization_code, code_challenge, code_verifier}`.
 * - `POST /oauth/device/code` → RFC 8628 `{device_code, user_code, verification_uri, interval,
 *   expires_in}`.
 *
 * @module
 */

/** One request the server received. */
export interface FakeOAuthRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  /** The raw body text ("" for none). */
  body: string;
  /** Fields of a JSON object or form-encoded body ({} otherwise). */
  params: Record<string, string>;
}

/** Options of {@link startFakeOAuthServer}. */
export interface FakeOAuthServerOptions {
  /** `expires_in` (seconds) in token replies; default 3600. */
  expiresIn?: number;
  /** Builds the n-th access token (1-based); default `fake-access-<n>-<random>`. */
  accessToken?: (n: number) => string;
  /** Milliseconds the refresh grant waits before answering (widens race windows); default 0. */
  refreshDelayMs?: number;
  /** Authorize redirects with `error=access_denied` instead of a code. */
  denyAuthorize?: boolean;
  /** Seed refresh token that is valid from the start (for tests that store credentials directly). */
  initialRefreshToken?: string;
  /** `interval` (seconds) of device-code replies; default 1. */
  deviceInterval?: number;
  /** Adds an `id_token` to token replies. */
  idToken?: string;
}

/** A running fake OAuth server; see the module doc for the API. */
export interface FakeOAuthServer {
  url: string;
  requests: FakeOAuthRequest[];
  currentRefreshToken: string | undefined;
  authorize(authorizeUrl: string): Promise<{ status: number; body: string; redirectedTo: string }>;
  approveDevice(): void;
  denyDevice(): void;
  route(
    method: string,
    path: string,
    handler: (request: FakeOAuthRequest) => Response | Promise<Response>,
  ): void;
  issuedTokens(): string[];
  tokenGrants(grantType: string): FakeOAuthRequest[];
  close(): Promise<void>;
}

/** An unsigned JWT (`header.payload.`-style, signature "sig") carrying `payload`, for flows that read claims. */
export function fakeJwt(payload: Record<string, unknown>): string {
  const part = (value: unknown) =>
    btoa(JSON.stringify(value)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  return `${part({ alg: "none", typ: "JWT" })}.${part(payload)}.sig`;
}

function json(status: number, value: unknown): Response {
  return new Response(JSON.stringify(value), { status, headers: { "content-type": "application/json" } });
}

function parseParams(body: string, contentType: string): Record<string, string> {
  if (!body) return {};
  if (contentType.includes("application/x-www-form-urlencoded")) {
    return Object.fromEntries(new URLSearchParams(body));
  }
  try {
    const value = JSON.parse(body);
    if (typeof value !== "object" || value === null || Array.isArray(value)) return {};
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)]),
    );
  } catch {
    return Object.fromEntries(new URLSearchParams(body));
  }
}

const TOKEN_PATHS = ["/v1/oauth/token", "/oauth/token", "/token"];
const DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";

/** Starts the server on a free port of 127.0.0.1. */
export function startFakeOAuthServer(options: FakeOAuthServerOptions = {}): FakeOAuthServer {
  const requests: FakeOAuthRequest[] = [];
  const issued: string[] = [];
  const codes = new Set<string>();
  const random = () => crypto.randomUUID().slice(0, 8);
  let tokenCount = 0;
  let deviceState: "pending" | "approved" | "denied" = "pending";
  const routes: {
    method: string;
    path: string;
    handler: (r: FakeOAuthRequest) => Response | Promise<Response>;
  }[] = [];
  const state = { currentRefreshToken: options.initialRefreshToken };

  const issueTokens = (): Response => {
    tokenCount++;
    const access = options.accessToken?.(tokenCount) ?? `fake-access-${tokenCount}-${random()}`;
    const refresh = `fake-refresh-${tokenCount}-${random()}`;
    issued.push(access, refresh);
    state.currentRefreshToken = refresh;
    return json(200, {
      access_token: access,
      refresh_token: refresh,
      expires_in: options.expiresIn ?? 3600,
      token_type: "Bearer",
      ...(options.idToken ? { id_token: options.idToken } : {}),
    });
  };

  const token = async (request: FakeOAuthRequest): Promise<Response> => {
    const grant = request.params.grant_type;
    if (grant === "authorization_code") {
      if (!codes.delete(request.params.code ?? "")) {
        return json(400, { error: "invalid_grant", error_description: "unknown or used code" });
      }
      return issueTokens();
    }
    if (grant === "refresh_token") {
      if (options.refreshDelayMs) await new Promise((resolve) => setTimeout(resolve, options.refreshDelayMs));
      if (!state.currentRefreshToken || request.params.refresh_token !== state.currentRefreshToken) {
        return json(400, { error: "invalid_grant", error_description: "refresh token is not current" });
      }
      return issueTokens();
    }
    if (grant === DEVICE_GRANT) {
      if (deviceState === "pending") return json(400, { error: "authorization_pending" });
      if (deviceState === "denied") return json(400, { error: "access_denied" });
      return issueTokens();
    }
    return json(400, { error: "unsupported_grant_type" });
  };

  const builtin = (request: FakeOAuthRequest): Response | Promise<Response> => {
    if (request.method === "GET" && request.path.endsWith("/authorize")) {
      const redirect = request.query.redirect_uri;
      if (!redirect) {
        return json(400, { error: "invalid_request", error_description: "redirect_uri missing" });
      }
      const target = new URL(redirect);
      if (options.denyAuthorize) {
        target.searchParams.set("error", "access_denied");
        target.searchParams.set("error_description", "The user said no");
      } else {
        const code = `fake-code-${random()}`;
        codes.add(code);
        target.searchParams.set("code", code);
      }
      if (request.query.state) target.searchParams.set("state", request.query.state);
      return new Response(null, { status: 302, headers: { location: target.href } });
    }
    if (request.method === "POST" && TOKEN_PATHS.includes(request.path)) return token(request);
    if (request.method === "POST" && request.path === "/api/accounts/deviceauth/usercode") {
      return json(200, {
        device_auth_id: "fake-device-auth",
        user_code: "ABCD-1234",
        interval: options.deviceInterval ?? 1,
      });
    }
    if (request.method === "POST" && request.path === "/api/accounts/deviceauth/token") {
      if (deviceState === "pending") {
        return json(403, { error: { code: "deviceauth_authorization_pending" } });
      }
      if (deviceState === "denied") return json(400, { error: { code: "access_denied" } });
      const code = `fake-code-${random()}`;
      codes.add(code);
      return json(200, {
        authorization_code: code,
        code_challenge: "fake-challenge",
        code_verifier: "fake-verifier",
      });
    }
    if (request.method === "POST" && request.path === "/oauth/device/code") {
      return json(200, {
        device_code: "fake-device-code",
        user_code: "WXYZ-9876",
        verification_uri: `${server.url}/device`,
        interval: options.deviceInterval ?? 1,
        expires_in: 900,
      });
    }
    return json(404, { error: "not_found", path: request.path });
  };

  const httpServer = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (raw) => {
    const url = new URL(raw.url);
    const body = await raw.text();
    const request: FakeOAuthRequest = {
      method: raw.method,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: Object.fromEntries(raw.headers),
      body,
      params: parseParams(body, raw.headers.get("content-type") ?? ""),
    };
    requests.push(request);
    for (let i = routes.length - 1; i >= 0; i--) {
      const route = routes[i];
      if (route.method === request.method && route.path === request.path) return await route.handler(request);
    }
    return await builtin(request);
  });

  const server: FakeOAuthServer = {
    url: `http://127.0.0.1:${httpServer.addr.port}`,
    requests,
    get currentRefreshToken() {
      return state.currentRefreshToken;
    },
    set currentRefreshToken(value: string | undefined) {
      state.currentRefreshToken = value;
    },
    async authorize(authorizeUrl) {
      const first = await fetch(authorizeUrl, { redirect: "manual" });
      await first.body?.cancel();
      const location = first.headers.get("location");
      if (first.status !== 302 || !location) throw new Error(`authorize answered ${first.status}`);
      // `localhost` may resolve to ::1 first while callback servers listen on 127.0.0.1.
      const target = new URL(location);
      if (target.hostname === "localhost") target.hostname = "127.0.0.1";
      const callback = await fetch(target);
      return { status: callback.status, body: await callback.text(), redirectedTo: location };
    },
    approveDevice: () => deviceState = "approved",
    denyDevice: () => deviceState = "denied",
    route: (method, path, handler) => routes.push({ method, path, handler }),
    issuedTokens: () => [...issued],
    tokenGrants: (grantType) =>
      requests.filter((r) => TOKEN_PATHS.includes(r.path) && r.params.grant_type === grantType),
    close: () => httpServer.shutdown(),
  };
  return server;
}
