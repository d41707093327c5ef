/**
 * Resolves an extension's own npm dependency (`import { minimatch } from "minimatch"`) the way
 * Node does for an ES module: the nearest `node_modules/<name>` above the importing file, then the
 * package's `exports` (conditions `node`, `import`, `default`) or its `main`. pi installs a
 * package's dependencies next to it (`npm install` in the agent dir's `npm/` folder), and 1.6.0
 * loads them from there; Deno cannot, since an extension's file belongs to no Deno config.
 *
 * Only ES modules are resolved (a `.mjs` file, or a `.js` file in a package of `"type":
 * "module"`): the module builder copies them into the extension's build like its own files.
 * Anything else answers undefined and is left to Deno as written.
 *
 * @module
 */
import { isFileSync } from "../util/fs.ts";
import { dirname, join } from "../util/path.ts";

/** The conditions of an `exports` map that an ES module import in Node matches. */
const CONDITIONS = new Set(["node", "import", "default"]);

/** A package name (`a` or `@scope/a`) and the subpath after it (`.` or `./x`). */
function splitSpecifier(specifier: string): { name: string; subpath: string } | undefined {
  const parts = specifier.split("/");
  const count = specifier.startsWith("@") ? 2 : 1;
  if (parts.length < count || parts.slice(0, count).some((part) => part === "")) return undefined;
  const rest = parts.slice(count).join("/");
  return { name: parts.slice(0, count).join("/"), subpath: rest ? `./${rest}` : "." };
}

function readJson(path: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(Deno.readTextFileSync(path));
    return value && typeof value === "object" ? value as Record<string, unknown> : undefined;
  } catch {
    return undefined;
  }
}

/** The target of one `exports` entry for the ES module conditions, `*` replaced by `star`. */
function conditionalTarget(entry: unknown, star: string): string | undefined {
  if (typeof entry === "string") return entry.replaceAll("*", star);
  if (Array.isArray(entry)) {
    for (const item of entry) {
      const found = conditionalTarget(item, star);
      if (found) return found;
    }
    return undefined;
  }
  if (entry && typeof entry === "object") {
    for (const [condition, value] of Object.entries(entry)) {
      if (!CONDITIONS.has(condition)) continue;
      const found = conditionalTarget(value, star);
      if (found) return found;
    }
  }
  return undefined;
}

/** `exports` for `subpath`: a plain target or condition map means `.` only; else subpath keys. */
function exportsTarget(exports: unknown, subpath: string): string | undefined {
  const isSubpathMap = exports !== null && typeof exports === "object" && !Array.isArray(exports) &&
    Object.keys(exports).every((key) => key.startsWith("."));
  if (!isSubpathMap) return subpath === "." ? conditionalTarget(exports, "") : undefined;
  const map = exports as Record<string, unknown>;
  if (subpath in map) return conditionalTarget(map[subpath], "");
  for (const [key, value] of Object.entries(map)) {
    const star = key.indexOf("*");
    if (star === -1) continue;
    const [before, after] = [key.slice(0, star), key.slice(star + 1)];
    if (subpath.startsWith(before) && subpath.endsWith(after) && subpath.length >= key.length - 1) {
      return conditionalTarget(value, subpath.slice(before.length, subpath.length - after.length));
    }
  }
  return undefined;
}

/** The file a package without `exports` gives for `subpath`, with Node's extension guesses. */
function legacyTarget(
  packageDir: string,
  manifest: Record<string, unknown>,
  subpath: string,
): string | undefined {
  const base = subpath === "."
    ? join(packageDir, typeof manifest.main === "string" ? manifest.main : "index.js")
    : join(packageDir, subpath);
  for (const candidate of [base, `${base}.js`, `${base}.mjs`, join(base, "index.js")]) {
    if (isFileSync(candidate)) return candidate;
  }
  return undefined;
}

/** Whether Node would load `file` (inside the package at `packageDir`) as an ES module. */
function isEsModule(file: string, packageDir: string): boolean {
  if (file.endsWith(".mjs")) return true;
  if (!file.endsWith(".js")) return false;
  for (let dir = dirname(file); dir.startsWith(packageDir); dir = dirname(dir)) {
    const manifest = readJson(join(dir, "package.json"));
    if (manifest) return manifest.type === "module";
    if (dir === packageDir) break;
  }
  return false;
}

/**
 * The ES module file that `specifier`, a bare npm name imported by `fromFile`, means; undefined
 * when no installed package has it or it is not an ES module.
 */
export function resolvePackageImport(fromFile: string, specifier: string): string | undefined {
  const split = splitSpecifier(specifier);
  if (!split) return undefined;
  for (let dir = dirname(fromFile);; dir = dirname(dir)) {
    const packageDir = join(dir, "node_modules", split.name);
    const manifest = readJson(join(packageDir, "package.json"));
    if (manifest) {
      const target = manifest.exports !== undefined
        ? exportsTarget(manifest.exports, split.subpath)
        : legacyTarget(packageDir, manifest, split.subpath);
      if (!target) return undefined;
      const file = target.startsWith("/") ? target : join(packageDir, target);
      return isFileSync(file) && isEsModule(file, packageDir) ? file : undefined;
    }
    if (dirname(dir) === dir) return undefined;
  }
}
