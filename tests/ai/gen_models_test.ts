import { normalizeCatalog, renderJson, renderModule } from "../../scripts/gen_models.ts";
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

Deno.test("gen_models writes fmt-stable JSON and a typed wrapper module", () => {
  const catalog = { p: { m: RECORD } };
  assertEquals(JSON.parse(renderJson(catalog)), catalog);
  assertEquals(renderJson(catalog).endsWith("}\n"), true);
  const mod = renderModule(catalog, "/x/node_modules/@mariozechner/pi-ai/dist/models.generated.js");
  assertStringIncludes(mod, "// 1 providers, 1 models;");
  assertStringIncludes(mod, 'import catalog from "./models_generated.json" with { type: "json" };');
});

Deno.test("gen_models committed catalog is in the generator's canonical layout", async () => {
  const json = await Deno.readTextFile(new URL("../../src/ai/models_generated.json", import.meta.url));
  const catalog = JSON.parse(json);
  assertEquals(renderJson(normalizeCatalog(catalog)), json);
});
