/**
 * The built-in llama.cpp extension costs a start-up nothing unless a router is configured: `pi -p`
 * without `LLAMA_BASE_URL` or a stored credential compiles none of its modules; with one, only what
 * reads the cached models (`provider.ts`, `catalog.ts`, `client.ts`, `server_url.ts`), never `/llama`,
 * `/login`, the progress view or the Hugging Face client. Read from V8's script log, as
 * tests/extensions/lazy_load_test.ts does.
 */
import { assertEquals } from "../../../support/assert.ts";
import { createAgentEnv } from "../../../support/agent_env.ts";
import { startFakeLlamaServer } from "../../../support/fake_llama_server.ts";
import { startFakeProvider } from "../../../support/fake_provider/mod.ts";
import { runWithScriptLog, scriptsUnder } from "../../../support/v8_script_log.ts";

const LLAMA_DIR = new URL("../../../../src/extensions/builtin/llama_cpp/", import.meta.url).href;

/** Runs `pi args` with V8's script log; the llama_cpp modules it compiled and its output. */
async function llamaModulesLoaded(args: string[], env: Record<string, string>, cwd: string) {
  const run = await runWithScriptLog(args, { env, cwd });
  return { modules: scriptsUnder(run.scripts, LLAMA_DIR), code: run.code, stdout: run.stdout };
}

Deno.test("LLAMA-CPP-14 pi -p loads none of the llama.cpp extension without a router; with one, only what reads the cached models", async () => {
  const server = await startFakeLlamaServer({ models: [{ id: "qwen3-0.6b", status: "loaded" }] });
  const text = { content: [{ type: "text" as const, text: "Hello." }] };
  const provider = await startFakeProvider([text, text]);
  const agent = await createAgentEnv(provider.url);
  try {
    const model = ["--model", "fake-openai/test-model", "-p", "hi"];
    const without = await llamaModulesLoaded(model, agent.env, agent.cwd);
    assertEquals([without.code, without.stdout, without.modules], [0, "Hello.\n", []]);
    const configured = await llamaModulesLoaded(
      model,
      { ...agent.env, LLAMA_BASE_URL: server.url },
      agent.cwd,
    );
    assertEquals([configured.code, configured.stdout], [0, "Hello.\n"]);
    assertEquals(configured.modules, ["catalog.ts", "client.ts", "provider.ts", "server_url.ts"]);
  } finally {
    await agent.cleanup();
    await server.close();
    await provider.close();
  }
});
