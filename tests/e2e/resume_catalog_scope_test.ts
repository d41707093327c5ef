/**
 * CLI-15 and issue 12 (SES-08): `pi -c -p hi` without `--model` loads only the built-in provider of
 * the model the session restores (src/cli/catalog_scope.ts). The session's model must still be
 * restored and sent, as with the whole catalog: here a built-in model (anthropic's) whose provider
 * models.json redirects to the fake server.
 */
import { join } from "node:path";
import { assertEquals } from "../support/assert.ts";
import { createAgentEnv } from "../support/agent_env.ts";
import { startFakeProvider } from "../support/fake_provider/mod.ts";
import { spawnPi } from "../support/spawn_pi.ts";
import { encodeCwd } from "../../src/session/paths.ts";

Deno.test("CLI-15 -c -p hi without --model restores the session's built-in model and sends it", async () => {
  const server = await startFakeProvider([{ content: [{ type: "text", text: "ok" }] }]);
  const agentEnv = await createAgentEnv(server.url);
  try {
    const modelsPath = join(agentEnv.agentDir, "models.json");
    const config = JSON.parse(await Deno.readTextFile(modelsPath));
    config.providers.anthropic = { baseUrl: server.url };
    await Deno.writeTextFile(modelsPath, JSON.stringify(config));
    const dir = join(agentEnv.agentDir, "sessions", encodeCwd(agentEnv.cwd));
    await Deno.mkdir(dir, { recursive: true });
    const lines = [
      {
        type: "session",
        version: 3,
        id: "019ad000-0000-7000-8000-0000000000a1",
        timestamp: "2026-01-01T00:00:00.000Z",
        cwd: agentEnv.cwd,
      },
      {
        type: "model_change",
        id: "a0000001",
        parentId: null,
        timestamp: "2026-01-01T00:00:01.000Z",
        provider: "anthropic",
        modelId: "claude-sonnet-4-5",
      },
      {
        type: "message",
        id: "a0000002",
        parentId: "a0000001",
        timestamp: "2026-01-01T00:00:02.000Z",
        message: { role: "user", content: [{ type: "text", text: "earlier" }], timestamp: 1767225602000 },
      },
    ];
    await Deno.writeTextFile(
      join(dir, "2026-01-01T00-00-00-000Z_019ad000-0000-7000-8000-0000000000a1.jsonl"),
      lines.map((l) => JSON.stringify(l)).join("\n") + "\n",
    );
    const result = await spawnPi(["-c", "-p", "hi"], {
      env: { ...agentEnv.env, ANTHROPIC_API_KEY: "test-key" },
      cwd: agentEnv.cwd,
    });
    assertEquals([result.code, result.stdout, result.stderr], [0, "ok\n", ""]);
    const body = server.requests[0].body as { model: string; messages: { role: string }[] };
    assertEquals([body.model, body.messages.map((m) => m.role)], ["claude-sonnet-4-5", ["user", "user"]]);
  } finally {
    await server.close();
    await agentEnv.cleanup();
  }
});
