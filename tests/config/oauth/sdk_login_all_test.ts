/**
 * AUTH-04 SDK: `ModelRuntime.login(provider, "oauth", interaction)` (pi 1.6.0's SDK login; 1.6.0 has
 * no RPC login) for each of the nine account sign-ins, against one fake OAuth server per provider,
 * then one request with the stored login to the fake provider: the access token (or the key the
 * login minted) is what the request carries.
 *
 * The flows read their test origins from the environment, which a test must not change, so the SDK
 * side runs in a child process: this same file, run as a script (`import.meta.main`), logs in with
 * an interaction that plays the browser (opens the authorization URL on the fake server and follows
 * its redirect to the flow's loopback server), answers a method choice with the first option (the
 * browser sign-in), leaves pasted-code prompts open and blank text prompts empty; device codes are
 * approved by the fake servers' scripted polls.
 *
 * Radius's models speak 1.6.0's "pi-messages" API: its request goes to the fake gateway path
 * (`<server>/radius/v1/messages`) with the login's access token as bearer.
 *
 * @module
 */
import { join } from "node:path";
import { assertEquals } from "../../support/assert.ts";
import { fakeJwt, type FakeOAuthServer, startFakeOAuthServer } from "../../support/fake_oauth_server.ts";
import { startFakeProvider } from "../../support/fake_provider/server.ts";
import {
  COPILOT_TOKEN,
  DEVICE_TOKENS,
  META_API_KEY,
  openAuthorizeUrl,
  OPENROUTER_KEY,
  SCENARIOS,
} from "../../fixtures/oauth/scenarios.ts";

/** Per provider: the test origin variable, the scenario that sets up its routes, the key a request carries. */
interface ProviderCase {
  variable: string;
  fixture?: string;
  scenario?: string;
  /** The request's key, from what the fake OAuth server issued. */
  key: (server: FakeOAuthServer) => string;
}

/** Claude subscription tokens are recognised by their prefix (pi-ai's `sk-ant-oat` check). */
const anthropicAccess = (n: number) => `sk-ant-oat01-fake-${n}`;
const codexAccess = (n: number) =>
  fakeJwt({ "https://api.openai.com/auth": { chatgpt_account_id: `account-${n}` }, serial: n });

const CASES: Record<string, ProviderCase> = {
  anthropic: { variable: "PI_ANTHROPIC_OAUTH_URL", key: (s) => s.issuedTokens()[0] },
  "openai-codex": { variable: "PI_OPENAI_CODEX_OAUTH_URL", key: (s) => s.issuedTokens()[0] },
  "github-copilot": {
    variable: "PI_GITHUB_COPILOT_OAUTH_URL",
    fixture: "github_copilot",
    scenario: "login",
    key: () => COPILOT_TOKEN,
  },
  openai: {
    variable: "PI_OPENAI_OAUTH_URL",
    fixture: "openai_chatgpt",
    scenario: "login-callback",
    key: () => "fake-chatgpt-access",
  },
  openrouter: {
    variable: "PI_OPENROUTER_OAUTH_URL",
    fixture: "openrouter",
    scenario: "login-callback",
    key: () => OPENROUTER_KEY,
  },
  xai: { variable: "PI_XAI_OAUTH_URL", fixture: "xai", scenario: "login", key: () => DEVICE_TOKENS.access },
  "kimi-coding": {
    variable: "KIMI_CODE_OAUTH_HOST",
    fixture: "kimi_coding",
    scenario: "login",
    key: () => DEVICE_TOKENS.access,
  },
  meta: { variable: "PI_META_OAUTH_URL", fixture: "meta", scenario: "login", key: () => META_API_KEY },
  radius: {
    variable: "PI_RADIUS_OAUTH_URL",
    fixture: "radius",
    scenario: "browser",
    key: () => DEVICE_TOKENS.access,
  },
};

/** What the child reports per provider. */
interface ChildReport {
  provider: string;
  credentialType?: string;
  error?: string;
  events: string[];
  prompts: string[];
  stopReason?: string;
  model?: string;
}

// ── the SDK side (child process) ─────────────────────────────────────────────────────────────────

async function runAsChild(): Promise<void> {
  const { ModelRuntime } = await import("../../../mod.ts");
  const [authPath, modelsPath, ...providers] = Deno.args;
  const runtime = await ModelRuntime.create({ authPath, modelsPath });
  for (const provider of providers) {
    const origin = Deno.env.get(CASES[provider].variable)!;
    const report: ChildReport = { provider, events: [], prompts: [] };
    try {
      const credential = await runtime.login(provider, "oauth", {
        notify: (event) => {
          report.events.push(event.type);
          // Plays the browser; openAuthorizeUrl only needs the server's origin.
          if (event.type === "auth_url") {
            void openAuthorizeUrl({ url: origin } as FakeOAuthServer, event.url, true);
          }
        },
        prompt: (prompt) => {
          report.prompts.push(prompt.type);
          if (prompt.type === "select") return Promise.resolve(prompt.options[0].id);
          if (prompt.type === "manual_code") {
            return new Promise((_, reject) =>
              prompt.signal?.addEventListener("abort", () => reject(new Error("closed")))
            );
          }
          return Promise.resolve("");
        },
      }, { getDeviceId: () => "0f8fad5b-d9cb-469f-a165-70867728950e" });
      report.credentialType = credential.type;
      const model = runtime.getModels(provider)[0];
      const reply = await runtime.complete(model, {
        messages: [{ role: "user", content: "hello", timestamp: 0 }],
      });
      report.stopReason = reply.stopReason;
      if (reply.errorMessage) report.error = `request: ${reply.errorMessage}`;
      report.model = `${model.api} ${model.baseUrl}`;
    } catch (error) {
      report.error = error instanceof Error ? error.message : String(error);
    }
    console.log(JSON.stringify(report));
  }
  await runtime.settleCredentialWrites();
}

if (import.meta.main) await runAsChild();

// ── the test ─────────────────────────────────────────────────────────────────────────────────────

Deno.test("AUTH-04 SDK ModelRuntime.login for all nine account sign-ins, then a request carries the stored login", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pi-sdk-login-all-" });
  const provider = await startFakeProvider(
    Object.keys(CASES).map(() => ({ content: [{ type: "text" as const, text: "hi" }] })),
  );
  const servers = new Map<string, FakeOAuthServer>();
  try {
    const env: Record<string, string> = {
      HOME: dir,
      PATH: "",
      PI_CODING_AGENT_DIR: dir,
      PI_OPENAI_OAUTH_CALLBACK_PORT: "0",
    };
    const providers: Record<string, { baseUrl: string }> = {};
    for (const [id, c] of Object.entries(CASES)) {
      const server = startFakeOAuthServer(
        id === "openai-codex"
          ? { accessToken: codexAccess }
          : id === "anthropic"
          ? { accessToken: anthropicAccess }
          : {},
      );
      if (c.fixture) SCENARIOS[c.fixture].find((s) => s.name === c.scenario)!.setup(server);
      // The Copilot API host follows the login's origin variable too: pass its requests on.
      if (id === "github-copilot") {
        server.route("POST", "/v1/messages", (request) =>
          fetch(`${provider.url}/v1/messages`, {
            method: "POST",
            headers: { ...request.headers, host: new URL(provider.url).host },
            body: request.body,
          }));
      }
      servers.set(id, server);
      env[c.variable] = server.url;
      providers[id] = { baseUrl: id === "radius" ? `${provider.url}/radius/v1` : provider.url };
    }
    const authPath = join(dir, "auth.json");
    const modelsPath = join(dir, "models.json");
    await Deno.writeTextFile(modelsPath, JSON.stringify({ providers }));
    const output = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        "--no-prompt",
        "--quiet",
        new URL(import.meta.url).pathname,
        authPath,
        modelsPath,
        ...Object.keys(CASES),
      ],
      env,
      clearEnv: true,
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stdout = new TextDecoder().decode(output.stdout);
    const stderr = new TextDecoder().decode(output.stderr);
    assertEquals(output.code, 0, stderr);
    const reports: ChildReport[] = stdout.trim().split("\n").map((line) => JSON.parse(line));
    assertEquals(
      reports.map((r) => [r.provider, r.credentialType, r.error]),
      Object.keys(CASES).map((id) => [id, "oauth", undefined]),
    );
    // How each flow talked to the SDK's interaction.
    assertEquals(Object.fromEntries(reports.map((r) => [r.provider, [r.events, r.prompts]])), {
      anthropic: [["auth_url", "progress"], ["select", "manual_code"]],
      "openai-codex": [["auth_url"], ["select", "manual_code"]],
      "github-copilot": [["device_code", "progress"], ["text"]],
      openai: [["auth_url", "progress"], ["manual_code"]],
      openrouter: [["progress", "auth_url"], ["manual_code"]],
      xai: [["device_code"], []],
      "kimi-coding": [["device_code"], []],
      meta: [["device_code", "progress"], []],
      radius: [["progress", "auth_url"], ["select"]],
    });
    const stored = JSON.parse(await Deno.readTextFile(authPath));
    assertEquals(Object.keys(stored).sort(), Object.keys(CASES).sort());
    // The request of each login carries its token or key: as a bearer, or as Anthropic's x-api-key
    // where 1.6.0 sends a plain key (OpenRouter's key on the Messages API).
    const sent = provider.requests.map((r) =>
      r.headers["authorization"] ?? `x-api-key ${r.headers["x-api-key"]}`
    );
    const expected = Object.entries(CASES).map(([id, c]) => {
      const key = c.key(servers.get(id)!);
      return id === "openrouter" ? `x-api-key ${key}` : `Bearer ${key}`;
    });
    assertEquals(sent, expected);
    // Copilot's request went through its OAuth server (which passed it on), with the Copilot token.
    const copilot = servers.get("github-copilot")!.requests.filter((r) => r.path === "/v1/messages");
    assertEquals(copilot.map((r) => r.headers["authorization"]), [`Bearer ${COPILOT_TOKEN}`]);
    assertEquals(stored.anthropic.access, "sk-ant-oat01-fake-1");
    assertEquals(stored.meta.access, META_API_KEY);
    assertEquals(stored.radius.access, DEVICE_TOKENS.access);
    assertEquals(stderr, "");
  } finally {
    for (const server of servers.values()) await server.close();
    await provider.close();
    await Deno.remove(dir, { recursive: true });
  }
});
