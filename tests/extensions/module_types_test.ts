/**
 * Type conformance of the module names extensions import (issue 16): every value an extension gets
 * here from a name 1.6.0 hands it (pi-coding-agent, pi-ai and its subpaths, pi-agent-core, pi-tui,
 * pi-mcp, typebox) must have a type assignable to the one 1.6.0's published `.d.ts` declares, so an
 * extension that compiles against pi compiles against us.
 *
 * The check is a generated file, `deno check`ed in a temporary folder whose `node_modules` is the
 * installed reference's (a symlink; `nodeModulesDir: "manual"`), so that 1.6.0's declarations are
 * resolved as Node and TypeScript resolve them, with every package they import (pi-schema, the
 * provider SDKs). Per value name `x` of 1.6.0's module `M` that our module exports:
 * `accepts<typeof Theirs.x>(sample<typeof Ours.x>())`.
 *
 * - The value names per module come from tests/fixtures/extensions/module_exports/reference_exports.json
 *   (what 1.6.0 exports at run time); names we lack are missing.json's business (module_exports_test.ts).
 * - tests/fixtures/extensions/module_exports/type_mismatches.json lists, per `"<module> <name>"`, the
 *   checks that fail today and why. The set of failing checks must equal it: a new mismatch fails the
 *   test, and so does a listed one that now passes (delete its entry then).
 *
 * Without the reference, its declarations cannot be resolved: the test says so loudly and checks only
 * that the listed mismatches name exports that exist on both sides; module_exports_test.ts still checks
 * the stand-alone declarations stored in the repository.
 *
 * `deno run -A tests/extensions/module_types_test.ts` prints checked/failing counts per module and
 * each failure's first compiler line; `--write` rewrites type_mismatches.json (keeping known reasons).
 *
 * @module
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { findReference } from "../../scripts/reference/locate.ts";
import { hostModuleName, hostModuleNames } from "../../src/extensions/host_modules.ts";
import { assertEquals } from "../support/assert.ts";

const FIXTURES = fileURLToPath(new URL("../fixtures/extensions/module_exports/", import.meta.url));
const REFERENCE_PATH = join(FIXTURES, "reference_exports.json");
const MISMATCHES_PATH = join(FIXTURES, "type_mismatches.json");

/**
 * Our modules behind each canonical module name, in the order the host merges them (a later one
 * wins a name): host_modules.ts's entry, then what a higher layer adds (extension_exports_setup.ts).
 */
const OUR_MODULES: Record<string, string[]> = {
  "@earendil-works/pi-coding-agent": [
    "src/extensions/compat/coding_agent.ts",
    "src/modes/interactive/extension_exports.ts",
  ],
  "@earendil-works/pi-ai": ["src/extensions/compat/pi_ai.ts"],
  "@earendil-works/pi-ai/models": ["src/extensions/compat/pi_ai_models.ts"],
  "@earendil-works/pi-ai/oauth": ["src/extensions/compat/pi_ai_oauth.ts"],
  "@earendil-works/pi-ai/providers/all": ["src/extensions/compat/pi_ai_providers_all.ts"],
  "@earendil-works/pi-mcp": ["src/extensions/compat/pi_mcp.ts"],
  "@earendil-works/pi-tui": ["src/extensions/compat/pi_tui.ts"],
  "@earendil-works/pi-agent-core": ["src/extensions/compat/agent_core.ts"],
  "typebox": ["src/extensions/compat/typebox.ts"],
  "typebox/compile": ["src/extensions/compat/typebox_compile.ts"],
  "typebox/value": ["src/extensions/compat/typebox_value.ts"],
};

const REPO = fileURLToPath(new URL("../../", import.meta.url));

/** The outcome of one `deno check` of the generated file. */
interface TypeResult {
  /** Checks per module specifier. */
  checked: Record<string, number>;
  /** `"<specifier> <name>"` → the compiler's first message line. */
  failures: Map<string, string>;
  /** Compiler errors outside the generated file (a module of ours or theirs that does not check). */
  other: string[];
  /** `"<specifier> <name>"` values 1.6.0 exports at run time that its `.d.ts` does not declare. */
  undeclared: string[];
}

type NameLists = Record<string, string[]>;

/** Per 1.6.0 module specifier: its value names that our module exports too, and from which file. */
async function checksPerModule(): Promise<Map<string, { name: string; file: string }[]>> {
  const reference = JSON.parse(Deno.readTextFileSync(REFERENCE_PATH)) as NameLists;
  const out = new Map<string, { name: string; file: string }[]>();
  for (const [specifier, names] of Object.entries(reference)) {
    const canonical = hostModuleName(specifier);
    if (!canonical) throw new Error(`${specifier} is not a module name extensions can import`);
    const owner = new Map<string, string>();
    for (const file of OUR_MODULES[canonical]) {
      const ours = await import(new URL(`../../${file}`, import.meta.url).href) as Record<string, unknown>;
      for (const key of Object.keys(ours)) owner.set(key, file);
    }
    out.set(
      specifier,
      names.filter((name) => owner.has(name)).map((name) => ({ name, file: owner.get(name)! })),
    );
  }
  return out;
}

/**
 * typebox's names are typebox's own, not pi's: we re-export typebox 1.4.3 where 1.6.0 ships
 * 1.3.27, and comparing two copies of its deeply generic types structurally exhausts the compiler
 * (over 4 GB). They are left to typebox's semver; the test names them so they are not skipped silently.
 */
const NOT_TYPE_CHECKED = ["typebox", "typebox/compile", "typebox/value"];

/** Messages of our npm imports the check folder cannot resolve (see {@link checkModule}). */
const unresolved = new Set<string>();

/** `deno check`s one generated file per 1.6.0 module against the reference's node_modules. */
async function checkTypes(nodeModules: string): Promise<TypeResult> {
  const perModule = await checksPerModule();
  const checked: Record<string, number> = {};
  const failures = new Map<string, string>();
  const other: string[] = [];
  const undeclared: string[] = [];
  for (const [specifier, names] of perModule) {
    if (NOT_TYPE_CHECKED.includes(specifier) || names.length === 0) continue;
    const before = undeclared.length;
    await checkModule(nodeModules, specifier, names, failures, other, undeclared);
    checked[specifier] = names.length - (undeclared.length - before);
  }
  return { checked, failures, other, undeclared };
}

/**
 * The check folder's node_modules: the reference's packages, linked; pi's own packages copied with
 * their declarations only and without `private`/`protected` class members, which make TypeScript
 * classes nominal (no class of ours could match a declared class with private fields; those members
 * are not part of the API an extension sees). Our own npm packages that the reference lacks
 * (@modelcontextprotocol/sdk …) are linked from the repository's node_modules.
 */
async function linkNodeModules(reference: string, target: string): Promise<void> {
  await Deno.mkdir(target);
  const link = async (from: string, name: string) => {
    if (name.startsWith(".")) return;
    try {
      await Deno.lstat(join(target, name));
    } catch {
      await Deno.symlink(join(from, name), join(target, name));
    }
  };
  for (const entry of Deno.readDirSync(reference)) {
    if (entry.name !== "@earendil-works") await link(reference, entry.name);
  }
  for (const entry of Deno.readDirSync(join(reference, "@earendil-works"))) {
    await copyDeclarations(
      join(reference, "@earendil-works", entry.name),
      join(target, "@earendil-works", entry.name),
    );
  }
  const ours = join(REPO, "node_modules");
  try {
    for (const entry of Deno.readDirSync(ours)) await link(ours, entry.name);
  } catch {
    // No node_modules of ours (nothing cached yet): our npm imports resolve from the reference's.
  }
}

/** Copies a package's package.json and `.d.ts` files, dropping non-public class members. */
async function copyDeclarations(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for (const entry of Deno.readDirSync(from)) {
    const source = join(from, entry.name);
    if (entry.isDirectory && entry.name !== "node_modules") {
      await copyDeclarations(source, join(to, entry.name));
    } else if (entry.name === "package.json") await Deno.copyFile(source, join(to, entry.name));
    else if (entry.name.endsWith(".d.ts")) {
      await Deno.writeTextFile(
        join(to, entry.name),
        withoutNonPublicMembers(await Deno.readTextFile(source)),
      );
    }
  }
}

/**
 * Drops `private`/`protected` members of declared classes (a member may span lines up to its `;`),
 * and the `#private;` marker TypeScript emits for a class with ES private fields (`#x`).
 */
function withoutNonPublicMembers(dts: string): string {
  const out: string[] = [];
  let skipping = false;
  for (const line of dts.split("\n")) {
    if (!skipping && /^\s+(private\b|protected\b|#private;)/.test(line)) skipping = true;
    if (!skipping) out.push(line);
    else if (/;\s*$/.test(line)) skipping = false;
  }
  return out.join("\n");
}

/** Generates the check file of one module in a temporary folder and `deno check`s it. */
async function checkModule(
  nodeModules: string,
  specifier: string,
  names: { name: string; file: string }[],
  failures: Map<string, string>,
  other: string[],
  undeclared: string[],
): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "pi-module-types-" });
  try {
    await linkNodeModules(nodeModules, join(dir, "node_modules"));
    const root = specifier.split("/").slice(0, specifier.startsWith("@") ? 2 : 1).join("/");
    await Deno.writeTextFile(
      join(dir, "package.json"),
      JSON.stringify({
        name: "pi-module-types",
        private: true,
        type: "module",
        dependencies: { [root]: "*" },
      }),
    );
    await Deno.writeTextFile(join(dir, "deno.json"), JSON.stringify({ nodeModulesDir: "manual" }));
    const lines = ["declare function accepts<T>(value: T): void;", "declare function sample<T>(): T;"];
    lines.push(`import type * as Theirs from ${JSON.stringify(specifier)};`);
    const byLine = new Map<number, string>();
    const ourAliases = new Map<string, string>();
    for (const { name, file } of names) {
      let alias = ourAliases.get(file);
      if (!alias) {
        alias = `Ours${ourAliases.size}`;
        ourAliases.set(file, alias);
        lines.push(`import type * as ${alias} from ${JSON.stringify(`file://${join(REPO, file)}`)};`);
      }
      lines.push(`accepts<typeof Theirs.${name}>(sample<typeof ${alias}.${name}>());`);
      byLine.set(lines.length, name);
    }
    const checkFile = join(dir, "check.ts");
    await Deno.writeTextFile(checkFile, lines.join("\n") + "\n");
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["check", "--quiet", "--no-lock", "--config", join(dir, "deno.json"), checkFile],
      cwd: dir,
      env: { NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
    // One diagnostic: `TSnnnn [ERROR]: message…` up to its `at file:…:line:col` line.
    let found = 0;
    for (const m of text.matchAll(/(TS\d+) \[ERROR\]: ([^\n]*)[\s\S]*?\n\s+at (file:\/\/\S+?):(\d+):\d+/g)) {
      found++;
      const name = m[3] === `file://${checkFile}` ? byLine.get(Number(m[4])) : undefined;
      if (name && m[1] === "TS2339" && m[2].includes(" on type 'typeof import(")) {
        undeclared.push(`${specifier} ${name}`); // 1.6.0 exports it at run time, its .d.ts omits it
      } else if (name) failures.set(`${specifier} ${name}`, `${m[1]}: ${m[2].trim()}`);
      else if (m[1] === "TS2307" && m[2].includes("'npm:") && m[3].startsWith(`file://${REPO}src/`)) {
        // An npm package of ours the reference does not have (@modelcontextprotocol/sdk): Deno resolves
        // npm: specifiers from the check folder's node_modules only; its types are `any` here.
        unresolved.add(m[2].trim());
      } else other.push(`${specifier}: ${m[3]}:${m[4]} ${m[1]}: ${m[2].trim()}`);
    }
    if (out.code !== 0 && found === 0) other.push(`${specifier}: ${text}`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

function readMismatches(): Record<string, string> {
  return JSON.parse(Deno.readTextFileSync(MISMATCHES_PATH)) as Record<string, string>;
}

Deno.test("EXT-MODULES every host module name has its modules listed for the type check", () => {
  assertEquals(Object.keys(OUR_MODULES).sort(), hostModuleNames().sort());
});

Deno.test("EXT-MODULES the listed type mismatches name values 1.6.0 and we both export", async () => {
  const perModule = await checksPerModule();
  for (const [key, reason] of Object.entries(readMismatches())) {
    const [specifier, name] = key.split(" ");
    const names = perModule.get(specifier)?.map((check) => check.name) ?? [];
    assertEquals(names.includes(name), true, `${key} is a value both sides export`);
    assertEquals(reason.length > 10, true, `${key} says why it mismatches`);
  }
});

Deno.test("EXT-MODULES values extensions get here have types assignable to 1.6.0's published .d.ts", async () => {
  const ref = findReference();
  if (!ref) {
    console.error(
      "!!! reference pi is not installed: values are type-checked only against the stored stand-alone " +
        "declarations (module_exports_test.ts); run `deno task reference` for the full check",
    );
    return;
  }
  const { checked, failures, other } = await checkTypes(ref.nodeModules);
  assertEquals(other, [], "declarations and our modules type-check");
  const total = Object.values(checked).reduce((a, b) => a + b, 0);
  assertEquals(total >= 400, true, `checked ${total} names`);
  const expected = readMismatches();
  const unexpected = [...failures].filter(([key]) => !(key in expected)).map(([key, msg]) =>
    `${key}: ${msg}`
  );
  const fixed = Object.keys(expected).filter((key) => !failures.has(key));
  assertEquals(
    unexpected,
    [],
    "new type mismatches with 1.6.0 (fix them or list them in type_mismatches.json)",
  );
  assertEquals(fixed, [], "listed in type_mismatches.json but assignable now: delete these entries");
});

if (import.meta.main) {
  const { checked, failures, other, undeclared } = await checkTypes(
    (findReference() ?? (() => {
      throw new Error("the reference is not installed: run `deno task reference`");
    })()).nodeModules,
  );
  for (const [specifier, count] of Object.entries(checked)) {
    const failing = [...failures.keys()].filter((key) => key.startsWith(`${specifier} `)).length;
    console.log(`${specifier}: ${count} checked, ${failing} not assignable`);
  }
  for (const [key, message] of failures) console.log(`  ${key}: ${message}`);
  for (const line of other) console.log(`other: ${line}`);
  console.log(`not declared in 1.6.0's .d.ts (not checked): ${undeclared.join(", ")}`);
  console.log(`unresolved npm imports of ours (typed any): ${[...unresolved].join(" | ")}`);
  if (Deno.args.includes("--write")) {
    const known = readMismatches();
    const next = Object.fromEntries(
      [...failures.keys()].sort().map((key) => [key, known[key] ?? `TODO: ${failures.get(key)}`]),
    );
    await Deno.writeTextFile(MISMATCHES_PATH, JSON.stringify(next, null, 2) + "\n");
    console.log(`wrote ${MISMATCHES_PATH}`);
  }
}
