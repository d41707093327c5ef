/**
 * AUTH-04 / CLI-1.6-AUTH: `pi auth login github-copilot` end to end against the fake OAuth server —
 * the enterprise question answered blank, the device code shown (and its page opened), the GitHub
 * token traded for a Copilot token, the account's models read and one enabled, and the login stored
 * in auth.json with the account's model list; no token on the terminal.
 */
import { join } from "node:path";
import { assert, assertEquals } from "../../support/assert.ts";
import { startFakeOAuthServer } from "../../support/fake_oauth_server.ts";
import { createLoginEnv, runPi, startLogin } from "./cli_login_harness.ts";
import {
  COPILOT_EXPIRES_AT,
  COPILOT_GITHUB_TOKEN,
  COPILOT_SCENARIOS,
  COPILOT_TOKEN,
} from "../../fixtures/oauth/scenarios.ts";

Deno.test("CLI-1.6-AUTH e2e pi auth login github-copilot: device code, Copilot token, login stored", async () => {
  const server = startFakeOAuthServer();
  COPILOT_SCENARIOS.find((s) => s.name === "login")!.setup(server);
  const env = await createLoginEnv({ PI_GITHUB_COPILOT_OAUTH_URL: server.url });
  try {
    const login = startLogin(["auth", "login", "github-copilot"], env);
    await login.waitFor(/GitHub Enterprise URL\/domain \(blank for github\.com\) \(company\.ghe\.com\): $/);
    await login.type("");
    const result = await login.done();
    const authPath = join(env.agentDir, "auth.json");
    assertEquals(result, {
      code: 0,
      // The typed (empty) answer is not echoed: stdin is a pipe.
      stdout: "GitHub Enterprise URL/domain (blank for github.com) (company.ghe.com): " +
        "Open https://github.com/login/device and enter code: ABCD-1234\n" +
        "Waiting for authentication...\n" +
        "Enabling models...\n" +
        `Logged in to GitHub Copilot. Credentials saved to ${authPath}\n`,
      stderr: "",
    });
    assertEquals(await env.openedUrls(), ["https://github.com/login/device"]);
    const stored = JSON.parse(await Deno.readTextFile(authPath))["github-copilot"];
    assertEquals(stored, {
      type: "oauth",
      refresh: COPILOT_GITHUB_TOKEN,
      access: COPILOT_TOKEN,
      expires: COPILOT_EXPIRES_AT * 1000 - 5 * 60 * 1000,
      availableModelIds: ["claude-haiku-4.5", "claude-fable-5", "not-in-catalog"],
    });
    assert(!result.stdout.includes("gho_") && !result.stdout.includes("tid="));
    assertEquals(
      server.requests.map((r) => `${r.method} ${r.path}`),
      [
        "POST /login/device/code",
        "POST /login/oauth/access_token",
        "POST /login/oauth/access_token",
        "POST /login/oauth/access_token",
        "GET /copilot_internal/v2/token",
        "GET /models",
        "POST /models/claude-fable-5/policy",
      ],
    );
    assertEquals(await runPi(["auth", "logout", "github-copilot"], env), {
      code: 0,
      stdout: "Logged out of GitHub Copilot.\n",
      stderr: "",
    });
  } finally {
    await server.close();
    await env.cleanup();
  }
});
