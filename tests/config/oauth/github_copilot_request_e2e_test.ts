/**
 * AUTH-04 / PROV: a Copilot model called with a `pi auth login github-copilot` login — the request
 * carries the Copilot token as bearer key, the editor headers of the catalog and the per-request
 * `X-Initiator` / `Openai-Intent` headers (1.6.0's github-copilot-headers), against the fake provider.
 */
import { join } from "node:path";
import { assertEquals } from "../../support/assert.ts";
import { createAgentEnv } from "../../support/agent_env.ts";
import { startFakeProvider } from "../../support/fake_provider/server.ts";
import { spawnPi } from "../../support/spawn_pi.ts";
import { COPILOT_GITHUB_TOKEN, COPILOT_TOKEN } from "../../fixtures/oauth/scenarios.ts";

const MODEL = "gemini-3.8-flash"; // a Copilot model on the Chat Completions API

Deno.test("AUTH-04 github-copilot request: Copilot token as bearer key, editor and initiator headers", async () => {
  const provider = await startFakeProvider([{ content: [{ type: "text", text: "hi from copilot" }] }]);
  const env = await createAgentEnv(provider.url);
  try {
    // The catalog's Copilot host, and whatever host the login names, both lead to the fake provider.
    const modelsPath = join(env.agentDir, "models.json");
    const models = JSON.parse(await Deno.readTextFile(modelsPath));
    models.providers["github-copilot"] = { baseUrl: provider.url };
    await Deno.writeTextFile(modelsPath, JSON.stringify(models));
    const authPath = join(env.agentDir, "auth.json");
    await Deno.writeTextFile(
      authPath,
      JSON.stringify({
        "github-copilot": {
          type: "oauth",
          refresh: COPILOT_GITHUB_TOKEN,
          access: COPILOT_TOKEN,
          expires: Date.now() + 3600_000,
          availableModelIds: [MODEL],
        },
      }),
    );
    await Deno.chmod(authPath, 0o600);
    const result = await spawnPi(["-p", "--model", `github-copilot/${MODEL}`, "hello"], {
      env: { ...env.env, PI_GITHUB_COPILOT_OAUTH_URL: provider.url },
      cwd: env.cwd,
    });
    assertEquals([result.code, result.stdout, result.stderr], [0, "hi from copilot\n", ""]);
    assertEquals(provider.requests.length, 1);
    const { path, headers } = provider.requests[0];
    assertEquals(path, "/chat/completions");
    assertEquals({
      authorization: headers["authorization"],
      "user-agent": headers["user-agent"],
      "editor-version": headers["editor-version"],
      "editor-plugin-version": headers["editor-plugin-version"],
      "copilot-integration-id": headers["copilot-integration-id"],
      "x-initiator": headers["x-initiator"],
      "openai-intent": headers["openai-intent"],
      "copilot-vision-request": headers["copilot-vision-request"],
    }, {
      authorization: `Bearer ${COPILOT_TOKEN}`,
      "user-agent": "GitHubCopilotChat/0.35.0",
      "editor-version": "vscode/1.107.0",
      "editor-plugin-version": "copilot-chat/0.35.0",
      "copilot-integration-id": "vscode-chat",
      "x-initiator": "user",
      "openai-intent": "conversation-edits",
      "copilot-vision-request": undefined,
    });
  } finally {
    await provider.close();
    await env.cleanup();
  }
});
