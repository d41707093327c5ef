/**
 * An extension's own npm dependencies (src/extensions/package_import.ts): a bare name is found in the
 * nearest `node_modules` above the importing file, through `exports` (Node's ES module conditions) or
 * `main`; ES modules are built with the extension (their own relative and bare imports too, not
 * transpiled), CommonJS packages are left as written.
 */
import { join } from "node:path";
import { assertEquals } from "../support/assert.ts";
import { resolvePackageImport } from "../../src/extensions/package_import.ts";
import { buildExtension } from "../../src/extensions/module_build.ts";

async function write(root: string, files: Record<string, string>): Promise<void> {
  for (const [rel, text] of Object.entries(files)) {
    await Deno.mkdir(join(root, rel, ".."), { recursive: true });
    await Deno.writeTextFile(join(root, rel), text);
  }
}

async function withDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "pi_pkg_import_" }));
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const manifest = (value: Record<string, unknown>) => JSON.stringify(value);

Deno.test("EXT-BUILD an extension's npm dependency resolves as Node resolves an ES module import", async () => {
  await withDir(async (dir) => {
    await write(dir, {
      "node_modules/esm/package.json": manifest({
        type: "module",
        exports: {
          ".": { require: "./cjs/index.js", import: { types: "./x.d.ts", default: "./esm/index.js" } },
          "./sub/*": "./esm/sub/*.js",
        },
      }),
      "node_modules/esm/esm/index.js": "export const a = 1;\n",
      "node_modules/esm/esm/sub/b.js": "export const b = 2;\n",
      "node_modules/@scope/plain/package.json": manifest({ main: "lib/main.mjs" }),
      "node_modules/@scope/plain/lib/main.mjs": "export default 3;\n",
      "node_modules/cjs/package.json": manifest({ main: "index.js" }),
      "node_modules/cjs/index.js": "module.exports = 4;\n",
      "pkg/ext/node_modules/esm/package.json": manifest({ type: "module", exports: "./near.js" }),
      "pkg/ext/node_modules/esm/near.js": "export const near = true;\n",
      "pkg/ext/index.ts": "",
      "pkg/other/index.ts": "",
    });
    const from = join(dir, "pkg", "other", "index.ts");
    assertEquals(resolvePackageImport(from, "esm"), join(dir, "node_modules/esm/esm/index.js"));
    assertEquals(resolvePackageImport(from, "esm/sub/b"), join(dir, "node_modules/esm/esm/sub/b.js"));
    assertEquals(resolvePackageImport(from, "esm/missing"), undefined);
    assertEquals(
      resolvePackageImport(from, "@scope/plain"),
      join(dir, "node_modules/@scope/plain/lib/main.mjs"),
    );
    assertEquals(resolvePackageImport(from, "cjs"), undefined, "CommonJS is left to Deno");
    assertEquals(resolvePackageImport(from, "absent"), undefined);
    // The nearest node_modules wins.
    assertEquals(
      resolvePackageImport(join(dir, "pkg", "ext", "index.ts"), "esm"),
      join(dir, "pkg/ext/node_modules/esm/near.js"),
    );
  });
});

Deno.test("EXT-BUILD an extension importing an installed ES module package (and that package its own dependency) loads", async () => {
  await withDir(async (dir) => {
    await write(dir, {
      "npm/node_modules/glob-lite/package.json": manifest({
        type: "module",
        exports: { import: "./dist/index.js" },
      }),
      "npm/node_modules/glob-lite/dist/index.js":
        `import { join } from "./join.js";\nimport tail from "tail-lite";\nexport const match = (a, b) => join(a, b) + tail;\n`,
      "npm/node_modules/glob-lite/dist/join.js": `export const join = (a, b) => a + "|" + b;\n`,
      "npm/node_modules/tail-lite/package.json": manifest({ main: "index.mjs" }),
      "npm/node_modules/tail-lite/index.mjs": `export default "!";\n`,
      "npm/node_modules/ext/index.ts":
        `import { match } from "glob-lite";\nexport const value: string = match("a", "b");\n`,
    });
    const built = await buildExtension(join(dir, "npm/node_modules/ext/index.ts"), join(dir, "cache"));
    const module = await import(built.entryUrl);
    assertEquals(module.value, "a|b!");
  });
});

Deno.test("EXT-BUILD an ES module dependency that imports a CommonJS package is left to Deno, as before", async () => {
  await withDir(async (dir) => {
    await write(dir, {
      "npm/node_modules/wraps-cjs/package.json": manifest({ type: "module", exports: "./index.js" }),
      "npm/node_modules/wraps-cjs/index.js": `export { x } from "./inner.js";\n`,
      "npm/node_modules/wraps-cjs/inner.js": `import cjs from "old-cjs";\nexport const x = cjs;\n`,
      "npm/node_modules/old-cjs/package.json": manifest({ main: "index.js" }),
      "npm/node_modules/old-cjs/index.js": "module.exports = 1;\n",
      "npm/node_modules/ext/index.ts": `import { x } from "wraps-cjs";\nexport const value = x;\n`,
    });
    const entry = join(dir, "npm/node_modules/ext/index.ts");
    const built = await buildExtension(entry, join(dir, "cache"));
    const code = await Deno.readTextFile(new URL(built.entryUrl));
    assertEquals(code.includes(`from "wraps-cjs"`), true, code);
    assertEquals([...built.sources.values()], [entry]);
  });
});
