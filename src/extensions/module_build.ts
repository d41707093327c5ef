/**
 * Turns an extension's source files into plain ES modules Deno can import from anywhere — also
 * from a `deno compile`d binary or the bundle, where a bare name such as `typebox` or
 * `@earendil-works/pi-coding-agent` means nothing (docs/extensions.md has the design):
 *
 * - TypeScript is stripped with sucrase (imports stay imports);
 * - import specifiers are found with es-module-lexer (a real lexer, never a regex) and rewritten:
 *   pi's names → shim files that re-export the host's own modules, bare Node built-ins
 *   (`fs`, `path`) → `node:` names, relative files (`./x.js` written for `./x.ts`, no extension,
 *   a folder's index) → their own rewritten copies;
 * - the files of one extension go into `<cacheDir>/<graph hash>/`, named by the hash of every
 *   source of the extension, so a warm start only reads and hashes the sources.
 *
 * Both npm packages load lazily, on the first cold build only.
 *
 * @module
 */
import { basename, dirname, join, resolve } from "../util/path.ts";
import { type HostImport, hostModuleName } from "./host_modules.ts";
import { NODE_BUILTINS } from "./node_builtins.ts";
import { resolvePackageImport } from "./package_import.ts";

/** Bump when the output format changes, so old cache entries are not reused. */
const BUILD_FORMAT = "3";

/** The result of building (or finding in the cache) one extension. */
export interface BuiltExtension {
  /** file: URL of the entry module to import. */
  entryUrl: string;
  /** What the extension's files import of pi's modules (to publish before the import). */
  hostImports: HostImport[];
  /** Whether the cache already held it. */
  cached: boolean;
  /** URL of each built file → its source path (to name sources, not cache files, in errors). */
  sources: Map<string, string>;
}

/** What the cache remembers about an extension's entry: its files and what they import. */
interface Manifest {
  format: string;
  /** Source paths of the extension's local module graph, entry first. */
  files: string[];
  /** Each file's {@link FileStamp} when it was last hashed, in the order of `files`. */
  stamps: string[];
  hostImports: HostImport[];
  graphHash: string;
}

/**
 * A file's size, modification and change times and inode: when all are as recorded, the file is
 * taken as unchanged and not read or hashed again (the content hash stays the cache key).
 */
type FileStamp = string;

async function stampOf(path: string): Promise<FileStamp> {
  const info = await Deno.stat(path);
  return [info.size, info.mtime?.getTime(), info.ctime?.getTime(), info.ino, info.dev].join(":");
}

/** FNV-1a over the text, 2 × 32 bits as 16 hex digits: a file name, not a security boundary. */
function quickHash(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995) ^ (b >>> 15);
  }
  return (a >>> 0).toString(16).padStart(8, "0") + (b >>> 0).toString(16).padStart(8, "0");
}

/** A problem in an extension's sources that stops it from loading. */
export class ExtensionBuildError extends Error {}

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

async function readSource(path: string): Promise<string> {
  try {
    return await Deno.readTextFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) throw new ExtensionBuildError(`File not found: ${path}`);
    throw error;
  }
}

/** The hash of a graph's sources; it names the folder its built files live in. */
async function graphHash(files: readonly string[], sources: ReadonlyMap<string, string>): Promise<string> {
  const parts = [BUILD_FORMAT, ...files.flatMap((file) => [file, sources.get(file) ?? ""])];
  return (await sha256(parts.join("\0"))).slice(0, 32);
}

/**
 * Builds the extension whose entry file is `entryPath` into `cacheDir` and returns the URL to
 * import, reusing an earlier build when no source changed.
 */
export async function buildExtension(entryPath: string, cacheDir: string): Promise<BuiltExtension> {
  // The manifest's own `files[0]` is checked, so a collision of this name only costs a rebuild.
  const manifestPath = join(cacheDir, "entries", `${quickHash(entryPath)}.json`);
  const warm = await tryManifest(manifestPath, entryPath, cacheDir);
  if (warm) return warm;
  return await coldBuild(entryPath, cacheDir, manifestPath);
}

async function tryManifest(
  manifestPath: string,
  entryPath: string,
  cacheDir: string,
): Promise<BuiltExtension | undefined> {
  let manifest: Manifest;
  try {
    manifest = JSON.parse(await Deno.readTextFile(manifestPath));
  } catch {
    return undefined;
  }
  if (manifest.format !== BUILD_FORMAT || manifest.files[0] !== entryPath) return undefined;
  const hash = manifest.graphHash;
  const entryOut = join(cacheDir, hash, outputName(0, entryPath));
  let stamps: FileStamp[];
  try {
    [stamps] = await Promise.all([Promise.all(manifest.files.map(stampOf)), Deno.stat(entryOut)]);
  } catch {
    return undefined;
  }
  if (stamps.some((stamp, i) => stamp !== manifest.stamps[i])) {
    // Touched (or copied, or restored): the content decides.
    const sources = new Map<string, string>();
    try {
      for (const file of manifest.files) sources.set(file, await Deno.readTextFile(file));
    } catch {
      return undefined;
    }
    if (await graphHash(manifest.files, sources) !== hash) return undefined;
    await writeAtomically(manifestPath, JSON.stringify({ ...manifest, stamps })).catch(() => {});
  }
  return {
    entryUrl: toFileUrl(entryOut),
    hostImports: manifest.hostImports,
    cached: true,
    sources: sourceMap(manifest.files, join(cacheDir, hash)),
  };
}

function sourceMap(files: readonly string[], outDir: string): Map<string, string> {
  return new Map(files.map((file, index) => [toFileUrl(join(outDir, outputName(index, file))), file]));
}

function outputName(index: number, source: string): string {
  return `${index}-${basename(source).replace(/\.[^.]*$/, "")}.mjs`;
}

function toFileUrl(path: string): string {
  return new URL(`file://${path.split("/").map(encodeURIComponent).join("/")}`).href;
}

interface Rewritten {
  code: string;
  /** Local files imported, resolved. */
  locals: string[];
}

function isRelative(specifier: string): boolean {
  return specifier.startsWith("./") || specifier.startsWith("../") || specifier.startsWith("/");
}

/** A relative import resolved as Node/TypeScript users expect (`./x.js` may mean `./x.ts`). */
function resolveLocal(fromFile: string, specifier: string): string {
  const base = specifier.startsWith("/") ? specifier : resolve(dirname(fromFile), specifier);
  const candidates = [base];
  const jsExt = base.match(/\.(m|c)?js$/);
  if (jsExt) {
    const stem = base.slice(0, -jsExt[0].length);
    candidates.push(`${stem}.${jsExt[1] ?? ""}ts`, `${stem}.tsx`);
  }
  for (const ext of [".ts", ".tsx", ".mts", ".js", ".mjs"]) candidates.push(base + ext);
  for (const index of ["index.ts", "index.js"]) candidates.push(join(base, index));
  for (const candidate of candidates) {
    try {
      if (Deno.statSync(candidate).isFile) return candidate;
    } catch { /* try the next */ }
  }
  throw new ExtensionBuildError(`Cannot resolve import "${specifier}" in ${fromFile}`);
}

async function coldBuild(entryPath: string, cacheDir: string, manifestPath: string): Promise<BuiltExtension> {
  const [{ transform }, lexer] = await Promise.all([
    import("npm:sucrase@3.35.1"),
    import("npm:es-module-lexer@1.7.0"),
  ]);
  await lexer.init;
  /**
   * npm dependencies (by entry file) that import something that cannot be built with them (a CommonJS
   * package): their bare name is left to Deno, as for any dependency before this build took them.
   */
  const refused = new Set<string>();
  let files: string[];
  let sources: Map<string, string>;
  let hostImports: Map<string, HostImport>;
  /** Per file: the transpiled code and the spans to replace (start, end, kind, value). */
  let pieces: Map<string, { code: string; edits: SpecifierEdit[] }>;
  let stamps: FileStamp[];
  collect: for (;;) {
    files = [entryPath];
    sources = new Map();
    hostImports = new Map();
    pieces = new Map();
    stamps = [];
    /** Files of npm dependencies (already JavaScript, so not transpiled) → the dependency they belong to. */
    const dependencies = new Map<string, string>();
    for (let i = 0; i < files.length; i++) {
      const file = files[i];
      // Stamped before reading: a write in between makes the next start hash again.
      stamps.push(await stampOf(file).catch(() => ""));
      const source = await readSource(file);
      sources.set(file, source);
      let code = source;
      if (!dependencies.has(file)) {
        try {
          code = transform(source, {
            transforms: file.endsWith(".tsx") ? ["typescript", "jsx"] : ["typescript"],
            disableESTransforms: true,
            filePath: file,
          }).code;
        } catch (error) {
          throw new ExtensionBuildError(parseErrorMessage(file, error));
        }
      }
      let imports;
      try {
        [imports] = lexer.parse(code, file);
      } catch (error) {
        throw new ExtensionBuildError(`${file}: ${(error as Error).message}`);
      }
      const edits: SpecifierEdit[] = [];
      for (const entry of imports) {
        // `import.meta` names the source file, not the cached copy: extensions find files next to
        // themselves with it (1.6.0's dynamic-resources example).
        if (entry.d === -2) {
          edits.push({ s: entry.s, e: entry.e, to: { kind: "meta" }, dynamic: false });
          continue;
        }
        const specifier = entry.n;
        if (specifier === undefined) continue; // a computed dynamic import: left as written
        const clause = entry.d === -1 ? code.slice(entry.ss, entry.s) : undefined;
        const edit = classify(file, specifier, clause, hostImports, refused);
        const root = dependencies.get(file);
        if (!edit) {
          if (root !== undefined && clause !== undefined && !/^[a-z]+:/i.test(specifier)) {
            refused.add(root);
            continue collect;
          }
          continue;
        }
        if (edit.kind === "local" && !files.includes(edit.path)) files.push(edit.path);
        // A dependency's own files (`./ast.js` in minimatch) belong to it too.
        if (edit.kind === "local" && (edit.dependency || root !== undefined)) {
          dependencies.set(edit.path, root ?? edit.path);
        }
        // A dynamic import's span includes the quotes; a static one's does not.
        edits.push({ s: entry.s, e: entry.e, to: edit, dynamic: entry.d > -1 });
      }
      pieces.set(file, { code, edits });
    }
    break;
  }
  const hash = await graphHash(files, sources);
  const outDir = join(cacheDir, hash);
  await Deno.mkdir(outDir, { recursive: true });
  const shimDir = join(cacheDir, "shims");
  for (const [index, file] of files.entries()) {
    const { code, edits } = pieces.get(file)!;
    let out = edits.some((edit) => edit.to.kind === "meta") ? importMetaDeclaration(file) : "";
    let last = 0;
    for (const edit of edits) {
      const target = targetUrl(edit.to, files, shimDir);
      out += code.slice(last, edit.s) + (edit.dynamic ? JSON.stringify(target) : target);
      last = edit.e;
    }
    out += code.slice(last);
    await writeAtomically(join(outDir, outputName(index, file)), out);
  }
  const manifest: Manifest = {
    format: BUILD_FORMAT,
    files,
    stamps,
    hostImports: [...hostImports.values()],
    graphHash: hash,
  };
  await Deno.mkdir(dirname(manifestPath), { recursive: true });
  await writeAtomically(manifestPath, JSON.stringify(manifest));
  return {
    entryUrl: toFileUrl(join(outDir, outputName(0, entryPath))),
    hostImports: manifest.hostImports,
    cached: false,
    sources: sourceMap(files, outDir),
  };
}

/**
 * A transpile error as one line naming the file and position: sucrase says
 * `Error transforming <file>: <what> (<line>:<column>)`.
 */
function parseErrorMessage(file: string, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const what = message.replace(`Error transforming ${file}: `, "");
  const at = what.match(/^(.*) \((\d+):(\d+)\)$/);
  return at ? `ParseError: ${at[1]} at ${file}:${at[2]}:${at[3]}` : `ParseError: ${what} in ${file}`;
}

/** One specifier to replace in a transpiled file. */
interface SpecifierEdit {
  s: number;
  e: number;
  to: Edit;
  dynamic: boolean;
}

/** What an import specifier becomes. */
type Edit =
  | { kind: "host"; request: HostImport }
  | { kind: "node"; name: string }
  | { kind: "local"; path: string; dependency?: boolean }
  | { kind: "meta" };

/** The name `import.meta` is rewritten to, and its declaration (on the first line: stack lines stay). */
const IMPORT_META = "__piImportMeta";
function importMetaDeclaration(file: string): string {
  const own = `url: ${JSON.stringify(toFileUrl(file))}, filename: ${JSON.stringify(file)}, dirname: ${
    JSON.stringify(dirname(file))
  }`;
  return `const ${IMPORT_META} = { ...import.meta, ${own} }; `;
}

function classify(
  file: string,
  specifier: string,
  clause: string | undefined,
  hostImports: Map<string, HostImport>,
  refused: ReadonlySet<string>,
): Edit | undefined {
  const host = hostModuleName(specifier);
  if (host) {
    const names = clause === undefined ? "*" : importedNames(clause);
    const request: HostImport = { name: host, names };
    const key = shimFileName(request);
    if (!hostImports.has(key)) hostImports.set(key, request);
    return { kind: "host", request };
  }
  if (specifier.startsWith("node:")) return undefined;
  if (NODE_BUILTINS.has(specifier)) return { kind: "node", name: `node:${specifier}` };
  if (isRelative(specifier)) return { kind: "local", path: resolveLocal(file, specifier) };
  // An extension's own npm dependency, when it is an installed ES module: built with its files.
  const dependency = /^[a-z]+:/i.test(specifier) ? undefined : resolvePackageImport(file, specifier);
  if (dependency && !refused.has(dependency)) return { kind: "local", path: dependency, dependency: true };
  // Other bare names (CommonJS dependencies) and URLs are left to Deno.
  return undefined;
}

/**
 * The file name of the shim for one kind of host import: all of the module's exports, or only
 * some names (then named by a hash of them).
 */
export function shimFileName(request: HostImport): string {
  const base = request.name.replace(/^@/, "").replace(/[^A-Za-z0-9._-]/g, "_");
  return request.names === "*" ? `${base}.mjs` : `${base}.${quickHash(request.names.join(","))}.mjs`;
}

/**
 * The names a static `import … from` / `export … from` clause takes from a module, sorted; `"*"`
 * when it takes the namespace or the default export, or when the clause is not one of the plain
 * forms (then the whole module is loaded: slower, never wrong). `clause` is the transpiled text
 * from the statement's start to the specifier, as es-module-lexer delimits it.
 */
export function importedNames(clause: string): string[] | "*" {
  const tokens = clauseTokens(clause);
  if (!tokens) return "*";
  if (tokens.at(-1) === "from") tokens.pop();
  const [keyword, ...rest] = tokens;
  if (keyword !== "import" && keyword !== "export") return "*";
  if (rest.length === 0) return keyword === "import" ? [] : "*"; // `import "x"`: runs it, takes nothing
  if (rest[0] !== "{" || rest.at(-1) !== "}") return "*";
  const names = new Set<string>();
  let item: string[] = [];
  for (const token of [...rest.slice(1, -1), ","]) {
    if (token !== ",") {
      item.push(token);
      continue;
    }
    if (item.length === 1 || (item.length === 3 && item[1] === "as")) {
      if (item[0] === "default") return "*";
      names.add(item[0]);
    } else if (!(item[0] === "type" && (item.length === 2 || item.length === 4))) {
      if (item.length !== 0) return "*";
    }
    item = [];
  }
  return [...names].sort();
}

/** Words and `{ } , *` of a clause, comments skipped; undefined on anything else (a string name). */
function clauseTokens(clause: string): string[] | undefined {
  const tokens: string[] = [];
  let i = 0;
  while (i < clause.length) {
    const c = clause[i];
    if (c === "/" && clause[i + 1] === "*") {
      const end = clause.indexOf("*/", i + 2);
      if (end < 0) return undefined;
      i = end + 2;
    } else if (c === "/" && clause[i + 1] === "/") {
      const end = clause.indexOf("\n", i);
      i = end < 0 ? clause.length : end + 1;
    } else if (c === "{" || c === "}" || c === "," || c === "*") {
      tokens.push(c);
      i++;
    } else if (c === " " || c === "\t" || c === "\n" || c === "\r") {
      i++;
    } else if (c === '"' || c === "'") {
      if (clause.slice(i + 1).trim() === "") break; // the specifier's opening quote ends the clause
      return undefined;
    } else {
      let j = i;
      while (j < clause.length && /[A-Za-z0-9_$]/.test(clause[j])) j++;
      if (j === i) return undefined;
      tokens.push(clause.slice(i, j));
      i = j;
    }
  }
  return tokens;
}

function targetUrl(edit: Edit, files: readonly string[], shimDir: string): string {
  if (edit.kind === "node") return edit.name;
  if (edit.kind === "meta") return IMPORT_META;
  if (edit.kind === "host") return toFileUrl(join(shimDir, shimFileName(edit.request)));
  return `./${outputName(files.indexOf(edit.path), edit.path)}`;
}

/** Writes via a temporary file and rename, so a concurrent pi never imports half a file. */
export async function writeAtomically(path: string, text: string): Promise<void> {
  const temp = `${path}.${crypto.randomUUID().slice(0, 8)}.tmp`;
  await Deno.writeTextFile(temp, text);
  await Deno.rename(temp, path);
}

/** A file: URL for an absolute path. */
export { toFileUrl };
