/**
 * CLI-15 with the catalog loaded per provider: a one-shot run that names `provider/id` loads only the
 * providers that can match, and must resolve `--model` exactly as the whole catalog does — a built-in
 * provider redirected by models.json, another provider's `provider/id`-shaped ids (openrouter,
 * vercel-ai-gateway, huggingface), fuzzy text and unknown providers.
 */
import { join } from "node:path";
import { createAgentEnv } from "../support/agent_env.ts";
import { assertEquals } from "../support/assert.ts";
import { startFakeProvider } from "../support/fake_provider/mod.ts";
import { spawnPi } from "../support/spawn_pi.ts";

async function run(args: string[]) {
  const server = await startFakeProvider([{ content: [{ type: "text", text: "ok" }] }]);
  const agentEnv = await createAgentEnv(server.url);
  try {
    const result = await spawnPi(["-p", ...args, "hi"], { env: agentEnv.env, cwd: agentEnv.cwd });
    return { ...result, requests: server.requests };
  } finally {
    await server.close();
    await agentEnv.cleanup();
  }
}

Deno.test("CLI-15 -p --model anthropic/<id> with anthropic redirected in models.json sends the catalog id there", async () => {
  const server = await startFakeProvider([{ content: [{ type: "text", text: "ok" }] }]);
  const agentEnv = await createAgentEnv(server.url);
  try {
    const path = join(agentEnv.agentDir, "models.json");
    const config = JSON.parse(await Deno.readTextFile(path));
    config.providers.anthropic = { baseUrl: server.url };
    await Deno.writeTextFile(path, JSON.stringify(config));
    const result = await spawnPi(["-p", "--model", "anthropic/claude-sonnet-4-5", "hi"], {
      env: { ...agentEnv.env, ANTHROPIC_API_KEY: "test-key" },
      cwd: agentEnv.cwd,
    });
    assertEquals([result.code, result.stdout, result.stderr], [0, "ok\n", ""]);
    assertEquals((server.requests[0].body as { model: string }).model, "claude-sonnet-4-5");
  } finally {
    await server.close();
    await agentEnv.cleanup();
  }
});

Deno.test("CLI-15 -p --model provider/id that is another provider's id is ambiguous across all of them", async () => {
  const slashId = await run(["--model", "anthropic/claude-sonnet-4.5"]);
  assertEquals(slashId.code, 1);
  assertEquals(
    slashId.stderr,
    'Error: Model "anthropic/claude-sonnet-4.5" is ambiguous across providers: ' +
      "openrouter/anthropic/claude-sonnet-4.5, vercel-ai-gateway/anthropic/claude-sonnet-4.5. " +
      "No matching provider is authenticated. Use --provider or provider/model.\n",
  );
  const caseInsensitive = await run(["--model", "meta-llama/llama-3.3-70b-instruct"]);
  assertEquals(
    caseInsensitive.stderr,
    'Error: Model "meta-llama/llama-3.3-70b-instruct" is ambiguous across providers: ' +
      "huggingface/meta-llama/Llama-3.3-70B-Instruct, openrouter/meta-llama/llama-3.3-70b-instruct. " +
      "No matching provider is authenticated. Use --provider or provider/model.\n",
  );
});

Deno.test("CLI-15 -p: fuzzy provider/text still resolves; unknown providers and ids are errors", async () => {
  const fuzzy = await run(["--model", "fake-anthropic/test"]);
  assertEquals([fuzzy.code, fuzzy.stdout], [0, "ok\n"]);
  const unknownProvider = await run(["--provider", "bogus", "--model", "x"]);
  assertEquals(
    [unknownProvider.code, unknownProvider.stderr],
    [1, 'Error: Unknown provider "bogus". Use --list-models to see available providers/models.\n'],
  );
  const unknownId = await run(["--model", "nope/x"]);
  assertEquals(
    [unknownId.code, unknownId.stderr],
    [1, 'Error: Model "nope/x" not found. Use --list-models to see available models.\n'],
  );
});
