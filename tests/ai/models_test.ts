import { findReference } from "../../scripts/reference/locate.ts";
import {
  CATALOG_IN_NODE_MODULES,
  joinProviderJson,
  normalizeCatalog,
  renderIndexJson,
  renderJson,
  renderModule,
} from "../../scripts/gen_models.ts";
import { useReferenceFixtures } from "../support/spawn_pi.ts";
import { calculateCost, getModel, getModels, getProviders, modelsAreEqual } from "../../src/ai/models.ts";
import { emptyUsage } from "../../src/ai/types.ts";
import { assert, assertEquals } from "../support/assert.ts";

// Model counts per provider in the reference catalog (pi-ai 1.6.0).
const REFERENCE_COUNTS: Record<string, number> = {
  "amazon-bedrock": 208,
  "ant-ling": 3,
  anthropic: 18,
  azure: 48,
  baseten: 15,
  cerebras: 2,
  "cloudflare-ai-gateway": 63,
  "cloudflare-workers-ai": 20,
  deepseek: 2,
  fireworks: 27,
  "github-copilot": 35,
  google: 26,
  "google-vertex": 17,
  groq: 7,
  huggingface: 87,
  "kimi-coding": 6,
  meta: 7,
  minimax: 4,
  "minimax-cn": 4,
  mistral: 34,
  moonshotai: 6,
  "moonshotai-cn": 6,
  nvidia: 12,
  openai: 47,
  "openai-codex": 10,
  opencode: 84,
  "opencode-go": 33,
  openrouter: 417,
  "qwen-token-plan": 20,
  "qwen-token-plan-cn": 20,
  "qwen-token-plan-individual": 13,
  "qwen-token-plan-individual-cn": 13,
  radius: 39,
  together: 16,
  typesafe: 0,
  "vercel-ai-gateway": 305,
  xai: 4,
  xiaomi: 3,
  "xiaomi-token-plan-ams": 2,
  "xiaomi-token-plan-cn": 2,
  "xiaomi-token-plan-sgp": 2,
  zai: 7,
  "zai-coding-cn": 4,
};

Deno.test("PROV-01 all 43 built-in providers are present with the reference's model counts", () => {
  assertEquals(getProviders(), Object.keys(REFERENCE_COUNTS));
  const counts = Object.fromEntries(getProviders().map((p) => [p, getModels(p).length]));
  assertEquals(counts, REFERENCE_COUNTS);
  assertEquals(Object.values(counts).reduce((a, b) => a + b, 0), 1698);
});

const MODELS_DIR = new URL("../../src/ai/models/", import.meta.url);

/** The committed per-provider data files put together again, in the index's provider order. */
async function committedCatalogJson(): Promise<string> {
  const index = JSON.parse(await Deno.readTextFile(new URL("_index.json", MODELS_DIR))) as {
    providers: string[];
  };
  const files = await Promise.all(
    index.providers.map((p) => Deno.readTextFile(new URL(`${p}.json`, MODELS_DIR))),
  );
  return joinProviderJson(index.providers, files);
}

Deno.test("PROV-01 the committed catalog is the live reference's catalog, byte for byte", async () => {
  if (useReferenceFixtures()) return; // The stored catalog itself is the capture; the test above checks it.
  const ref = findReference()!;
  const script = `const m = await import(process.argv[1]); process.stdout.write(JSON.stringify(m.MODELS));`;
  const out = await new Deno.Command(ref.node, {
    args: ["--input-type=module", "-e", script, `${ref.nodeModules}/${CATALOG_IN_NODE_MODULES}`],
    stdout: "piped",
    stderr: "inherit",
  }).output();
  assertEquals(out.code, 0);
  const catalog = normalizeCatalog(JSON.parse(new TextDecoder().decode(out.stdout)));
  const stale = "src/ai/models/ differs from the reference: run scripts/gen_models.ts";
  assert(renderJson(catalog) === await committedCatalogJson(), stale);
  assert(renderIndexJson(catalog) === await Deno.readTextFile(new URL("_index.json", MODELS_DIR)), stale);
  const module = await Deno.readTextFile(new URL("../../src/ai/models_generated.ts", import.meta.url));
  assert(renderModule(catalog, `${ref.nodeModules}/${CATALOG_IN_NODE_MODULES}`) === module, stale);
});

Deno.test("PROV-01 src/ai/models/ holds one data file per provider and the index, nothing stale", async () => {
  const names = [...Deno.readDirSync(MODELS_DIR)].map((e) => e.name).sort();
  assertEquals(names, ["_index.json", ...getProviders().map((p) => `${p}.json`)].sort());
  // The files put together are the catalog the lookups serve, in the generator's canonical layout.
  const json = await committedCatalogJson();
  const whole = Object.fromEntries(
    getProviders().map((p) => [p, Object.fromEntries(getModels(p).map((m) => [m.id, m]))]),
  );
  assertEquals(json, renderJson(normalizeCatalog(JSON.parse(JSON.stringify(whole)))));
});

Deno.test("PROV-01 1.6.0 wire APIs: xai on Responses, kimi-coding on Chat Completions at /coding/v1, azure renamed", () => {
  assertEquals(new Set(getModels("xai").map((m) => m.api)), new Set(["openai-responses"]));
  const kimi = getModels("kimi-coding");
  assertEquals(
    new Set(kimi.map((m) => `${m.api} ${m.baseUrl}`)),
    new Set(["openai-completions https://api.kimi.com/coding/v1"]),
  );
  for (const p of ["xiaomi", "xiaomi-token-plan-ams", "xiaomi-token-plan-cn", "xiaomi-token-plan-sgp"]) {
    assertEquals(new Set(getModels(p).map((m) => m.api)), new Set(["openai-completions"]), p);
  }
  assert(getModels("openrouter").some((m) => m.api === "anthropic-messages"));
  assertEquals(getModels("azure-openai-responses"), []);
  assertEquals(new Set(getModels("radius").map((m) => m.api)), new Set(["pi-messages"]));
});

Deno.test("PROV-01 model records match the reference exactly, key order included", () => {
  const expected = [
    '{"id":"claude-opus-4-6","name":"Claude Opus 4.6","api":"anthropic-messages","provider":"anthropic","baseUrl":"https://api.anthropic.com","reasoning":true,"input":["text","image"],"cost":{"input":5,"output":25,"cacheRead":0.5,"cacheWrite":6.25},"contextWindow":1000000,"maxTokens":128000,"thinkingLevelMap":{"max":"max"},"compat":{"forceAdaptiveThinking":true,"supportsStrictTools":true},"promptCache":{"short":300,"long":3600},"inputLimits":{"maxRequestBytes":33554432,"images":{"maxPerRequest":600,"resize":{"maxWidth":2000,"maxHeight":2000,"maxBytes":4718592,"jpegQuality":80}}},"type":"chat"}',
    '{"id":"grok-4.3","name":"Grok 4.3","api":"openai-responses","provider":"xai","baseUrl":"https://api.x.ai/v1","reasoning":true,"input":["text","image"],"cost":{"input":1.25,"output":2.5,"cacheRead":0.2,"cacheWrite":0,"tiers":[{"inputTokensAbove":200000,"input":2.5,"output":5,"cacheRead":0.4,"cacheWrite":0}]},"contextWindow":1000000,"maxTokens":30000,"compat":{"supportsLongCacheRetention":false},"thinkingLevelMap":{"off":"none","minimal":null,"low":"low","medium":"medium","high":"high","xhigh":"xhigh","max":null},"inputLimits":{"images":{"resize":{"maxWidth":2000,"maxHeight":2000,"maxBytes":4718592,"jpegQuality":80}}},"type":"chat"}',
    '{"id":"balanced","name":"Balanced","reasoning":true,"thinkingLevelMap":{"off":null,"minimal":null,"low":"low","medium":null,"high":"high","xhigh":null,"max":"max"},"input":["text","image"],"contextWindow":1048576,"maxTokens":262144,"lab":"Moonshot AI","cost":{"input":3,"output":15,"cacheRead":0.3,"cacheWrite":0},"enabled":true,"providers":[{"id":"openrouter","name":"OpenRouter","credential":"radius","source":"radius"}],"api":"pi-messages","provider":"radius","baseUrl":"https://radius.pi.dev/v1","inputLimits":{"images":{"resize":{"maxWidth":2000,"maxHeight":2000,"maxBytes":4718592,"jpegQuality":80}}},"type":"chat"}',
  ];
  for (const json of expected) {
    const record = JSON.parse(json);
    assertEquals(JSON.stringify(getModel(record.provider, record.id)), json);
  }
});

Deno.test("PROV-01 lookups of unknown providers and ids are empty, not errors", () => {
  assertEquals(getModel("anthropic", "no-such-model"), undefined);
  assertEquals(getModel("no-such-provider", "x"), undefined);
  assertEquals(getModels("no-such-provider"), []);
  assert(getModel("anthropic", "claude-opus-4-6") === getModel("anthropic", "claude-opus-4-6"));
});

Deno.test("COST calculateCost prices each token kind per million and mutates usage.cost", () => {
  const model = getModel("anthropic", "claude-opus-4-6")!;
  const usage = {
    ...emptyUsage(),
    input: 1000,
    output: 500,
    cacheRead: 2000,
    cacheWrite: 300,
    totalTokens: 3800,
  };
  const cost = calculateCost(model, usage);
  // Same floating-point results as the reference.
  assertEquals(cost, {
    input: 0.005,
    output: 0.0125,
    cacheRead: 0.001,
    // pi-ai 1.x prices short and 1-hour writes in one expression.
    cacheWrite: 0.001875,
    total: 0.020375000000000004,
    totalFromProvider: false,
  });
  assert(cost === usage.cost);
});

Deno.test("COST a price tier applies above its prompt size, and 1-hour cache writes cost twice the input price", () => {
  const model = getModel("xai", "grok-4.3")!;
  const below = { ...emptyUsage(), input: 200000, output: 1000000, totalTokens: 1200000 };
  assertEquals(calculateCost(model, below).total, 0.25 + 2.5);
  const above = { ...emptyUsage(), input: 100000, cacheRead: 100001, output: 1000000, totalTokens: 1200001 };
  assertEquals(calculateCost(model, above).output, 5);
  const opus = getModel("anthropic", "claude-opus-4-6")!;
  const writes = { ...emptyUsage(), cacheWrite: 2000000, cacheWrite1h: 1000000, totalTokens: 2000000 };
  // 1M short writes at 6.25 plus 1M long writes at 2 × 5.
  assertEquals(calculateCost(opus, writes).cacheWrite, 16.25);
});

Deno.test("COST free models cost nothing", () => {
  const usage = { ...emptyUsage(), input: 123456, output: 7890, totalTokens: 131346 };
  calculateCost(getModel("opencode", "beam-free")!, usage);
  assertEquals(usage.cost.total, 0);
});

Deno.test("modelsAreEqual compares id and provider only", () => {
  const a = getModel("anthropic", "claude-opus-4-6")!;
  assert(modelsAreEqual(a, { id: "claude-opus-4-6", provider: "anthropic" }));
  assert(!modelsAreEqual(a, { id: "claude-opus-4-6", provider: "openrouter" }));
  assert(!modelsAreEqual(a, undefined));
  assert(!modelsAreEqual(null, a));
});
