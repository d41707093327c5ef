/**
 * PROV-01 the catalog loaded per provider (src/ai/model_catalog.ts): loading some providers loads just
 * those, and the slash-id index never misses a provider that has the id (the CLI relies on it to load
 * every provider a `provider/id` could match).
 */
import { getModels, getProviders } from "../../src/ai/models.ts";
import { builtinProviders, loadedBuiltinModels, providersWithSlashId } from "../../src/ai/model_catalog.ts";
import { assert, assertEquals } from "../support/assert.ts";

Deno.test("PROV-01 the index lists every provider in catalog order, and each loads its own models", () => {
  assertEquals([...builtinProviders()], getProviders());
  for (const provider of builtinProviders()) {
    assertEquals(
      loadedBuiltinModels(provider)?.map((m) => m.provider),
      getModels(provider).map(() => provider),
    );
  }
  assertEquals(loadedBuiltinModels("no-such-provider"), undefined);
});

Deno.test("PROV-01 every id containing '/' leads to its provider, in any letter case", () => {
  let checked = 0;
  for (const provider of getProviders()) {
    for (const { id } of getModels(provider)) {
      if (!id.includes("/")) continue;
      checked++;
      assert(providersWithSlashId(id).includes(provider), `${provider}/${id}`);
      assert(providersWithSlashId(id.toUpperCase()).includes(provider), `${provider}/${id} upper-cased`);
    }
  }
  assert(checked > 900, `only ${checked} ids checked`);
  assertEquals([...providersWithSlashId("anthropic/claude-sonnet-4.5")].sort(), [
    "openrouter",
    "vercel-ai-gateway",
  ]);
  assertEquals(providersWithSlashId("fake-anthropic/test-model"), []);
});
