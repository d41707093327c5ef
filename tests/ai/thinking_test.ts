import { clampThinkingLevel, getSupportedThinkingLevels, supportsXhigh } from "../../src/ai/thinking.ts";
import {
  adjustMaxTokensForThinking,
  buildBaseOptions,
  clampMaxTokensToContext,
  clampReasoning,
} from "../../src/ai/simple_options.ts";
import type { Model } from "../../src/ai/types.ts";
import { assertEquals } from "../support/assert.ts";

function model(overrides: Partial<Model>): Model {
  return {
    id: "m",
    name: "M",
    api: "openai-completions",
    provider: "test",
    baseUrl: "http://localhost",
    reasoning: true,
    input: ["text"],
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    contextWindow: 100000,
    maxTokens: 16384,
    ...overrides,
  };
}

Deno.test("THINK levels: non-reasoning models only have off; xhigh needs an explicit map entry", () => {
  assertEquals(getSupportedThinkingLevels(model({ reasoning: false })), ["off"]);
  assertEquals(getSupportedThinkingLevels(model({})), ["off", "minimal", "low", "medium", "high"]);
  assertEquals(
    getSupportedThinkingLevels(model({ thinkingLevelMap: { xhigh: "max" } })),
    ["off", "minimal", "low", "medium", "high", "xhigh"],
  );
  assertEquals(
    getSupportedThinkingLevels(model({ thinkingLevelMap: { minimal: null, off: null } })),
    ["low", "medium", "high"],
  );
  assertEquals(supportsXhigh(model({ thinkingLevelMap: { xhigh: "max" } })), true);
  assertEquals(supportsXhigh(model({})), false);
});

Deno.test("THINK clampThinkingLevel moves up to the next supported level, else down", () => {
  const m = model({ thinkingLevelMap: { minimal: null, low: null } });
  assertEquals(clampThinkingLevel(m, "minimal"), "medium");
  assertEquals(clampThinkingLevel(m, "xhigh"), "high");
  assertEquals(clampThinkingLevel(m, "medium"), "medium");
  assertEquals(clampThinkingLevel(model({ reasoning: false }), "high"), "off");
});

Deno.test("THINK clampReasoning maps xhigh (and max) to high only", () => {
  assertEquals(clampReasoning("xhigh"), "high");
  assertEquals(clampReasoning("low"), "low");
  assertEquals(clampReasoning(undefined), undefined);
});

Deno.test("THINK adjustMaxTokensForThinking adds the budget and keeps 1024 tokens for output", () => {
  // Values captured from the reference.
  assertEquals(adjustMaxTokensForThinking(32000, 64000, "high"), { maxTokens: 48384, thinkingBudget: 16384 });
  assertEquals(adjustMaxTokensForThinking(4000, 8000, "medium"), { maxTokens: 8000, thinkingBudget: 6976 });
  assertEquals(adjustMaxTokensForThinking(1000, 2048, "xhigh", { high: 4000 }), {
    maxTokens: 2048,
    thinkingBudget: 1024,
  });
  assertEquals(adjustMaxTokensForThinking(100, 1500, "high"), { maxTokens: 1500, thinkingBudget: 476 });
  assertEquals(adjustMaxTokensForThinking(100, 500, "high"), { maxTokens: 500, thinkingBudget: 0 });
});

Deno.test("THINK buildBaseOptions defaults to the model's output limit fitted into the context window (1.6.0)", () => {
  const empty = { messages: [] };
  const base = buildBaseOptions(
    model({ maxTokens: 128000 }),
    empty,
    { apiKey: "from-options", temperature: 0.2 },
    "resolved",
  );
  // 100000 window − 0 input − 4096 margin.
  assertEquals(base.maxTokens, 95904);
  assertEquals(base.apiKey, "resolved");
  assertEquals(base.temperature, 0.2);
  assertEquals(buildBaseOptions(model({ maxTokens: 16384 }), empty, undefined, "k").maxTokens, 16384);
  assertEquals(buildBaseOptions(model({}), empty, { maxTokens: 5, apiKey: "x" }).apiKey, "x");
  assertEquals(buildBaseOptions(model({}), empty, { maxTokens: 5 }).maxTokens, 5);
  // 80000 estimated input tokens (3.5 characters each): the 15 % margin would leave under 32768,
  // so only the fixed 4096 stays free.
  const big = { messages: [{ role: "user" as const, content: "x".repeat(280000), timestamp: 1 }] };
  assertEquals(buildBaseOptions(model({ maxTokens: 64000 }), big).maxTokens, 15904);
  assertEquals(clampMaxTokensToContext(model({ contextWindow: 1000 }), big, 64000), 1);
  assertEquals(clampMaxTokensToContext(model({ contextWindow: 0 }), big, 64000), 64000);
});

Deno.test("THINK max (1.6.0) is offered only when the map names it, and clamps down to the strongest level", () => {
  const plain = model({});
  assertEquals(getSupportedThinkingLevels(plain), ["off", "minimal", "low", "medium", "high"]);
  assertEquals(clampThinkingLevel(plain, "max"), "high");
  const withMax = model({ thinkingLevelMap: { max: "max" } });
  assertEquals(getSupportedThinkingLevels(withMax), ["off", "minimal", "low", "medium", "high", "max"]);
  assertEquals(clampThinkingLevel(withMax, "max"), "max");
  // xhigh is not offered here: it moves up to max.
  assertEquals(clampThinkingLevel(withMax, "xhigh"), "max");
  const kimi = model({
    thinkingLevelMap: { off: null, minimal: null, low: "low", medium: null, high: "high", max: "max" },
  });
  assertEquals(getSupportedThinkingLevels(kimi), ["low", "high", "max"]);
  assertEquals(clampThinkingLevel(kimi, "off"), "low");
  assertEquals(clampThinkingLevel(kimi, "medium"), "high");
  assertEquals(clampReasoning("max"), "high");
});
