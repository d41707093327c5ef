/**
 * SettingsManager: typed access to merged global + project settings with the reference's defaults.
 * Setters write to the global layer (project variants exist for resource lists) and persist only what
 * they changed.
 *
 * @module
 */

import { readEnv } from "../util/env.ts";
import { homeDir } from "../util/os.ts";
import { join } from "../util/path.ts";
import { getAgentDir } from "./paths.ts";
import {
  DEFAULT_MAX_AGENT_RETRY_DELAY_MS,
  type ModelKey,
  SettingsManagerExtras,
} from "./settings_manager_extras.ts";
import { FileSettingsStorage, InMemorySettingsStorage, migrateSettings } from "./settings_storage.ts";
import type {
  BranchSummarySettings,
  CompactionSettings,
  PackageSource,
  Settings,
  SettingsStorage,
  SettingsThinkingLevel,
  ThinkingBudgetsSettings,
  TransportSetting,
  WarningSettings,
} from "./settings_types.ts";

function envFlag(name: string): boolean {
  return readEnv(name) === "1";
}

/** Options for creating a SettingsManager. */
export interface SettingsManagerOptions {
  /** False leaves the project's `.pi/settings.json` unread and refuses to write it (default true). */
  projectTrusted?: boolean;
}

/** Which entries the session tree shows. */
export type TreeFilterMode = NonNullable<Settings["treeFilterMode"]>;
const TREE_FILTER_MODES: TreeFilterMode[] = ["default", "no-tools", "user-only", "labeled-only", "all"];

/** Settings with defaults, merged from the global and project files. */
export class SettingsManager extends SettingsManagerExtras {
  // The defaults only give the constructor 1.6.0's declared shape (`private constructor()`); our
  // factories always pass the storage.
  private constructor(
    storage: SettingsStorage = new InMemorySettingsStorage(),
    options: SettingsManagerOptions = {},
  ) {
    super(storage, options.projectTrusted ?? true);
  }

  /**
   * Loads `<agentDir>/settings.json` and, when the project is trusted (the default; see
   * `resolveProjectTrust` in project_trust.ts), `<cwd>/.pi/settings.json`.
   */
  static create(
    cwd: string,
    agentDir: string = getAgentDir(),
    options: SettingsManagerOptions = {},
  ): SettingsManager {
    return SettingsManager.fromStorage(new FileSettingsStorage(cwd, agentDir), options);
  }

  /** Loads from any storage backend. */
  static fromStorage(storage: SettingsStorage, options: SettingsManagerOptions = {}): SettingsManager {
    return new SettingsManager(storage, options);
  }

  /** A manager with no file I/O, seeded with `settings` as the global layer. */
  static inMemory(settings: Partial<Settings> = {}, options: SettingsManagerOptions = {}): SettingsManager {
    const storage = new InMemorySettingsStorage();
    const initial = migrateSettings(structuredClone(settings) as Record<string, unknown>);
    storage.withLock("global", () => JSON.stringify(initial, null, 2));
    return SettingsManager.fromStorage(storage, options);
  }

  /** A copy of the effective settings (global and project merged, with overrides). */
  getSettings(): Settings {
    return structuredClone(this.settings);
  }

  /** Sets a global setting and saves it. */
  private setGlobal<K extends keyof Settings>(key: K, value: Settings[K]): void {
    this.setGlobalValue(key, value);
  }

  /** Sets one key of a global settings section and saves it. */
  private setNested<K extends "compaction" | "retry" | "terminal" | "images">(
    key: K,
    nestedKey: keyof NonNullable<Settings[K]> & string,
    value: unknown,
  ): void {
    const section = (this.globalSettings[key] ?? {}) as Record<string, unknown>;
    section[nestedKey] = value;
    (this.globalSettings as Record<string, unknown>)[key] = section;
    this.markModified(key, nestedKey);
    this.save();
  }

  /** Sets a project setting and saves the project file. */
  private setProject<K extends "packages" | "extensions" | "skills" | "prompts" | "themes">(
    key: K,
    value: Settings[K],
  ): void {
    const projectSettings = structuredClone(this.projectSettings);
    projectSettings[key] = value;
    this.markProjectModified(key);
    this.saveProjectSettings(projectSettings);
  }

  /** This installation's anonymous id (`deviceId`), created and saved on first use (1.6.0; sign-ins send it). */
  getOrCreateDeviceId(): string {
    const existing = this.getGlobalSettings().deviceId;
    if (existing) return existing;
    const id = crypto.randomUUID();
    this.setGlobal("deviceId", id);
    return id;
  }

  /** Last changelog version the user has seen. */
  getLastChangelogVersion(): string | undefined {
    return this.settings.lastChangelogVersion;
  }
  /** Remembers the changelog version shown. */
  setLastChangelogVersion(version: string): void {
    this.setGlobal("lastChangelogVersion", version);
  }

  /** Configured session directory with `~` expanded (undefined = default location). */
  getSessionDir(): string | undefined {
    const sessionDir = this.settings.sessionDir;
    if (!sessionDir) return sessionDir;
    if (sessionDir === "~") return homeDir();
    if (sessionDir.startsWith("~/")) return join(homeDir(), sessionDir.slice(2));
    return sessionDir;
  }

  /** Provider of the saved default model. */
  getDefaultProvider(): string | undefined {
    return this.settings.defaultProvider;
  }
  /** Id of the saved default model. */
  getDefaultModel(): string | undefined {
    return this.settings.defaultModel;
  }
  /** Saves the default provider. */
  setDefaultProvider(provider: string): void {
    this.setGlobal("defaultProvider", provider);
  }
  /** Saves the default model id. */
  setDefaultModel(modelId: string): void {
    this.setGlobal("defaultModel", modelId);
  }
  /** Saves provider and model together in one write. */
  setDefaultModelAndProvider(provider: string, modelId: string): void {
    this.globalSettings.defaultProvider = provider;
    this.globalSettings.defaultModel = modelId;
    this.markModified("defaultProvider");
    this.markModified("defaultModel");
    this.save();
  }

  /** How queued steering messages are delivered (default `one-at-a-time`). */
  getSteeringMode(): "all" | "one-at-a-time" {
    return this.settings.steeringMode || "one-at-a-time";
  }
  /** Saves the steering delivery mode. */
  setSteeringMode(mode: "all" | "one-at-a-time"): void {
    this.setGlobal("steeringMode", mode);
  }
  /** How queued follow-up messages are delivered (default `one-at-a-time`). */
  getFollowUpMode(): "all" | "one-at-a-time" {
    return this.settings.followUpMode || "one-at-a-time";
  }
  /** Saves the follow-up delivery mode. */
  setFollowUpMode(mode: "all" | "one-at-a-time"): void {
    this.setGlobal("followUpMode", mode);
  }

  /** Theme name. */
  getTheme(): string | undefined {
    // A path (with "/") is not a theme name; getThemeSetting() returns it as written.
    const theme = this.getThemeSetting();
    return theme?.includes("/") ? undefined : theme;
  }
  /** Saves the theme name. */
  setTheme(theme: string): void {
    this.setGlobal("theme", theme);
  }

  /** Saved default thinking level. */
  getDefaultThinkingLevel(): SettingsThinkingLevel | undefined {
    return this.settings.defaultThinkingLevel;
  }
  /** Saves the default thinking level. */
  setDefaultThinkingLevel(level: SettingsThinkingLevel): void {
    this.setGlobal("defaultThinkingLevel", level);
  }

  /** Transport preference (default `auto`). */
  getTransport(): TransportSetting {
    return this.settings.transport ?? "auto";
  }
  /** Saves the transport preference. */
  setTransport(transport: TransportSetting): void {
    this.setGlobal("transport", transport);
  }

  /** Whether auto-compaction is on (default true). */
  getCompactionEnabled(): boolean {
    return this.settings.compaction?.enabled ?? true;
  }
  /** Turns auto-compaction on or off. */
  setCompactionEnabled(enabled: boolean): void {
    this.setNested("compaction", "enabled", enabled);
  }
  /** Tokens kept free for the reply before compaction triggers (default 16384). */
  getCompactionReserveTokens(model?: ModelKey): number {
    return this.compactionTokens("reserveTokens", model);
  }
  /** Recent tokens kept verbatim by compaction (default 20000). */
  getCompactionKeepRecentTokens(model?: ModelKey): number {
    return this.compactionTokens("keepRecentTokens", model);
  }
  /** All compaction settings with defaults filled in. */
  getCompactionSettings(model?: ModelKey): Required<Omit<CompactionSettings, "modelOverrides">> {
    return {
      enabled: this.getCompactionEnabled(),
      reserveTokens: this.getCompactionReserveTokens(model),
      keepRecentTokens: this.getCompactionKeepRecentTokens(model),
    };
  }

  /** Branch summary settings with defaults filled in. */
  getBranchSummarySettings(): Required<BranchSummarySettings> {
    return {
      reserveTokens: this.settings.branchSummary?.reserveTokens ?? 16384,
      skipPrompt: this.settings.branchSummary?.skipPrompt ?? false,
    };
  }
  /** Whether to skip the "summarize branch?" prompt. */
  getBranchSummarySkipPrompt(): boolean {
    return this.settings.branchSummary?.skipPrompt ?? false;
  }

  /** Whether automatic retry is on (default true). */
  getRetryEnabled(): boolean {
    return this.settings.retry?.enabled ?? true;
  }
  /** Turns automatic retry on or off. */
  setRetryEnabled(enabled: boolean): void {
    this.setNested("retry", "enabled", enabled);
  }
  /** Retry settings with defaults (3 retries, 2000 ms base delay). */
  getRetrySettings(): { enabled: boolean; maxRetries: number; baseDelayMs: number; maxAgentDelayMs: number } {
    return {
      enabled: this.getRetryEnabled(),
      maxRetries: this.settings.retry?.maxRetries ?? 3,
      baseDelayMs: this.settings.retry?.baseDelayMs ?? 2000,
      maxAgentDelayMs: this.settings.retry?.maxAgentDelayMs ?? DEFAULT_MAX_AGENT_RETRY_DELAY_MS,
    };
  }
  /** Provider-level retry knobs (max retry delay defaults to 60000 ms). */
  getProviderRetrySettings(): { timeoutMs?: number; maxRetries?: number; maxRetryDelayMs: number } {
    return {
      timeoutMs: this.settings.retry?.provider?.timeoutMs,
      maxRetries: this.settings.retry?.provider?.maxRetries,
      maxRetryDelayMs: this.settings.retry?.provider?.maxRetryDelayMs ?? 60000,
    };
  }

  /** Whether thinking blocks are collapsed (default false). */
  getHideThinkingBlock(): boolean {
    return this.settings.hideThinkingBlock ?? false;
  }
  /** Saves whether thinking blocks are collapsed. */
  setHideThinkingBlock(hide: boolean): void {
    this.setGlobal("hideThinkingBlock", hide);
  }

  /** Shell used by the bash tool. */
  getShellPath(): string | undefined {
    return this.settings.shellPath;
  }
  /** Saves the shell path. */
  setShellPath(path: string | undefined): void {
    this.setGlobal("shellPath", path);
  }

  /** Whether the startup banner is suppressed (default false). */
  getQuietStartup(): boolean | "header" {
    const value = this.settings.quietStartup;
    return value === true || value === "header" ? value : false;
  }
  /** Saves quiet startup. */
  setQuietStartup(quiet: boolean | "header"): void {
    this.setGlobal("quietStartup", quiet);
  }

  /** Text prepended to every bash command. */
  getShellCommandPrefix(): string | undefined {
    return this.settings.shellCommandPrefix;
  }
  /** Saves the bash command prefix. */
  setShellCommandPrefix(prefix: string | undefined): void {
    this.setGlobal("shellCommandPrefix", prefix);
  }

  /** argv used instead of `npm` for package operations. */
  getNpmCommand(): string[] | undefined {
    return this.settings.npmCommand ? [...this.settings.npmCommand] : undefined;
  }
  /** Saves the npm command argv. */
  setNpmCommand(command: string[] | undefined): void {
    this.setGlobal("npmCommand", command ? [...command] : undefined);
  }

  /** Whether the changelog is shown collapsed (default false). */
  getCollapseChangelog(): boolean {
    return this.settings.collapseChangelog ?? false;
  }
  /** Saves changelog collapsing. */
  setCollapseChangelog(collapse: boolean): void {
    this.setGlobal("collapseChangelog", collapse);
  }

  /** Whether the anonymous install ping is allowed (default true). */
  getEnableInstallTelemetry(): boolean {
    return this.settings.enableInstallTelemetry ?? true;
  }
  /** Saves the install telemetry switch. */
  setEnableInstallTelemetry(enabled: boolean): void {
    this.setGlobal("enableInstallTelemetry", enabled);
  }

  /** Package sources (merged view). */
  getPackages(): PackageSource[] {
    return [...(this.settings.packages ?? [])];
  }
  /** Saves global package sources. */
  setPackages(packages: PackageSource[]): void {
    this.setGlobal("packages", packages);
  }
  /** Saves project package sources. */
  setProjectPackages(packages: PackageSource[]): void {
    this.setProject("packages", packages);
  }

  /** Extension paths (merged view). */
  getExtensionPaths(): string[] {
    return [...(this.settings.extensions ?? [])];
  }
  /** Saves global extension paths. */
  setExtensionPaths(paths: string[]): void {
    this.setGlobal("extensions", paths);
  }
  /** Saves project extension paths. */
  setProjectExtensionPaths(paths: string[]): void {
    this.setProject("extensions", paths);
  }

  /** Skill paths (merged view). */
  getSkillPaths(): string[] {
    return [...(this.settings.skills ?? [])];
  }
  /** Saves global skill paths. */
  setSkillPaths(paths: string[]): void {
    this.setGlobal("skills", paths);
  }
  /** Saves project skill paths. */
  setProjectSkillPaths(paths: string[]): void {
    this.setProject("skills", paths);
  }

  /** Prompt template paths (merged view). */
  getPromptTemplatePaths(): string[] {
    return [...(this.settings.prompts ?? [])];
  }
  /** Saves global prompt template paths. */
  setPromptTemplatePaths(paths: string[]): void {
    this.setGlobal("prompts", paths);
  }
  /** Saves project prompt template paths. */
  setProjectPromptTemplatePaths(paths: string[]): void {
    this.setProject("prompts", paths);
  }

  /** Theme paths (merged view). */
  getThemePaths(): string[] {
    return [...(this.settings.themes ?? [])];
  }
  /** Saves global theme paths. */
  setThemePaths(paths: string[]): void {
    this.setGlobal("themes", paths);
  }
  /** Saves project theme paths. */
  setProjectThemePaths(paths: string[]): void {
    this.setProject("themes", paths);
  }

  /** Whether skills are exposed as `/skill:name` commands (default true). */
  getEnableSkillCommands(): boolean {
    return this.settings.enableSkillCommands ?? true;
  }
  /** Saves the skill command switch. */
  setEnableSkillCommands(enabled: boolean): void {
    this.setGlobal("enableSkillCommands", enabled);
  }

  /** Custom thinking budgets, if any. */
  getThinkingBudgets(): ThinkingBudgetsSettings | undefined {
    return this.settings.thinkingBudgets;
  }

  /** Whether images render inline in the terminal (default true). */
  getShowImages(): boolean {
    return this.settings.terminal?.showImages ?? true;
  }
  /** Saves inline image rendering. */
  setShowImages(show: boolean): void {
    this.setNested("terminal", "showImages", show);
  }
  /** Inline image width in cells (default 60, at least 1). */
  getImageWidthCells(): number {
    const width = this.settings.terminal?.imageWidthCells;
    if (typeof width !== "number" || !Number.isFinite(width)) return 60;
    return Math.max(1, Math.floor(width));
  }
  /** Saves the inline image width (floored, at least 1). */
  setImageWidthCells(width: number): void {
    this.setNested("terminal", "imageWidthCells", Math.max(1, Math.floor(width)));
  }
  /** Whether to clear the screen when output shrinks (setting, else `PI_CLEAR_ON_SHRINK=1`). */
  getClearOnShrink(): boolean {
    if (this.settings.terminal?.clearOnShrink !== undefined) return this.settings.terminal.clearOnShrink;
    return envFlag("PI_CLEAR_ON_SHRINK");
  }
  /** Saves clear-on-shrink. */
  setClearOnShrink(enabled: boolean): void {
    this.setNested("terminal", "clearOnShrink", enabled);
  }
  /** Whether to emit terminal progress sequences (default false). */
  getShowTerminalProgress(): boolean {
    return this.settings.terminal?.showTerminalProgress ?? false;
  }
  /** Saves terminal progress. */
  setShowTerminalProgress(enabled: boolean): void {
    this.setNested("terminal", "showTerminalProgress", enabled);
  }

  /** Whether large images are downscaled before sending (default true). */
  getImageAutoResize(): boolean {
    return this.settings.images?.autoResize ?? true;
  }
  /** Saves image auto-resize. */
  setImageAutoResize(enabled: boolean): void {
    this.setNested("images", "autoResize", enabled);
  }
  /** Whether images are withheld from the model (default false). */
  getBlockImages(): boolean {
    return this.settings.images?.blockImages ?? false;
  }
  /** Saves image blocking. */
  setBlockImages(blocked: boolean): void {
    this.setNested("images", "blockImages", blocked);
  }

  /** Model patterns for Ctrl+P cycling (`--models` equivalent). */
  getEnabledModels(): string[] | undefined {
    return this.settings.enabledModels;
  }
  /** Saves the enabled model patterns. */
  setEnabledModels(patterns: string[] | undefined): void {
    this.setGlobal("enabledModels", patterns);
  }

  /** What double Escape does on an empty editor (default `tree`). */
  getDoubleEscapeAction(): "fork" | "tree" | "none" {
    return this.settings.doubleEscapeAction ?? "tree";
  }
  /** Saves the double-Escape action. */
  setDoubleEscapeAction(action: "fork" | "tree" | "none"): void {
    this.setGlobal("doubleEscapeAction", action);
  }

  /** Session tree filter (unknown values fall back to `default`). */
  getTreeFilterMode(): TreeFilterMode {
    const mode = this.settings.treeFilterMode;
    return mode && TREE_FILTER_MODES.includes(mode) ? mode : "default";
  }
  /** Saves the session tree filter. */
  setTreeFilterMode(mode: TreeFilterMode): void {
    this.setGlobal("treeFilterMode", mode);
  }

  /** Whether the hardware cursor is shown (setting, else `PI_HARDWARE_CURSOR=1`). */
  getShowHardwareCursor(): boolean {
    return this.settings.showHardwareCursor ?? envFlag("PI_HARDWARE_CURSOR");
  }
  /** Saves hardware cursor visibility. */
  setShowHardwareCursor(enabled: boolean): void {
    this.setGlobal("showHardwareCursor", enabled);
  }

  /** Horizontal editor padding (default 0). */
  getEditorPaddingX(): number {
    return this.settings.editorPaddingX ?? 0;
  }
  /** Saves editor padding, clamped to 0–3. */
  setEditorPaddingX(padding: number): void {
    this.setGlobal("editorPaddingX", Math.max(0, Math.min(3, Math.floor(padding))));
  }

  /** Autocomplete rows shown (default 5). */
  getAutocompleteMaxVisible(): number {
    return this.settings.autocompleteMaxVisible ?? 5;
  }
  /** Saves autocomplete rows, clamped to 3–20. */
  setAutocompleteMaxVisible(maxVisible: number): void {
    this.setGlobal("autocompleteMaxVisible", Math.max(3, Math.min(20, Math.floor(maxVisible))));
  }

  /** Indent for rendered code blocks (default two spaces). */
  getCodeBlockIndent(): string {
    return this.settings.markdown?.codeBlockIndent ?? "  ";
  }

  /** Warning switches (copy). */
  getWarnings(): WarningSettings {
    return { ...(this.settings.warnings ?? {}) };
  }
  /** Saves warning switches. */
  setWarnings(warnings: WarningSettings): void {
    this.setGlobal("warnings", { ...warnings });
  }
}
