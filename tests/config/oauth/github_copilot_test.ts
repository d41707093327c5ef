/**
 * GitHub Copilot login (AUTH-04): the device flow end to end against the fake OAuth server (pending,
 * slow_down, expiry, denial, abort, enterprise domains), the Copilot token exchange and refresh, the
 * account's model list and policy enabling — each request, event, credential and error equal to what
 * pi-ai 1.6.0's flow does in the same scenario (tests/fixtures/oauth/github_copilot.json, captured by
 * scripts/capture/oauth_flows.ts) — and the models adjusted to the account.
 */
import { assert, assertEquals } from "../../support/assert.ts";
import { COPILOT_EXPIRES_AT, COPILOT_SCENARIOS, COPILOT_TOKEN } from "../../fixtures/oauth/scenarios.ts";
import {
  getGitHubCopilotBaseUrl,
  githubCopilotOAuth,
  normalizeGitHubDomain,
} from "../../../src/config/oauth/github_copilot.ts";
import type { Model } from "../../../src/ai/types.ts";
import { startFakeOAuthServer } from "../../support/fake_oauth_server.ts";
import { runFlow, testAgainstFixture } from "../../fixtures/oauth/flow_harness.ts";

/** Our prompt also says blank is fine (`allowEmpty`, a field 1.6.0's prompt type does not have). */
function withoutAllowEmpty<T>(captured: T): T {
  return JSON.parse(JSON.stringify(captured, (key, value) => key === "allowEmpty" ? undefined : value));
}

testAgainstFixture("AUTH-04 github-copilot", "github_copilot", COPILOT_SCENARIOS, withoutAllowEmpty);

Deno.test("AUTH-04 github-copilot login: stored credentials, and no token in any event or error", async () => {
  const server = startFakeOAuthServer();
  try {
    const login = COPILOT_SCENARIOS.find((s) => s.name === "login")!;
    login.setup(server);
    const run = await runFlow("ours", login.input, server, login.drive(server));
    assertEquals(run.error, undefined);
    assertEquals(run.credentials, {
      refresh: "gho_fakeGithubToken0001",
      access: COPILOT_TOKEN,
      expires: COPILOT_EXPIRES_AT * 1000 - 5 * 60 * 1000,
      availableModelIds: ["claude-haiku-4.5", "claude-fable-5", "not-in-catalog"],
    });
    const visible = JSON.stringify(run.events.filter((e) => e.event !== "result")) + run.stderr;
    assert(!visible.includes("gho_fake"), visible);
    assert(!visible.includes("tid=fake"), visible);
    // The user is shown the code and the page, through onDeviceCode.
    assertEquals(run.events.find((e) => e.event === "device_code"), {
      event: "device_code",
      userCode: "ABCD-1234",
      verificationUri: "https://github.com/login/device",
      intervalSeconds: 1,
      expiresInSeconds: 900,
    });
  } finally {
    await server.close();
  }
});

function model(id: string, provider = "github-copilot"): Model {
  return {
    id,
    name: id,
    api: "openai-completions",
    provider,
    baseUrl: "https://api.individual.githubcopilot.com",
    reasoning: false,
    input: ["text"],
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    contextWindow: 1000,
    maxTokens: 100,
  };
}

Deno.test("AUTH-04 github-copilot modifyModels: the account's API host, only the models it lists", () => {
  const models = [model("gpt-x"), model("claude-y"), model("gpt-x", "openai")];
  const credentials = {
    refresh: "r",
    access: "tid=1;proxy-ep=proxy.business.githubcopilot.com;",
    expires: 0,
    availableModelIds: ["gpt-x"],
  };
  const adjusted = githubCopilotOAuth.modifyModels!(models, credentials);
  assertEquals(adjusted.map((m) => [m.provider, m.id, m.baseUrl]), [
    ["github-copilot", "gpt-x", "https://api.business.githubcopilot.com"],
    ["openai", "gpt-x", "https://api.individual.githubcopilot.com"],
  ]);
  // Credentials from before the model list existed keep every model.
  const all = githubCopilotOAuth.modifyModels!(models, { refresh: "r", access: "tid=1;", expires: 0 });
  assertEquals(all.map((m) => m.baseUrl), [
    "https://api.individual.githubcopilot.com",
    "https://api.individual.githubcopilot.com",
    "https://api.individual.githubcopilot.com",
  ]);
  const enterprise = githubCopilotOAuth.modifyModels!([model("a")], {
    refresh: "r",
    access: "tid=1;",
    expires: 0,
    enterpriseUrl: "company.ghe.com",
  });
  assertEquals(enterprise[0].baseUrl, "https://copilot-api.company.ghe.com");
  assertEquals(githubCopilotOAuth.getApiKey(credentials), credentials.access);
});

Deno.test("AUTH-04 github-copilot: base URL from the token, enterprise domains from URLs", () => {
  assertEquals(
    getGitHubCopilotBaseUrl("a=1;proxy-ep=proxy.enterprise.githubcopilot.com"),
    "https://api.enterprise.githubcopilot.com",
  );
  assertEquals(getGitHubCopilotBaseUrl("a=1", "ghe.example"), "https://copilot-api.ghe.example");
  assertEquals(getGitHubCopilotBaseUrl(undefined), "https://api.individual.githubcopilot.com");
  assertEquals(normalizeGitHubDomain(" https://company.ghe.com/path "), "company.ghe.com");
  assertEquals(normalizeGitHubDomain("company.ghe.com"), "company.ghe.com");
  assertEquals(normalizeGitHubDomain("   "), null);
  assertEquals(normalizeGitHubDomain("https://exa mple.com"), null);
});

Deno.test("AUTH-04 github-copilot: a stored login gives the runtime's Copilot models the account's host and list", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const authPath = `${dir}/auth.json`;
    await Deno.writeTextFile(
      authPath,
      JSON.stringify({
        "github-copilot": {
          type: "oauth",
          refresh: "r",
          access: "tid=1;proxy-ep=proxy.business.githubcopilot.com;",
          expires: 4102444800000,
          availableModelIds: ["gemini-3.8-flash", "claude-haiku-4.5"],
        },
      }),
    );
    await Deno.chmod(authPath, 0o600);
    const { ModelRuntime } = await import("../../../src/config/model_runtime.ts");
    const runtime = await ModelRuntime.create({
      authPath,
      modelsPath: null,
      builtinProviders: ["github-copilot"],
    });
    const copilot = runtime.modelRegistry.getAll().filter((m) => m.provider === "github-copilot");
    assertEquals(copilot.map((m) => [m.id, m.baseUrl]).sort(), [
      ["claude-haiku-4.5", "https://api.business.githubcopilot.com"],
      ["gemini-3.8-flash", "https://api.business.githubcopilot.com"],
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
