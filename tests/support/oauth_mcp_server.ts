/**
 * A real MCP server on 127.0.0.1 that requires OAuth, for the MCP sign-in tests: the MCP endpoint
 * (`/mcp`, built on the SDK's web-standard streamable HTTP transport, one tool `whoami`) answers 401
 * with a `WWW-Authenticate` challenge naming its protected resource metadata (RFC 9728) unless the
 * request carries a token this server issued; the same origin is the authorization server (RFC 8414
 * metadata, dynamic client registration RFC 7591, authorization code with PKCE S256, refresh tokens
 * with rotation). The SDK's own server-side auth helpers are express routers, so this is written on
 * `Deno.serve` instead.
 *
 * Importable (`startOAuthMcpServer()`) and runnable (`deno run -A oauth_mcp_server.ts` prints
 * `listening <mcp url>`), so pi 1.6.0 can be captured against it too. `authorize(url)` plays the
 * browser: it opens the authorization URL here, follows the redirect to the client's callback and
 * returns the callback page.
 *
 * @module
 */
import { Server } from "npm:@modelcontextprotocol/sdk@1.32.2/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "npm:@modelcontextprotocol/sdk@1.32.2/server/webStandardStreamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "npm:@modelcontextprotocol/sdk@1.32.2/types.js";

/** One request the server received (method, path and, for forms and JSON, the fields). */
export interface OAuthMcpRequest {
  method: string;
  path: string;
  authorization?: string;
  params: Record<string, unknown>;
}

/** Options of {@link startOAuthMcpServer}. */
export interface OAuthMcpServerOptions {
  /** `expires_in` of issued access tokens, in seconds (default 3600). */
  expiresIn?: number;
  /** `scopes_supported` of the protected resource (default none). */
  scopes?: string[];
  /** Every token (access and refresh) stops working once a tool call was answered. */
  revokeAfterToolCall?: boolean;
}

/** A running server. */
export interface OAuthMcpServer {
  /** The MCP endpoint, `http://127.0.0.1:<port>/mcp`. */
  url: string;
  /** `http://127.0.0.1:<port>`: the authorization server's issuer. */
  origin: string;
  requests: OAuthMcpRequest[];
  /** Plays the browser on an authorization URL; resolves with the callback page's status and body. */
  authorize(authorizationUrl: string): Promise<{ status: number; body: string }>;
  /** Makes every issued access token invalid (the next MCP request gets 401). */
  revokeAccessTokens(): void;
  /** Makes every refresh token invalid too. */
  revokeAll(): void;
  /** Access tokens issued so far, in order. */
  accessTokens: string[];
  close(): Promise<void>;
}

function json(status: number, value: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(value), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}

function base64Url(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

async function s256(verifier: string): Promise<string> {
  return base64Url(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier))));
}

function createMcpServer(token: string, onCall: () => void): Server {
  const server = new Server({ name: "pi-oauth-test-server", version: "1.0.0" }, {
    capabilities: { tools: {} },
  });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [{ name: "whoami", description: "The access token's number.", inputSchema: { type: "object" } }],
  }));
  server.setRequestHandler(CallToolRequestSchema, () => {
    onCall();
    return { content: [{ type: "text", text: `signed in with ${token.replace(/-[^-]+$/, "")}` }] };
  });
  return server;
}

/** Starts the server on a free port. */
export function startOAuthMcpServer(options: OAuthMcpServerOptions = {}): OAuthMcpServer {
  const requests: OAuthMcpRequest[] = [];
  const clients = new Map<string, { redirect_uris: string[] }>();
  const codes = new Map<
    string,
    { clientId: string; challenge: string; redirectUri: string; scope?: string }
  >();
  const accessTokens = new Set<string>();
  const refreshTokens = new Set<string>();
  const issued: string[] = [];
  let counter = 0;
  let origin = "";

  const issue = (scope: string | undefined) => {
    counter++;
    const random = crypto.randomUUID().slice(0, 8);
    const access = `access-${counter}-${random}`;
    const refresh = `refresh-${counter}-${random}`;
    accessTokens.add(access);
    refreshTokens.add(refresh);
    issued.push(access);
    return json(200, {
      access_token: access,
      token_type: "Bearer",
      expires_in: options.expiresIn ?? 3600,
      refresh_token: refresh,
      ...(scope ? { scope } : {}),
    });
  };

  const handler = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    const path = url.pathname;
    const text = request.method === "POST" && path !== "/mcp" ? await request.text() : "";
    const type = request.headers.get("content-type") ?? "";
    const params: Record<string, unknown> = type.includes("json") && text
      ? JSON.parse(text)
      : text
      ? Object.fromEntries(new URLSearchParams(text))
      : Object.fromEntries(url.searchParams);
    const authorization = request.headers.get("authorization") ?? undefined;
    requests.push({ method: request.method, path, ...(authorization ? { authorization } : {}), params });

    if (
      path === "/.well-known/oauth-protected-resource/mcp" || path === "/.well-known/oauth-protected-resource"
    ) {
      return json(200, {
        resource: `${origin}/mcp`,
        authorization_servers: [origin],
        ...(options.scopes ? { scopes_supported: options.scopes } : {}),
      });
    }
    if (path === "/.well-known/oauth-authorization-server") {
      return json(200, {
        issuer: origin,
        authorization_endpoint: `${origin}/authorize`,
        token_endpoint: `${origin}/token`,
        registration_endpoint: `${origin}/register`,
        response_types_supported: ["code"],
        grant_types_supported: ["authorization_code", "refresh_token"],
        code_challenge_methods_supported: ["S256"],
        token_endpoint_auth_methods_supported: ["none"],
      });
    }
    if (path === "/register" && request.method === "POST") {
      const metadata = params as { redirect_uris?: string[] };
      if (!Array.isArray(metadata.redirect_uris)) return json(400, { error: "invalid_redirect_uri" });
      const clientId = `client-${clients.size + 1}`;
      clients.set(clientId, { redirect_uris: metadata.redirect_uris });
      return json(201, { ...metadata, client_id: clientId, client_id_issued_at: 1_700_000_000 });
    }
    if (path === "/authorize" && request.method === "GET") {
      const q = url.searchParams;
      const client = clients.get(q.get("client_id") ?? "");
      const redirectUri = q.get("redirect_uri") ?? "";
      if (!client || !client.redirect_uris.includes(redirectUri)) {
        return json(400, { error: "invalid_client" });
      }
      if (q.get("code_challenge_method") !== "S256" || !q.get("code_challenge")) {
        return json(400, { error: "invalid_request" });
      }
      const code = `code-${crypto.randomUUID()}`;
      codes.set(code, {
        clientId: q.get("client_id")!,
        challenge: q.get("code_challenge")!,
        redirectUri,
        ...(q.get("scope") ? { scope: q.get("scope")! } : {}),
      });
      const target = new URL(redirectUri);
      target.searchParams.set("code", code);
      if (q.get("state")) target.searchParams.set("state", q.get("state")!);
      return new Response(null, { status: 302, headers: { location: target.href } });
    }
    if (path === "/token" && request.method === "POST") {
      const form = params as Record<string, string>;
      if (form.grant_type === "authorization_code") {
        const grant = codes.get(form.code);
        codes.delete(form.code);
        if (
          !grant || grant.clientId !== form.client_id || grant.redirectUri !== form.redirect_uri ||
          grant.challenge !== await s256(form.code_verifier ?? "")
        ) {
          return json(400, { error: "invalid_grant", error_description: "Bad authorization code" });
        }
        return issue(grant.scope);
      }
      if (form.grant_type === "refresh_token") {
        if (!refreshTokens.delete(form.refresh_token)) {
          return json(400, { error: "invalid_grant", error_description: "Unknown refresh token" });
        }
        return issue(undefined);
      }
      return json(400, { error: "unsupported_grant_type" });
    }
    if (path === "/mcp") {
      const token = authorization?.startsWith("Bearer ") ? authorization.slice(7) : undefined;
      if (!token || !accessTokens.has(token)) {
        const error = token ? `error="invalid_token", ` : "";
        return new Response(JSON.stringify({ error: "invalid_token" }), {
          status: 401,
          headers: {
            "content-type": "application/json",
            "www-authenticate":
              `Bearer ${error}resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`,
          },
        });
      }
      const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      await createMcpServer(token, () => {
        if (!options.revokeAfterToolCall) return;
        accessTokens.clear();
        refreshTokens.clear();
      }).connect(transport);
      return await transport.handleRequest(request);
    }
    return new Response("not found", { status: 404 });
  };

  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, handler);
  origin = `http://127.0.0.1:${server.addr.port}`;
  return {
    url: `${origin}/mcp`,
    origin,
    requests,
    accessTokens: issued,
    async authorize(authorizationUrl) {
      const first = await fetch(authorizationUrl, { redirect: "manual" });
      await first.body?.cancel();
      const location = first.headers.get("location");
      if (first.status !== 302 || !location) throw new Error(`authorize answered ${first.status}`);
      const callback = await fetch(location.replace("//localhost:", "//127.0.0.1:"));
      return { status: callback.status, body: await callback.text() };
    },
    revokeAccessTokens: () => accessTokens.clear(),
    revokeAll: () => {
      accessTokens.clear();
      refreshTokens.clear();
    },
    close: () => server.shutdown(),
  };
}

if (import.meta.main) {
  const server = startOAuthMcpServer();
  console.log(`listening ${server.url}`);
}
