/**
 * AUTH-04 Anthropic (Claude Pro/Max) login against the fake OAuth server: the browser flow with the
 * loopback callback, the copy-code flow, a pasted redirect URL, refresh with rotation, and errors
 * that never quote a token.
 */
import {
  assert,
  assertEquals,
  assertMatch,
  assertRejects,
  assertStringIncludes,
} from "../../support/assert.ts";
import { startFakeOAuthServer } from "../../support/fake_oauth_server.ts";
import { createAnthropicOAuth } from "../../../src/config/oauth/anthropic.ts";
import { pkceChallenge } from "../../../src/config/oauth/pkce.ts";
import type { OAuthAuthInfo, OAuthLoginCallbacks } from "../../../src/config/oauth_registry.ts";

const SCOPES =
  "org:create_api_key user:profile user:inference user:sessions:claude_code user:mcp_servers user:file_upload";

/** Callbacks that pick `method`, record what the flow shows, and answer the manual prompt with `paste`. */
function callbacks(method: string, paste?: (auth: OAuthAuthInfo) => Promise<string>) {
  const shown: OAuthAuthInfo[] = [];
  const progress: string[] = [];
  const selects: string[] = [];
  let abortedPrompt = false;
  const cb: OAuthLoginCallbacks = {
    onAuth: (info) => shown.push(info),
    onPrompt: () => Promise.reject(new Error("onPrompt is not used")),
    onProgress: (message) => progress.push(message),
    onSelect: (prompt) => {
      selects.push(`${prompt.message} ${prompt.options.map((o) => `${o.id}=${o.label}`).join(", ")}`);
      return Promise.resolve(method);
    },
    onManualCodeInput: (signal) =>
      paste ? paste(shown[0]) : new Promise((_, reject) =>
        signal?.addEventListener("abort", () => {
          abortedPrompt = true;
          reject(new Error("closed"));
        })
      ),
  };
  return { cb, shown, progress, selects, abortedPrompt: () => abortedPrompt };
}

Deno.test("AUTH-04 anthropic browser login: callback on localhost, PKCE S256, code exchanged, tokens stored shape", async () => {
  const server = startFakeOAuthServer({ expiresIn: 3600 });
  try {
    const provider = createAnthropicOAuth({ origin: server.url });
    assertEquals([provider.id, provider.name], ["anthropic", "Anthropic (Claude Pro/Max)"]);
    const ui = callbacks("browser");
    const login = provider.login(ui.cb);
    const url = await waitForUrl(ui.shown);
    const authorize = new URL(url);
    assertEquals(authorize.origin + authorize.pathname, `${server.url}/oauth/authorize`);
    const q = Object.fromEntries(authorize.searchParams);
    assertEquals(q.code, "true");
    assertEquals(q.client_id, "9d1c250a-e61b-44d9-88ed-5944d1962f5e");
    assertEquals(q.response_type, "code");
    assertEquals(q.scope, SCOPES);
    assertEquals(q.code_challenge_method, "S256");
    assertMatch(q.redirect_uri, /^http:\/\/localhost:\d+\/callback$/);
    assertEquals(
      ui.shown[0].instructions,
      "Complete login in your browser. If the browser is on another machine, paste the final redirect URL here.",
    );
    const page = await server.authorize(url);
    assertEquals(page.status, 200);
    assertStringIncludes(page.body, "Signed in to Anthropic. You may now close this page.");
    const before = Date.now();
    const creds = await login;
    assert(ui.abortedPrompt(), "the manual prompt is closed when the callback wins");
    const [exchange] = server.tokenGrants("authorization_code");
    assertEquals(exchange.headers["content-type"], "application/json");
    assertEquals(exchange.params.client_id, q.client_id);
    assertEquals(exchange.params.redirect_uri, q.redirect_uri);
    assertEquals(exchange.params.state, q.state);
    // 1.6.0 uses the verifier as the state.
    assertEquals(exchange.params.code_verifier, q.state);
    assertEquals(await pkceChallenge(exchange.params.code_verifier), q.code_challenge);
    assertEquals(Object.keys(creds).sort(), ["access", "expires", "refresh"]);
    assertEquals([creds.access, creds.refresh], server.issuedTokens());
    // expires_in minus five minutes.
    const expected = before + 3600_000 - 300_000;
    assert(Math.abs(creds.expires - expected) < 5000, `expires ${creds.expires - before}`);
    assertEquals(ui.progress, ["Exchanging authorization code for tokens..."]);
    assertEquals(ui.selects, [
      "Select Anthropic login method: browser=Browser login (default), copy_code=Copy code login (headless)",
    ]);
    assertEquals(provider.getApiKey(creds), creds.access);
  } finally {
    await server.close();
  }
});

Deno.test("AUTH-04 anthropic browser login: a pasted redirect URL wins; a foreign state is refused", async () => {
  const server = startFakeOAuthServer();
  try {
    const provider = createAnthropicOAuth({ origin: server.url });
    const pasteRedirect = async (auth: OAuthAuthInfo) => {
      const reply = await fetch(auth.url, { redirect: "manual" });
      await reply.body?.cancel();
      return reply.headers.get("location")!;
    };
    const ui = callbacks("browser", pasteRedirect);
    const creds = await provider.login(ui.cb);
    assertEquals(creds.access, server.issuedTokens()[0]);
    const foreign = callbacks(
      "browser",
      async (auth) => (await pasteRedirect(auth)).replace(/state=[^&]+/, "state=other"),
    );
    await assertRejects(() => provider.login(foreign.cb), "OAuth state mismatch");
    const empty = callbacks("browser", () => Promise.resolve("   "));
    await assertRejects(() => provider.login(empty.cb), "Missing authorization code");
  } finally {
    await server.close();
  }
});

Deno.test("AUTH-04 anthropic copy-code login: code#state pasted, exchanged with Anthropic's code page as redirect", async () => {
  const server = startFakeOAuthServer();
  try {
    const provider = createAnthropicOAuth({ origin: server.url });
    const ui = callbacks("copy_code", async (auth) => {
      const reply = await fetch(auth.url, { redirect: "manual" });
      await reply.body?.cancel();
      const location = new URL(reply.headers.get("location")!);
      return `${location.searchParams.get("code")}#${location.searchParams.get("state")}`;
    });
    const creds = await provider.login(ui.cb);
    assertEquals(creds.refresh, server.issuedTokens()[1]);
    assertEquals(
      new URL(ui.shown[0].url).searchParams.get("redirect_uri"),
      "https://platform.claude.com/oauth/code/callback",
    );
    assertEquals(
      ui.shown[0].instructions,
      "Complete login in your browser, then copy the code Anthropic shows and paste it here.",
    );
    assertEquals(
      server.tokenGrants("authorization_code")[0].params.redirect_uri,
      "https://platform.claude.com/oauth/code/callback",
    );
  } finally {
    await server.close();
  }
});

Deno.test("AUTH-04 anthropic refresh rotates the refresh token; a stale one fails without quoting tokens", async () => {
  const server = startFakeOAuthServer({ initialRefreshToken: "seed-refresh-token" });
  try {
    const provider = createAnthropicOAuth({ origin: server.url });
    const old = { access: "seed-access-token", refresh: "seed-refresh-token", expires: 0 };
    const fresh = await provider.refreshToken(old);
    assertEquals([fresh.access, fresh.refresh], server.issuedTokens());
    const [grant] = server.tokenGrants("refresh_token");
    assertEquals(grant.params, {
      grant_type: "refresh_token",
      client_id: "9d1c250a-e61b-44d9-88ed-5944d1962f5e",
      refresh_token: "seed-refresh-token",
    });
    const error = await assertRejects(() => provider.refreshToken(old));
    assertEquals(
      error.message,
      "Anthropic token refresh failed: HTTP 400 (invalid_grant: refresh token is not current)",
    );
    server.route(
      "POST",
      "/v1/oauth/token",
      () => new Response("<html>seed-refresh-token</html>", { status: 200 }),
    );
    const garbled = await assertRejects(() => provider.refreshToken(fresh));
    assertEquals(garbled.message, "Anthropic token refresh reply is not a JSON object");
  } finally {
    await server.close();
  }
});

Deno.test("AUTH-04 anthropic login: denied authorization ends the login with the provider's words", async () => {
  const server = startFakeOAuthServer({ denyAuthorize: true });
  try {
    const provider = createAnthropicOAuth({ origin: server.url });
    const ui = callbacks("browser");
    const login = provider.login(ui.cb);
    login.catch(() => {});
    const page = await server.authorize(await waitForUrl(ui.shown));
    assertEquals(page.status, 400);
    await assertRejects(() => login, "Anthropic authorization failed: The user said no");
    await assertRejects(() => provider.login(callbacks("other").cb), "Unknown Anthropic login method: other");
  } finally {
    await server.close();
  }
});

async function waitForUrl(shown: OAuthAuthInfo[]): Promise<string> {
  const deadline = Date.now() + 10_000;
  while (shown.length === 0) {
    if (Date.now() > deadline) throw new Error("the flow showed no URL within 10 s");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return shown[0].url;
}
