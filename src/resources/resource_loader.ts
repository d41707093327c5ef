/**
 * Loads everything that shapes the system prompt and the slash commands: skills, prompt
 * templates, context files, and the SYSTEM.md / APPEND_SYSTEM.md sources — from settings, the
 * default folders and command-line paths. Named and shaped like the reference's
 * `DefaultResourceLoader` (extensions and themes are added by their own layers).
 *
 * @module
 */
import type { PackageSource } from "../config/settings_types.ts";
import { existsSync, readTextFileSync } from "../util/fs.ts";
import { join, resolve } from "../util/path.ts";
import { type ContextFile, loadProjectContextFiles } from "./context_files.ts";
import { loadPromptTemplates, type PromptTemplate } from "./prompt_templates.ts";
import {
  hasResourceSources,
  type ResolvedResource,
  resolveLocalResources,
  type ResourceSettings,
} from "./resource_discovery.ts";
import { loadResourceDeps } from "./resource_deps.ts";
import { canonicalizePath, CONFIG_DIR_NAME, isUnderPath, resolveResourcePath } from "./resource_paths.ts";
import { loadSkills, type ResourceDiagnostic, type Skill } from "./skills.ts";
import type { SourceInfo } from "./source_info.ts";

/** What the loader reads from settings. */
export interface ResourceSettingsSource {
  /** Global settings that name resources. */
  getGlobalSettings(): ResourceSettings;
  /** Project settings that name resources. */
  getProjectSettings(): ResourceSettings;
  /** Re-reads the settings. */
  reload?(): void | Promise<void>;
  /**
   * Whether the project is trusted (config/project_trust.ts). When false, the folder's own resources are
   * skipped: `.pi/skills`, `.pi/prompts`, `.pi/SYSTEM.md`, `.pi/APPEND_SYSTEM.md` and `.agents/skills` in the
   * cwd and its ancestors. Context files (AGENTS.md, CLAUDE.md) still load, as in pi 1.6.0. Default: trusted.
   */
  isProjectTrusted?(): boolean;
}

/** Options of {@link DefaultResourceLoader}. */
export interface ResourceLoaderOptions {
  /** Working folder of the project. */
  cwd: string;
  /** Agent config folder. */
  agentDir: string;
  /** Settings that name resources. */
  settings?: ResourceSettingsSource;
  /** `--skill` paths: loaded even with `noSkills`. */
  additionalSkillPaths?: string[];
  /** `--prompt-template` paths: loaded even with `noPromptTemplates`. */
  additionalPromptTemplatePaths?: string[];
  /**
   * Skills and prompt templates of the run's `-e npm:…` / `-e git:…` packages: first, and loaded even with
   * `noSkills` / `noPromptTemplates` (1.6.0).
   */
  temporaryPackageResources?: { skills: ResolvedResource[]; prompts: ResolvedResource[] };
  /** Load no skills from the default folders. */
  noSkills?: boolean;
  /** Load no prompt templates from the default folders. */
  noPromptTemplates?: boolean;
  /** Load no AGENTS.md or CLAUDE.md files. */
  noContextFiles?: boolean;
  /** `--system-prompt`: text, or a path whose file is read. */
  systemPrompt?: string;
  /** `--append-system-prompt` values (text or paths); replaces APPEND_SYSTEM.md discovery. */
  appendSystemPrompt?: string[];
  /** Where warnings go (default stderr). */
  warn?: (message: string) => void;
  /** The home folder for `~` in settings and `~/.agents/skills`. Default: `HOME`, else the platform's. */
  homeDir?: string;
}

/** A path an extension returned from `resources_discover`, with the provenance its resources get. */
export interface ExtensionResourcePath {
  /** The file or folder, as the extension gave it (relative ones resolve against the cwd). */
  path: string;
  /** `source` is `extension:<name>`, `scope` temporary, `origin` top-level, `baseDir` the extension's folder. */
  metadata: Omit<SourceInfo, "path">;
}

/** What `resources_discover` handlers returned, all extensions together. */
export interface ExtensionResourcePaths {
  /** Skill files (`SKILL.md`, a `.md` file) and folders of skills. */
  skillPaths: ExtensionResourcePath[];
  /** Prompt template files and folders. */
  promptPaths: ExtensionResourcePath[];
  /** Theme files and folders (the interactive mode's themes). */
  themePaths: ExtensionResourcePath[];
}

const NO_SETTINGS: ResourceSettingsSource = { getGlobalSettings: () => ({}), getProjectSettings: () => ({}) };

/** Loads and holds the resources of one session. Call `reload()` before reading. */
export class DefaultResourceLoader {
  /** Working folder resources are discovered for. */
  readonly cwd: string;
  /** Agent config folder. */
  readonly agentDir: string;
  #options: ResourceLoaderOptions;
  #settings: ResourceSettingsSource;
  #skills: Skill[] = [];
  #skillDiagnostics: ResourceDiagnostic[] = [];
  #prompts: PromptTemplate[] = [];
  #promptDiagnostics: ResourceDiagnostic[] = [];
  #agentsFiles: ContextFile[] = [];
  #systemPrompt?: string;
  #appendSystemPrompt: string[] = [];
  #systemPromptSource?: string;
  #appendSystemPromptSources: string[] = [];
  // What the last reload() found, kept so extendResources() can add to it (1.6.0's lastSkillPaths …).
  #skillPaths: string[] = [];
  #promptPaths: string[] = [];
  #metadata = new Map<string, ResolvedResource>();
  #extensionPaths: ExtensionResourcePaths = { skillPaths: [], promptPaths: [], themePaths: [] };

  /** Prepares a loader; `reload()` reads the resources. */
  constructor(options: ResourceLoaderOptions) {
    this.cwd = options.cwd;
    this.agentDir = options.agentDir;
    this.#options = options;
    this.#settings = options.settings ?? NO_SETTINGS;
  }

  /** Skills found by the last `reload()`, with problems found on the way. */
  getSkills(): { skills: Skill[]; diagnostics: ResourceDiagnostic[] } {
    return { skills: this.#skills, diagnostics: this.#skillDiagnostics };
  }
  /** Prompt templates found by the last `reload()`, with problems found on the way. */
  getPrompts(): { prompts: PromptTemplate[]; diagnostics: ResourceDiagnostic[] } {
    return { prompts: this.#prompts, diagnostics: this.#promptDiagnostics };
  }
  /** AGENTS.md / CLAUDE.md files found by the last `reload()`. */
  getAgentsFiles(): { agentsFiles: ContextFile[] } {
    return { agentsFiles: this.#agentsFiles };
  }
  /** The custom system prompt (SYSTEM.md or `--system-prompt`), if any. */
  getSystemPrompt(): string | undefined {
    return this.#systemPrompt;
  }
  /** Texts appended to the system prompt, in order. */
  getAppendSystemPrompt(): string[] {
    return this.#appendSystemPrompt;
  }
  /** The file the custom system prompt came from (absolute), when it came from a file. */
  getSystemPromptSource(): string | undefined {
    return this.#systemPromptSource;
  }
  /** The files appended to the system prompt (absolute), in order; texts given inline are not listed. */
  getAppendSystemPromptSources(): string[] {
    return this.#appendSystemPromptSources;
  }

  /**
   * Appends the skills and prompt templates of packages (lowest precedence, as in pi 1.6.0), installing
   * configured ones that are missing; the package code loads only when a settings scope declares packages.
   */
  async #addPackageResources(
    resolved: { skills: ResolvedResource[]; prompts: ResolvedResource[] },
    sources: {
      cwd: string;
      agentDir: string;
      globalSettings: ResourceSettings;
      projectSettings: ResourceSettings;
    },
  ): Promise<void> {
    const packagesOf = (settings: ResourceSettings) =>
      (settings as { packages?: PackageSource[] }).packages ?? [];
    const globalPackages = packagesOf(sources.globalSettings);
    const projectPackages = packagesOf(sources.projectSettings);
    if (globalPackages.length === 0 && projectPackages.length === 0) return;
    await loadResourceDeps();
    const { resolvePackagesAtStartup } = await import("./packages/package_startup.ts");
    const found = await resolvePackagesAtStartup({
      ...sources,
      globalPackages,
      projectPackages,
      homeDir: this.#options.homeDir,
      npmCommand: (sources.globalSettings as { npmCommand?: string[] }).npmCommand,
      warn: this.#options.warn ?? ((message: string) => console.error(message)),
    });
    for (const kind of ["skills", "prompts"] as const) {
      const known = new Set(resolved[kind].map((r) => canonicalizePath(r.path)));
      for (const r of found[kind]) if (!known.has(canonicalizePath(r.path))) resolved[kind].push(r);
    }
  }

  /** Theme files and folders extensions added with `resources_discover` since the last `reload()`. */
  getExtensionThemePaths(): ExtensionResourcePath[] {
    return this.#extensionPaths.themePaths;
  }

  /**
   * Adds the skill, prompt template and theme paths extensions returned from `resources_discover`
   * (after those already found, as in 1.6.0) and loads skills and templates again; `reload()`
   * forgets them, and extensions are asked again after it.
   */
  async extendResources(paths: Partial<ExtensionResourcePaths>): Promise<void> {
    const resolved = (list: ExtensionResourcePath[] | undefined) =>
      (list ?? []).map((entry) => ({ ...entry, path: resolveResourcePath(entry.path, this.cwd) }));
    const skills = resolved(paths.skillPaths);
    const prompts = resolved(paths.promptPaths);
    const themes = resolved(paths.themePaths);
    if (skills.length > 0 || prompts.length > 0) await loadResourceDeps();
    this.#extensionPaths = {
      skillPaths: [...this.#extensionPaths.skillPaths, ...skills],
      promptPaths: [...this.#extensionPaths.promptPaths, ...prompts],
      themePaths: [...this.#extensionPaths.themePaths, ...themes],
    };
    if (skills.length > 0) {
      this.#skillPaths = this.#merge(this.#skillPaths, skills.map((e) => e.path));
      this.#loadSkills(this.#skillPaths);
    }
    if (prompts.length > 0) {
      this.#promptPaths = this.#merge(this.#promptPaths, prompts.map((e) => e.path));
      this.#loadPrompts(this.#promptPaths);
    }
  }

  /** Re-reads settings and every resource. */
  async reload(): Promise<void> {
    await this.#settings.reload?.();
    const o = this.#options;
    const warn = o.warn ?? ((m: string) => console.error(m));
    const projectTrusted = this.#settings.isProjectTrusted?.() ?? true;
    const sources = {
      cwd: this.cwd,
      agentDir: this.agentDir,
      globalSettings: this.#settings.getGlobalSettings(),
      projectSettings: this.#settings.getProjectSettings(),
      projectTrusted,
      homeDir: o.homeDir,
    };
    const temporary = o.temporaryPackageResources ?? { skills: [], prompts: [] };
    const explicit = [
      ...(o.additionalSkillPaths ?? []),
      ...(o.additionalPromptTemplatePaths ?? []),
      ...temporary.skills.map((r) => r.path),
      ...temporary.prompts.map((r) => r.path),
    ];
    if (explicit.length > 0 || hasResourceSources(sources)) await loadResourceDeps();
    const resolved = resolveLocalResources(sources);
    await this.#addPackageResources(resolved, sources);
    const metadata = new Map<string, ResolvedResource>();
    for (const r of [...temporary.skills, ...temporary.prompts, ...resolved.skills, ...resolved.prompts]) {
      if (!metadata.has(r.path)) metadata.set(r.path, r);
    }
    const enabled = (list: ResolvedResource[]) => list.filter((r) => r.enabled).map((r) => r.path);
    this.#metadata = metadata;
    this.#extensionPaths = { skillPaths: [], promptPaths: [], themePaths: [] };
    this.#skillPaths = this.#merge(
      [...enabled(temporary.skills), ...(o.noSkills ? [] : enabled(resolved.skills))],
      o.additionalSkillPaths ?? [],
    );
    this.#loadSkills(this.#skillPaths);
    this.#promptPaths = this.#merge(
      [...enabled(temporary.prompts), ...(o.noPromptTemplates ? [] : enabled(resolved.prompts))],
      o.additionalPromptTemplatePaths ?? [],
    );
    this.#loadPrompts(this.#promptPaths);

    this.#agentsFiles = o.noContextFiles
      ? []
      : loadProjectContextFiles({ cwd: this.cwd, agentDir: this.agentDir, warn });
    const systemSource = o.systemPrompt ?? this.#discover("SYSTEM.md", projectTrusted);
    this.#systemPrompt = readPromptInput(systemSource, "system prompt", warn);
    // As in 1.6.0: a value naming an existing file is a file (the start-up listing shows it).
    this.#systemPromptSource = systemSource && existsSync(systemSource) ? resolve(systemSource) : undefined;
    const appendSources = o.appendSystemPrompt ??
      [this.#discover("APPEND_SYSTEM.md", projectTrusted)].filter((s): s is string => !!s);
    this.#appendSystemPrompt = appendSources
      .map((s) => readPromptInput(s, "append system prompt", warn))
      .filter((s): s is string => s !== undefined);
    this.#appendSystemPromptSources = appendSources.filter((s) => existsSync(s)).map((s) => resolve(s));
  }

  /** Loads the skills of `skillPaths` (with the `--skill` paths' "does not exist" diagnostics). */
  #loadSkills(skillPaths: string[]): void {
    const o = this.#options;
    if (o.noSkills && skillPaths.length === 0) {
      this.#skills = [];
      this.#skillDiagnostics = [];
    } else {
      const result = loadSkills({
        cwd: this.cwd,
        agentDir: this.agentDir,
        skillPaths,
        includeDefaults: false,
      });
      this.#skills = result.skills.map((s) => ({
        ...s,
        sourceInfo: this.#sourceInfo(s.filePath, "skillPaths") ?? s.sourceInfo,
      }));
      this.#skillDiagnostics = result.diagnostics;
    }
    for (const p of o.additionalSkillPaths ?? []) {
      if (!existsSync(p) && !this.#skillDiagnostics.some((d) => d.path === p)) {
        this.#skillDiagnostics.push({ type: "error", message: "Skill path does not exist", path: p });
      }
    }
  }

  /** Loads the prompt templates of `promptPaths`; the first of a name wins, later ones are collisions. */
  #loadPrompts(promptPaths: string[]): void {
    const o = this.#options;
    this.#prompts = [];
    this.#promptDiagnostics = [];
    if (!(o.noPromptTemplates && promptPaths.length === 0)) {
      const loaded = loadPromptTemplates({
        cwd: this.cwd,
        agentDir: this.agentDir,
        promptPaths,
        includeDefaults: false,
      });
      this.#promptDiagnostics.push(...loaded.diagnostics);
      const byName = new Map<string, PromptTemplate>();
      for (const t of loaded.templates) {
        const winner = byName.get(t.name);
        if (winner) {
          this.#promptDiagnostics.push({
            type: "collision",
            message: `name "/${t.name}" collision`,
            path: t.filePath,
            collision: {
              resourceType: "prompt",
              name: t.name,
              winnerPath: winner.filePath,
              loserPath: t.filePath,
            },
          });
        } else byName.set(t.name, t);
      }
      this.#prompts = [...byName.values()].map((t) => ({
        ...t,
        sourceInfo: this.#sourceInfo(t.filePath, "promptPaths") ?? t.sourceInfo,
      }));
    }
    for (const p of o.additionalPromptTemplatePaths ?? []) {
      if (!existsSync(p) && !this.#promptDiagnostics.some((d) => d.path === p)) {
        this.#promptDiagnostics.push({
          type: "error",
          message: "Prompt template path does not exist",
          path: p,
        });
      }
    }
  }

  /** The project's file (when the project is trusted), else the agent dir's. */
  #discover(name: string, projectTrusted: boolean): string | undefined {
    const project = join(this.cwd, CONFIG_DIR_NAME, name);
    if (projectTrusted && existsSync(project)) return project;
    const global = join(this.agentDir, name);
    return existsSync(global) ? global : undefined;
  }

  #merge(primary: string[], additional: string[]): string[] {
    const seen = new Set<string>();
    const out: string[] = [];
    for (const p of [...primary, ...additional]) {
      const resolved = resolveResourcePath(p, this.cwd);
      const canonical = canonicalizePath(resolved);
      if (seen.has(canonical)) continue;
      seen.add(canonical);
      out.push(resolved);
    }
    return out;
  }

  /** Provenance of a loaded file: the extension that added its path first, else the resolved resource's. */
  #sourceInfo(path: string, kind: "skillPaths" | "promptPaths"): SourceInfo | undefined {
    for (const entry of this.#extensionPaths[kind]) {
      if (entry.path === path || isUnderPath(path, entry.path)) return { ...entry.metadata, path };
    }
    const metadata = this.#metadata;
    const exact = metadata.get(path);
    if (exact) return { path, ...exact.metadata };
    for (const [source, r] of metadata) {
      if (isUnderPath(path, source)) return { path, ...r.metadata };
    }
    return undefined;
  }
}

/** A prompt flag's value: the file's text when it names an existing file, else the text itself. */
function readPromptInput(
  input: string | undefined,
  what: string,
  warn: (m: string) => void,
): string | undefined {
  if (!input) return undefined;
  if (!existsSync(input)) return input;
  try {
    // An editor's byte-order mark is not prompt text.
    return readTextFileSync(input).replace(/^\uFEFF/, "");
  } catch (error) {
    warn(`Warning: Could not read ${what} file ${input}: ${error}`);
    return input;
  }
}
