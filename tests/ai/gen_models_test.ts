import {
  joinProviderJson,
  normalizeCatalog,
  renderIndexJson,
  renderJson,
  renderModule,
  renderProviderJson,
} from "../../scripts/gen_models.ts";
import { modelIdHash } from "../../src/ai/model_id_hash.ts";
import { assertEquals, assertStringIncludes, assertThrows } from "../support/assert.ts";

const RECORD = {
  id: "m",
  name: "M",
  api: "openai-completions",
  provider: "p",
  baseUrl: "http://x",
  compat: { supportsStore: false },
  reasoning: false,
  input: ["text"],
  cost: { input: 1, output: 2, cacheRead: 0, cacheWrite: 0 },
  contextWindow: 10,
  maxTokens: 5,
};

Deno.test("gen_models keeps records and their key order, and refuses unknown fields", () => {
  const out = normalizeCatalog({ p: { m: RECORD } });
  assertEquals(JSON.stringify(out.p.m), JSON.stringify(RECORD));
  assertThrows(
    () => normalizeCatalog({ p: { m: { ...RECORD, surprise: 1 } } }),
    "p/m: unknown fields surprise",
  );
});

Deno.test("gen_models writes one data file per provider, an index of slash ids and a loader module", () => {
  const other = { ...RECORD, id: "Vendor/M", provider: "q" };
  const catalog = { p: { m: RECORD }, q: { "Vendor/M": other } };
  assertEquals(JSON.parse(renderProviderJson(catalog.p)), catalog.p);
  assertEquals(renderProviderJson(catalog.p).endsWith("}\n"), true);
  // Joined again, the per-provider files are the whole catalog, byte for byte.
  assertEquals(
    joinProviderJson(["p", "q"], [renderProviderJson(catalog.p), renderProviderJson(catalog.q)]),
    renderJson(catalog),
  );
  assertEquals(JSON.parse(renderIndexJson(catalog)), {
    providers: ["p", "q"],
    slashIds: { q: modelIdHash("vendor/m") },
  });
  assertEquals(modelIdHash("Vendor/M"), modelIdHash("vendor/m"));
  assertEquals(modelIdHash("Vendor/M").length, 7);
  const mod = renderModule(catalog, "/x/node_modules/@earendil-works/pi-ai/dist/models.generated.js");
  assertStringIncludes(mod, "// 2 providers, 2 models;");
  // Literal specifiers only, so deno compile and deno bundle include every file.
  assertStringIncludes(
    mod,
    '    case "q":\n      return import("./models/q.json", { with: { type: "json" } }).then(data);',
  );
});

Deno.test("gen_models committed catalog is in the generator's canonical layout", async () => {
  const dir = new URL("../../src/ai/models/", import.meta.url);
  const index = JSON.parse(await Deno.readTextFile(new URL("_index.json", dir)));
  for (const provider of index.providers) {
    const json = await Deno.readTextFile(new URL(`${provider}.json`, dir));
    assertEquals(
      renderProviderJson(normalizeCatalog({ [provider]: JSON.parse(json) })[provider]),
      json,
      provider,
    );
  }
});
