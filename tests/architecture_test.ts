/**
 * Keeps the layering honest: a module may import only from its own layer or the layers below.
 * Layers, bottom to top: util/ai → agent → tools/session/config/resources/extensions → core →
 * modes/tui → cli → main.ts.
 */
import { assertEquals } from "./support/assert.ts";
import { dirname, join, relative, resolve } from "node:path";

const root = resolve(dirname(new URL(import.meta.url).pathname), "..");

const LAYERS: Record<string, number> = {
  "src/version.ts": 0,
  "src/util": 0,
  "src/ai": 0,
  "src/agent": 1,
  "src/tools": 2,
  "src/session": 2,
  "src/config": 2,
  "src/resources": 2,
  "src/compaction": 2,
  "src/extensions": 2,
  "src/core": 3,
  "src/modes": 4,
  "src/tui": 4,
  "src/cli": 5,
  "main.ts": 6,
  "mod.ts": 6,
};

function layerOf(path: string): number | undefined {
  const rel = relative(root, path);
  for (const [prefix, layer] of Object.entries(LAYERS)) {
    if (rel === prefix || rel.startsWith(prefix + "/")) return layer;
  }
  return undefined;
}

function* walk(dir: string): Generator<string> {
  for (const entry of Deno.readDirSync(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) yield* walk(path);
    else if (entry.name.endsWith(".ts")) yield path;
  }
}

const IMPORT_RE =
  /(?:^|\n)\s*(?:import|export)[^"'`;]*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

/** Relative imports of a file, resolved to absolute paths. */
function importsOf(file: string): string[] {
  const text = Deno.readTextFileSync(file);
  const out: string[] = [];
  for (const m of text.matchAll(IMPORT_RE)) {
    const spec = m[1] ?? m[2];
    if (spec?.startsWith(".")) out.push(resolve(dirname(file), spec));
  }
  return out;
}

Deno.test("architecture: no module imports from a layer above its own", () => {
  const violations: string[] = [];
  const files = [...walk(join(root, "src")), join(root, "main.ts"), join(root, "mod.ts")];
  for (const file of files) {
    const from = layerOf(file);
    if (from === undefined) {
      violations.push(`${relative(root, file)} is in no layer`);
      continue;
    }
    for (const target of importsOf(file)) {
      const to = layerOf(target);
      if (to !== undefined && to > from) {
        violations.push(
          `${relative(root, file)} (layer ${from}) imports ${relative(root, target)} (layer ${to})`,
        );
      }
    }
  }
  assertEquals(violations, []);
});

Deno.test("architecture: main.ts statically imports only the version module (CLI-03 fast --version)", () => {
  const text = Deno.readTextFileSync(join(root, "main.ts"));
  const statics = [...text.matchAll(/^import[^;]*?from\s*["']([^"']+)["']/gm)].map((m) => m[1]);
  assertEquals(statics, ["./src/version.ts"]);
});

Deno.test("architecture: src/ imports no node: built-ins (they load Deno's Node layer, ~13 MB at start-up)", () => {
  const offenders: string[] = [];
  for (const file of walk(join(root, "src"))) {
    const text = Deno.readTextFileSync(file);
    for (const m of text.matchAll(/(?:from\s*|import\(\s*)["'](node:[^"']+)["']/g)) {
      offenders.push(`${relative(root, file)}: ${m[1]}`);
    }
  }
  assertEquals(offenders, []);
});
