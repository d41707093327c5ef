/**
 * ModelRuntime and readStoredCredential, pi 1.6.0's SDK names for models and credentials
 * (SDK-1.6): the model list with models.json, availability, request auth resolution (runtime key,
 * auth.json, models.json), streaming through the runtime against the fake provider, logout, and
 * the one-off auth.json read that resolves nothing.
 */
import { join } from "node:path";
import { assert, assertEquals, assertStringIncludes } from "../support/assert.ts";
import { createAgentEnv, FAKE_MODEL_ID } from "../support/agent_env.ts";
import { startFakeProvider } from "../support/fake_provider/mod.ts";
import { CredentialSynchronizationError, ModelRuntime } from "../../src/config/model_runtime.ts";
import { readStoredCredential } from "../../src/config/stored_credential.ts";

async function withEnv(fn: (dirs: { agentDir: string; url: string }) => Promise<void>, turns = 0) {
  const server = await startFakeProvider(
    Array.from({ length: turns }, () => ({ content: [{ type: "text" as const, text: "streamed" }] })),
  );
  const env = await createAgentEnv(server.url);
  try {
    await fn({ agentDir: env.agentDir, url: server.url });
  } finally {
    await server.close();
    await env.cleanup();
  }
}

function paths(agentDir: string) {
  return { authPath: join(agentDir, "auth.json"), modelsPath: join(agentDir, "models.json") };
}

Deno.test("SDK-1.6 ModelRuntime lists built-in and models.json models, finds one, and knows which are usable", async () => {
  await withEnv(async ({ agentDir }) => {
    const runtime = await ModelRuntime.create(paths(agentDir));
    const model = runtime.getModel("fake-openai", FAKE_MODEL_ID);
    assertEquals([model?.provider, model?.id, model?.api], [
      "fake-openai",
      "test-model",
      "openai-completions",
    ]);
    assertEquals(runtime.getModels("fake-google").map((m) => m.id), ["test-model"]);
    assert(runtime.getModels().some((m) => m.provider === "anthropic"), "built-in models are listed");
    // models.json gives the fake providers a key; the built-ins have none in this environment.
    const available = (await runtime.getAvailable()).map((m) => `${m.provider}/${m.id}`);
    assertEquals(available.filter((id) => id.startsWith("fake-")).sort(), [
      "fake-anthropic/test-model",
      "fake-google/test-model",
      "fake-openai/test-model",
      "fake-responses/test-model",
    ]);
    assertEquals(runtime.getAvailableSnapshot().length, available.length);
    assertEquals(runtime.hasConfiguredAuth("fake-anthropic"), true);
    assertEquals(runtime.hasConfiguredAuth("no-such-provider"), false);
    assertEquals(runtime.getError(), undefined);
  });
});

Deno.test("SDK-1.6 ModelRuntime.create({ modelsPath: null }) reads no models.json; a broken one is named by getError", async () => {
  await withEnv(async ({ agentDir }) => {
    const builtInsOnly = await ModelRuntime.create({ ...paths(agentDir), modelsPath: null });
    assertEquals(builtInsOnly.getModel("fake-anthropic", FAKE_MODEL_ID), undefined);
    assert(builtInsOnly.getModel("anthropic", "claude-sonnet-4-5"), "built-ins stay");

    const broken = join(agentDir, "broken-models.json");
    await Deno.writeTextFile(broken, '{ "providers": { ');
    const runtime = await ModelRuntime.create({ ...paths(agentDir), modelsPath: broken });
    assertStringIncludes(runtime.getError() ?? "", broken);
    assert(runtime.getModel("anthropic", "claude-sonnet-4-5"), "built-ins stay usable");
  });
});

Deno.test("SDK-1.6 ModelRuntime.getAuth: models.json's key, a runtime key before it, undefined without credentials", async () => {
  await withEnv(async ({ agentDir }) => {
    const runtime = await ModelRuntime.create(paths(agentDir));
    const model = runtime.getModel("fake-anthropic", FAKE_MODEL_ID)!;
    assertEquals(await runtime.getAuth(model), { auth: { apiKey: "test-key" } });
    assertEquals(await runtime.getAuth("no-such-provider"), undefined);
    assertEquals(runtime.getProviderAuthStatus("fake-anthropic"), {
      configured: true,
      source: "models_json_key",
    });

    await runtime.setRuntimeApiKey("fake-anthropic", "sk-runtime");
    assertEquals((await runtime.getAuth(model))?.auth.apiKey, "sk-runtime");
    assertEquals((await runtime.getAuth("fake-anthropic"))?.auth.apiKey, "sk-runtime");
    assertEquals(runtime.getProviderAuthStatus("fake-anthropic"), { configured: true, source: "runtime" });
    await runtime.removeRuntimeApiKey("fake-anthropic");
    assertEquals((await runtime.getAuth(model))?.auth.apiKey, "test-key");
    assertEquals((await runtime.getAuth(model, { apiKey: "sk-override" }))?.auth.apiKey, "sk-override");
  });
});

Deno.test("SDK-1.6 ModelRuntime.completeSimple authenticates the request; a key command that fails ends the stream with an error", async () => {
  await withEnv(async ({ agentDir }) => {
    const runtime = await ModelRuntime.create(paths(agentDir));
    const model = runtime.getModel("fake-anthropic", FAKE_MODEL_ID)!;
    const reply = await runtime.completeSimple(model, {
      messages: [{ role: "user", content: "hi", timestamp: 0 }],
    });
    assertEquals(reply.stopReason, "stop");
    assertEquals(reply.content, [{ type: "text", text: "streamed" }]);

    runtime.registerProvider("fake-anthropic", { apiKey: "!exit 3" });
    const failed = await runtime.completeSimple(model, {
      messages: [{ role: "user", content: "hi", timestamp: 0 }],
    });
    assertEquals(failed.stopReason, "error");
    assertStringIncludes(failed.errorMessage ?? "", "fake-anthropic");
  }, 1);
});

Deno.test("SDK-1.6 ModelRuntime credentials: listCredentials shows no secrets, logout removes the auth.json entry", async () => {
  await withEnv(async ({ agentDir }) => {
    const authPath = join(agentDir, "auth.json");
    await Deno.writeTextFile(
      authPath,
      JSON.stringify({
        anthropic: { type: "api_key", key: "sk-stored" },
        openai: { type: "api_key", key: "$KEY" },
      }),
    );
    const runtime = await ModelRuntime.create(paths(agentDir));
    assertEquals(await runtime.listCredentials(), [
      { providerId: "anthropic", type: "api_key" },
      { providerId: "openai", type: "api_key" },
    ]);
    assertEquals(runtime.isUsingOAuth("anthropic"), false);
    await runtime.logout("anthropic");
    await runtime.settleCredentialWrites();
    assertEquals(JSON.parse(await Deno.readTextFile(authPath)), { openai: { type: "api_key", key: "$KEY" } });
    assertEquals(await runtime.listCredentials(), [{ providerId: "openai", type: "api_key" }]);
  });
});

Deno.test("SDK-1.6 CredentialSynchronizationError names the provider and the change, and keeps the cause", () => {
  const cause = new Error("models.json vanished");
  const error = new CredentialSynchronizationError("anthropic", "logout", undefined, { cause });
  assertEquals(error.name, "CredentialSynchronizationError");
  assertEquals(error.message, "Credential logout committed for anthropic, but local synchronization failed");
  assertEquals([error.providerId, error.operation, error.credential, error.cause], [
    "anthropic",
    "logout",
    undefined,
    cause,
  ]);
});

Deno.test("SDK-1.6 readStoredCredential returns auth.json's entry as written, and undefined for anything else", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pi-stored-credential-" });
  try {
    const authPath = join(dir, "auth.json");
    const stored = {
      anthropic: { type: "api_key", key: "$ANTHROPIC_TOKEN" },
      github: { type: "oauth", access: "a", refresh: "r", expires: 1 },
    };
    await Deno.writeTextFile(authPath, "\uFEFF" + JSON.stringify(stored));
    // Values are not resolved and expired tokens are not refreshed.
    assertEquals(readStoredCredential("anthropic", authPath), stored.anthropic);
    assertEquals(readStoredCredential("github", authPath), stored.github);
    assertEquals(readStoredCredential("openai", authPath), undefined);
    assertEquals(readStoredCredential("toString", authPath), undefined);
    assertEquals(readStoredCredential("anthropic", join(dir, "missing.json")), undefined);
    await Deno.writeTextFile(authPath, "{ not json");
    assertEquals(readStoredCredential("anthropic", authPath), undefined);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
