/**
 * The module graph of `main.ts` as `deno info --json` reports it, and the static closure of a
 * module in it: what loads together with it. The lazy-load tests use it to show that a mode's
 * entry point does not drag in code it does not need.
 *
 * @module
 */
import { assert } from "./assert.ts";

const REPO = new URL("../../", import.meta.url);

/** A module `deno info` reports, with its run-time import edges. */
export interface GraphModule {
  specifier: string;
  dependencies?: { code?: { specifier: string }; isDynamic?: boolean }[];
}

/** The modules of main.ts's graph, keyed by specifier. */
export async function moduleGraph(): Promise<Map<string, GraphModule>> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", new URL("main.ts", REPO).pathname],
    cwd: REPO.pathname,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert(out.success, new TextDecoder().decode(out.stderr));
  const info = JSON.parse(new TextDecoder().decode(out.stdout)) as { modules: GraphModule[] };
  return new Map(info.modules.map((m) => [m.specifier, m]));
}

/**
 * Every module that loads together with `root`: its static imports, transitively. Type-only
 * imports have no `code` edge and load nothing.
 */
export function staticClosure(graph: Map<string, GraphModule>, root: string): Set<string> {
  const seen = new Set<string>([root]);
  const queue = [root];
  while (queue.length > 0) {
    for (const dep of graph.get(queue.pop()!)?.dependencies ?? []) {
      const target = dep.code?.specifier;
      if (!target || dep.isDynamic || seen.has(target)) continue;
      seen.add(target);
      queue.push(target);
    }
  }
  return seen;
}
