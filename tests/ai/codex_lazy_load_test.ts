/**
 * Start-up stays as it was with the Codex API in: no static import chain from main.ts (which
 * every run, `--version` and `-p` included, starts from) reaches the openai-codex-responses
 * modules; they are in the program only through api_registry.ts's dynamic import, so they load
 * when a Codex model streams and not before.
 */
import { assert, assertEquals } from "../support/assert.ts";
import { moduleGraph, staticClosure } from "../support/module_graph.ts";

const REPO = new URL("../../", import.meta.url);
const CODEX_MODULES = [
  "src/ai/providers/openai_codex_responses.ts",
  "src/ai/providers/openai_codex_request.ts",
  "src/ai/providers/openai_codex_websocket.ts",
  "src/ai/providers/openai_codex_socket.ts",
  "src/ai/providers/openai_codex_events.ts",
].map((path) => new URL(path, REPO).href);

Deno.test("PROV-02 the Codex API modules load lazily: in main.ts's graph only behind a dynamic import", async () => {
  const graph = await moduleGraph();
  for (const module of CODEX_MODULES) assert(graph.has(module), `${module} is not in main.ts's graph`);
  const eager = staticClosure(graph, new URL("main.ts", REPO).href);
  assertEquals(CODEX_MODULES.filter((m) => eager.has(m)), []);
  const registry = graph.get(new URL("src/ai/api_registry.ts", REPO).href);
  const edge = registry?.dependencies?.find((d) => d.code?.specifier === CODEX_MODULES[0]);
  assertEquals(edge?.isDynamic, true, "api_registry.ts imports the Codex API dynamically");
});
