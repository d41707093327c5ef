import { calculateCost, getModel, getModels, getProviders, modelsAreEqual } from "../../src/ai/models.ts";
import { emptyUsage } from "../../src/ai/types.ts";
import { assert, assertEquals } from "../support/assert.ts";

// Model counts per provider in the reference catalog (pi-ai 0.73.1).
const REFERENCE_COUNTS: Record<string, number> = {
  "amazon-bedrock": 93,
  anthropic: 23,
  "azure-openai-responses": 42,
  cerebras: 4,
  "cloudflare-ai-gateway": 35,
  "cloudflare-workers-ai": 8,
  deepseek: 2,
  fireworks: 19,
  "github-copilot": 26,
  google: 27,
  "google-vertex": 13,
  groq: 18,
  huggingface: 22,
  "kimi-coding": 2,
  minimax: 2,
  "minimax-cn": 2,
  mistral: 28,
  moonshotai: 7,
  "moonshotai-cn": 7,
  openai: 42,
  "openai-codex": 10,
  opencode: 38,
  "opencode-go": 12,
  openrouter: 275,
  "vercel-ai-gateway": 162,
  xai: 25,
  xiaomi: 5,
  "xiaomi-token-plan-ams": 5,
  "xiaomi-token-plan-cn": 5,
  "xiaomi-token-plan-sgp": 5,
  zai: 5,
};

Deno.test("PROV-01 all 31 built-in providers are present with the reference's model counts", () => {
  assertEquals(getProviders(), Object.keys(REFERENCE_COUNTS));
  const counts = Object.fromEntries(getProviders().map((p) => [p, getModels(p).length]));
  assertEquals(counts, REFERENCE_COUNTS);
  assertEquals(Object.values(counts).reduce((a, b) => a + b, 0), 969);
});

Deno.test("PROV-01 model records match the reference exactly, key order included", () => {
  const expected = [
    '{"id":"claude-opus-4-6","name":"Claude Opus 4.6","api":"anthropic-messages","provider":"anthropic","baseUrl":"https://api.anthropic.com","reasoning":true,"thinkingLevelMap":{"xhigh":"max"},"input":["text","image"],"cost":{"input":5,"output":25,"cacheRead":0.5,"cacheWrite":6.25},"contextWindow":1000000,"maxTokens":128000}',
    '{"id":"workers-ai/@cf/moonshotai/kimi-k2.5","name":"Kimi K2.5","api":"openai-completions","provider":"cloudflare-ai-gateway","baseUrl":"https://gateway.ai.cloudflare.com/v1/{CLOUDFLARE_ACCOUNT_ID}/{CLOUDFLARE_GATEWAY_ID}/compat","compat":{"sendSessionAffinityHeaders":true},"reasoning":true,"input":["text","image"],"cost":{"input":0.6,"output":3,"cacheRead":0.1,"cacheWrite":0},"contextWindow":256000,"maxTokens":256000}',
    '{"id":"claude-haiku-4.5","name":"Claude Haiku 4.5","api":"anthropic-messages","provider":"github-copilot","baseUrl":"https://api.individual.githubcopilot.com","headers":{"User-Agent":"GitHubCopilotChat/0.35.0","Editor-Version":"vscode/1.107.0","Editor-Plugin-Version":"copilot-chat/0.35.0","Copilot-Integration-Id":"vscode-chat"},"compat":{"supportsEagerToolInputStreaming":false},"reasoning":true,"input":["text","image"],"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0},"contextWindow":144000,"maxTokens":32000}',
    '{"id":"gemini-2.5-pro","name":"Gemini 2.5 Pro","api":"google-generative-ai","provider":"google","baseUrl":"https://generativelanguage.googleapis.com/v1beta","reasoning":true,"input":["text","image"],"cost":{"input":1.25,"output":10,"cacheRead":0.125,"cacheWrite":0},"contextWindow":1048576,"maxTokens":65536}',
    '{"id":"gpt-4o-mini","name":"GPT-4o mini","api":"openai-responses","provider":"openai","baseUrl":"https://api.openai.com/v1","reasoning":false,"input":["text","image"],"cost":{"input":0.15,"output":0.6,"cacheRead":0.08,"cacheWrite":0},"contextWindow":128000,"maxTokens":16384}',
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
    cacheWrite: 0.0018750000000000001,
    total: 0.020375000000000004,
  });
  assert(cost === usage.cost);
});

Deno.test("COST free models cost nothing", () => {
  const usage = { ...emptyUsage(), input: 123456, output: 7890, totalTokens: 131346 };
  calculateCost(getModel("github-copilot", "claude-haiku-4.5")!, usage);
  assertEquals(usage.cost.total, 0);
});

Deno.test("modelsAreEqual compares id and provider only", () => {
  const a = getModel("anthropic", "claude-opus-4-6")!;
  assert(modelsAreEqual(a, { id: "claude-opus-4-6", provider: "anthropic" }));
  assert(!modelsAreEqual(a, { id: "claude-opus-4-6", provider: "openrouter" }));
  assert(!modelsAreEqual(a, undefined));
  assert(!modelsAreEqual(null, a));
});
