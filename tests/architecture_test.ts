/**
 * Keeps the layering honest (docs/architecture.md): a module imports only from its own tier or
 * the tiers below, never in a cycle (type-only imports and imports within one folder count too),
 * `src/tui` imports nothing of pi's own layers but `src/util`, and modes reach tools only through
 * `src/core`. The checker is a pure function of an import graph, so a synthetic graph shows below
 * that it does report what it must.
 */
import { assertEquals } from "./support/assert.ts";
import { dirname, join, relative, resolve } from "node:path";

const root = resolve(dirname(new URL(import.meta.url).pathname), "..");

/** Tiers, bottom to top. Areas in one tier may import each other (but not in a cycle). */
const TIERS: readonly (readonly string[])[] = [
  ["src/version.ts", "src/util"],
  ["src/tui"],
  ["src/ai"],
  ["src/agent"],
  ["src/tools", "src/session", "src/config", "src/resources", "src/compaction"],
  ["src/extensions"],
  ["src/core"],
  ["src/modes"],
  ["src/cli"],
  ["main.ts", "mod.ts"],
];

/** Areas that may import only the listed areas besides themselves, whatever their tier. */
const ONLY: Readonly<Record<string, readonly string[]>> = {
  "src/tui": ["src/util"],
};

/** Imports that the tier order allows but the design does not: [from, to, why]. */
const FORBIDDEN: readonly (readonly [string, string, string])[] = [
  ["src/modes", "src/tools", "modes reach tools only through src/core"],
];

/** The area (a TIERS entry) a repository-relative path belongs to. */
function areaOf(rel: string): string | undefined {
  for (const tier of TIERS) {
    for (const area of tier) if (rel === area || rel.startsWith(area + "/")) return area;
  }
  return undefined;
}

function tierOf(area: string): number {
  return TIERS.findIndex((tier) => tier.includes(area));
}

/** Repository-relative file → the repository-relative files it imports. */
export type ImportGraph = ReadonlyMap<string, readonly string[]>;

/** Every rule broken in `graph`, one line each, sorted; empty when the graph is sound. */
export function checkImportGraph(graph: ImportGraph): string[] {
  const problems: string[] = [];
  for (const [file, targets] of graph) {
    const from = areaOf(file);
    if (from === undefined) {
      problems.push(`${file} is in no layer`);
      continue;
    }
    for (const target of targets) {
      const to = areaOf(target);
      if (to === undefined) {
        problems.push(`${file} imports ${target}, which is in no layer`);
      } else if (tierOf(to) > tierOf(from)) {
        problems.push(`${file} (${from}) imports ${target} from the higher layer ${to}`);
      } else if (ONLY[from] && to !== from && !ONLY[from].includes(to)) {
        problems.push(`${file} imports ${target}: ${from} may import only ${ONLY[from].join(", ")}`);
      }
      for (const [a, b, why] of FORBIDDEN) {
        if (from === a && to === b) problems.push(`${file} imports ${target}: ${why}`);
      }
    }
  }
  for (const cycle of findCycles(graph)) problems.push(`import cycle: ${cycle.join(" → ")}`);
  return problems.sort();
}

/**
 * One concrete cycle (first node repeated at the end) per strongly connected component with more
 * than one file, or per file that imports itself (Tarjan's algorithm, iterative-free recursion is
 * fine at this size).
 */
export function findCycles(graph: ImportGraph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  let next = 0;
  const visit = (node: string): void => {
    index.set(node, next);
    low.set(node, next);
    next++;
    stack.push(node);
    onStack.add(node);
    for (const to of graph.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) {
        low.set(node, Math.min(low.get(node)!, index.get(to)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      const selfLoop = (graph.get(node) ?? []).includes(node);
      if (component.length > 1 || selfLoop) components.push(component);
    }
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return components.map((component) => cycleThrough(graph, new Set(component)));
}

/** The shortest cycle from the component's first file (by name) back to itself. */
function cycleThrough(graph: ImportGraph, component: ReadonlySet<string>): string[] {
  const start = [...component].sort()[0];
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (const to of graph.get(node) ?? []) {
      if (!component.has(to)) continue;
      if (to === start) {
        const path = [start];
        for (let at = node; at !== start; at = previous.get(at)!) path.splice(1, 0, at);
        return [...path, start];
      }
      if (!previous.has(to)) {
        previous.set(to, node);
        queue.push(to);
      }
    }
  }
  return [start, start];
}

const IMPORT_RE =
  /(?:^|[\n;])\s*(?:import|export)\b[^"'`;]*?\bfrom\s*["']([^"']+)["']|(?:^|[\n;])\s*import\s*["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/g;

/** Relative import specifiers in a module's text: static, type-only, re-exports, side-effect and dynamic. */
export function importSpecifiers(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(IMPORT_RE)) {
    const spec = m[1] ?? m[2] ?? m[3];
    if (spec?.startsWith(".")) out.push(spec);
  }
  return out;
}

function* walk(dir: string): Generator<string> {
  for (const entry of Deno.readDirSync(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) yield* walk(path);
    else if (entry.name.endsWith(".ts")) yield path;
  }
}

/** The import graph of src/, main.ts and mod.ts, with repository-relative paths. */
function projectGraph(): Map<string, string[]> {
  const files = [...walk(join(root, "src")), join(root, "main.ts"), join(root, "mod.ts")];
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const specs = importSpecifiers(Deno.readTextFileSync(file));
    const targets = specs.map((spec) => relative(root, resolve(dirname(file), spec)));
    graph.set(relative(root, file), [...new Set(targets)]);
  }
  return graph;
}

Deno.test("architecture: imports go downward only, in no cycle; src/tui imports only src/util; modes reach tools through core", () => {
  assertEquals(checkImportGraph(projectGraph()), []);
});

Deno.test("architecture: the checker reports a cycle, an upward import and each special rule (test of the test)", () => {
  const graph: ImportGraph = new Map([
    ["src/util/a.ts", ["src/core/b.ts"]],
    ["src/core/b.ts", ["src/core/c.ts", "src/tools/t.ts"]],
    ["src/core/c.ts", ["src/core/b.ts"]],
    ["src/tools/t.ts", ["src/tools/t.ts"]],
    ["src/tui/w.ts", ["src/util/a.ts", "src/ai/x.ts"]],
    ["src/ai/x.ts", []],
    ["src/modes/m.ts", ["src/tools/t.ts", "src/core/b.ts"]],
    ["src/nowhere.ts", []],
  ]);
  assertEquals(checkImportGraph(graph), [
    "import cycle: src/core/b.ts → src/core/c.ts → src/core/b.ts",
    "import cycle: src/tools/t.ts → src/tools/t.ts",
    "src/modes/m.ts imports src/tools/t.ts: modes reach tools only through src/core",
    "src/nowhere.ts is in no layer",
    "src/tui/w.ts (src/tui) imports src/ai/x.ts from the higher layer src/ai",
    "src/util/a.ts (src/util) imports src/core/b.ts from the higher layer src/core",
  ]);
  // A sound graph passes, so the first test's empty list means something.
  assertEquals(
    checkImportGraph(new Map([["src/core/b.ts", ["src/tools/t.ts"]], ["src/tools/t.ts", []]])),
    [],
  );
});

Deno.test("architecture: the scanner sees type-only, multi-line, re-export, side-effect and dynamic imports", () => {
  const text = [
    `import type { A } from "./a.ts";`,
    `import {\n  b,\n  type C,\n} from "../b.ts";`,
    `export * from "./c.ts";`,
    `export type { D } from "./d.ts";`,
    `import "./e.ts";`,
    `const f = await import("./f.ts");`,
    `type G = typeof import("./g.ts");`,
    `import { h } from "npm:h";`,
    ` * import { notCode } from "./comment.ts";`,
  ].join("\n");
  assertEquals(importSpecifiers(text), [
    "./a.ts",
    "../b.ts",
    "./c.ts",
    "./d.ts",
    "./e.ts",
    "./f.ts",
    "./g.ts",
  ]);
});

Deno.test("architecture: main.ts statically imports only the version module (CLI-03 fast --version)", () => {
  const text = Deno.readTextFileSync(join(root, "main.ts"));
  const statics = [...text.matchAll(/^import[^;]*?from\s*["']([^"']+)["']/gm)].map((m) => m[1]);
  assertEquals(statics, ["./src/version.ts"]);
});

/**
 * The only `node:` imports src/ may make: dynamic ones, in modules no start-up path loads, for what no web or
 * Deno API offers. Each is named with its reason.
 */
const LAZY_NODE_IMPORTS = new Map([
  // zstd for the Codex request body (Content-Encoding: zstd, as 1.6.0 sends it): CompressionStream has no
  // zstd; loaded on the first Codex request only (tests/ai/codex_lazy_load_test.ts).
  ["src/ai/providers/openai_codex_responses.ts: node:zlib", "dynamic"],
]);

Deno.test("architecture: src/ imports no node: built-ins (they load Deno's Node layer, ~13 MB at start-up)", () => {
  const offenders: string[] = [];
  for (const file of walk(join(root, "src"))) {
    const text = Deno.readTextFileSync(file);
    for (const m of text.matchAll(/(from\s*|import\(\s*)["'](node:[^"']+)["']/g)) {
      const found = `${relative(root, file)}: ${m[2]}`;
      // A listed exception must stay a dynamic import: a static one would load with its module.
      if (LAZY_NODE_IMPORTS.get(found) === "dynamic" && m[1].startsWith("import(")) continue;
      offenders.push(found);
    }
  }
  assertEquals(offenders, []);
});
