import { assertEquals } from "../support/assert.ts";
import { join } from "node:path";
import { AuthStorage } from "../../src/config/auth_storage.ts";
import { ModelRegistry } from "../../src/config/model_registry.ts";
import { clearConfigValueCache } from "../../src/config/resolve_value.ts";
import type { Model } from "../../src/ai/types.ts";
import { isolatedTest } from "./isolation.ts";

/** Registered only inside the isolated subprocess (see isolation.ts). */
const test = isolatedTest(import.meta.url);

const reference = JSON.parse(
  Deno.readTextFileSync(new URL("../fixtures/config/models_reference.json", import.meta.url)),
);
const MODELS_DIR = new URL("../fixtures/config/models", import.meta.url).pathname.replace(/\/$/, "");

function normalize(error: string | undefined): string | null {
  if (error === undefined) return null;
  return error.split(MODELS_DIR).join("<DIR>/").replace(/ \(line \d+ column \d+\)/, "");
}

/** JSON round trip drops undefined-valued keys, matching how the fixtures were recorded. */
function plain<T>(value: T): T {
  return value === undefined ? null as T : JSON.parse(JSON.stringify(value));
}

async function withEnv(vars: Record<string, string>, fn: () => Promise<void>): Promise<void> {
  const saved = Deno.env.toObject();
  for (const [key, value] of Object.entries(vars)) Deno.env.set(key, value);
  try {
    await fn();
  } finally {
    for (const key of Object.keys(Deno.env.toObject())) if (!(key in saved)) Deno.env.delete(key);
    for (const [key, value] of Object.entries(saved)) Deno.env.set(key, value);
  }
}

test("PROV-06 models.json validation errors match the reference texts and keep built-ins", () => {
  const names = Object.keys(reference.errors).sort();
  const actual: Record<string, unknown> = {};
  for (const name of names) {
    const registry = ModelRegistry.create(AuthStorage.inMemory(), join(MODELS_DIR, name));
    actual[name] = { error: normalize(registry.getError()), count: registry.getAll().length };
  }
  assertEquals(actual, reference.errors);
});

test("PROV-04 PROV-05 PROV-07 JSONC models.json: defaults, overrides, upserts and compat merge", () => {
  const registry = ModelRegistry.create(
    AuthStorage.inMemory({ groq: { type: "api_key", key: "gk" } }),
    join(MODELS_DIR, "valid.jsonc"),
  );
  const expected = reference.valid;
  assertEquals(registry.getError() ?? null, expected.error);
  assertEquals(registry.getAll().length, expected.count);
  assertEquals(ModelRegistry.inMemory(AuthStorage.inMemory()).getAll().length, expected.builtinCount);
  for (const [key, model] of Object.entries(expected.models)) {
    const [provider, ...rest] = key.split("/");
    assertEquals(plain(registry.find(provider, rest.join("/"))), model, key);
  }
  assertEquals(
    registry.getAll().filter((m) => m.provider === "openrouter").slice(0, 3).map((m) => plain(m.compat)),
    expected.openrouterCompatSample,
  );
  assertEquals(registry.getAll().slice(-3).map((m) => `${m.provider}/${m.id}`), expected.lastIds);
});

test("PROV-08 PROV-09 request auth: key sources, header resolution, authHeader, status", async () => {
  clearConfigValueCache();
  await withEnv({ PI_CFG_LOCAL_KEY: "local-secret", PI_CFG_HEADER_ENV: "header-from-env" }, async () => {
    const registry = ModelRegistry.create(
      AuthStorage.inMemory({ groq: { type: "api_key", key: "gk" } }),
      join(MODELS_DIR, "valid.jsonc"),
    );
    const expected = reference.valid;
    assertEquals([...new Set(registry.getAvailable().map((m) => m.provider))], expected.available);
    const requestAuth: Record<string, unknown> = {};
    const groqFirst = registry.getAll().find((m) => m.provider === "groq") as Model;
    requestAuth["local/qwen-coder"] = plain(
      await registry.getApiKeyAndHeaders(registry.find("local", "qwen-coder")!),
    );
    requestAuth["local/llama-3.1-8b"] = plain(
      await registry.getApiKeyAndHeaders(registry.find("local", "llama-3.1-8b")!),
    );
    requestAuth["anthropic/claude-opus-4-7"] = plain(
      await registry.getApiKeyAndHeaders(registry.find("anthropic", "claude-opus-4-7")!),
    );
    requestAuth["groq/first"] = plain(await registry.getApiKeyAndHeaders(groqFirst));
    assertEquals(requestAuth, expected.requestAuth);
    assertEquals({
      local: registry.getProviderAuthStatus("local"),
      groq: registry.getProviderAuthStatus("groq"),
      openai: registry.getProviderAuthStatus("openai"),
    }, expected.status);
    assertEquals({
      local: (await registry.getApiKeyForProvider("local")) ?? null,
      openai: (await registry.getApiKeyForProvider("openai")) ?? null,
    }, expected.keyForProvider);
    // Built-in OAuth providers (anthropic, openai-codex) are not registered yet, so only these two compare.
    assertEquals(registry.getProviderDisplayName("local"), expected.displayNames[0]);
    assertEquals(registry.getProviderDisplayName("google"), expected.displayNames[2]);

    const noKey = ModelRegistry.create(AuthStorage.inMemory(), join(MODELS_DIR, "authheader_nokey.json"));
    const groq = noKey.getAll().find((m) => m.provider === "groq") as Model;
    assertEquals(await noKey.getApiKeyAndHeaders(groq), reference.authHeaderNoKey);
  });
});

test("PROV-08 failing header command is reported as a request auth error", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pi-models-" });
  try {
    const path = join(dir, "models.json");
    await Deno.writeTextFile(
      path,
      JSON.stringify({ providers: { groq: { headers: { "X-Token": "!exit 1" } } } }),
    );
    const registry = ModelRegistry.create(AuthStorage.inMemory(), path);
    const groq = registry.getAll().find((m) => m.provider === "groq") as Model;
    assertEquals(await registry.getApiKeyAndHeaders(groq), {
      ok: false,
      error: 'Failed to resolve provider "groq" header "X-Token" from shell command: exit 1',
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

test("PROV-07 registerProvider validation, replacement, baseUrl override and unregister", () => {
  const registry = ModelRegistry.inMemory(AuthStorage.inMemory());
  const errors: (string | null)[] = [];
  const tryRegister = (name: string, config: unknown) => {
    try {
      registry.registerProvider(name, config as Parameters<ModelRegistry["registerProvider"]>[1]);
      errors.push(null);
    } catch (error) {
      errors.push((error as Error).message);
    }
  };
  tryRegister("p1", { streamSimple: () => {} });
  tryRegister("p2", { models: [{ id: "a" }] });
  tryRegister("p3", { baseUrl: "http://x", models: [{ id: "a" }] });
  tryRegister("p4", { baseUrl: "http://x", apiKey: "k", models: [{ id: "a" }] });
  tryRegister("p5", {
    baseUrl: "http://x",
    apiKey: "k",
    api: "openai-completions",
    name: "Prov Five",
    models: [{
      id: "m5",
      name: "M5",
      reasoning: false,
      input: ["text"],
      cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
      contextWindow: 1000,
      maxTokens: 100,
    }],
  });
  tryRegister("groq", { baseUrl: "http://groq-proxy" });
  const expected = reference.registerProvider;
  assertEquals(errors, expected.errors);
  assertEquals(plain(registry.find("p5", "m5")), expected.p5);
  assertEquals(registry.getProviderDisplayName("p5"), expected.p5Name);
  const groqUrls =
    () => [...new Set(registry.getAll().filter((m) => m.provider === "groq").map((m) => m.baseUrl))];
  assertEquals(groqUrls(), expected.groqBaseUrls);
  registry.unregisterProvider("groq");
  assertEquals(groqUrls(), expected.groqAfterUnregister);
  assertEquals(registry.find("p5", "m5")?.id ?? null, expected.p5AfterRefresh);
});
