/**
 * AUTH-04 / CLI-1.6-AUTH: `pi auth login anthropic` end to end against the fake OAuth server — the
 * browser sign-in (URL printed and opened, callback received, credentials stored in 1.6.0's format),
 * the headless copy-code variant, then `auth check`, `print-bearer-token`, `print-api-key` and
 * `logout` on the stored login.
 */
import { join } from "node:path";
import { assert, assertEquals } from "../support/assert.ts";
import { startFakeOAuthServer } from "../support/fake_oauth_server.ts";
import { createLoginEnv, runPi, startLogin } from "../config/oauth/cli_login_harness.ts";

const PROMPT = "Complete login in your browser, or paste the authorization code / redirect URL here: ";

Deno.test("CLI-1.6-AUTH e2e pi auth login anthropic: browser sign-in stores the OAuth login; check, bearer token, logout", async () => {
  const server = startFakeOAuthServer({ expiresIn: 3600 });
  const env = await createLoginEnv({ PI_ANTHROPIC_OAUTH_URL: server.url });
  try {
    const login = startLogin(["auth", "login", "anthropic"], env);
    const [, url, redirect] = await login.waitFor(
      /Open this URL to sign in:\n {2}(\S+)\n[\s\S]*\((http:\/\/localhost:\d+\/callback)\): $/,
    );
    const page = await server.authorize(url);
    assertEquals(page.status, 200);
    const result = await login.done();
    const authPath = join(env.agentDir, "auth.json");
    assertEquals(result, {
      code: 0,
      stdout: "Open this URL to sign in:\n" +
        `  ${url}\n` +
        "Complete login in your browser. If the browser is on another machine, paste the final redirect URL here.\n" +
        'To use "Copy code login (headless)" instead, run "pi auth login anthropic --no-browser"\n' +
        `${PROMPT}(${redirect}): \n` +
        "Exchanging authorization code for tokens...\n" +
        `Logged in to Anthropic. Credentials saved to ${authPath}\n`,
      stderr: "",
    });
    assertEquals(await env.openedUrls(), [url]);
    const [access, refresh] = server.issuedTokens();
    const stored = JSON.parse(await Deno.readTextFile(authPath));
    assertEquals(Object.keys(stored), ["anthropic"]);
    assertEquals(stored.anthropic.type, "oauth");
    assertEquals([stored.anthropic.access, stored.anthropic.refresh], [access, refresh]);
    assertEquals(Object.keys(stored.anthropic).sort(), ["access", "expires", "refresh", "type"]);
    assert(stored.anthropic.expires > Date.now() + 50 * 60_000);
    assertEquals((await Deno.stat(authPath)).mode! & 0o777, 0o600);

    assertEquals(await runPi(["auth", "check", "--provider", "anthropic", "--json"], env), {
      code: 0,
      stdout: '{"status":"ready","provider":"anthropic","authType":"oauth"}\n',
      stderr: "",
    });
    assertEquals(await runPi(["auth", "print-bearer-token", "--provider", "anthropic"], env), {
      code: 0,
      stdout: `${access}\n`,
      stderr: "",
    });
    assertEquals(await runPi(["auth", "print-api-key", "--provider", "anthropic"], env), {
      code: 1,
      stdout: "",
      stderr: 'Error: Provider "anthropic" is configured with OAuth, not an API key\n',
    });
    // Asking for more lifetime than is left refreshes once, through the stored refresh token.
    const refreshed = await runPi([
      "auth",
      "print-bearer-token",
      "--provider",
      "anthropic",
      "--min-expiry",
      "2h",
    ], env);
    assertEquals(refreshed.code, 1, refreshed.stderr);
    assertEquals(server.tokenGrants("refresh_token").length, 1);
    assertEquals(server.tokenGrants("refresh_token")[0].params.refresh_token, refresh);
    assertEquals(refreshed.stderr, "Error: Failed to resolve credential\n");
    assertEquals(await runPi(["auth", "logout", "anthropic"], env), {
      code: 0,
      stdout: "Logged out of Anthropic.\n",
      stderr: "",
    });
    assertEquals(JSON.parse(await Deno.readTextFile(authPath)), {});
  } finally {
    await server.close();
    await env.cleanup();
  }
});

Deno.test("CLI-1.6-AUTH e2e pi auth login anthropic --no-browser: copy-code sign-in with the pasted code#state", async () => {
  const server = startFakeOAuthServer();
  const env = await createLoginEnv({ PI_ANTHROPIC_OAUTH_URL: server.url });
  try {
    const login = startLogin(["auth", "login", "anthropic", "--no-browser"], env);
    const [, url] = await login.waitFor(/Open this URL to sign in:\n {2}(\S+)\n[\s\S]*\(code#state\): $/);
    const reply = await fetch(url, { redirect: "manual" });
    await reply.body?.cancel();
    const location = new URL(reply.headers.get("location")!);
    assertEquals(location.origin + location.pathname, "https://platform.claude.com/oauth/code/callback");
    await login.type(`${location.searchParams.get("code")}#${location.searchParams.get("state")}`);
    const result = await login.done();
    assertEquals(result.code, 0, result.stderr);
    assertEquals(
      result.stdout,
      "Select Anthropic login method: Copy code login (headless)\n" +
        "Open this URL to sign in:\n" +
        `  ${url}\n` +
        "Complete login in your browser, then copy the code Anthropic shows and paste it here.\n" +
        "Paste the code Anthropic shows after you sign in: (code#state): " +
        "Exchanging authorization code for tokens...\n" +
        `Logged in to Anthropic. Credentials saved to ${join(env.agentDir, "auth.json")}\n`,
    );
    assertEquals(await env.openedUrls(), []);
    const stored = JSON.parse(await Deno.readTextFile(join(env.agentDir, "auth.json")));
    assertEquals(stored.anthropic.access, server.issuedTokens()[0]);
  } finally {
    await server.close();
    await env.cleanup();
  }
});

Deno.test("CLI-1.6-AUTH e2e pi auth login: cancelled by end of input, refused sign-in, usage errors", async () => {
  const server = startFakeOAuthServer({ denyAuthorize: true });
  const env = await createLoginEnv({ PI_ANTHROPIC_OAUTH_URL: server.url });
  try {
    const cancelled = startLogin(["auth", "login", "anthropic"], env);
    await cancelled.waitFor(/\(http:\/\/localhost:\d+\/callback\): $/);
    await cancelled.closeStdin();
    const end = await cancelled.done();
    assertEquals([end.code, end.stderr], [1, "Login cancelled.\n"]);

    const denied = startLogin(["auth", "login", "anthropic"], env);
    const [, url] = await denied.waitFor(/Open this URL to sign in:\n {2}(\S+)\n[\s\S]*\/callback\): $/);
    assertEquals((await server.authorize(url)).status, 400);
    const refused = await denied.done();
    assertEquals(
      [refused.code, refused.stderr],
      [1, "Failed to log in to Anthropic: Anthropic authorization failed: The user said no\n"],
    );
    assertEquals(
      await Deno.stat(join(env.agentDir, "auth.json")).then(
        async () => JSON.parse(await Deno.readTextFile(join(env.agentDir, "auth.json"))),
        () => ({}),
      ),
      {},
    );

    assertEquals(await runPi(["auth", "login"], env), {
      code: 1,
      stdout: "",
      stderr: "Usage: pi auth login <provider> [--api-key] [--no-browser]\n",
    });
    assertEquals(await runPi(["auth", "login", "anthropic", "--api-key", "--no-browser"], env), {
      code: 1,
      stdout: "",
      stderr: "--no-browser only applies to account sign-in; omit it with --api-key.\n",
    });
    assertEquals(await runPi(["auth", "login", "openai-codex", "--api-key"], env), {
      code: 1,
      stdout: "",
      stderr: "OpenAI Codex has no API key login. Omit --api-key to sign in.\n",
    });
    const unknown = await runPi(["auth", "login", "no-such-provider"], env);
    assertEquals(unknown.code, 1);
    assert(unknown.stderr.startsWith('Unknown provider "no-such-provider".\nProviders: '), unknown.stderr);
    assert(unknown.stderr.includes(", anthropic, "), unknown.stderr);
    assertEquals(await runPi(["auth", "logout", "no-such-provider"], env), {
      code: 1,
      stdout: "",
      stderr: 'Unknown provider "no-such-provider".\nStored credentials: none\n',
    });
  } finally {
    await server.close();
    await env.cleanup();
  }
});
