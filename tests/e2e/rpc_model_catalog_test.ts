/**
 * CLI-15 in RPC mode with the catalog loaded per provider: `pi --mode rpc --provider … --model …`
 * starts on the providers that can match and loads the rest before the first command that lists,
 * sets or cycles models. Every answer must be the one a run that loaded the whole catalog at
 * start-up gives (one without `--model` that takes the same model from the settings' default), also
 * when models.json changes after start-up (pi 1.6.0 reads it once).
 */
import { join } from "node:path";
import { assert, assertEquals } from "../support/assert.ts";
import { childEnv, PI_MAIN } from "../modes/rpc/support.ts";
import { createAgentEnv, FAKE_MODEL_ID, FAKE_PROVIDERS } from "../support/agent_env.ts";
import { startFakeProvider } from "../support/fake_provider/mod.ts";
import { RpcClient } from "../../src/modes/rpc/rpc_client.ts";
import type { RpcResponse } from "../../src/modes/rpc/rpc_types.ts";

/** The responses to a fixed command sequence, with the session's path and id taken out. */
async function answers(flags: boolean): Promise<unknown[]> {
  const server = await startFakeProvider([]);
  const env = await createAgentEnv(server.url, {
    settings: flags
      ? {}
      : { defaultProvider: FAKE_PROVIDERS["anthropic-messages"], defaultModel: FAKE_MODEL_ID },
  });
  // A stored key makes the built-in anthropic models available too.
  await Deno.writeTextFile(
    join(env.agentDir, "auth.json"),
    JSON.stringify({ anthropic: { type: "api_key", key: "sk-test" } }),
  );
  const client = new RpcClient({
    cliPath: PI_MAIN,
    cwd: env.cwd,
    env: childEnv(env),
    ...(flags ? { provider: FAKE_PROVIDERS["anthropic-messages"], model: FAKE_MODEL_ID } : {}),
  });
  const out: unknown[] = [];
  const record = (response: RpcResponse) => {
    const { id: _id, ...rest } = response;
    const text = JSON.stringify(rest).replaceAll(server.url, "<server>")
      .replace(/"sessionFile":"[^"]*"/g, '"sessionFile":"<file>"').replace(/[0-9a-f-]{36}/g, "<uuid>");
    out.push(JSON.parse(text));
  };
  try {
    await client.start();
    record(await client.send({ type: "get_state" }));
    // Changed after start-up: neither run may show the new model.
    const path = join(env.agentDir, "models.json");
    const config = JSON.parse(await Deno.readTextFile(path));
    config.providers[FAKE_PROVIDERS["anthropic-messages"]].models.push({ id: "late-model" });
    await Deno.writeTextFile(path, JSON.stringify(config));
    record(await client.send({ type: "get_available_models" }));
    record(await client.send({ type: "set_model", provider: "anthropic", modelId: "claude-sonnet-4-5" }));
    record(await client.send({ type: "cycle_model" }));
    record(
      await client.send({
        type: "set_model",
        provider: "openrouter",
        modelId: "anthropic/claude-sonnet-4.5",
      }),
    );
    record(await client.send({ type: "get_state" }));
    assertEquals(await client.endInput(), 0);
  } finally {
    await client.stop();
    await server.close();
    await env.cleanup();
  }
  return out;
}

Deno.test("CLI-15 RPC --provider/--model: model list, set_model and cycle_model answer as with the whole catalog loaded at start", async () => {
  const scoped = await answers(true);
  const whole = await answers(false);
  assertEquals(scoped, whole);
  const models = (scoped[1] as { data: { models: { provider: string; id: string }[] } }).data.models;
  assert(
    models.some((m) => m.provider === "anthropic" && m.id === "claude-sonnet-4-5"),
    "anthropic models listed",
  );
  assert(!models.some((m) => m.id === "late-model"), "models.json as read at start-up");
  assertEquals((scoped[2] as { success: boolean }).success, true);
  assertEquals(
    (scoped[4] as { error?: string }).error,
    "Model not found: openrouter/anthropic/claude-sonnet-4.5",
  );
});
