import { assert, assertEquals } from "../support/assert.ts";
import { join } from "node:path";
import { AuthStorage } from "../../src/config/auth_storage.ts";
import { clearConfigValueCache } from "../../src/config/resolve_value.ts";
import {
  type OAuthCredentials,
  registerOAuthProvider,
  resetOAuthProviders,
} from "../../src/config/oauth_registry.ts";
import { isolatedTest } from "./isolation.ts";

/** Registered only inside the isolated subprocess (see isolation.ts). */
const test = isolatedTest(import.meta.url);

const reference = JSON.parse(
  Deno.readTextFileSync(new URL("../fixtures/config/auth_reference.json", import.meta.url)),
);

function normalizeJsonError(message: string): string {
  return message.replace(/ \(line \d+ column \d+\)$/, "");
}

async function withTempDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "pi-auth-" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** Runs `fn` with only the given API-key-like variables set, restoring the environment afterwards. */
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

test("AUTH-01 auth.json is created as {} with 0600 in a 0700 folder; writes merge per provider", async () => {
  await withTempDir(async (dir) => {
    const path = join(dir, "nested", "auth.json");
    const auth = AuthStorage.create(path);
    const expected = reference.create;
    assertEquals(await Deno.readTextFile(path), expected.created);
    assertEquals(((await Deno.stat(path)).mode! & 0o777).toString(8), expected.fileMode);
    assertEquals(((await Deno.stat(join(dir, "nested"))).mode! & 0o777).toString(8), expected.dirMode);
    auth.set("openai", { type: "api_key", key: "sk-1" });
    auth.set("anthropic", { type: "oauth", refresh: "r", access: "a", expires: 1 });
    auth.remove("openai");
    auth.set("groq", { type: "api_key", key: "k" });
    assertEquals(await Deno.readTextFile(path), expected.after);
    assertEquals(auth.list(), expected.list);
    assertEquals(auth.has("groq"), expected.has);
    const lockLeft = await Deno.stat(path + ".lock").then(() => true, () => false);
    assertEquals(lockLeft, expected.lockLeft);
  });
});

test("AUTH-01 a broken auth.json is reported and never overwritten", async () => {
  await withTempDir(async (dir) => {
    const path = join(dir, "auth.json");
    const expected = reference.broken;
    await Deno.writeTextFile(path, expected.input);
    const auth = AuthStorage.create(path);
    auth.set("groq", { type: "api_key", key: "k" });
    assertEquals(auth.drainErrors().map((e) => normalizeJsonError(e.message)), expected.errors);
    assertEquals(await Deno.readTextFile(path), expected.after);
    assertEquals(auth.get("groq"), expected.get);
  });
});

test("AUTH-03 PROV-08 key priority and value resolution (env name, !command, literal) match the reference", async () => {
  clearConfigValueCache();
  await withEnv({ PI_CFG_TEST_KEY: "from-env-var", GROQ_API_KEY: "groq-env" }, async () => {
    const auth = AuthStorage.inMemory({
      openai: { type: "api_key", key: "PI_CFG_TEST_KEY" },
      xai: { type: "api_key", key: "!printf '  cmd-key \\n'" },
      mistral: { type: "api_key", key: "literal-key" },
      cerebras: { type: "api_key", key: "!exit 3" },
      groq: { type: "api_key", key: "stored-groq" },
    });
    auth.setFallbackResolver((p) => p === "custom" ? "fallback-key" : undefined);
    const r: Record<string, unknown> = {};
    for (const p of ["openai", "xai", "mistral", "cerebras", "groq", "custom", "nothing"]) {
      r[p] = (await auth.getApiKey(p)) ?? null;
    }
    auth.setRuntimeApiKey("groq", "runtime");
    r.groqRuntime = await auth.getApiKey("groq");
    auth.remove("groq");
    auth.removeRuntimeApiKey("groq");
    r.groqEnv = await auth.getApiKey("groq");
    r.customNoFallback = (await auth.getApiKey("custom", { includeFallback: false })) ?? null;
    const status: Record<string, unknown> = {};
    for (const p of ["openai", "groq", "custom", "nothing"]) status[p] = auth.getAuthStatus(p);
    auth.setRuntimeApiKey("zai", "x");
    status.zai = auth.getAuthStatus("zai");
    r.status = status;
    r.hasAuth = {
      groq: auth.hasAuth("groq"),
      custom: auth.hasAuth("custom"),
      nothing: auth.hasAuth("nothing"),
      zai: auth.hasAuth("zai"),
    };
    assertEquals(r, reference.keys);
  });
});

test("AUTH-03 expired OAuth token is refreshed under the lock and written back; fresh token used as-is", async () => {
  await withTempDir(async (dir) => {
    await withEnv({}, async () => {
      let refreshes = 0;
      registerOAuthProvider({
        id: "test-oauth",
        name: "Test OAuth",
        login: () => Promise.reject(new Error("not used")),
        refreshToken: (creds: OAuthCredentials) => {
          refreshes++;
          return Promise.resolve({ ...creds, access: `access-${refreshes}`, expires: Date.now() + 60_000 });
        },
        getApiKey: (creds: OAuthCredentials) => `key:${creds.access}`,
      });
      try {
        const path = join(dir, "auth.json");
        await Deno.writeTextFile(
          path,
          JSON.stringify({
            "test-oauth": { type: "oauth", refresh: "r", access: "old", expires: 0, extra: 1 },
          }),
        );
        const auth = AuthStorage.create(path);
        assertEquals(await auth.getApiKey("test-oauth"), "key:access-1");
        assertEquals(await auth.getApiKey("test-oauth"), "key:access-1");
        assertEquals(refreshes, 1);
        const stored = JSON.parse(await Deno.readTextFile(path));
        assertEquals(stored["test-oauth"].access, "access-1");
        assertEquals(stored["test-oauth"].extra, 1);
        assert(stored["test-oauth"].expires > Date.now());
        const lockLeft = await Deno.stat(path + ".lock").then(() => true, () => false);
        assertEquals(lockLeft, false);
        // OAuth credentials for a provider nobody registered give no key (and do not fall back to env).
        Deno.env.set("OPENAI_API_KEY", "env-key");
        auth.set("openai", { type: "oauth", refresh: "r", access: "a", expires: Date.now() + 60_000 });
        assertEquals(await auth.getApiKey("openai"), undefined);
      } finally {
        resetOAuthProviders();
      }
    });
  });
});

test("AUTH-03 failed refresh records an error and yields no key, keeping the credentials", async () => {
  await withEnv({}, async () => {
    registerOAuthProvider({
      id: "broken-oauth",
      name: "Broken",
      login: () => Promise.reject(new Error("not used")),
      refreshToken: () => Promise.reject(new Error("network down")),
      getApiKey: (creds: OAuthCredentials) => creds.access,
    });
    try {
      const auth = AuthStorage.inMemory({
        "broken-oauth": { type: "oauth", refresh: "r", access: "a", expires: 0 },
      });
      assertEquals(await auth.getApiKey("broken-oauth"), undefined);
      assertEquals(auth.drainErrors().map((e) => e.message), [
        "Failed to refresh OAuth token for broken-oauth",
      ]);
      assertEquals(auth.has("broken-oauth"), true);
    } finally {
      resetOAuthProviders();
    }
  });
});
