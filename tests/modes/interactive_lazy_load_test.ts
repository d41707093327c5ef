/**
 * The interactive mode (src/modes/interactive) costs nothing where it is not used: no static
 * import chain from the entry points of `pi --version`, `-p`, JSON or RPC mode reaches it; the
 * CLI imports it on demand only for a terminal run. (tests/tui/lazy_load_test.ts shows with real
 * runs that those modes load no module of src/tui, which every interactive module imports.)
 */
import { assert, assertEquals } from "../support/assert.ts";
import { moduleGraph, staticClosure } from "../support/module_graph.ts";

const REPO = new URL("../../", import.meta.url);
const INTERACTIVE_DIR = new URL("src/modes/interactive/", REPO).href;

Deno.test("INT-LAZY: no static import chain from main.ts, the CLI, print/JSON or RPC mode reaches src/modes/interactive", async () => {
  const graph = await moduleGraph();
  const interactive = new URL("src/modes/interactive/interactive_mode.ts", REPO).href;
  assert(graph.has(interactive), "the CLI imports interactive_mode.ts (dynamically)");
  for (
    const entry of [
      "main.ts",
      "src/cli/run.ts",
      "src/cli/main_flow.ts",
      "src/modes/print_mode.ts",
      "src/modes/json_event.ts",
      "src/modes/rpc/rpc_mode.ts",
    ]
  ) {
    const root = new URL(entry, REPO).href;
    assert(graph.has(root), `${entry} is not in the module graph of main.ts (moved? update this list)`);
    const reached = [...staticClosure(graph, root)].filter((s) => s.startsWith(INTERACTIVE_DIR));
    assertEquals(reached, [], `static imports of ${entry}`);
  }
});

Deno.test("INT-LAZY: the /fork picker loads when first opened, not with the interactive mode", async () => {
  const graph = await moduleGraph();
  const fork = new URL("src/modes/interactive/fork_selector.ts", REPO).href;
  assert(graph.has(fork), "the command runner imports fork_selector.ts (dynamically)");
  const root = new URL("src/modes/interactive/interactive_mode.ts", REPO).href;
  assert(!staticClosure(graph, root).has(fork), "no static import chain reaches fork_selector.ts");
});

Deno.test("INT-LAZY: the HTML exporter and gist sharing load when /export or /share runs, not with the interactive mode", async () => {
  const graph = await moduleGraph();
  const root = new URL("src/modes/interactive/interactive_mode.ts", REPO).href;
  const closure = staticClosure(graph, root);
  for (const file of ["src/core/export/export_html.ts", "src/core/export/share_gist.ts"]) {
    const url = new URL(file, REPO).href;
    assert(graph.has(url), `${file} is imported (dynamically) somewhere`);
    assert(!closure.has(url), `no static import chain from the interactive mode reaches ${file}`);
  }
});
