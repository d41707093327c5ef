/**
 * MCP OAuth (issue 14): `pi mcp login|logout|list` and sessions against a real OAuth-protected MCP
 * server (tests/support/oauth_mcp_server.ts: RFC 9728 resource metadata, RFC 8414 metadata, dynamic
 * client registration, PKCE, rotating refresh tokens). The browser is played by the test: a fake
 * `xdg-open` records the URL pi opens and the test follows it to pi's loopback callback. Texts,
 * the requests pi sends to the authorization server and the `mcp-auth.json` layout were captured from
 * pi 1.6.0 against the same server (its dist/extensions/mcp/cli.js and oauth.js, pi-mcp's oauth/*);
 * the session runs are compared with 1.6.0 live.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "../support/assert.ts";
import { createLoginEnv, type LoginEnv, runPi, startLogin } from "../config/oauth/cli_login_harness.ts";
import { type OAuthMcpServer, startOAuthMcpServer } from "../support/oauth_mcp_server.ts";
import { runMcp } from "./mcp_harness.ts";

const SIGN_IN = /Sign in to MCP server "srv" in your browser:\n(\S+)\n/;

async function withServer(
  run: (server: OAuthMcpServer, env: LoginEnv) => Promise<void>,
  config: (server: OAuthMcpServer) => Record<string, unknown> = (server) => ({ srv: { url: server.url } }),
): Promise<void> {
  const server = startOAuthMcpServer();
  const env = await createLoginEnv();
  try {
    await Deno.writeTextFile(join(env.agentDir, "mcp.json"), JSON.stringify({ mcpServers: config(server) }));
    await run(server, env);
  } finally {
    await server.close();
    await env.cleanup();
  }
}

async function authFile(env: LoginEnv): Promise<Record<string, Record<string, unknown>>> {
  return JSON.parse(await Deno.readTextFile(join(env.agentDir, "mcp-auth.json")));
}

/** Signs in through the browser; resolves with the authorization URL and the callback page. */
async function login(server: OAuthMcpServer, env: LoginEnv) {
  const running = startLogin(["mcp", "login", "srv"], env);
  await running.closeStdin();
  const [, url] = await running.waitFor(SIGN_IN);
  const page = await server.authorize(url);
  const result = await running.done();
  return { url, page, result };
}

Deno.test("MCP-OAUTH-01 pi mcp login: discovery, registration, PKCE, browser, loopback callback; mcp-auth.json in 1.6.0's layout (0600)", async () => {
  await withServer(async (server, env) => {
    const origin = server.origin;
    // Without tokens the server's 401 means "sign in", as 1.6.0 lists it.
    assertEquals(await runPi(["mcp", "list"], env), {
      code: 1,
      stdout: `srv: needs sign-in (codemode, global)\n  ${server.url}\n  sign in with: pi mcp login srv\n`,
      stderr: "",
    });
    const listed = JSON.parse((await runPi(["mcp", "list", "--json"], env)).stdout);
    assertEquals(listed.servers[0].state, "needs-auth");
    assertEquals(await runPi(["mcp", "logout", "srv"], env), {
      code: 0,
      stdout: 'No stored credentials for MCP server "srv".\n',
      stderr: "",
    });
    // A connection never starts discovery or registration on its own.
    assertEquals(server.requests.map((r) => r.path), ["/mcp", "/mcp"]);

    const { url, page, result } = await login(server, env);
    const authorize = new URL(url);
    const redirect = authorize.searchParams.get("redirect_uri")!;
    assertMatch(redirect, /^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    assertEquals(result, {
      code: 0,
      stdout:
        `Sign in to MCP server "srv" in your browser:\n${url}\nSigned in to MCP server "srv" (1 tools).\n`,
      stderr: "",
    });
    assertEquals(await env.openedUrls(), [url]);
    assertEquals(page.status, 200);
    assert(page.body.includes("Signed in to the MCP server. You may now close this page."), page.body);
    // The authorization request, as 1.6.0 builds it.
    const state = authorize.searchParams.get("state")!;
    assertMatch(state, /^[0-9a-f]{64}$/);
    assertEquals([...authorize.searchParams.keys()], [
      "response_type",
      "client_id",
      "code_challenge",
      "code_challenge_method",
      "redirect_uri",
      "state",
      "resource",
    ]);
    assertEquals(authorize.searchParams.get("resource"), server.url);
    // The requests to the authorization server, in 1.6.0's order and with its bodies.
    const oauth = server.requests.filter((r) => r.path !== "/mcp");
    assertEquals(oauth.map((r) => `${r.method} ${r.path}`), [
      "GET /.well-known/oauth-protected-resource/mcp",
      "GET /.well-known/oauth-authorization-server",
      "POST /register",
      "GET /authorize",
      "POST /token",
    ]);
    assertEquals(oauth[2].params, {
      client_name: "pi",
      redirect_uris: [redirect],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
      application_type: "native",
    });
    const { code_verifier: verifier, ...exchange } = oauth[4].params as Record<string, string>;
    assertEquals(exchange, {
      grant_type: "authorization_code",
      code: exchange.code,
      redirect_uri: redirect,
      resource: server.url,
      client_id: "client-1",
    });

    const path = join(env.agentDir, "mcp-auth.json");
    assertEquals(Deno.statSync(path).mode! & 0o777, 0o600);
    const text = await Deno.readTextFile(path);
    assert(text.endsWith("}\n"));
    const stored = JSON.parse(text);
    const entry = stored[`mcp__srv|${server.url}`];
    const expiresAt = entry.tokensExpireAt;
    assert(Math.abs(expiresAt - (Date.now() + 3_600_000)) < 60_000, String(expiresAt));
    const expected = {
      serverUrl: server.url,
      discovery: {
        authorizationServerUrl: origin,
        authorizationServerMetadata: {
          issuer: origin,
          authorization_endpoint: `${origin}/authorize`,
          token_endpoint: `${origin}/token`,
          registration_endpoint: `${origin}/register`,
          response_types_supported: ["code"],
          grant_types_supported: ["authorization_code", "refresh_token"],
          code_challenge_methods_supported: ["S256"],
          token_endpoint_auth_methods_supported: ["none"],
        },
        resourceMetadata: { resource: server.url, authorization_servers: [origin] },
        resourceMetadataUrl: `${origin}/.well-known/oauth-protected-resource/mcp`,
      },
      clientInformation: {
        client_name: "pi",
        redirect_uris: [redirect],
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        token_endpoint_auth_method: "none",
        application_type: "native",
        client_id: "client-1",
        client_id_issued_at: 1700000000,
      },
      oauthState: state,
      codeVerifier: verifier,
      tokens: {
        access_token: server.accessTokens[0],
        token_type: "Bearer",
        expires_in: 3600,
        refresh_token: server.accessTokens[0].replace("access", "refresh"),
      },
      tokensExpireAt: expiresAt,
    };
    // Same keys in the same order as 1.6.0 writes them.
    assertEquals(text, `${JSON.stringify({ [`mcp__srv|${server.url}`]: expected }, null, 2)}\n`);

    assertEquals(await runPi(["mcp", "list"], env), {
      code: 0,
      stdout: `srv: connected, 1 tool (codemode, global)\n  ${server.url}\n  tools: whoami\n`,
      stderr: "",
    });
    assertEquals(await runPi(["mcp", "login", "srv"], env), {
      code: 0,
      stdout: 'Already signed in to MCP server "srv" (1 tools).\n',
      stderr: "",
    });
  });
});

Deno.test("MCP-OAUTH-02 a rejected access token is refreshed (rotation saved), a rejected refresh token means sign in again; pi mcp logout", async () => {
  await withServer(async (server, env) => {
    assertEquals((await login(server, env)).result.code, 0);
    const key = `mcp__srv|${server.url}`;
    server.revokeAccessTokens();
    assertEquals((await runPi(["mcp", "list"], env)).code, 0);
    const refreshed = (await authFile(env))[key];
    // 1.6.0 keeps the refresh token it sent in front of the new answer.
    assertEquals(refreshed.tokens, {
      refresh_token: server.accessTokens[1].replace("access", "refresh"),
      access_token: server.accessTokens[1],
      token_type: "Bearer",
      expires_in: 3600,
    });
    const refreshes = server.requests.filter((r) => r.path === "/token").slice(1);
    assertEquals(refreshes.map((r) => r.params), [{
      grant_type: "refresh_token",
      refresh_token: server.accessTokens[0].replace("access", "refresh"),
      resource: server.url,
      client_id: "client-1",
    }]);

    server.revokeAll();
    assertEquals(await runPi(["mcp", "list"], env), {
      code: 1,
      stdout: `srv: needs sign-in (codemode, global)\n  ${server.url}\n  sign in with: pi mcp login srv\n`,
      stderr: "",
    });
    // The refused grant is forgotten; the client registration stays for the next sign-in.
    const after = (await authFile(env))[key];
    assertEquals(Object.keys(after), [
      "serverUrl",
      "discovery",
      "clientInformation",
      "oauthState",
      "codeVerifier",
    ]);

    assertEquals(await runPi(["mcp", "logout", "srv"], env), {
      code: 0,
      stdout: 'Signed out of MCP server "srv".\n',
      stderr: "",
    });
    assertEquals(await Deno.readTextFile(join(env.agentDir, "mcp-auth.json")), "{}\n");
  });
});

Deno.test("MCP-OAUTH-03 pi mcp login/logout refusals and a sign-in nobody completes (1.6.0's texts)", async () => {
  await withServer(async (_server, env) => {
    assertEquals(await runPi(["mcp", "login", "sr"], env), {
      code: 1,
      stdout: "",
      stderr: 'No MCP server named "sr". Did you mean "srv"? Configured: srv, keyed, local.\n',
    });
    assertEquals(await runPi(["mcp", "logout", "keyed"], env), {
      code: 1,
      stdout: "",
      stderr:
        'MCP server "keyed" does not use OAuth. Only HTTP servers without an Authorization header do.\n',
    });
    assertEquals(await runPi(["mcp", "login", "local"], env), {
      code: 1,
      stdout: "",
      stderr:
        'MCP server "local" does not use OAuth. Only HTTP servers without an Authorization header do.\n',
    });
    assertEquals(
      (await runPi(["mcp", "login", "srv", "--local"], env)).stderr.split(" is defined in")[0],
      'MCP server "srv"',
    );
    assertEquals(await runPi(["mcp", "login", "srv", "--timeout", "0"], env), {
      code: 1,
      stdout: "",
      stderr: "--timeout must be a positive number of seconds.\n",
    });
    const result = await runPi(["mcp", "login", "srv", "--timeout", "2"], env);
    assertEquals(result.code, 1);
    assertMatch(result.stdout, SIGN_IN);
    assertEquals(
      result.stderr,
      'Sign-in to MCP server "srv" was cancelled or not completed within 2 seconds.\n',
    );
  }, (server) => ({
    srv: { url: server.url },
    keyed: { url: server.url, headers: { Authorization: "Bearer x" } },
    local: { command: "true" },
  }));
});

Deno.test("MCP-OAUTH-04 sessions: expired tokens are refreshed before use; a token refused mid-session gives 1.6.0's sign-in message (compared with 1.6.0)", async () => {
  const results: unknown[][] = [];
  for (const reference of [false, true]) {
    const server = startOAuthMcpServer({ revokeAfterToolCall: true });
    try {
      // Signed in earlier; the access token has expired since.
      const register = await fetch(`${server.origin}/register`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ redirect_uris: ["http://127.0.0.1:1/callback"] }),
      });
      const client = await register.json();
      const authorizeUrl = new URL(`${server.origin}/authorize`);
      const verifier = "v".repeat(43);
      const challenge = btoa(String.fromCharCode(
        ...new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier))),
      )).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
      for (
        const [k, v] of Object.entries({
          client_id: client.client_id,
          redirect_uri: "http://127.0.0.1:1/callback",
          code_challenge: challenge,
          code_challenge_method: "S256",
        })
      ) authorizeUrl.searchParams.set(k, v);
      const redirect = await fetch(authorizeUrl, { redirect: "manual" });
      const code = new URL(redirect.headers.get("location")!).searchParams.get("code")!;
      const tokens = await (await fetch(`${server.origin}/token`, {
        method: "POST",
        body: new URLSearchParams({
          grant_type: "authorization_code",
          code,
          code_verifier: verifier,
          redirect_uri: "http://127.0.0.1:1/callback",
          client_id: client.client_id,
        }),
      })).json();
      const state = {
        [`mcp__srv|${server.url}`]: {
          serverUrl: server.url,
          clientInformation: client,
          tokens,
          tokensExpireAt: Date.now() - 1000,
        },
      };
      const run = await runMcp({
        reference,
        globalConfig: { mcpServers: { srv: { url: server.url, exposure: "direct" } } },
        prepare: (cwd) =>
          Deno.writeTextFile(join(cwd, "..", "agent", "mcp-auth.json"), JSON.stringify(state)),
        args: ["--mode", "json"],
        turns: [
          { content: [{ type: "toolCall", id: "c1", name: "mcp__srv__whoami", arguments: {} }] },
          { content: [{ type: "toolCall", id: "c2", name: "mcp__srv__whoami", arguments: {} }] },
          { content: [{ type: "text", text: "done" }] },
        ],
      });
      assertEquals(run.result.code, 0, run.stderr);
      const ends = run.jsonLines.filter((line) => (line as { type: string }).type === "tool_execution_end");
      results.push(ends.map((line) => (line as { result: unknown; isError: boolean })));
    } finally {
      await server.close();
    }
  }
  const [ours, ref] = results as { result: { content: { text: string }[] }; isError: boolean }[][];
  // The expired token (access-1) was refreshed before the connection used it (access-2).
  assertEquals(ours.map((end) => [end.result.content[0].text, end.isError]), [
    ["signed in with access-2", false],
    ['MCP server "srv" requires sign-in. Run /mcp to sign in.', true],
  ]);
  assertEquals(ours, ref);
});
