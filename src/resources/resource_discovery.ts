/**
 * Which resource files (skills, prompt templates) are in play: local paths from settings (with
 * `!exclude`, `+force-include`, `-force-exclude` patterns), and the auto-discovered folders
 * (`.pi/skills`, `.pi/prompts`, `~/.pi/agent/…`, `.agents/skills` up to the git root,
 * `~/.agents/skills`). Project resources come before user ones so they win name collisions.
 * Package sources (npm/git) are resolved by the package manager, not here.
 *
 * @module
 */
import { readEnv } from "../util/env.ts";
import { existsSync } from "../util/fs.ts";
import { homeDir as osHomeDir } from "../util/os.ts";
import { basename, dirname, join, relative, resolve } from "../util/path.ts";
import type { Ignore } from "npm:ignore@7.0.17";
import { resourceDeps } from "./resource_deps.ts";
import { addIgnoreRules, resolvedEntries, toPosix } from "./resource_fs.ts";
import { canonicalizePath, CONFIG_DIR_NAME } from "./resource_paths.ts";
import type { ResourceScope } from "./source_info.ts";

/** Where a resolved resource came from. */
export interface ResourceMetadata {
  /** Package or setting it came from. */
  source: string;
  /** User, project or temporary. */
  scope: ResourceScope;
  /** Listed directly, or from a package. */
  origin: "top-level" | "package";
  /** Folder relative paths resolve against. */
  baseDir?: string;
}

/** One resource file and whether settings enable it. */
export interface ResolvedResource {
  /** Path of the resource. */
  path: string;
  /** Whether it is enabled. */
  enabled: boolean;
  /** Where it came from. */
  metadata: ResourceMetadata;
}

/** Resolved skill and prompt-template files, highest precedence first. */
export interface ResolvedResources {
  skills: ResolvedResource[];
  prompts: ResolvedResource[];
}

/** The settings fields discovery reads. */
export interface ResourceSettings {
  /** Skill files or folders named in the settings. */
  skills?: string[];
  /** Prompt template files or folders named in the settings. */
  prompts?: string[];
}

type Kind = "skills" | "prompts";
/** The home folder `~` names: `HOME`, else the platform's (see {@link ResourceSources.homeDir}). */
function defaultHomeDir(): string {
  return readEnv("HOME") || osHomeDir();
}

/**
 * Skill files under a folder: a folder with a SKILL.md is one skill. "pi" folders also take the
 * Markdown files at their root; "agents" folders (`.agents/skills`) the Markdown files in their
 * sub-folders (pi 1.6.0), never at their root.
 */
export function collectSkillFiles(
  dir: string,
  mode: "pi" | "agents",
  matcher?: Ignore,
  root = dir,
): string[] {
  if (!existsSync(dir)) return [];
  const ig = matcher ?? resourceDeps().createIgnore();
  addIgnoreRules(ig, dir, root);
  const files: string[] = [];
  try {
    const entries = resolvedEntries(dir);
    const skill = entries.find((e) => e.name === "SKILL.md" && e.isFile);
    if (skill && !ig.ignores(toPosix(relative(root, skill.path)))) return [skill.path];
    for (const e of entries) {
      if (e.name.startsWith(".") || e.name === "node_modules") continue;
      const rel = toPosix(relative(root, e.path));
      // Loose Markdown files: at the root of a pi skills folder, below the root (in grouping
      // folders) of an `.agents/skills` folder.
      const loose = mode === "pi" ? dir === root : dir !== root;
      if (loose && e.isFile && e.name.endsWith(".md") && !ig.ignores(rel)) {
        files.push(e.path);
        continue;
      }
      if (!e.isDir || ig.ignores(`${rel}/`)) continue;
      files.push(...collectSkillFiles(e.path, mode, ig, root));
    }
  } catch { /* unreadable folder */ }
  return files;
}

/** Markdown files directly in a prompts folder. */
function collectPromptFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const ig = resourceDeps().createIgnore();
  addIgnoreRules(ig, dir, dir);
  try {
    return resolvedEntries(dir)
      .filter((e) => !e.name.startsWith(".") && e.name !== "node_modules")
      .filter((e) => !ig.ignores(toPosix(relative(dir, e.path))) && e.isFile && e.name.endsWith(".md"))
      .map((e) => e.path);
  } catch {
    return [];
  }
}

/** Markdown files below a folder given in settings (recursively, ignore files honoured). */
export function collectMarkdownFiles(dir: string, matcher?: Ignore, root = dir): string[] {
  if (!existsSync(dir)) return [];
  const ig = matcher ?? resourceDeps().createIgnore();
  addIgnoreRules(ig, dir, root);
  const files: string[] = [];
  try {
    for (const e of resolvedEntries(dir)) {
      if (e.name.startsWith(".") || e.name === "node_modules") continue;
      const rel = toPosix(relative(root, e.path));
      if (ig.ignores(e.isDir ? `${rel}/` : rel)) continue;
      if (e.isDir) files.push(...collectMarkdownFiles(e.path, ig, root));
      else if (e.isFile && e.name.endsWith(".md")) files.push(e.path);
    }
  } catch { /* unreadable folder */ }
  return files;
}

function isPattern(s: string): boolean {
  return /^[!+-]/.test(s) || s.includes("*") || s.includes("?");
}

function candidatesFor(filePath: string, baseDir: string): string[] {
  const names = [toPosix(relative(baseDir, filePath)), basename(filePath), toPosix(filePath)];
  if (basename(filePath) === "SKILL.md") {
    const parent = dirname(filePath);
    names.push(toPosix(relative(baseDir, parent)), basename(parent), toPosix(parent));
  }
  return names;
}

/** `~` and `~/…` in a `!`, `+` or `-` pattern name the home folder (pi 1.6.0). */
function expandTildePattern(pattern: string, home: string): string {
  if (pattern === "~") return home;
  return pattern.startsWith("~/") ? join(home, pattern.slice(2)) : pattern;
}

function matchesGlob(filePath: string, patterns: string[], baseDir: string, home: string): boolean {
  const candidates = candidatesFor(filePath, baseDir);
  if (patterns.length === 0) return false;
  const { minimatch } = resourceDeps();
  return patterns.some((p) => candidates.some((c) => minimatch(c, toPosix(expandTildePattern(p, home)))));
}

function matchesExact(filePath: string, patterns: string[], baseDir: string, home: string): boolean {
  const rel = toPosix(relative(baseDir, filePath));
  const abs = toPosix(filePath);
  const isSkill = basename(filePath) === "SKILL.md";
  return patterns.some((p) => {
    const normalized = toPosix(
      expandTildePattern(p.startsWith("./") || p.startsWith(".\\") ? p.slice(2) : p, home),
    );
    if (normalized === rel || normalized === abs) return true;
    return isSkill &&
      (normalized === toPosix(relative(baseDir, dirname(filePath))) ||
        normalized === toPosix(dirname(filePath)));
  });
}

/** Applies `!`, `+` and `-` override patterns to an auto-discovered file. */
function enabledByOverrides(filePath: string, entries: string[], baseDir: string, home: string): boolean {
  const overrides = entries.filter((p) => /^[!+-]/.test(p));
  const pick = (c: string) => overrides.filter((p) => p.startsWith(c)).map((p) => p.slice(1));
  let enabled = true;
  if (matchesGlob(filePath, pick("!"), baseDir, home)) enabled = false;
  if (matchesExact(filePath, pick("+"), baseDir, home)) enabled = true;
  if (matchesExact(filePath, pick("-"), baseDir, home)) enabled = false;
  return enabled;
}

/** Applies include globs and override patterns to files collected from plain settings entries. */
export function applyPatterns(all: string[], patterns: string[], baseDir: string, home: string): Set<string> {
  const by = (c: string) => patterns.filter((p) => p.startsWith(c)).map((p) => p.slice(1));
  const includes = patterns.filter((p) => !/^[!+-]/.test(p));
  let result = includes.length ? all.filter((f) => matchesGlob(f, includes, baseDir, home)) : [...all];
  const excludes = by("!");
  if (excludes.length) result = result.filter((f) => !matchesGlob(f, excludes, baseDir, home));
  for (const f of all) if (!result.includes(f) && matchesExact(f, by("+"), baseDir, home)) result.push(f);
  const forceExcludes = by("-");
  if (forceExcludes.length) result = result.filter((f) => !matchesExact(f, forceExcludes, baseDir, home));
  return new Set(result);
}

/**
 * A project's `autoload: false` package entry (pi 1.6.0): its patterns, in order, switch files of the
 * user's copy of the package on (a plain glob or `+path`) or off (`!glob` or `-path`); the last matching
 * pattern decides. Files no pattern names are left out, for the user's own entry to decide.
 */
export function applyDeltaPatterns(
  all: string[],
  patterns: string[],
  baseDir: string,
  home: string,
): Map<string, boolean> {
  const result = new Map<string, boolean>();
  for (const pattern of patterns) {
    const target = /^[!+-]/.test(pattern) ? pattern.slice(1) : pattern;
    const enabled = !pattern.startsWith("-") && !pattern.startsWith("!");
    const exact = pattern.startsWith("+") || pattern.startsWith("-");
    for (const file of all) {
      const hit = exact
        ? matchesExact(file, [target], baseDir, home)
        : matchesGlob(file, [target], baseDir, home);
      if (hit) result.set(file, enabled);
    }
  }
  return result;
}

function resolveFromBase(input: string, baseDir: string, home: string): string {
  const trimmed = input.trim();
  if (trimmed === "~") return home;
  if (trimmed.startsWith("~/")) return join(home, trimmed.slice(2));
  if (trimmed.startsWith("~")) return join(home, trimmed.slice(1));
  return resolve(baseDir, trimmed);
}

function findGitRoot(start: string): string | null {
  let dir = resolve(start);
  while (true) {
    if (existsSync(join(dir, ".git"))) return dir;
    const parent = dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

/** `.agents/skills` folders from cwd up to the git root (or the filesystem root). */
function ancestorAgentsSkillDirs(cwd: string): string[] {
  const dirs: string[] = [];
  const start = resolve(cwd);
  const gitRoot = findGitRoot(start);
  let dir = start;
  while (true) {
    dirs.push(join(dir, ".agents", "skills"));
    if (gitRoot && dir === gitRoot) break;
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return dirs;
}

function precedence(m: ResourceMetadata): number {
  if (m.origin === "package") return 4;
  return (m.scope === "project" ? 0 : 2) + (m.source === "local" ? 0 : 1);
}

/** What discovery looks at: the folders, both settings scopes, and whether the project is trusted. */
export interface ResourceSources {
  /** Working folder of the project. */
  cwd: string;
  /** Agent config folder. */
  agentDir: string;
  /** The user's settings. */
  globalSettings: ResourceSettings;
  /** The project's settings (empty when the project is not trusted). */
  projectSettings: ResourceSettings;
  /**
   * False skips the project's own folders (`.pi/skills`, `.pi/prompts`, `.agents/skills` in the cwd and its
   * ancestors), as pi 1.6.0 does for a project without trust. Default: true.
   */
  projectTrusted?: boolean;
  /** The home folder `~` and `~/.agents/skills` name. Default: `HOME`, else the platform's. */
  homeDir?: string;
}

/**
 * True when discovery could find anything at all: a settings entry, or one of the default
 * folders exists. When false, a run needs no resource parsers (see resource_deps.ts).
 */
export function hasResourceSources(options: ResourceSources): boolean {
  const { cwd, agentDir, globalSettings, projectSettings } = options;
  const projectTrusted = options.projectTrusted ?? true;
  const home = options.homeDir ?? defaultHomeDir();
  for (const settings of [globalSettings, projectSettings]) {
    if ((settings.skills?.length ?? 0) > 0 || (settings.prompts?.length ?? 0) > 0) return true;
  }
  const roots = [
    join(agentDir, "skills"),
    join(agentDir, "prompts"),
    join(home, ".agents", "skills"),
  ];
  if (projectTrusted) {
    roots.push(
      join(cwd, CONFIG_DIR_NAME, "skills"),
      join(cwd, CONFIG_DIR_NAME, "prompts"),
      ...ancestorAgentsSkillDirs(cwd),
    );
  }
  return roots.some((dir) => existsSync(dir));
}

/** Resolves the skill and prompt files that settings and the default folders provide. */
export function resolveLocalResources(options: ResourceSources): ResolvedResources {
  const { cwd, agentDir, globalSettings, projectSettings } = options;
  const projectTrusted = options.projectTrusted ?? true;
  const home = options.homeDir ?? defaultHomeDir();
  const maps: Record<Kind, Map<string, { enabled: boolean; metadata: ResourceMetadata }>> = {
    skills: new Map(),
    prompts: new Map(),
  };
  const add = (kind: Kind, path: string, metadata: ResourceMetadata, enabled: boolean) => {
    if (path && !maps[kind].has(path)) maps[kind].set(path, { metadata, enabled });
  };
  const globalBase = agentDir;
  const projectBase = join(cwd, CONFIG_DIR_NAME);

  const addLocal = (kind: Kind, entries: string[], metadata: ResourceMetadata, baseDir: string) => {
    if (entries.length === 0) return;
    const plain = entries.filter((e) => !isPattern(e)).map((e) => resolveFromBase(e, baseDir, home));
    const patterns = entries.filter(isPattern);
    const files: string[] = [];
    for (const p of plain) {
      if (!existsSync(p)) continue;
      try {
        const stats = Deno.statSync(p);
        if (stats.isFile) files.push(p);
        else if (stats.isDirectory) {
          files.push(...(kind === "skills" ? collectSkillFiles(p, "pi") : collectMarkdownFiles(p)));
        }
      } catch { /* skip */ }
    }
    const enabled = applyPatterns(files, patterns, baseDir, home);
    for (const f of files) add(kind, f, metadata, enabled.has(f));
  };
  for (const kind of ["skills", "prompts"] as const) {
    addLocal(kind, projectSettings[kind] ?? [], {
      source: "local",
      scope: "project",
      origin: "top-level",
    }, projectBase);
    addLocal(
      kind,
      globalSettings[kind] ?? [],
      { source: "local", scope: "user", origin: "top-level" },
      globalBase,
    );
  }

  const projectMeta: ResourceMetadata = {
    source: "auto",
    scope: "project",
    origin: "top-level",
    baseDir: projectBase,
  };
  const userMeta: ResourceMetadata = {
    source: "auto",
    scope: "user",
    origin: "top-level",
    baseDir: globalBase,
  };
  const userAgentsSkills = join(home, ".agents", "skills");
  // An untrusted project contributes none of its own folders (its settings are already empty).
  const projectAgentsDirs = projectTrusted
    ? ancestorAgentsSkillDirs(cwd).filter((d) => resolve(d) !== resolve(userAgentsSkills))
    : [];
  const addAuto = (
    kind: Kind,
    paths: string[],
    meta: ResourceMetadata,
    overrides: string[],
    baseDir: string,
  ) => {
    for (const p of paths) add(kind, p, meta, enabledByOverrides(p, overrides, baseDir, home));
  };
  addAuto(
    "skills",
    projectTrusted ? collectSkillFiles(join(projectBase, "skills"), "pi") : [],
    projectMeta,
    projectSettings.skills ?? [],
    projectBase,
  );
  // Each `.agents` folder is the base of its own skills (pi 1.6.0), for sourceInfo and patterns.
  for (const agentsSkills of projectAgentsDirs) {
    const agentsBase = dirname(agentsSkills);
    addAuto(
      "skills",
      collectSkillFiles(agentsSkills, "agents"),
      { ...projectMeta, baseDir: agentsBase },
      projectSettings.skills ?? [],
      agentsBase,
    );
  }
  addAuto(
    "prompts",
    projectTrusted ? collectPromptFiles(join(projectBase, "prompts")) : [],
    projectMeta,
    projectSettings.prompts ?? [],
    projectBase,
  );
  addAuto(
    "skills",
    collectSkillFiles(join(globalBase, "skills"), "pi"),
    userMeta,
    globalSettings.skills ?? [],
    globalBase,
  );
  const userAgentsBase = dirname(userAgentsSkills);
  addAuto(
    "skills",
    collectSkillFiles(userAgentsSkills, "agents"),
    { ...userMeta, baseDir: userAgentsBase },
    globalSettings.skills ?? [],
    userAgentsBase,
  );
  addAuto(
    "prompts",
    collectPromptFiles(join(globalBase, "prompts")),
    userMeta,
    globalSettings.prompts ?? [],
    globalBase,
  );

  const finish = (kind: Kind): ResolvedResource[] => {
    const list = [...maps[kind]].map(([path, v]) => ({ path, ...v }));
    list.sort((a, b) => precedence(a.metadata) - precedence(b.metadata));
    const seen = new Set<string>();
    return list.filter((r) => {
      const canonical = canonicalizePath(r.path);
      if (seen.has(canonical)) return false;
      seen.add(canonical);
      return true;
    });
  };
  return { skills: finish("skills"), prompts: finish("prompts") };
}
