/**
 * AUTH-04 / CLI-1.6-AUTH: `pi auth login openai-codex` end to end against the fake OAuth server —
 * the device-code sign-in (`--no-browser`) and the browser sign-in with its callback on port 1455;
 * the stored login carries the ChatGPT account id, as in 1.6.0.
 */
import { join } from "node:path";
import { assert, assertEquals } from "../support/assert.ts";
import { fakeJwt, startFakeOAuthServer } from "../support/fake_oauth_server.ts";
import { createLoginEnv, runPi, startLogin } from "../config/oauth/cli_login_harness.ts";

const accessToken = (n: number) =>
  fakeJwt({ "https://api.openai.com/auth": { chatgpt_account_id: `account-${n}` }, serial: n });

Deno.test("CLI-1.6-AUTH e2e pi auth login openai-codex --no-browser: device code shown, approved, login stored", async () => {
  const server = startFakeOAuthServer({ accessToken, deviceInterval: 1 });
  const env = await createLoginEnv({ PI_OPENAI_CODEX_OAUTH_URL: server.url });
  try {
    const login = startLogin(["auth", "login", "openai-codex", "--no-browser"], env);
    await login.waitFor(/Waiting for authentication\.\.\.\n$/);
    server.approveDevice();
    const result = await login.done();
    const authPath = join(env.agentDir, "auth.json");
    assertEquals(result, {
      code: 0,
      stdout: "Select OpenAI Codex login method: Device code login (headless)\n" +
        `Open ${server.url}/codex/device and enter code: ABCD-1234\n` +
        "Waiting for authentication...\n" +
        `Logged in to OpenAI Codex. Credentials saved to ${authPath}\n`,
      stderr: "",
    });
    assertEquals(await env.openedUrls(), []);
    const stored = JSON.parse(await Deno.readTextFile(authPath))["openai-codex"];
    assertEquals(Object.keys(stored).sort(), ["access", "accountId", "expires", "refresh", "type"]);
    assertEquals([stored.type, stored.accountId, stored.access], [
      "oauth",
      "account-1",
      server.issuedTokens()[0],
    ]);
    assertEquals(await runPi(["auth", "check", "--provider", "openai-codex"], env), {
      code: 0,
      stdout: "ready\n",
      stderr: "",
    });
    assertEquals(await runPi(["auth", "logout", "openai-codex"], env), {
      code: 0,
      stdout: "Logged out of OpenAI Codex.\n",
      stderr: "",
    });
  } finally {
    await server.close();
    await env.cleanup();
  }
});

Deno.test("CLI-1.6-AUTH e2e pi auth login openai-codex: browser sign-in through the callback on localhost:1455", async () => {
  const server = startFakeOAuthServer({ accessToken });
  const env = await createLoginEnv({ PI_OPENAI_CODEX_OAUTH_URL: server.url });
  try {
    const login = startLogin(["auth", "login", "openai-codex"], env);
    const [, url] = await login.waitFor(
      /Open this URL to sign in:\n {2}(\S+)\n[\s\S]*\(http:\/\/localhost:1455\/auth\/callback\): $/,
    );
    const page = await server.authorize(url);
    assert(page.body.includes("Signed in to OpenAI. You may now close this page."), page.body);
    const result = await login.done();
    assertEquals(result.code, 0, result.stderr);
    assertEquals(
      result.stdout,
      "Open this URL to sign in:\n" +
        `  ${url}\n` +
        "A browser window should open. Complete login to finish.\n" +
        'To use "Device code login (headless)" instead, run "pi auth login openai-codex --no-browser"\n' +
        "Complete login in your browser, or paste the authorization code / redirect URL here: " +
        "(http://localhost:1455/auth/callback): \n" +
        `Logged in to OpenAI Codex. Credentials saved to ${join(env.agentDir, "auth.json")}\n`,
    );
    assertEquals(await env.openedUrls(), [url]);
    const stored = JSON.parse(await Deno.readTextFile(join(env.agentDir, "auth.json")))["openai-codex"];
    assertEquals(stored.accountId, "account-1");
  } finally {
    await server.close();
    await env.cleanup();
  }
});
