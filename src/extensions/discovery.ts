/**
 * Which extension files a run loads, in 1.6.0's order: `-e` paths (files, and the extensions of
 * `-e npm:…` / `-e git:…` one-off packages installed beforehand; an `-e builtin:<name>` this build
 * lacks is reported here, `builtin:mcp` is started by the runtime), then (when the project is
 * trusted) the project's `.pi/settings.json` `extensions` (relative to `.pi`) and its
 * `.pi/extensions/`, then the agent dir's `settings.json` `extensions` (relative to the agent dir)
 * and its `extensions/`, then the extensions of installed pi packages. A folder is an extension when it has a
 * `package.json` whose `pi.extensions` lists entry files, or an `index.ts` / `index.js`; an
 * extensions folder holds such folders and plain `.ts` / `.js` files (one level, no deeper).
 * Each file loads once, whichever source names it first.
 *
 * @module
 */
import { existsSync } from "../util/fs.ts";
import { join, resolve } from "../util/path.ts";
import { CONFIG_DIR_NAME } from "../config/paths.ts";
import {
  AVAILABLE_BUILTINS,
  BUILTIN_PREFIX,
  isPackageSourceEntry,
  UNAVAILABLE_BUILTINS,
} from "../resources/builtin_extensions.ts";
import { createSyntheticSourceInfo, type ResourceScope, type SourceInfo } from "../resources/source_info.ts";

/** An extension entry file an installed pi package provides (`pi` key of its package.json, or its `extensions/`). */
export interface PackageExtensionPath {
  /** The entry file. */
  path: string;
  /** The package's settings source (`npm:…`, `git:…`, a local path). */
  source: string;
  /** `temporary` for the one-off packages of `-e npm:…` / `-e git:…`. */
  scope: "user" | "project" | "temporary";
  /** The package's root folder. */
  baseDir?: string;
}

/** Where to look. */
export interface DiscoveryOptions {
  cwd: string;
  agentDir: string;
  /** Whether the project's own `.pi/extensions` may load. */
  projectTrusted: boolean;
  /** `--no-extensions`: skip the extension folders and the settings list (explicit `-e` paths still load). */
  noExtensions?: boolean;
  /** The agent dir's `settings.json` `extensions` entries. */
  globalSettingsPaths?: readonly string[];
  /** The project's `.pi/settings.json` `extensions` entries (used only when trusted). */
  projectSettingsPaths?: readonly string[];
  /** `-e` paths, as given. */
  cliPaths?: readonly string[];
  /** The enabled extensions of installed packages (project packages only when trusted), in 1.6.0's order. */
  packagePaths?: readonly PackageExtensionPath[];
  /** The extensions of the `-e` one-off packages (installed already), loaded in the `-e` order. */
  temporaryPaths?: readonly PackageExtensionPath[];
}

/** One extension entry to load: the path shown in messages, the file to load, where it came from. */
export interface DiscoveredExtension {
  path: string;
  resolvedPath: string;
  /** Provenance, as 1.6.0 reports it (`get_commands`, `pi.getCommands()`). */
  sourceInfo?: SourceInfo;
}

/** What to load, and problems found while discovering. */
export interface DiscoveryResult {
  extensions: DiscoveredExtension[];
  /** Unsupported settings entries. */
  warnings: string[];
  /** `-e` paths that do not exist (1.6.0 reports them without trying to load them). */
  missing: { path: string; error: string }[];
}

/** Where a discovered entry came from. */
interface Origin {
  source: string;
  scope: ResourceScope;
  origin?: "top-level" | "package";
  baseDir?: string;
}

function isDirectory(path: string): boolean {
  try {
    return Deno.statSync(path).isDirectory;
  } catch {
    return false;
  }
}

function readPiExtensions(packageJson: string): string[] | undefined {
  try {
    const manifest = JSON.parse(Deno.readTextFileSync(packageJson));
    const list = manifest?.pi?.extensions;
    return Array.isArray(list)
      ? list.filter((entry): entry is string => typeof entry === "string")
      : undefined;
  } catch {
    return undefined;
  }
}

/** A folder's entry files: `package.json` `pi.extensions`, else `index.ts` / `index.js`; undefined when none. */
export function folderEntries(dir: string): string[] | undefined {
  const packageJson = join(dir, "package.json");
  if (existsSync(packageJson)) {
    const declared = readPiExtensions(packageJson)?.map((entry) => resolve(dir, entry)).filter((p) =>
      existsSync(p)
    );
    if (declared && declared.length > 0) return declared;
  }
  for (const index of ["index.ts", "index.js"]) {
    if (existsSync(join(dir, index))) return [join(dir, index)];
  }
  return undefined;
}

/** The extensions in an extensions folder (files and folders one level deep), sorted by name. */
export function discoverInFolder(dir: string): string[] {
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(dir)].sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  } catch {
    return [];
  }
  const found: string[] = [];
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if ((entry.isFile || entry.isSymlink) && (entry.name.endsWith(".ts") || entry.name.endsWith(".js"))) {
      found.push(path);
    } else if (entry.isDirectory || entry.isSymlink) {
      found.push(...(folderEntries(path) ?? []));
    }
  }
  return found;
}

function expandHome(path: string): string {
  const home = Deno.env.get("HOME") ?? "";
  if (path === "~") return home;
  if (path.startsWith("~/")) return join(home, path.slice(2));
  return path;
}

/** Every extension file to load, first source first, each once. */
export function discoverExtensions(options: DiscoveryOptions): DiscoveryResult {
  const extensions: DiscoveredExtension[] = [];
  const warnings: string[] = [];
  const missing: { path: string; error: string }[] = [];
  const seen = new Set<string>();
  const add = (path: string, resolvedPath: string, origin: Origin) => {
    if (seen.has(resolvedPath)) return;
    seen.add(resolvedPath);
    const sourceInfo = createSyntheticSourceInfo(resolvedPath, {
      source: origin.source,
      scope: origin.scope,
      ...(origin.origin ? { origin: origin.origin } : {}),
      ...(origin.baseDir ? { baseDir: origin.baseDir } : {}),
    });
    extensions.push({ path, resolvedPath, sourceInfo });
  };
  const addConfigured = (entry: string, base: string, origin: Origin) => {
    const resolved = resolve(base, expandHome(entry.trim()));
    if (isDirectory(resolved)) {
      const entries = folderEntries(resolved) ?? discoverInFolder(resolved);
      for (const file of entries) add(file, file, origin);
      return;
    }
    // A missing file is reported when it fails to load, with its path.
    add(entry, resolved, origin);
  };
  for (const entry of options.cliPaths ?? []) {
    const trimmed = entry.trim();
    if (trimmed.startsWith(BUILTIN_PREFIX)) {
      const name = trimmed.slice(BUILTIN_PREFIX.length);
      if (UNAVAILABLE_BUILTINS.includes(name)) {
        missing.push({
          path: trimmed,
          error: `Built-in extension ${trimmed} is not available in this build yet`,
        });
      } else if (!AVAILABLE_BUILTINS.includes(name)) {
        missing.push({ path: trimmed, error: `Unknown built-in extension: ${trimmed}` });
      }
      continue;
    }
    if (isPackageSourceEntry(trimmed)) {
      // Installed (or reported as failing) before discovery; here only its extension files load.
      for (const file of options.temporaryPaths ?? []) {
        if (file.source !== trimmed) continue;
        add(file.path, file.path, {
          source: file.source,
          scope: "temporary",
          origin: "package",
          ...(file.baseDir ? { baseDir: file.baseDir } : {}),
        });
      }
      continue;
    }
    const resolved = resolve(options.cwd, expandHome(entry.trim()));
    if (existsSync(resolved)) addConfigured(entry, options.cwd, { source: "cli", scope: "temporary" });
    else missing.push({ path: resolved, error: `Extension path does not exist: ${resolved}` });
  }
  const addSettings = (entries: readonly string[] | undefined, base: string, scope: ResourceScope) => {
    for (const entry of entries ?? []) {
      // Built-in extension entries (`-builtin:mcp` …) decide isBuiltinEnabled (resources/builtin_extensions.ts), not files.
      if (/^[+\-!]?builtin:/.test(entry.trim())) continue;
      if (/^[+\-!]/.test(entry)) {
        warnings.push(`settings.json extensions entry "${entry}": filters are not supported yet; ignored`);
        continue;
      }
      addConfigured(entry, base, { source: "local", scope, baseDir: base });
    }
  };
  if (!options.noExtensions) {
    if (options.projectTrusted) {
      const projectDir = join(options.cwd, CONFIG_DIR_NAME);
      addSettings(options.projectSettingsPaths, projectDir, "project");
      const folder = join(projectDir, "extensions");
      for (const file of discoverInFolder(folder)) {
        add(file, file, { source: "local", scope: "project", baseDir: folder });
      }
    }
    addSettings(options.globalSettingsPaths, options.agentDir, "user");
    const folder = join(options.agentDir, "extensions");
    for (const file of discoverInFolder(folder)) {
      add(file, file, { source: "local", scope: "user", baseDir: folder });
    }
    // Package extensions load after every file of the settings and folders (1.6.0 ranks a
    // package resource below top-level ones), project packages first.
    for (const entry of options.packagePaths ?? []) {
      add(entry.path, entry.path, {
        source: entry.source,
        scope: entry.scope,
        origin: "package",
        ...(entry.baseDir ? { baseDir: entry.baseDir } : {}),
      });
    }
  }
  return { extensions, warnings, missing };
}
