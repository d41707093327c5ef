/**
 * Every resource `pi config` can switch on or off, each with whether settings enable it and where it
 * comes from, as pi 1.6.0's package manager resolves them for its config selector: the resources of
 * installed packages, the files listed in settings (`extensions`, `skills`, `prompts`, `themes`; the
 * project's first), the auto-discovered folders (`~/.pi/agent/<kind>/`, `.pi/<kind>/`,
 * `.agents/skills`) with their `+`/`-`/`!` overrides, and the built-in extensions.
 *
 * @module
 */
import { CONFIG_DIR_NAME } from "../config/paths.ts";
import type { SettingsManager } from "../config/settings_manager.ts";
import { discoverInFolder, folderEntries } from "../extensions/discovery.ts";
import { AVAILABLE_BUILTINS, BUILTIN_PREFIX } from "../resources/builtin_extensions.ts";
import type { PackageResourceType } from "../resources/packages/package_resources.ts";
import { packageHomeDir, resolveLocalPath } from "../resources/packages/package_source.ts";
import { resolvePackagesAtStartup } from "../resources/packages/package_startup.ts";
import {
  applyPatterns,
  type ResolvedResource,
  resolveLocalResources,
  type ResourceMetadata,
} from "../resources/resource_discovery.ts";
import { existsSync } from "../util/fs.ts";
import { join } from "../util/path.ts";

/** The resources of the four kinds, each list in 1.6.0's precedence order. */
export type ConfigResources = Record<PackageResourceType, ResolvedResource[]>;

function isPattern(entry: string): boolean {
  return /^[!+-]/.test(entry) || entry.includes("*") || entry.includes("?");
}

/** Theme files of a folder: its `.json` files (not hidden), sorted by name. */
function themeFiles(dir: string): string[] {
  try {
    return [...Deno.readDirSync(dir)]
      .filter((e) => !e.name.startsWith(".") && e.name.endsWith(".json") && (e.isFile || e.isSymlink))
      .map((e) => join(dir, e.name))
      .sort();
  } catch {
    return [];
  }
}

/** Extension files of a folder: its own entry (package.json / index), else the ones inside it. */
function extensionFiles(dir: string): string[] {
  return folderEntries(dir) ?? discoverInFolder(dir);
}

function filesOf(kind: "extensions" | "themes", path: string): string[] {
  let stat: Deno.FileInfo;
  try {
    stat = Deno.statSync(path);
  } catch {
    return [];
  }
  if (stat.isFile) return [path];
  if (!stat.isDirectory) return [];
  return kind === "extensions" ? extensionFiles(path) : themeFiles(path);
}

/** The enabled state of an auto-discovered file under the `+`/`-`/`!` entries of its scope. */
function enabledByOverrides(
  path: string,
  entries: readonly string[],
  baseDir: string,
  home: string,
): boolean {
  return applyPatterns([path], entries.filter((e) => /^[!+-]/.test(e)), baseDir, home).has(path);
}

/** Top-level extensions and themes (skills and prompts come from resource_discovery.ts). */
function topLevel(
  kind: "extensions" | "themes",
  settingsManager: SettingsManager,
  cwd: string,
  agentDir: string,
  projectTrusted: boolean,
  home: string,
): ResolvedResource[] {
  const out = new Map<string, ResolvedResource>();
  const add = (path: string, metadata: ResourceMetadata, enabled: boolean) => {
    if (!out.has(path)) out.set(path, { path, enabled, metadata });
  };
  const projectBase = join(cwd, CONFIG_DIR_NAME);
  const globalEntries = settingsManager.getGlobalSettings()[kind] ?? [];
  const projectEntries = projectTrusted ? settingsManager.getProjectSettings()[kind] ?? [] : [];
  const listed = (entries: readonly string[], scope: "user" | "project", baseDir: string) => {
    const files = entries.filter((e) => !isPattern(e) && !e.startsWith(BUILTIN_PREFIX))
      .flatMap((e) => filesOf(kind, resolveLocalPath(e, baseDir, home)));
    const enabled = applyPatterns(files, entries.filter(isPattern), baseDir, home);
    for (const file of files) add(file, { source: "local", scope, origin: "top-level" }, enabled.has(file));
  };
  listed(projectEntries, "project", projectBase);
  listed(globalEntries, "user", agentDir);
  const auto = (dir: string, scope: "user" | "project", baseDir: string, entries: readonly string[]) => {
    const files = kind === "extensions" ? (existsSync(dir) ? extensionFiles(dir) : []) : themeFiles(dir);
    for (const file of files) {
      add(
        file,
        { source: "auto", scope, origin: "top-level", baseDir },
        enabledByOverrides(file, entries, baseDir, home),
      );
    }
  };
  if (projectTrusted) auto(join(projectBase, kind), "project", projectBase, projectEntries);
  auto(join(agentDir, kind), "user", agentDir, globalEntries);
  return [...out.values()];
}

/** The last `+`/`-`/`!` entry naming `path` (true: load), or undefined when none does. */
function overrideFor(entries: readonly string[], path: string): boolean | undefined {
  let state: boolean | undefined;
  for (const raw of entries) {
    const entry = raw.trim();
    if (!/^[!+-]/.test(entry) || entry.slice(1) !== path) continue;
    state = entry[0] === "+";
  }
  return state;
}

/**
 * Resolves what `settingsManager` configures (its project layer only when it is trusted), as
 * 1.6.0's `DefaultPackageManager.resolve()` does for `pi config`: configured npm and git packages
 * that are not installed are installed first; one that cannot be is reported through `warn` and
 * left out.
 */
export async function resolveConfigResources(
  settingsManager: SettingsManager,
  cwd: string,
  agentDir: string,
  warn: (message: string) => void,
): Promise<ConfigResources> {
  const projectTrusted = settingsManager.isProjectTrusted();
  const home = packageHomeDir();
  const global = settingsManager.getGlobalSettings();
  const project = projectTrusted ? settingsManager.getProjectSettings() : {};
  const packages = await resolvePackagesAtStartup({
    cwd,
    agentDir,
    globalPackages: global.packages ?? [],
    projectPackages: project.packages ?? [],
    homeDir: home,
    npmCommand: settingsManager.getGlobalSettings().npmCommand,
    warn,
  });
  const local = resolveLocalResources({
    cwd,
    agentDir,
    globalSettings: global,
    projectSettings: project,
    projectTrusted,
    homeDir: home,
  });
  const extensions = [
    ...packages.extensions,
    ...topLevel("extensions", settingsManager, cwd, agentDir, projectTrusted, home),
  ];
  // Built-ins are on unless the user's settings turn them off; a project entry overrides that.
  for (const name of AVAILABLE_BUILTINS) {
    const path = `${BUILTIN_PREFIX}${name}`;
    const projectState = overrideFor(project.extensions ?? [], path);
    extensions.push({
      path,
      enabled: projectState ?? overrideFor(global.extensions ?? [], path) ?? true,
      metadata: {
        source: "builtin",
        scope: projectState === undefined ? "user" : "project",
        origin: "top-level",
      },
    });
  }
  return {
    extensions,
    skills: [
      ...packages.skills,
      ...local.skills.filter((r) => !packages.skills.some((p) => p.path === r.path)),
    ],
    prompts: [
      ...packages.prompts,
      ...local.prompts.filter((r) => !packages.prompts.some((p) => p.path === r.path)),
    ],
    themes: [...packages.themes, ...topLevel("themes", settingsManager, cwd, agentDir, projectTrusted, home)],
  };
}
