/**
 * AUTH-04 / CLI-1.6-AUTH: `pi auth login xai|kimi-coding|meta` end to end against the fake OAuth
 * server — the RFC 8628 device flows (pending, slow_down, then approved): the verification page and
 * code printed as pi 1.6.0's `pi auth login` prints them (its dist/cli/auth-login.js), the page handed
 * to the browser opener, the login stored in auth.json in 1.6.0's format, and `pi auth check` ready.
 */
import { join } from "node:path";
import { assert, assertEquals } from "../support/assert.ts";
import { startFakeOAuthServer } from "../support/fake_oauth_server.ts";
import { DEVICE_TOKENS, META_API_KEY, SCENARIOS } from "../fixtures/oauth/scenarios.ts";
import { createLoginEnv, runPi, startLogin } from "../config/oauth/cli_login_harness.ts";

interface DeviceCase {
  provider: string;
  fixture: string;
  /** The test origin variable of the flow. */
  variable: string;
  name: string;
  /** Lines the flow prints between "Waiting for authentication..." and the result. */
  progress: string[];
  access: string;
  refresh: string;
  /** Lifetime of the stored access token, ms (xAI counts five minutes early). */
  lifetime: number;
}

const CASES: DeviceCase[] = [
  {
    provider: "xai",
    fixture: "xai",
    variable: "PI_XAI_OAUTH_URL",
    name: "xAI",
    progress: [],
    access: DEVICE_TOKENS.access,
    refresh: DEVICE_TOKENS.refresh,
    lifetime: 55 * 60_000,
  },
  {
    provider: "kimi-coding",
    fixture: "kimi_coding",
    variable: "KIMI_CODE_OAUTH_HOST",
    name: "Kimi For Coding",
    progress: [],
    access: DEVICE_TOKENS.access,
    refresh: DEVICE_TOKENS.refresh,
    lifetime: 60 * 60_000,
  },
  {
    provider: "meta",
    fixture: "meta",
    variable: "PI_META_OAUTH_URL",
    name: "Meta",
    progress: ["Enabling Meta Model API access..."],
    // The identity token is kept as `refresh`; the minted Model API key (a day long) is the access.
    access: META_API_KEY,
    refresh: DEVICE_TOKENS.access,
    lifetime: 24 * 3600_000,
  },
];

for (const c of CASES) {
  Deno.test(`CLI-1.6-AUTH e2e pi auth login ${c.provider}: device code shown and opened, approved after pending/slow_down, login stored`, async () => {
    const server = startFakeOAuthServer();
    SCENARIOS[c.fixture].find((s) => s.name === "login")!.setup(server);
    const env = await createLoginEnv({ [c.variable]: server.url });
    try {
      const before = Date.now();
      const result = await startLogin(["auth", "login", c.provider], env).done();
      const after = Date.now();
      const authPath = join(env.agentDir, "auth.json");
      assertEquals(result, {
        code: 0,
        stdout: [
          "Open https://example.com/device?user_code=WXYZ-9876 and enter code: WXYZ-9876",
          "Waiting for authentication...",
          ...c.progress,
          `Logged in to ${c.name}. Credentials saved to ${authPath}`,
          "",
        ].join("\n"),
        stderr: "",
      });
      assertEquals(await env.openedUrls(), ["https://example.com/device?user_code=WXYZ-9876"]);
      const { expires, ...stored } = JSON.parse(await Deno.readTextFile(authPath))[c.provider];
      assertEquals(stored, { type: "oauth", access: c.access, refresh: c.refresh });
      assert(expires >= before + c.lifetime && expires <= after + c.lifetime, String(expires));
      // The device code went to the token endpoint until approved: pending, slow_down, granted.
      const polls = server.requests.filter((r) => r.params.device_code === "fake-device-code");
      assertEquals(polls.length, 3);
      assertEquals(await runPi(["auth", "check", "--provider", c.provider], env), {
        code: 0,
        stdout: "ready\n",
        stderr: "",
      });
    } finally {
      await server.close();
      await env.cleanup();
    }
  });

  Deno.test(`CLI-1.6-AUTH e2e pi auth login ${c.provider}: a denied device code fails with exit 1, nothing stored`, async () => {
    const server = startFakeOAuthServer();
    SCENARIOS[c.fixture].find((s) => s.name === "denied")!.setup(server);
    const env = await createLoginEnv({ [c.variable]: server.url });
    try {
      const result = await startLogin(["auth", "login", c.provider, "--no-browser"], env).done();
      assertEquals(result.code, 1);
      assert(result.stderr.startsWith(`Failed to log in to ${c.name}: `), result.stderr);
      assert(/denied/i.test(result.stderr), result.stderr);
      assertEquals(await env.openedUrls(), []);
      const auth = await Deno.readTextFile(join(env.agentDir, "auth.json")).catch(() => "{}");
      assertEquals(JSON.parse(auth)[c.provider], undefined);
    } finally {
      await server.close();
      await env.cleanup();
    }
  });
}
