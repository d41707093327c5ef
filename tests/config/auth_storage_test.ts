import { assert, assertEquals, assertRejects } from "../support/assert.ts";
import { join } from "node:path";
import { AuthStorage } from "../../src/config/auth_storage.ts";
import {
  clearConfigValueCache,
  configValueEnvNames,
  resolveConfigValue,
} from "../../src/config/resolve_value.ts";
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

async function withTempDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "pi-auth-" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** The environment the credential tests read (passed explicitly; the process's is never changed). */
const ENV = { PI_CFG_A: "alpha", PI_CFG_B: "beta", PI_CFG_EMPTY: "" };

test("AUTH-01 auth.json is created as {} with 0600 in a 0700 folder; writes merge per provider", async () => {
  await withTempDir(async (dir) => {
    const path = join(dir, "nested", "auth.json");
    const auth = AuthStorage.create(path);
    const expected = reference.create;
    assertEquals(await Deno.readTextFile(path), expected.created);
    assertEquals(((await Deno.stat(path)).mode! & 0o777).toString(8), expected.fileMode);
    assertEquals(((await Deno.stat(join(dir, "nested"))).mode! & 0o777).toString(8), expected.dirMode);
    auth.set("anthropic", { type: "oauth", refresh: "r", access: "a", expires: 1 });
    auth.set("groq", { type: "api_key", key: "$PI_CFG_A", env: { EXTRA: "1" } });
    auth.remove("anthropic");
    assertEquals(await Deno.readTextFile(path), expected.after);
    assertEquals(
      auth.list().map((providerId) => ({ providerId, type: auth.get(providerId)?.type })),
      expected.list,
    );
    assertEquals([...Deno.readDirSync(join(dir, "nested"))].map((e) => e.name).sort(), expected.filesLeft);
  });
});

test("AUTH-03 credential values: literal text, $NAME/${NAME}, $$ and $! escapes, !command (1.6.0 table)", async () => {
  clearConfigValueCache();
  const actual = reference.values.map((c: { config: string }) => ({
    config: c.config,
    value: resolveConfigValue(c.config, ENV) ?? null,
    envNames: configValueEnvNames(c.config),
  }));
  assertEquals(actual, reference.values);
  // An auth.json entry's own env wins over the environment; an empty value there counts as unset.
  const entryEnv = [];
  for (const c of reference.entryEnv as { config: string; env: Record<string, string> }[]) {
    const auth = AuthStorage.inMemory({ groq: { type: "api_key", key: c.config, env: c.env } }, { env: ENV });
    entryEnv.push({ ...c, value: (await auth.getApiKey("groq")) ?? null });
  }
  assertEquals(entryEnv, reference.entryEnv);
  // Through auth.json: the entry's env is used, and a bare variable name is a literal key.
  const auth = AuthStorage.inMemory({
    groq: { type: "api_key", key: "$ENTRY_ONLY", env: { ENTRY_ONLY: "from-entry" } },
    openai: { type: "api_key", key: "PI_CFG_A" },
    xai: { type: "api_key", key: "$PI_CFG_A-$PI_CFG_MISSING" },
    mistral: { type: "api_key", key: "$PI_CFG_A" },
  }, { env: ENV });
  assertEquals(await auth.getApiKey("groq"), "from-entry");
  assertEquals(await auth.getApiKey("openai"), "PI_CFG_A");
  assertEquals(await auth.getApiKey("xai", { includeFallback: false }), undefined);
  assertEquals(await auth.getApiKey("mistral"), "alpha");
  // Keys from the environment come from the one the store was given.
  const fromEnv = AuthStorage.inMemory({}, { env: { OPENAI_API_KEY: "env-key" } });
  assertEquals(await fromEnv.getApiKey("openai"), "env-key");
  assertEquals(fromEnv.getAuthStatus("openai"), {
    configured: false,
    source: "environment",
    label: "OPENAI_API_KEY",
  });
  assertEquals(fromEnv.hasAuth("openai"), true);
});

test("AUTH-01 a broken auth.json names the file and the line, hides its contents, and is never overwritten", async () => {
  await withTempDir(async (dir) => {
    const path = join(dir, "auth.json");
    const cases = Object.fromEntries(
      reference.broken.map((c: { name: string; input: string }) => [c.name, c.input]),
    ) as Record<string, string>;
    const expected: Record<string, string[]> = {
      syntax: [
        `Cannot use auth.json (${path}): line 1, column 53: Expected ',' or '}' after property value. ` +
        "Its credentials are ignored and the file is left as it is until you fix it.",
      ],
      array: [
        `Cannot use auth.json (${path}): expected an object with one entry per provider. ` +
        "Its credentials are ignored and the file is left as it is until you fix it.",
      ],
      "string-entry": [
        `Ignoring the "openai" entry of auth.json (${path}): expected an object such as {"type": "api_key", "key": "..."}`,
      ],
      "bad-key-type": [`Ignoring the "openai" entry of auth.json (${path}): "key" must be a string`],
      "bad-env": [`Ignoring the "openai" entry of auth.json (${path}): "env" must be an object of strings`],
      "oauth-missing": [
        `Ignoring the "anthropic" entry of auth.json (${path}): OAuth entries need "access" and "refresh" strings and an "expires" number`,
      ],
      "unknown-type": [
        `Ignoring the "openai" entry of auth.json (${path}): "type" must be "api_key" or "oauth"`,
      ],
      bom: [],
      empty: [],
    };
    for (const [name, input] of Object.entries(cases)) {
      await Deno.writeTextFile(path, input);
      const auth = AuthStorage.create(path);
      assertEquals(auth.getLoadProblems(), expected[name], name);
      for (const problem of auth.getLoadProblems()) assert(!/sk-secret/.test(problem), problem);
      auth.set("groq", { type: "api_key", key: "k" });
      const after = await Deno.readTextFile(path);
      const brokenFile = name === "syntax" || name === "array";
      // 1.6.0 leaves every one of these files untouched on load; ours also refuses to write a broken one.
      if (brokenFile) assertEquals(after, input, name);
      const ref = reference.broken.find((c: { name: string }) => c.name === name);
      assert(ref.untouched, name);
    }
    // The valid entry of a BOM-prefixed file is read, as 1.6.0 reads it.
    await Deno.writeTextFile(path, cases.bom);
    assertEquals(await AuthStorage.create(path).getApiKey("openai"), "bom-key");
  });
});

test("AUTH-03 expired OAuth token is refreshed under the lock and written back; fresh token used as-is", async () => {
  await withTempDir(async (dir) => {
    let refreshes = 0;
    registerOAuthProvider({
      id: "test-oauth",
      name: "Test OAuth",
      login: () => Promise.reject(new Error("not used")),
      refreshToken: (creds: OAuthCredentials) => {
        refreshes++;
        return Promise.resolve({ ...creds, access: `access-${refreshes}`, expires: Date.now() + 3_600_000 });
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
      const auth = AuthStorage.create(path, { env: { GROQ_API_KEY: "env-key" } });
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
      assertEquals(await auth.getApiKey("groq"), "env-key");
      auth.set("groq", { type: "oauth", refresh: "r", access: "a", expires: Date.now() + 60_000 });
      assertEquals(await auth.getApiKey("groq"), undefined);
    } finally {
      resetOAuthProviders();
    }
  });
});

test("AUTH-03 failed refresh throws naming the provider and the reason, keeping the credentials", async () => {
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
    await assertRejects(
      () => auth.getApiKey("broken-oauth"),
      "OAuth refresh failed for broken-oauth: network down",
    );
    assertEquals(auth.has("broken-oauth"), true);
  } finally {
    resetOAuthProviders();
  }
});
