/**
 * What a toggle in the `pi config` selector writes to settings.json, exactly as pi 1.6.0 writes it.
 * Global mode: a top-level resource gets `+<path>` / `-<path>` (relative to the agent dir or
 * `.pi/`, a built-in its `builtin:<name>`) in the `extensions`/`skills`/`prompts`/`themes` list of
 * its own scope; a package resource gets the same in the package entry's filter (the entry becomes
 * an object, and a plain string again when no filter is left). Project mode (`-l` or Tab) cycles
 * inherit → `-`/`+` → the other → inherit in the project's settings, naming inherited global files
 * by their absolute path and adding packages it overrides as `{ source, autoload: false }`.
 *
 * @module
 */
import { CONFIG_DIR_NAME } from "../../config/paths.ts";
import type { PackageSource, Settings } from "../../config/settings_types.ts";
import { isLocalSource, resolveLocalPath } from "../../resources/packages/package_source.ts";
import { canonicalizePath } from "../../resources/resource_paths.ts";
import { dirname, join, relative } from "../../util/path.ts";
import {
  BUILTIN_PATH_PREFIX,
  type ConfigItem,
  RESOURCE_KINDS,
  type ResourceKind,
} from "./config_selector_groups.ts";

/** The settings the selector reads and writes (SettingsManager's resource-list methods). */
export interface ResourceSettings {
  getGlobalSettings(): Settings;
  getProjectSettings(): Settings;
  setPackages(packages: PackageSource[]): void;
  setProjectPackages(packages: PackageSource[]): void;
  setExtensionPaths(paths: string[]): void;
  setProjectExtensionPaths(paths: string[]): void;
  setSkillPaths(paths: string[]): void;
  setProjectSkillPaths(paths: string[]): void;
  setPromptTemplatePaths(paths: string[]): void;
  setProjectPromptTemplatePaths(paths: string[]): void;
  setThemePaths(paths: string[]): void;
  setProjectThemePaths(paths: string[]): void;
}

/** A project override of one resource. */
export type OverrideState = "inherit" | "load" | "unload";

type Scope = "user" | "project";
/** A package entry as an object; `autoload: false` (1.6.0) marks one added only to carry overrides. */
type PackageObject = Exclude<PackageSource, string> & Partial<Record<ResourceKind, string[]>> & {
  autoload?: boolean;
};

function target(entry: string): string {
  return /^[!+-]/.test(entry) ? entry.slice(1) : entry;
}

/** Writes the selector's toggles for one `cwd` and agent dir. */
export class ResourceFilterWriter {
  constructor(
    private readonly settings: ResourceSettings,
    private readonly cwd: string,
    private readonly agentDir: string,
    /** Enabled state of each resource in the global view, by {@link itemKey}. */
    private readonly inheritedEnabled: Map<string, boolean>,
  ) {}

  /** The key an item is known by in both views. */
  static itemKey(item: ConfigItem): string {
    return `${item.kind}:${
      item.path.startsWith(BUILTIN_PATH_PREFIX) ? item.path : canonicalizePath(item.path)
    }`;
  }

  private baseDir(scope: Scope): string {
    return scope === "project" ? join(this.cwd, CONFIG_DIR_NAME) : this.agentDir;
  }

  private scopeOf(item: ConfigItem): Scope {
    return item.metadata.scope === "project" ? "project" : "user";
  }

  private setTopLevel(scope: Scope, kind: ResourceKind, paths: string[]): void {
    const s = this.settings;
    if (scope === "project") {
      if (kind === "extensions") s.setProjectExtensionPaths(paths);
      else if (kind === "skills") s.setProjectSkillPaths(paths);
      else if (kind === "prompts") s.setProjectPromptTemplatePaths(paths);
      else s.setProjectThemePaths(paths);
    } else {
      if (kind === "extensions") s.setExtensionPaths(paths);
      else if (kind === "skills") s.setSkillPaths(paths);
      else if (kind === "prompts") s.setPromptTemplatePaths(paths);
      else s.setThemePaths(paths);
    }
  }

  private layer(scope: Scope): Settings {
    return scope === "project" ? this.settings.getProjectSettings() : this.settings.getGlobalSettings();
  }

  private topLevelPattern(item: ConfigItem): string {
    if (item.metadata.source === "builtin") return item.path;
    return relative(item.metadata.baseDir ?? this.baseDir(this.scopeOf(item)), item.path);
  }

  private packagePattern(item: ConfigItem): string {
    return relative(item.metadata.baseDir ?? dirname(item.path), item.path);
  }

  /** Global mode: switches `item` to `enabled` in its own scope's settings. */
  toggle(item: ConfigItem, enabled: boolean): void {
    const scope = this.scopeOf(item);
    const sign = enabled ? "+" : "-";
    if (item.metadata.origin === "top-level") {
      const pattern = this.topLevelPattern(item);
      const current = this.layer(scope)[item.kind] ?? [];
      const updated = current.filter((entry) => target(entry) !== pattern);
      updated.push(`${sign}${pattern}`);
      this.setTopLevel(scope, item.kind, updated);
      return;
    }
    const packages = [...(this.layer(scope).packages ?? [])];
    const index = packages.findIndex((pkg) =>
      (typeof pkg === "string" ? pkg : pkg.source) === item.metadata.source
    );
    if (index === -1) return;
    const found = packages[index];
    const pkg: PackageObject = typeof found === "string" ? { source: found } : { ...found } as PackageObject;
    packages[index] = pkg;
    const pattern = this.packagePattern(item);
    const updated = (pkg[item.kind] ?? []).filter((entry) => target(entry) !== pattern);
    updated.push(`${sign}${pattern}`);
    pkg[item.kind] = updated;
    if (scope === "project") this.settings.setProjectPackages(packages);
    else this.settings.setPackages(packages);
  }

  /** Whether the global view holds `item` (then project mode shows it as inherited). */
  isInherited(item: ConfigItem): boolean {
    return this.scopeOf(item) === "user" || this.inheritedEnabled.has(ResourceFilterWriter.itemKey(item));
  }

  /** The state `item` has without a project override. */
  inheritedState(item: ConfigItem): boolean {
    return this.inheritedEnabled.get(ResourceFilterWriter.itemKey(item)) ??
      (this.scopeOf(item) === "user" ? item.enabled : true);
  }

  private patternForScope(item: ConfigItem, scope: Scope): string {
    const sourceScope = this.scopeOf(item);
    if (scope !== sourceScope || item.metadata.source === "builtin") return item.path;
    return relative(item.metadata.baseDir ?? this.baseDir(sourceScope), item.path);
  }

  private overridePatterns(item: ConfigItem): Set<string> {
    const patterns = new Set([
      this.patternForScope(item, "project"),
      item.path,
      relative(this.baseDir("project"), item.path),
    ]);
    if (item.metadata.baseDir) patterns.add(relative(item.metadata.baseDir, item.path));
    return patterns;
  }

  private sameSource(left: string, leftScope: Scope, right: string, rightScope: Scope): boolean {
    if (left === right) return true;
    if (!isLocalSource(left) || !isLocalSource(right)) return false;
    return resolveLocalPath(left, this.baseDir(leftScope)) ===
      resolveLocalPath(right, this.baseDir(rightScope));
  }

  private projectPackage(item: ConfigItem): PackageSource | undefined {
    return (this.settings.getProjectSettings().packages ?? []).find((pkg) =>
      this.sameSource(
        item.metadata.source,
        this.scopeOf(item),
        typeof pkg === "string" ? pkg : pkg.source,
        "project",
      )
    );
  }

  /** Project mode: the override the project's settings hold for `item`. */
  overrideState(item: ConfigItem): OverrideState {
    if (item.metadata.origin === "top-level") {
      return stateOf(this.settings.getProjectSettings()[item.kind] ?? [], this.overridePatterns(item), false);
    }
    const pkg = this.projectPackage(item);
    if (typeof pkg !== "object") return "inherit";
    const entries = (pkg as PackageObject)[item.kind];
    if (entries === undefined) return "inherit";
    return stateOf(entries, new Set([this.packagePattern(item)]), (pkg as PackageObject).autoload !== false);
  }

  /** Project mode: the next state of the cycle for `item`. */
  nextState(item: ConfigItem): OverrideState {
    const state = this.overrideState(item);
    const inherited = this.inheritedState(item);
    if (state === "inherit") return inherited ? "unload" : "load";
    if (state === "unload") return inherited ? "load" : "inherit";
    return inherited ? "inherit" : "unload";
  }

  /** Project mode: writes `state` for `item`; false when nothing could be written. */
  setOverride(item: ConfigItem, state: OverrideState): boolean {
    return item.metadata.origin === "top-level"
      ? this.setTopLevelOverride(item, state)
      : this.setPackageOverride(item, state);
  }

  private setTopLevelOverride(item: ConfigItem, state: OverrideState): boolean {
    const current = this.settings.getProjectSettings()[item.kind] ?? [];
    const inherited = this.isInherited(item);
    const pattern = inherited ? item.path : this.patternForScope(item, "project");
    const patterns = this.overridePatterns(item);
    const updated = current.filter((entry) => {
      const t = target(entry);
      if (/^[!+-]/.test(entry) && patterns.has(t)) return false;
      return !(state === "inherit" && inherited && t === pattern);
    });
    if (state !== "inherit") {
      // Project entries name inherited files to override them; built-ins need no entry.
      if (inherited && item.metadata.source !== "builtin" && !updated.includes(pattern)) {
        updated.push(pattern);
      }
      updated.push(`${state === "load" ? "+" : "-"}${pattern}`);
    }
    this.setTopLevel("project", item.kind, updated);
    return true;
  }

  private setPackageOverride(item: ConfigItem, state: OverrideState): boolean {
    const packages = [...(this.settings.getProjectSettings().packages ?? [])];
    let index = packages.findIndex((pkg) =>
      this.sameSource(
        item.metadata.source,
        this.scopeOf(item),
        typeof pkg === "string" ? pkg : pkg.source,
        "project",
      )
    );
    if (index === -1) {
      if (state === "inherit") return false;
      packages.push(this.overrideSource(item));
      index = packages.length - 1;
    }
    const found = packages[index];
    const pkg: PackageObject = typeof found === "string" ? { source: found } : { ...found } as PackageObject;
    packages[index] = pkg;
    const pattern = this.packagePattern(item);
    const updated = (pkg[item.kind] ?? []).filter((entry) => target(entry) !== pattern);
    if (state !== "inherit") updated.push(`${state === "load" ? "+" : "-"}${pattern}`);
    pkg[item.kind] = updated.length > 0 ? updated : undefined;
    if (!RESOURCE_KINDS.some((kind) => pkg[kind] !== undefined)) {
      if (pkg.autoload === false) packages.splice(index, 1);
      else packages[index] = pkg.source;
    }
    this.settings.setProjectPackages(packages);
    return true;
  }

  private overrideSource(item: ConfigItem): PackageObject {
    const source = item.metadata.source;
    if (!isLocalSource(source)) return { source, autoload: false };
    const path = resolveLocalPath(source, this.baseDir(this.scopeOf(item)));
    return { source: relative(this.baseDir("project"), path) || ".", autoload: false };
  }
}

function stateOf(entries: readonly string[], patterns: Set<string>, emptyIsUnload: boolean): OverrideState {
  if (entries.length === 0 && emptyIsUnload) return "unload";
  let state: OverrideState = "inherit";
  for (const entry of entries) {
    if (!patterns.has(target(entry))) continue;
    state = entry.startsWith("!") || entry.startsWith("-") ? "unload" : "load";
  }
  return state;
}
