/**
 * AUTH-04 OpenAI Codex (ChatGPT Plus/Pro) login against the fake OAuth server: the browser flow on
 * port 1455, the device-code flow, the account id taken from the access token, and refresh.
 */
import { assert, assertEquals, assertRejects, assertStringIncludes } from "../../support/assert.ts";
import { fakeJwt, startFakeOAuthServer } from "../../support/fake_oauth_server.ts";
import { codexAccountId, createOpenAICodexOAuth } from "../../../src/config/oauth/openai_codex.ts";
import { pkceChallenge } from "../../../src/config/oauth/pkce.ts";
import type {
  OAuthAuthInfo,
  OAuthDeviceCodeInfo,
  OAuthLoginCallbacks,
} from "../../../src/config/oauth_registry.ts";

const CLAIM = "https://api.openai.com/auth";
const accessToken = (n: number) => fakeJwt({ [CLAIM]: { chatgpt_account_id: `acct-${n}` }, n });

function ui(method: string) {
  const shown: OAuthAuthInfo[] = [];
  const devices: OAuthDeviceCodeInfo[] = [];
  const cb: OAuthLoginCallbacks = {
    onAuth: (info) => shown.push(info),
    onPrompt: () => Promise.reject(new Error("unused")),
    onSelect: () => Promise.resolve(method),
    onDeviceCode: (info) => devices.push(info),
    onManualCodeInput: (signal) =>
      new Promise((_, reject) => signal?.addEventListener("abort", () => reject(new Error("closed")))),
  };
  return { cb, shown, devices };
}

async function until<T>(get: () => T | undefined, what: string): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const value = get();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what} did not happen within 10 s`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

Deno.test("AUTH-04 openai-codex browser login: 1.6.0's authorize URL, callback on 1455, accountId from the JWT", async () => {
  const server = startFakeOAuthServer({ accessToken });
  try {
    const provider = createOpenAICodexOAuth({ origin: server.url });
    assertEquals([provider.id, provider.name], ["openai-codex", "OpenAI (ChatGPT Plus/Pro)"]);
    const view = ui("browser");
    const login = provider.login(view.cb);
    const url = await until(() => view.shown[0]?.url, "the authorize URL");
    const q = Object.fromEntries(new URL(url).searchParams);
    assertEquals(q.redirect_uri, "http://localhost:1455/auth/callback");
    assertEquals(q.client_id, "app_EMoamEEZ73f0CkXaXp7hrann");
    assertEquals(q.scope, "openid profile email offline_access");
    assertEquals(
      [q.id_token_add_organizations, q.codex_cli_simplified_flow, q.originator, q.code_challenge_method],
      ["true", "true", "pi", "S256"],
    );
    assert(/^[0-9a-f]{32}$/.test(q.state), q.state);
    assertEquals(view.shown[0].instructions, "A browser window should open. Complete login to finish.");
    const page = await server.authorize(url);
    assertStringIncludes(page.body, "Signed in to OpenAI. You may now close this page.");
    const creds = await login;
    assertEquals(creds.accountId, "acct-1");
    assertEquals(Object.keys(creds).sort(), ["access", "accountId", "expires", "refresh"]);
    const [exchange] = server.tokenGrants("authorization_code");
    assertEquals(exchange.headers["content-type"], "application/x-www-form-urlencoded");
    assertEquals(exchange.params.redirect_uri, "http://localhost:1455/auth/callback");
    assertEquals(await pkceChallenge(exchange.params.code_verifier), q.code_challenge);
  } finally {
    await server.close();
  }
});

Deno.test("AUTH-04 openai-codex device login: code shown, pending polls, then the device grant is exchanged", async () => {
  const server = startFakeOAuthServer({ accessToken, deviceInterval: 1 });
  try {
    const provider = createOpenAICodexOAuth({ origin: server.url });
    const view = ui("device_code");
    const login = provider.login(view.cb);
    const device = await until(() => view.devices[0], "the device code");
    assertEquals(device, {
      userCode: "ABCD-1234",
      verificationUri: `${server.url}/codex/device`,
      intervalSeconds: 1,
      expiresInSeconds: 900,
    });
    await until(
      () => server.requests.some((r) => r.path === "/api/accounts/deviceauth/token") || undefined,
      "a device poll",
    );
    server.approveDevice();
    const creds = await login;
    assertEquals(creds.accountId, "acct-1");
    const [usercode] = server.requests.filter((r) => r.path === "/api/accounts/deviceauth/usercode");
    assertEquals(usercode.params, { client_id: "app_EMoamEEZ73f0CkXaXp7hrann" });
    const [exchange] = server.tokenGrants("authorization_code");
    assertEquals(exchange.params.redirect_uri, "https://auth.openai.com/deviceauth/callback");
    assertEquals(exchange.params.code_verifier, "fake-verifier");
  } finally {
    await server.close();
  }
});

Deno.test("AUTH-04 openai-codex: device login off (404), token without account, refresh and its failure", async () => {
  const server = startFakeOAuthServer({ accessToken, initialRefreshToken: "seed-refresh" });
  // A token endpoint whose access token is no JWT.
  const plainServer = startFakeOAuthServer({ initialRefreshToken: "r" });
  try {
    const provider = createOpenAICodexOAuth({ origin: server.url });
    const fresh = await provider.refreshToken({ access: "a", refresh: "seed-refresh", expires: 0 });
    assertEquals(fresh.accountId, "acct-1");
    assertEquals(server.tokenGrants("refresh_token")[0].params, {
      grant_type: "refresh_token",
      refresh_token: "seed-refresh",
      client_id: "app_EMoamEEZ73f0CkXaXp7hrann",
    });
    const stale = await assertRejects(() =>
      provider.refreshToken({ access: "a", refresh: "seed-refresh", expires: 0 })
    );
    assertEquals(
      stale.message,
      "OpenAI Codex token refresh failed: HTTP 400 (invalid_grant: refresh token is not current)",
    );
    server.route("POST", "/api/accounts/deviceauth/usercode", () => new Response("", { status: 404 }));
    await assertRejects(
      () => provider.login(ui("device_code").cb),
      "OpenAI Codex device code login is not enabled for this server. Use browser login or verify the server URL.",
    );
    const plain = createOpenAICodexOAuth({ origin: plainServer.url });
    await assertRejects(
      () => plain.refreshToken({ access: "a", refresh: "r", expires: 0 }),
      "Failed to extract accountId from token",
    );
    assertEquals(codexAccountId("not.a.jwt"), null);
  } finally {
    await server.close();
    await plainServer.close();
  }
});
