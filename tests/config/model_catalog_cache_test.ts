/**
 * PKG-UPDATE-MODELS: which cached catalogs of models-store.json extend the built-in models (pi
 * 1.6.0's remote catalog overlay): only catalogs published after the built-in data, only chat
 * models of their own provider; a same id replaces the built-in model in place.
 */
import { join } from "node:path";
import { assertEquals } from "../support/assert.ts";
import type { Model } from "../../src/ai/types.ts";
import {
  BUILTIN_MODEL_DATA_GENERATED_AT,
  readCatalogOverlays,
  withCatalogOverlay,
} from "../../src/config/model_catalog_cache.ts";

const NEWER = BUILTIN_MODEL_DATA_GENERATED_AT + 1;

async function withStore(text: string, fn: (agentDir: string) => void): Promise<void> {
  const agentDir = await Deno.makeTempDir({ prefix: "pi-catalog-cache-" });
  try {
    await Deno.writeTextFile(join(agentDir, "models-store.json"), text);
    fn(agentDir);
  } finally {
    await Deno.remove(agentDir, { recursive: true });
  }
}

Deno.test("PKG-UPDATE-MODELS cached catalogs newer than the built-in data give chat models of their provider", async () => {
  const store = {
    anthropic: {
      models: [
        { id: "fresh", provider: "anthropic" },
        { id: "painter", provider: "anthropic", type: "image" },
        { id: "stray", provider: "openai" },
        { id: "typed-chat", provider: "anthropic", type: "chat" },
      ],
      lastModified: NEWER,
      checkedAt: 1,
    },
    openai: { models: [{ id: "old", provider: "openai" }], lastModified: BUILTIN_MODEL_DATA_GENERATED_AT },
    google: { models: [{ id: "none", provider: "google" }], lastModified: 0 },
    mistral: { models: [{ id: "unknown-age", provider: "mistral" }] },
  };
  await withStore(JSON.stringify(store), (agentDir) => {
    const overlays = readCatalogOverlays(agentDir);
    assertEquals([...overlays.keys()], ["anthropic"]);
    assertEquals(overlays.get("anthropic")!.map((m) => m.id), ["fresh", "typed-chat"]);
  });
});

Deno.test("PKG-UPDATE-MODELS a store that is not JSON, or missing, gives no overlays (built-in models only)", async () => {
  await withStore("{ not json", (agentDir) => assertEquals(readCatalogOverlays(agentDir).size, 0));
  assertEquals(readCatalogOverlays("/nonexistent/agent").size, 0);
});

Deno.test("PKG-UPDATE-MODELS an overlay model replaces the built-in one with its id in place and new ids follow", () => {
  const model = (id: string, name: string) => ({ id, name, provider: "anthropic" }) as unknown as Model;
  const merged = withCatalogOverlay(
    [model("a", "A"), model("b", "B")],
    [model("b", "B v2"), model("c", "C")],
  );
  assertEquals(merged.map((m) => `${m.id}:${m.name}`), ["a:A", "b:B v2", "c:C"]);
  assertEquals(withCatalogOverlay([model("a", "A")], undefined).map((m) => m.id), ["a"]);
});
