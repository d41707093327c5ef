/**
 * Virtual models in the model registry (pi 1.6.0's `registerVirtualModel`, EXT-VM): how they are
 * listed and found, when they are available, which ids they may not take, and how a router's pick
 * is checked. Error texts are 1.6.0's (`ModelRuntime.registerVirtualModel` / `resolveModel`).
 */
import "../../src/ai/models.ts"; // The whole built-in catalog, as ModelRuntime.create loads it.
import { assertEquals, assertRejects, assertThrows } from "../support/assert.ts";
import { AuthStorage } from "../../src/config/auth_storage.ts";
import { ModelRegistry } from "../../src/config/model_registry.ts";
import { getSupportedThinkingLevels } from "../../src/ai/thinking.ts";
import type { AssistantMessage } from "../../src/ai/types.ts";
import { emptyUsage } from "../../src/ai/types.ts";
import type { ModelRouteRequest } from "../../src/config/virtual_models.ts";
import { isolatedTest } from "./isolation.ts";

/** No provider keys from the environment: `anthropic` has no credentials here. */
const test = isolatedTest(import.meta.url);

function registry(): ModelRegistry {
  const registry = ModelRegistry.inMemory(AuthStorage.inMemory());
  registry.registerProvider("phys", {
    baseUrl: "http://127.0.0.1:1/v1",
    apiKey: "literal-key",
    api: "openai-completions",
    models: [{
      id: "small",
      name: "Small",
      reasoning: false,
      input: ["text"],
      cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
      contextWindow: 1000,
      maxTokens: 100,
    }],
  });
  return registry;
}

const names = (models: { provider: string; id: string }[]) => models.map((m) => `${m.provider}/${m.id}`);
/** The two virtual models of the first test (openrouter has physical models called "auto"). */
const VIRTUAL = (name: string) => name === "r/auto" || name === "anthropic/auto";

test("EXT-VM-REG-01 a virtual model is a catalog entry; under a provider of its own it needs no credentials", () => {
  const models = registry();
  const route = () => ({ model: models.find("phys", "small")!, thinkingLevel: "off" as const });
  models.registerVirtualModel({
    provider: "r",
    id: "auto",
    name: "Auto",
    thinkingLevels: ["low", "high"],
    route,
  });
  models.registerVirtualModel({ provider: "anthropic", id: "auto", name: "Anthropic auto", route });
  const auto = models.find("r", "auto")!;
  assertEquals([auto.api, auto.name, auto.contextWindow, auto.maxTokens, auto.input], [
    "pi-virtual",
    "Auto",
    0,
    0,
    ["text", "image"],
  ]);
  assertEquals(getSupportedThinkingLevels(auto), ["low", "high"]);
  assertEquals(names(models.getAll()).filter(VIRTUAL), ["r/auto", "anthropic/auto"]);
  // Under a physical provider it follows that provider's credentials.
  assertEquals(names(models.getAvailable()).filter(VIRTUAL), ["r/auto"]);
  models.authStorage.setRuntimeApiKey("anthropic", "sk-test");
  assertEquals(names(models.getAvailable()).filter(VIRTUAL), ["r/auto", "anthropic/auto"]);
  // Registering again replaces; unregisterProvider leaves virtual models alone.
  models.registerVirtualModel({ provider: "r", id: "auto", name: "Auto 2", route });
  assertEquals(models.find("r", "auto")?.name, "Auto 2");
  models.unregisterProvider("r");
  assertEquals(models.find("r", "auto")?.name, "Auto 2");
  models.unregisterVirtualModel("r", "auto");
  assertEquals(models.find("r", "auto"), undefined);
});

test("EXT-VM-REG-02 a virtual model may not take a physical model's id, nor an empty one", () => {
  const models = registry();
  const route = () => ({ model: models.find("phys", "small")!, thinkingLevel: "off" as const });
  assertEquals(
    assertThrows(() => models.registerVirtualModel({ provider: "phys", id: "small", name: "x", route }))
      .message,
    "Virtual model phys/small conflicts with a physical model.",
  );
  assertEquals(
    assertThrows(() => models.registerVirtualModel({ provider: "r", id: " ", name: "x", route })).message,
    "Virtual model provider and id must not be empty.",
  );
});

test("EXT-VM-REG-03 routing: the router sees previous and state; its pick is checked and its level clamped", async () => {
  const models = registry();
  const seen: ModelRouteRequest[] = [];
  let target = { provider: "phys", id: "small" };
  models.registerVirtualModel({
    provider: "r",
    id: "auto",
    name: "Auto",
    thinkingLevels: ["high"],
    route(request) {
      seen.push(request);
      const model = models.find(target.provider, target.id)!;
      return { model, thinkingLevel: request.thinkingLevel, state: { n: 1 } };
    },
  });
  const auto = models.find("r", "auto")!;
  const reply: AssistantMessage = {
    role: "assistant",
    content: [{ type: "text", text: "hi" }],
    api: "openai-completions",
    provider: "phys",
    model: "small",
    usage: emptyUsage(),
    stopReason: "stop",
    timestamp: 0,
    thinkingLevel: "off",
  };
  const route = await models.resolveVirtualModel(auto, [reply], {
    reason: "continuation",
    thinkingLevel: "high",
    state: { n: 0 },
  });
  // "high" is clamped to the non-reasoning physical model.
  assertEquals([route.model.provider, route.model.id, route.thinkingLevel, route.state], [
    "phys",
    "small",
    "off",
    { n: 1 },
  ]);
  assertEquals([seen[0].reason, seen[0].previous?.model.id, seen[0].previous?.thinkingLevel, seen[0].state], [
    "continuation",
    "small",
    "off",
    { n: 0 },
  ]);
  target = { provider: "r", id: "auto" };
  assertEquals(
    (await assertRejects(() =>
      models.resolveVirtualModel(auto, [], { reason: "user", thinkingLevel: "high" })
    )).message,
    "Virtual model r/auto routed to r/auto, which is not a physical model.",
  );
  target = { provider: "anthropic", id: "claude-sonnet-4-5" };
  assertEquals(
    (await assertRejects(() =>
      models.resolveVirtualModel(auto, [], { reason: "user", thinkingLevel: "high" })
    )).message,
    "Virtual model r/auto routed to anthropic/claude-sonnet-4-5, which has no credentials.",
  );
  models.unregisterVirtualModel("r", "auto");
  assertEquals(
    (await assertRejects(() =>
      models.resolveVirtualModel(auto, [], { reason: "user", thinkingLevel: "high" })
    )).message,
    "Virtual model r/auto is not registered.",
  );
});
