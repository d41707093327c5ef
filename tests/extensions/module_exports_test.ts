/**
 * Export conformance of the module names extensions import (issue 16): for each name pi 1.6.0
 * hands extensions, the value exports an extension gets from it here, through the same generated
 * shim the loader writes (host_modules.ts), compared with what 1.6.0 gives under Node.
 *
 * - tests/fixtures/extensions/module_exports/reference_exports.json: 1.6.0's value exports per name
 *   (captured by capture_module_exports.mjs in that folder; when the reference is installed the
 *   test re-captures and compares).
 * - tests/fixtures/extensions/module_exports/missing.json: per name, the 1.6.0 exports we do not
 *   provide yet. The test asserts the missing set equals it exactly, so a name added to a shim
 *   forces the list to shrink and a name lost fails. Regenerate after adding names:
 *   `deno run -A tests/extensions/module_exports_test.ts --write` (review the diff: it may only
 *   lose entries).
 *
 * Types: for the declaration files of 1.6.0 that stand alone (no imports; stored verbatim in
 * tests/fixtures/extensions/module_exports/dts/ as `<package>/<file>.d.ts.txt`, compared with the reference when it
 * is installed), every value they declare that our module exports must have a type assignable to
 * theirs (`deno check` of a generated file, as tests/tui/exports_test.ts does for pi-tui). The other
 * declarations import pi-ai's model and message types, which pull in pi-schema and the provider
 * SDKs' types: module_types_test.ts checks every value against them when the reference is installed.
 *
 * `deno run -A tests/extensions/module_exports_test.ts` prints present/missing counts per name.
 *
 * @module
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { findReference } from "../../scripts/reference/locate.ts";
import { loadExtensions } from "../../src/extensions/loader.ts";
import {
  hostModuleName,
  hostModuleNames,
  publishHostImport,
  shimSource,
} from "../../src/extensions/host_modules.ts";
import { assertEquals } from "../support/assert.ts";
import { referenceCheckOutput } from "../support/reference_check.ts";
import { registerModeExtensionExports } from "../../src/modes/extension_exports_setup.ts";

// As the CLI does before loading extensions: the interactive mode's exports (CustomEditor …).
registerModeExtensionExports();

const FIXTURES = fileURLToPath(new URL("../fixtures/extensions/module_exports/", import.meta.url));
const REFERENCE_PATH = join(FIXTURES, "reference_exports.json");
const MISSING_PATH = join(FIXTURES, "missing.json");
const CAPTURE = join(FIXTURES, "capture_module_exports.mjs");

type NameLists = Record<string, string[]>;

function readLists(path: string): NameLists {
  return JSON.parse(Deno.readTextFileSync(path)) as NameLists;
}

/** What `import * as m from "<name>"` gives an extension here: the loader's shim, imported. */
async function extensionView(specifier: string, dir: string): Promise<string[]> {
  const name = hostModuleName(specifier);
  if (!name) throw new Error(`${specifier} is not a module name extensions can import`);
  const namespace = await publishHostImport({ name, names: "*" });
  if (!namespace) throw new Error(`${name}: no namespace for a "*" import`);
  const file = join(dir, `${name.replace(/[^A-Za-z0-9]+/g, "_")}.mjs`);
  await Deno.writeTextFile(file, shimSource(name, namespace));
  const shim = await import(`file://${file}`) as Record<string, unknown>;
  return Object.keys(shim).filter((key) => key !== "default").sort();
}

/** Per module name of the reference: the names 1.6.0 exports that our shim lacks. */
async function missingNames(): Promise<{ missing: NameLists; present: Record<string, number> }> {
  const reference = readLists(REFERENCE_PATH);
  const dir = await Deno.makeTempDir({ prefix: "pi-module-exports-" });
  try {
    const missing: NameLists = {};
    const present: Record<string, number> = {};
    for (const [specifier, names] of Object.entries(reference)) {
      const ours = new Set(await extensionView(specifier, dir));
      missing[specifier] = names.filter((key) => !ours.has(key));
      present[specifier] = names.length - missing[specifier].length;
    }
    return { missing, present };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("EXT-MODULES every module name 1.6.0 hands extensions resolves here, under both scopes", () => {
  const reference = Object.keys(readLists(REFERENCE_PATH));
  const canonical = new Set(hostModuleNames());
  for (const specifier of reference) {
    const name = hostModuleName(specifier);
    assertEquals(name !== undefined && canonical.has(name), true, `${specifier} resolves to a host module`);
    if (specifier.startsWith("@earendil-works/")) {
      const legacy = `@mariozechner/${specifier.slice("@earendil-works/".length)}`;
      assertEquals(hostModuleName(legacy), name, `${legacy} is the same module as ${specifier}`);
    }
  }
  // 1.6.0's aliases: pi-ai's root is its compat entry, @sinclair/typebox is typebox.
  assertEquals(hostModuleName("@earendil-works/pi-ai/compat"), "@earendil-works/pi-ai");
  assertEquals(hostModuleName("@sinclair/typebox"), "typebox");
  assertEquals(hostModuleName("@sinclair/typebox/compile"), "typebox/compile");
  assertEquals(hostModuleName("@sinclair/typebox/value"), "typebox/value");
  assertEquals(hostModuleName("@earendil-works/pi-ai/bedrock-provider"), undefined);
});

Deno.test("EXT-MODULES an extension gets every value export of 1.6.0's modules except the listed missing ones", async () => {
  const { missing } = await missingNames();
  const expected = readLists(MISSING_PATH);
  assertEquals(
    Object.keys(missing).sort(),
    Object.keys(expected).sort(),
    "missing.json lists every module name",
  );
  for (const specifier of Object.keys(missing)) {
    assertEquals(
      missing[specifier],
      expected[specifier],
      `${specifier}: the 1.6.0 exports missing here differ from missing.json (after adding names run ` +
        "`deno run -A tests/extensions/module_exports_test.ts --write`)",
    );
  }
});

Deno.test("EXT-MODULES reference_exports.json equals what the installed 1.6.0 exports", async () => {
  const reference = readLists(REFERENCE_PATH);
  assertEquals(
    reference["@earendil-works/pi-coding-agent"].length > 100,
    true,
    "the capture lists pi's exports",
  );
  const live = await referenceCheckOutput(CAPTURE, "reference_exports.json");
  if (live !== undefined) assertEquals(live, reference);
});

Deno.test("EXT-MODULES an extension importing the pi-ai subpaths and pi-mcp loads; a name we lack fails naming it", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pi-module-ext-" });
  try {
    const ok = join(dir, "uses_subpaths.ts");
    await Deno.writeTextFile(
      ok,
      [
        'import { calculateCost } from "@mariozechner/pi-ai/models";',
        'import { getBuiltinModel, getBuiltinProviders } from "@earendil-works/pi-ai/providers/all";',
        'import type { OAuthCredentials } from "@earendil-works/pi-ai/oauth";',
        'import { mcpNamespace, MCP_OUTPUT_MAX_BYTES } from "@earendil-works/pi-mcp";',
        'import { uuidv7 } from "@earendil-works/pi-ai";',
        "export default function (pi: { appendEntry(type: string, data: unknown): void }) {",
        "  const credentials: OAuthCredentials = { refresh: 'r', access: 'a', expires: 0 };",
        "  const seen = {",
        "    cost: typeof calculateCost,",
        "    model: getBuiltinModel('anthropic', 'claude-sonnet-4-5')?.id,",
        "    unknown: getBuiltinModel('anthropic', 'no-such-model') ?? null,",
        "    providers: getBuiltinProviders().includes('openai'),",
        "    namespace: mcpNamespace('my-server'),",
        "    limit: MCP_OUTPUT_MAX_BYTES,",
        "    uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(uuidv7()),",
        "    credentials: credentials.access,",
        "  };",
        "  (globalThis as Record<string, unknown>).__piModuleExportsSeen = seen;",
        "}",
      ].join("\n"),
    );
    const missing = join(dir, "uses_missing.ts");
    await Deno.writeTextFile(
      missing,
      'import { createModels } from "@earendil-works/pi-ai/models";\nexport default function () { void createModels; }\n',
    );
    const result = await loadExtensions(
      [ok, missing].map((file) => ({ path: file.slice(dir.length + 1), resolvedPath: file })),
      { cwd: dir, cacheDir: join(dir, "cache"), factoryTimeoutMs: 10_000 },
    );
    assertEquals(result.extensions.length, 1);
    assertEquals((globalThis as Record<string, unknown>).__piModuleExportsSeen, {
      cost: "function",
      model: "claude-sonnet-4-5",
      unknown: null,
      providers: true,
      namespace: "mcp__my_server",
      limit: 20480,
      uuid: true,
      credentials: "a",
    });
    assertEquals(result.errors.map((e) => e.path), ["uses_missing.ts"]);
    assertEquals(
      result.errors[0].error.includes(
        "The requested module '@earendil-works/pi-ai/models' does not provide an export named 'createModels'",
      ),
      true,
      result.errors[0].error,
    );
  } finally {
    delete (globalThis as Record<string, unknown>).__piModuleExportsSeen;
    await Deno.remove(dir, { recursive: true });
  }
});

const DTS = join(FIXTURES, "dts");

/** A stored declaration file: `<package>/dist/<file>` is kept as `<package>/<file>.txt` (`dist/` is git-ignored). */
function storedDts(path: string): string {
  return join(DTS, `${path.replace("/dist/", "/")}.txt`);
}
const REPO = fileURLToPath(new URL("../../", import.meta.url));

/** The stored stand-alone declaration files of 1.6.0 and the module name that exports their values. */
const STANDALONE_DTS: Record<string, string> = {
  "pi-ai/dist/utils/uuid.d.ts": "@earendil-works/pi-ai",
  "pi-mcp/dist/naming.d.ts": "@earendil-works/pi-mcp",
  "pi-mcp/dist/input-schema.d.ts": "@earendil-works/pi-mcp",
  "pi-coding-agent/dist/config.d.ts": "@earendil-works/pi-coding-agent",
  "pi-coding-agent/dist/core/tools/edit-diff.d.ts": "@earendil-works/pi-coding-agent",
  "pi-coding-agent/dist/core/tools/truncate.d.ts": "@earendil-works/pi-coding-agent",
  "pi-coding-agent/dist/core/tools/file-mutation-queue.d.ts": "@earendil-works/pi-coding-agent",
  "pi-coding-agent/dist/utils/mime.d.ts": "@earendil-works/pi-coding-agent",
  "pi-coding-agent/dist/utils/frontmatter.d.ts": "@earendil-works/pi-coding-agent",
  "pi-coding-agent/dist/utils/shell.d.ts": "@earendil-works/pi-coding-agent",
};

/** Our module behind each name the stand-alone declarations belong to. */
const OUR_MODULES: Record<string, string> = {
  "@earendil-works/pi-ai": "../../src/extensions/compat/pi_ai.ts",
  "@earendil-works/pi-mcp": "../../src/extensions/compat/pi_mcp.ts",
  "@earendil-works/pi-coding-agent": "../../src/extensions/compat/coding_agent.ts",
};

Deno.test("EXT-MODULES the stored stand-alone 1.6.0 declarations import nothing and equal the installed ones", () => {
  const ref = findReference();
  for (const path of Object.keys(STANDALONE_DTS)) {
    const text = Deno.readTextFileSync(storedDts(path));
    assertEquals(/^\s*import\s|^export\s[^;]*\sfrom\s/m.test(text), false, `${path} stands alone`);
    if (ref) assertEquals(text, Deno.readTextFileSync(join(ref.nodeModules, "@earendil-works", path)), path);
  }
  if (!ref) {
    console.error("!!! reference pi is not installed: the stored declarations are not compared with it");
  }
});

Deno.test("EXT-MODULES values of 1.6.0's stand-alone declarations have types assignable to theirs here", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pi-module-types-" });
  try {
    const lines = ["declare function accepts<T>(value: T): void;", "declare function sample<T>(): T;"];
    const checked: string[] = [];
    const entries = Object.entries(STANDALONE_DTS);
    for (const [index, [path, name]] of entries.entries()) {
      const text = Deno.readTextFileSync(storedDts(path));
      Deno.writeTextFileSync(join(dir, `theirs_${index}.d.ts`), text);
      const ours = await import(new URL(OUR_MODULES[name], import.meta.url).href) as Record<string, unknown>;
      lines.push(`import type * as Theirs${index} from "./theirs_${index}.d.ts";`);
      lines.push(
        `import type * as Ours${index} from ${
          JSON.stringify(new URL(OUR_MODULES[name], import.meta.url).href)
        };`,
      );
      for (const m of text.matchAll(/^export declare (?:function|const|class) (\w+)/gm)) {
        if (!(m[1] in ours)) continue; // listed in missing.json
        lines.push(`accepts<typeof Theirs${index}.${m[1]}>(sample<typeof Ours${index}.${m[1]}>());`);
        checked.push(`${name} ${m[1]}`);
      }
    }
    Deno.writeTextFileSync(join(dir, "check.ts"), lines.join("\n") + "\n");
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["check", "--quiet", "--no-lock", "--config", join(REPO, "deno.json"), join(dir, "check.ts")],
      cwd: REPO,
      env: { NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
    assertEquals(text.trim(), "", `types not assignable to 1.6.0's:\n${text}`);
    assertEquals(out.code, 0);
    assertEquals(checked.length >= 19, true, `checked ${checked.length} names: ${checked.join(", ")}`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

if (import.meta.main) {
  const { missing, present } = await missingNames();
  for (const specifier of Object.keys(missing)) {
    console.log(`${specifier}: ${present[specifier]} present, ${missing[specifier].length} missing`);
  }
  if (Deno.args.includes("--write")) {
    await Deno.writeTextFile(MISSING_PATH, JSON.stringify(missing, null, 2) + "\n");
    console.log(`wrote ${MISSING_PATH}`);
  }
}
