/**
 * Start-up stays as it was with the pi-messages (Radius) API in: no static import chain from
 * main.ts (which every run, `--version` and `-p` included, starts from) reaches its modules;
 * they are in the program only through api_registry.ts's dynamic import.
 */
import { assert, assertEquals } from "../support/assert.ts";
import { moduleGraph, staticClosure } from "../support/module_graph.ts";

const REPO = new URL("../../", import.meta.url);
const PI_MESSAGES_MODULES = [
  "src/ai/providers/pi_messages.ts",
  "src/ai/providers/pi_messages_events.ts",
].map((path) => new URL(path, REPO).href);

Deno.test("PROV-02 the pi-messages API modules load lazily: in main.ts's graph only behind a dynamic import", async () => {
  const graph = await moduleGraph();
  for (const module of PI_MESSAGES_MODULES) assert(graph.has(module), `${module} is not in main.ts's graph`);
  const eager = staticClosure(graph, new URL("main.ts", REPO).href);
  assertEquals(PI_MESSAGES_MODULES.filter((m) => eager.has(m)), []);
  const registry = graph.get(new URL("src/ai/api_registry.ts", REPO).href);
  const edge = registry?.dependencies?.find((d) => d.code?.specifier === PI_MESSAGES_MODULES[0]);
  assertEquals(edge?.isDynamic, true, "api_registry.ts imports the pi-messages API dynamically");
});
