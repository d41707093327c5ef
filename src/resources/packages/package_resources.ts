/**
 * The resources installed packages provide (pi 1.6.0, docs/packages.md "Create a package" and
 * "Select package resources"): the `pi` key of `package.json` (`extensions`, `skills`, `prompts`,
 * `themes`: paths and globs relative to the package root, `!`/`+`/`-` patterns), else the
 * conventional folders `extensions/`, `skills/`, `prompts/` and `themes/`; narrowed by the object
 * form of a settings entry. The same package declared by the project and the user loads once, the
 * project's entry winning. Only what is installed is read here: nothing is installed.
 *
 * Needs the resource parsers (`loadResourceDeps()`) to be loaded.
 *
 * @module
 */
import type { PackageSource } from "../../config/settings_types.ts";
import { existsSync } from "../../util/fs.ts";
import { dirname, join, relative, resolve } from "../../util/path.ts";
import { resourceDeps } from "../resource_deps.ts";
import {
  applyDeltaPatterns,
  applyPatterns,
  collectMarkdownFiles,
  collectSkillFiles,
  type ResolvedResource,
  type ResourceMetadata,
} from "../resource_discovery.ts";
import { resolvedEntries, toPosix } from "../resource_fs.ts";
import {
  entrySource,
  packageHomeDir,
  packageIdentity,
  parseSource,
  resolveLocalPath,
} from "./package_source.ts";

/** The four resource kinds a package provides. */
export type PackageResourceType = "extensions" | "skills" | "prompts" | "themes";

const TYPES: readonly PackageResourceType[] = ["extensions", "skills", "prompts", "themes"];

/** Resources of the configured packages, in load order, each enabled or disabled by the filters. */
export type PackageResources = Record<PackageResourceType, ResolvedResource[]>;

/** Where the configured packages are declared and installed. */
export interface PackageResourceOptions {
  cwd: string;
  agentDir: string;
  /** The user's `packages`. */
  globalPackages: readonly PackageSource[];
  /** The project's `packages` (empty when the project is not trusted). */
  projectPackages: readonly PackageSource[];
  /** The home folder `~` names. */
  homeDir?: string;
}

type Filter = Partial<Record<PackageResourceType, string[]>>;

/** A configured npm or git package that is not installed. */
export interface MissingPackage {
  source: string;
  scope: "user" | "project";
}
type Scope = "user" | "project";

/** The `pi` key of a package.json: string arrays only, anything else ignored (as 1.6.0). */
function readManifest(root: string): Filter | undefined {
  let pkg: unknown;
  try {
    let text = Deno.readTextFileSync(join(root, "package.json"));
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    pkg = JSON.parse(text);
  } catch {
    return undefined;
  }
  const pi = (pkg as { pi?: unknown } | null)?.pi;
  if (typeof pi !== "object" || pi === null || Array.isArray(pi)) return undefined;
  const manifest: Filter = {};
  for (const type of TYPES) {
    const entries = (pi as Record<string, unknown>)[type];
    if (Array.isArray(entries) && entries.every((e) => typeof e === "string")) manifest[type] = entries;
  }
  return manifest;
}

const isOverride = (entry: string) => /^[!+-]/.test(entry);
const hasGlob = (entry: string) => entry.includes("*") || entry.includes("?");

function walk(root: string, dir: string, out: string[]): void {
  let entries;
  try {
    entries = resolvedEntries(dir);
  } catch {
    return;
  }
  for (const e of entries) {
    if (e.name.startsWith(".")) continue;
    out.push(e.path);
    if (e.isDir && e.name !== "node_modules") walk(root, e.path, out);
  }
}

/** Paths under `root` a manifest glob names; dot-prefixed segments are never traversed (as 1.6.0). */
function expandGlob(pattern: string, root: string): string[] {
  const all: string[] = [];
  walk(root, root, all);
  const normalized = toPosix(pattern.startsWith("./") ? pattern.slice(2) : pattern);
  const { minimatch } = resourceDeps();
  return all.filter((path) => minimatch(toPosix(relative(root, path)), normalized)).sort();
}

function themeFiles(dir: string): string[] {
  const all: string[] = [];
  walk(dir, dir, all);
  return all.filter((path) =>
    path.endsWith(".json") && !toPosix(relative(dir, path)).includes("node_modules/")
  );
}

/** Extension entries of an `extensions/` folder: its .ts/.js files and sub-folders with an index. */
function extensionFiles(dir: string): string[] {
  const out: string[] = [];
  try {
    for (const e of resolvedEntries(dir)) {
      if (e.name.startsWith(".") || e.name === "node_modules") continue;
      if (e.isFile && /\.(ts|js)$/.test(e.name)) out.push(e.path);
      else if (e.isDir) {
        const index = ["index.ts", "index.js"].map((name) => join(e.path, name)).find((p) => existsSync(p));
        if (index) out.push(index);
      }
    }
  } catch { /* unreadable folder */ }
  return out;
}

function collectFolder(dir: string, type: PackageResourceType): string[] {
  if (type === "skills") return collectSkillFiles(dir, "pi");
  if (type === "prompts") return collectMarkdownFiles(dir);
  if (type === "themes") return themeFiles(dir);
  return extensionFiles(dir);
}

function collectPaths(paths: string[], type: PackageResourceType): string[] {
  const files: string[] = [];
  for (const path of paths) {
    try {
      const stat = Deno.statSync(path);
      if (stat.isFile) files.push(path);
      else if (stat.isDirectory) files.push(...collectFolder(path, type));
    } catch { /* missing: nothing to load */ }
  }
  return files;
}

function manifestFiles(entries: string[], root: string, type: PackageResourceType, home: string): string[] {
  const named = entries.filter((e) => !isOverride(e)).flatMap((e) =>
    hasGlob(e) ? expandGlob(e, root) : [resolve(root, e)]
  );
  const files = collectPaths(named, type);
  const overrides = entries.filter(isOverride);
  if (overrides.length === 0) return files;
  const enabled = applyPatterns(files, overrides, root, home);
  return files.filter((f) => enabled.has(f));
}

/** Every file of `type` the package itself offers (manifest, else the conventional folder). */
function packageFiles(
  root: string,
  manifest: Filter | undefined,
  type: PackageResourceType,
  home: string,
): string[] {
  const entries = manifest?.[type];
  if (entries) return manifestFiles(entries, root, type, home);
  const dir = join(root, type);
  return existsSync(dir) ? collectFolder(dir, type) : [];
}

/**
 * Resolves the resources of the configured, installed packages. Packages that are not installed are
 * left out (`missing` lists them).
 */
export function resolvePackageResources(
  options: PackageResourceOptions,
): PackageResources & { missing: MissingPackage[] } {
  const home = options.homeDir ?? packageHomeDir();
  const out: PackageResources & { missing: MissingPackage[] } = {
    extensions: [],
    skills: [],
    prompts: [],
    themes: [],
    missing: [],
  };
  const seen = new Map<PackageResourceType, Set<string>>(TYPES.map((t) => [t, new Set()]));
  const add = (type: PackageResourceType, path: string, metadata: ResourceMetadata, enabled: boolean) => {
    const set = seen.get(type)!;
    if (set.has(path)) return;
    set.add(path);
    out[type].push({ path, enabled, metadata });
  };
  const baseDir = (scope: Scope) => scope === "project" ? join(options.cwd, ".pi") : options.agentDir;

  // Project entries first, so a package both declare loads with the project's filters.
  const entries: { entry: PackageSource; scope: Scope }[] = [
    ...options.projectPackages.map((entry) => ({ entry, scope: "project" as const })),
    ...options.globalPackages.map((entry) => ({ entry, scope: "user" as const })),
  ];
  // A project entry with `autoload: false` is a delta over the user's entry for the same package: both
  // load, the delta first (its files win), from the user's installed copy (1.6.0's dedupe and delta base).
  const isDelta = (entry: PackageSource, scope: Scope) =>
    scope === "project" && typeof entry === "object" && entry.autoload === false;
  const identities = new Map<string, boolean>();
  for (const { entry, scope } of entries) {
    const source = entrySource(entry);
    const identity = packageIdentity(source, baseDir(scope));
    const earlier = identities.get(identity);
    if (earlier !== undefined && !(earlier && scope === "user")) continue;
    if (earlier === undefined) identities.set(identity, isDelta(entry, scope));
    const filter: Filter | undefined = typeof entry === "object" ? entry : undefined;
    const delta = isDelta(entry, scope);
    const base = delta
      ? options.globalPackages.find((user) =>
        packageIdentity(entrySource(user), baseDir("user")) === identity
      )
      : undefined;
    const rootSource = base ? entrySource(base) : source;
    const rootScope: Scope = base ? "user" : scope;
    const parsed = parseSource(rootSource);
    let root: string;
    if (parsed.type === "npm") root = join(baseDir(rootScope), "npm", "node_modules", parsed.name);
    else if (parsed.type === "git") root = resolve(baseDir(rootScope), "git", parsed.host, parsed.path);
    else root = resolveLocalPath(parsed.path, baseDir(rootScope), home);
    if (!existsSync(root)) {
      if (parsed.type !== "local") out.missing.push({ source: rootSource, scope: rootScope });
      continue;
    }
    const metadata: ResourceMetadata = { source, scope, origin: "package", baseDir: root };
    if (Deno.statSync(root).isFile) {
      // A local file is one extension.
      add("extensions", root, { ...metadata, baseDir: dirname(root) }, true);
      continue;
    }
    const manifest = readManifest(root);
    if (delta) {
      for (const type of TYPES) {
        const patterns = filter?.[type] ?? [];
        if (patterns.length === 0) continue;
        const files = packageFiles(root, manifest, type, home);
        for (const [file, enabled] of applyDeltaPatterns(files, patterns, root, home)) {
          add(type, file, metadata, enabled);
        }
      }
      continue;
    }
    const explicit = manifest && TYPES.some((t) => manifest[t] !== undefined);
    let any = false;
    for (const type of TYPES) {
      const patterns = filter?.[type];
      const files = packageFiles(root, manifest, type, home);
      if (files.length > 0 || existsSync(join(root, type))) any = true;
      // An empty list turns the type off; patterns narrow what the package offers, never widen it.
      const enabled = patterns === undefined
        ? new Set(files)
        : patterns.length === 0
        ? new Set<string>()
        : applyPatterns(files, patterns, root, home);
      for (const file of files) add(type, file, metadata, enabled.has(file));
    }
    // A local folder without a manifest or conventional folders is itself an extension.
    if (parsed.type === "local" && !filter && !explicit && !any) add("extensions", root, metadata, true);
  }
  return out;
}
