/**
 * A program using the SDK with a Codex model (WebSocket transport, the default) ends as soon as
 * it disposes its session: the socket kept for the session is closed by `session.dispose()`
 * (src/ai/session_resources.ts), not left open until its 5-minute idle timer.
 */
import { join } from "node:path";
import { assert, assertEquals } from "../support/assert.ts";
import { createAgentEnv } from "../support/agent_env.ts";
import { startFakeProvider } from "../support/fake_provider/mod.ts";
import { CODEX_TOKEN, TEXT_TURN } from "./codex_support.ts";

const ROOT = new URL("../../", import.meta.url).pathname.replace(/\/$/, "");

Deno.test("PROV-02 an SDK session with a Codex model closes its kept WebSocket on dispose, so the program ends", async () => {
  const server = await startFakeProvider([TEXT_TURN]);
  const env = await createAgentEnv(server.url);
  try {
    await Deno.writeTextFile(
      join(env.agentDir, "models.json"),
      JSON.stringify({
        providers: {
          "codex-fake": {
            baseUrl: `${server.url}/backend-api`,
            api: "openai-codex-responses",
            apiKey: CODEX_TOKEN,
            models: [{
              id: "gpt-5.6-sol",
              reasoning: true,
              input: ["text"],
              contextWindow: 272000,
              maxTokens: 128000,
            }],
          },
        },
      }),
    );
    const script = join(env.root, "codex_sdk.ts");
    await Deno.writeTextFile(
      script,
      `import { createAgentSession, ModelRuntime, SessionManager, SettingsManager } from ${
        JSON.stringify(`file://${ROOT}/mod.ts`)
      };
const agentDir = Deno.env.get("PI_CODING_AGENT_DIR")!;
const modelRuntime = await ModelRuntime.create({ authPath: agentDir + "/auth.json", modelsPath: agentDir + "/models.json" });
const model = modelRuntime.getModel("codex-fake", "gpt-5.6-sol");
if (!model) throw new Error("no model");
const { session } = await createAgentSession({
  cwd: Deno.cwd(),
  agentDir,
  modelRuntime,
  settingsManager: SettingsManager.create(Deno.cwd(), agentDir),
  sessionManager: SessionManager.inMemory(Deno.cwd()),
  model,
});
await session.prompt("say hello");
session.dispose();
console.log("disposed");
`,
    );
    const started = Date.now();
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "--allow-all", "--no-prompt", "--config", `${ROOT}/deno.json`, script],
      cwd: env.cwd,
      env: env.env,
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    // Without the cleanup the idle socket keeps the program up for 5 minutes.
    const killer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    const out = await child.output().finally(() => clearTimeout(killer));
    const stderr = new TextDecoder().decode(out.stderr);
    assertEquals([out.code, new TextDecoder().decode(out.stdout)], [0, "disposed\n"], stderr);
    assert(Date.now() - started < 60_000, "the program ended on its own");
    assertEquals(server.requests.map((r) => [r.method, (r.body as { type?: string }).type]), [[
      "WS",
      "response.create",
    ]]);
  } finally {
    await server.close();
    await env.cleanup();
  }
});
