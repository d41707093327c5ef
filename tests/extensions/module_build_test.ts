/**
 * The extension build (src/extensions/module_build.ts): TypeScript stripped, pi's module names
 * pointed at the host shims, bare Node built-ins given `node:`, `./x.js` found as `./x.ts`, the
 * result cached by the hash of every source (a changed helper file rebuilds its importer), and
 * parse errors naming the file and position.
 */
import { join } from "node:path";
import { assert, assertEquals, assertRejects } from "../support/assert.ts";
import { buildExtension, importedNames, shimFileName, toFileUrl } from "../../src/extensions/module_build.ts";

async function withDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "pi_ext_build_" }));
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("EXT-BUILD rewrites pi names, bare built-ins and .js→.ts imports; keeps node: and computed imports", async () => {
  await withDir(async (dir) => {
    const src = join(dir, "ext");
    await Deno.mkdir(join(src, "lib"), { recursive: true });
    await Deno.writeTextFile(
      join(src, "index.ts"),
      [
        `import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";`,
        `import { Type } from "@mariozechner/pi-ai";`,
        `import { join } from "path";`,
        `import { readFileSync } from "node:fs";`,
        `import { helper } from "./lib/helper.js";`,
        `const later = () => import("./lib");`,
        `const name = "x"; const computed = () => import(name);`,
        `export default function (pi: ExtensionAPI): void { void [Type, join, readFileSync, helper, later, computed, pi]; }`,
      ].join("\n"),
    );
    await Deno.writeTextFile(join(src, "lib", "helper.ts"), `export const helper: number = 1;\n`);
    await Deno.writeTextFile(join(src, "lib", "index.ts"), `export const lazy = true;\n`);
    const cache = join(dir, "cache");
    const built = await buildExtension(join(src, "index.ts"), cache);
    const request = { name: "@earendil-works/pi-ai", names: ["Type"] };
    assertEquals([built.cached, built.hostImports], [false, [request]]);
    const code = await Deno.readTextFile(new URL(built.entryUrl));
    const shim = toFileUrl(join(cache, "shims", shimFileName(request)));
    assert(code.includes(`import { Type } from "${shim}";`), code);
    assert(!code.includes("pi-coding-agent"), "a type-only import is erased");
    assert(code.includes(`from "node:path"`) && code.includes(`from "node:fs"`), code);
    assert(code.includes(`from "./1-helper.mjs"`) && code.includes(`import("./2-index.mjs")`), code);
    assert(code.includes("import(name)"), "a computed import stays as written");
    assert(!code.includes(": number") && !code.includes(": ExtensionAPI"), "types are stripped");

    const again = await buildExtension(join(src, "index.ts"), cache);
    assertEquals([again.cached, again.entryUrl], [true, built.entryUrl]);
    // A changed helper is a new build (and a new URL) for the entry too.
    await Deno.writeTextFile(join(src, "lib", "helper.ts"), `export const helper: number = 2;\n`);
    const changed = await buildExtension(join(src, "index.ts"), cache);
    assertEquals(changed.cached, false);
    assert(changed.entryUrl !== built.entryUrl);
  });
});

Deno.test("EXT-BUILD errors name the file: a parse error with its position, an unresolvable import, a missing file", async () => {
  await withDir(async (dir) => {
    const bad = join(dir, "bad.ts");
    await Deno.writeTextFile(bad, "export default function (pi) {\n  pi.on(\n}\n");
    await assertRejects(() => buildExtension(bad, join(dir, "cache")), `at ${bad}:3:1`);
    const lost = join(dir, "lost.ts");
    await Deno.writeTextFile(lost, `import { x } from "./nowhere.js";\nexport default () => x;\n`);
    await assertRejects(
      () => buildExtension(lost, join(dir, "cache")),
      `Cannot resolve import "./nowhere.js" in ${lost}`,
    );
    await assertRejects(
      () => buildExtension(join(dir, "none.ts"), join(dir, "cache")),
      "File not found",
    );
  });
});

Deno.test("EXT-BUILD the names an import takes from a pi module: only plain named imports are split", () => {
  const from = (clause: string) => importedNames(`${clause} from "`);
  assertEquals(from(`import { Text, Box as B, type Component }`), ["Box", "Text"]);
  assertEquals(from(`import {\n  visibleWidth, // width\n  /* a */ truncateToWidth,\n}`), [
    "truncateToWidth",
    "visibleWidth",
  ]);
  assertEquals(from(`export { Type, StringEnum as Enum }`), ["StringEnum", "Type"]);
  assertEquals(importedNames(`import "`), []);
  for (
    const whole of [
      `import * as tui`,
      `import tui`,
      `import tui, { Text }`,
      `import { default as tui }`,
      `import { "odd name" as odd }`,
      `export *`,
      `export * as tui`,
    ]
  ) {
    assertEquals(from(whole), "*", whole);
  }
});

Deno.test("EXT-BUILD a warm start trusts unchanged file stamps without hashing; a touched file is hashed again", async () => {
  await withDir(async (dir) => {
    const entry = join(dir, "ext.ts");
    await Deno.writeTextFile(entry, `export default function (): void {}\n`);
    const cache = join(dir, "cache");
    const built = await buildExtension(entry, cache);
    // Point the manifest at a copy of the build under another name: only a start that does not
    // hash the sources (stamps as recorded) can return it.
    const entriesDir = join(cache, "entries");
    const [manifestName] = [...Deno.readDirSync(entriesDir)].map((e) => e.name);
    const manifestPath = join(entriesDir, manifestName);
    const manifest = JSON.parse(await Deno.readTextFile(manifestPath));
    const decoy = "0".repeat(32);
    await Deno.mkdir(join(cache, decoy));
    for (const file of Deno.readDirSync(join(cache, manifest.graphHash))) {
      await Deno.copyFile(join(cache, manifest.graphHash, file.name), join(cache, decoy, file.name));
    }
    await Deno.writeTextFile(manifestPath, JSON.stringify({ ...manifest, graphHash: decoy }));
    const trusted = await buildExtension(entry, cache);
    assertEquals([trusted.cached, trusted.entryUrl.includes(`/${decoy}/`)], [true, true]);

    // Same content, new stamp: the hash decides, and it is not the decoy's.
    const later = new Date(Date.now() + 5_000);
    await Deno.utime(entry, later, later);
    const rehashed = await buildExtension(entry, cache);
    assertEquals([rehashed.cached, rehashed.entryUrl], [false, built.entryUrl]);
    // The content hash was right that time: the next start trusts the new stamp.
    const warm = await buildExtension(entry, cache);
    assertEquals([warm.cached, warm.entryUrl], [true, built.entryUrl]);
  });
});
