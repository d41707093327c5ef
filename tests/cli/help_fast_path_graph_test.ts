/**
 * A plain `pi --help` loads a few dozen modules, not the runtime: main.ts imports only
 * src/cli/help_fast_path.ts for it (when that answers, e2e/help_fast_path_test.ts), and that
 * module's static imports stay clear of the CLI flow, the runtime and the extension host.
 */
import { assert, assertEquals } from "../support/assert.ts";
import { moduleGraph, staticClosure } from "../support/module_graph.ts";

const REPO = new URL("../../", import.meta.url);

Deno.test("CLI-10 plain --help loads at most 30 modules (main.ts and the help fast path's static imports)", async () => {
  const graph = await moduleGraph();
  const main = new URL("main.ts", REPO).href;
  const fast = new URL("src/cli/help_fast_path.ts", REPO).href;
  assert(graph.has(fast), "help_fast_path.ts is not in main.ts's graph (moved? update this test)");
  const mainDeps = graph.get(main)?.dependencies ?? [];
  assert(
    mainDeps.some((d) => d.code?.specifier === fast && d.isDynamic),
    "main.ts imports the fast path lazily",
  );
  const loaded = new Set([...staticClosure(graph, main), ...staticClosure(graph, fast)]);
  assert(
    loaded.size <= 30,
    `${loaded.size} modules: ${[...loaded].map((s) => s.slice(REPO.href.length)).join(", ")}`,
  );
  const heavy = ["src/cli/main_flow.ts", "src/cli/runtime_factory.ts", "src/core/session_runtime.ts"]
    .map((p) => new URL(p, REPO).href);
  assertEquals(heavy.filter((h) => loaded.has(h)), []);
  // --version stays with main.ts and version.ts alone.
  assertEquals(staticClosure(graph, main).size, 2);
});
