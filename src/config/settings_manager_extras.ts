/**
 * The settings pi 1.6.0 added (TUI mode, fullscreen, cache warming, project trust default, per-model thinking
 * levels and compaction, timeouts, tool defaults, terminal overrides, …), with 1.6.0's defaults and the way
 * its getters normalise or reject values. Kept apart from settings_manager.ts so each file stays readable.
 *
 * @module
 */

import { readEnv } from "../util/env.ts";
import { applyToolModifiers, isToolModifier } from "../util/tool_list.ts";
import { SettingsManagerCore } from "./settings_manager_core.ts";
import type { CacheWarmingMode, Settings, SettingsThinkingLevel } from "./settings_types.ts";

/** Tools enabled at start-up when `defaultTools` does not change them. */
export const DEFAULT_TOOL_NAMES: readonly string[] = ["read", "bash", "edit", "write"];

/** 1.6.0's default idle timeout for HTTP connections (5 minutes). */
export const DEFAULT_HTTP_IDLE_TIMEOUT_MS = 300_000;

/** 1.6.0's default longest wait before an automatic retry. */
export const DEFAULT_MAX_AGENT_RETRY_DELAY_MS = 60_000;

const CACHE_WARMING_MODES: readonly CacheWarmingMode[] = ["off", "streaming", "idle"];

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `disabled` → 0, a non-negative number (or numeric string) → floored ms, anything else → undefined. */
function parseTimeoutMs(value: unknown): number | undefined {
  if (typeof value === "string") {
    const trimmed = value.trim();
    if (trimmed.toLowerCase() === "disabled") return 0;
    if (trimmed.length === 0) return undefined;
    return parseTimeoutMs(Number(trimmed));
  }
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) return undefined;
  return Math.floor(value);
}

function timeoutSetting(value: unknown, name: string): number | undefined {
  const parsed = parseTimeoutMs(value);
  if (parsed !== undefined) return parsed;
  if (value !== undefined) throw new Error(`Invalid ${name} setting: ${String(value)}`);
  return undefined;
}

/** The compaction settings that can be overridden per model. */
export type CompactionTokenField = "reserveTokens" | "keepRecentTokens";
const COMPACTION_TOKEN_DEFAULTS: Record<CompactionTokenField, number> = {
  reserveTokens: 16384,
  keepRecentTokens: 20000,
};

/** A model as far as per-model settings need it. */
export interface ModelKey {
  /** Provider id. */
  provider: string;
  /** Model id. */
  id: string;
}

/** Getters and setters for the settings 1.6.0 added; SettingsManager builds on this. */
export class SettingsManagerExtras extends SettingsManagerCore {
  /** Sets a global key and queues its write. */
  protected setGlobalValue<K extends keyof Settings>(key: K, value: Settings[K]): void {
    this.globalSettings[key] = value;
    this.markModified(key);
    this.save();
  }

  /** The `theme` setting as written (a name or a path). */
  getThemeSetting(): string | undefined {
    return typeof this.settings.theme === "string" ? this.settings.theme : undefined;
  }

  /** Thinking level saved for one model (`modelThinkingLevels["provider/id"]`). */
  getModelThinkingLevel(provider: string, modelId: string): SettingsThinkingLevel | undefined {
    return this.settings.modelThinkingLevels?.[`${provider}/${modelId}`];
  }
  /** Every saved per-model thinking level. */
  getAllModelThinkingLevels(): Record<string, SettingsThinkingLevel> {
    return { ...(this.settings.modelThinkingLevels ?? {}) };
  }
  /** Saves the thinking level for one model. */
  setModelThinkingLevel(provider: string, modelId: string, level: SettingsThinkingLevel): void {
    const levels = { ...(this.globalSettings.modelThinkingLevels ?? {}) };
    levels[`${provider}/${modelId}`] = level;
    this.setGlobalValue("modelThinkingLevels", levels);
  }
  /** Forgets the thinking level of one model. */
  removeModelThinkingLevel(provider: string, modelId: string): void {
    const levels = this.globalSettings.modelThinkingLevels;
    if (!levels) return;
    const next = { ...levels };
    delete next[`${provider}/${modelId}`];
    this.setGlobalValue("modelThinkingLevels", Object.keys(next).length > 0 ? next : undefined);
  }

  /**
   * A compaction token setting: the model's `compaction.modelOverrides["provider/id"]` entry, then the plain
   * setting, then the default. A value that is not a non-negative safe integer is an error naming the key.
   */
  protected compactionTokens(field: CompactionTokenField, model?: ModelKey): number {
    const compaction = this.settings.compaction;
    const ordinary: unknown = compaction?.[field];
    if (
      ordinary !== undefined &&
      !(typeof ordinary === "number" && Number.isSafeInteger(ordinary) && ordinary >= 0)
    ) {
      throw new Error(
        `Invalid compaction.${field} setting: ${String(ordinary)}. Expected a non-negative safe integer.`,
      );
    }
    const key = model ? `${model.provider}/${model.id}` : undefined;
    const entry: unknown = key !== undefined ? compaction?.modelOverrides?.[key] : undefined;
    if (entry !== undefined && !isPlainObject(entry)) {
      throw new Error(
        `Invalid compaction.modelOverrides["${key}"] setting: ${String(entry)}. Expected an object.`,
      );
    }
    const override: unknown = (entry as Record<string, unknown> | undefined)?.[field];
    if (
      override !== undefined &&
      !(typeof override === "number" && Number.isSafeInteger(override) && override >= 0)
    ) {
      throw new Error(
        `Invalid compaction.modelOverrides["${key}"].${field} setting: ${String(override)}. ` +
          "Expected a non-negative safe integer.",
      );
    }
    return (override as number | undefined) ?? (ordinary as number | undefined) ??
      COMPACTION_TOKEN_DEFAULTS[field];
  }

  /** Where `/share` uploads (`auto`, `gist` or `radius`). */
  getSessionShareDestination(): "auto" | "gist" | "radius" {
    const value = this.settings.sessionShareDestination;
    return value === "gist" || value === "radius" ? value : "auto";
  }
  /** Saves the share destination. */
  setSessionShareDestination(destination: "auto" | "gist" | "radius"): void {
    this.setGlobalValue("sessionShareDestination", destination);
  }

  /** Idle timeout of HTTP connections in ms (0 = none); a malformed value is an error naming the key. */
  getHttpIdleTimeoutMs(): number {
    return timeoutSetting(this.settings.httpIdleTimeoutMs, "httpIdleTimeoutMs") ??
      DEFAULT_HTTP_IDLE_TIMEOUT_MS;
  }
  /** Saves the HTTP idle timeout (floored). */
  setHttpIdleTimeoutMs(timeoutMs: number): void {
    if (!Number.isFinite(timeoutMs) || timeoutMs < 0) {
      throw new Error(`Invalid httpIdleTimeoutMs setting: ${timeoutMs}`);
    }
    this.setGlobalValue("httpIdleTimeoutMs", Math.floor(timeoutMs));
  }
  /** WebSocket connect timeout in ms, when set. */
  getWebSocketConnectTimeoutMs(): number | undefined {
    return timeoutSetting(this.settings.websocketConnectTimeoutMs, "websocketConnectTimeoutMs");
  }
  /** Proxy URL for HTTP requests, when set; read from your own settings only, never a project's (1.6.0). */
  getHttpProxy(): string | undefined {
    const value = this.globalSettings.httpProxy;
    return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
  }
  /**
   * `selfUpdateCommand` (command and arguments `pi update` runs), from the agent dir's settings only
   * (1.6.0: never a project's), as written: `pi update` checks its shape and says what is wrong.
   */
  getSelfUpdateCommand(): unknown {
    return this.globalSettings.selfUpdateCommand;
  }

  /** Cache warming (paid keep-alive requests); read from the global file only, as it costs money. */
  getCacheWarmingMode(): CacheWarmingMode {
    const mode = this.globalSettings.cacheWarming;
    return mode !== undefined && CACHE_WARMING_MODES.includes(mode) ? mode : "idle";
  }
  /** Saves the cache-warming mode. */
  setCacheWarmingMode(mode: CacheWarmingMode): void {
    this.setGlobalValue("cacheWarming", mode);
  }

  /** Whether cache-miss notices are shown. */
  getShowCacheMissNotices(): boolean {
    return this.settings.showCacheMissNotices ?? false;
  }
  /** Saves whether cache-miss notices are shown. */
  setShowCacheMissNotices(show: boolean): void {
    this.setGlobalValue("showCacheMissNotices", show);
  }

  /** The external editor: the setting, then $VISUAL, then $EDITOR, then `nano` (`notepad` on Windows). */
  getExternalEditorCommand(env: Readonly<Record<string, string | undefined>> = readEditorEnv()): string {
    const configured = this.settings.externalEditor;
    if (typeof configured === "string" && configured.trim() !== "") return configured;
    const fromEnv = env.VISUAL || env.EDITOR;
    if (fromEnv) return fromEnv;
    return Deno.build.os === "windows" ? "notepad" : "nano";
  }

  /** What 1.6.0's project-trust decision uses when nothing is saved; read from the global file only. */
  getDefaultProjectTrust(): "ask" | "always" | "never" {
    const value = this.globalSettings.defaultProjectTrust;
    return value === "always" || value === "never" ? value : "ask";
  }
  /** Saves the default project trust. */
  setDefaultProjectTrust(value: "ask" | "always" | "never"): void {
    this.setGlobalValue("defaultProjectTrust", value);
  }

  /** Whether analytics are enabled (never sent by this build). */
  getEnableAnalytics(): boolean {
    return this.settings.enableAnalytics ?? false;
  }
  /** The analytics tracking id, when one was created. */
  getTrackingId(): string | undefined {
    return this.settings.trackingId;
  }
  /** Saves the analytics opt-in; the first opt-in creates a tracking id (this build sends nothing). */
  setEnableAnalytics(enabled: boolean): void {
    this.globalSettings.enableAnalytics = enabled;
    this.markModified("enableAnalytics");
    if (enabled && !this.globalSettings.trackingId) {
      this.globalSettings.trackingId = crypto.randomUUID();
      this.markModified("trackingId");
    }
    this.save();
  }

  /** The version of an extension whose changelog was last shown, by the extension's key. */
  getExtensionChangelogVersion(key: string): string | undefined {
    return this.settings.extensionChangelogVersions?.[key];
  }
  /** Records the version of an extension whose changelog was shown (global settings). */
  setExtensionChangelogVersion(key: string, version: string): void {
    this.globalSettings.extensionChangelogVersions = {
      ...(this.globalSettings.extensionChangelogVersions ?? {}),
      [key]: version,
    };
    this.markModified("extensionChangelogVersions", key);
    this.save();
  }

  /** Terminal capability overrides from `terminal.images`, `terminal.trueColor`, `terminal.hyperlinks`. */
  getTerminalCapabilityOverrides(): {
    images?: "kitty" | "iterm2" | null;
    trueColor?: boolean;
    hyperlinks?: boolean;
  } {
    const terminal = this.settings.terminal;
    const images = terminal?.images;
    return {
      ...(images === "kitty" || images === "iterm2" ? { images } : images === false ? { images: null } : {}),
      ...(typeof terminal?.trueColor === "boolean" ? { trueColor: terminal.trueColor } : {}),
      ...(typeof terminal?.hyperlinks === "boolean" ? { hyperlinks: terminal.hyperlinks } : {}),
    };
  }

  /** Interactive screen mode (default `fullscreen`). */
  getTuiMode(): "fullscreen" | "regular" {
    return this.settings.tuiMode === "regular" ? "regular" : "fullscreen";
  }
  /** Saves the screen mode. */
  setTuiMode(mode: "fullscreen" | "regular"): void {
    this.setGlobalValue("tuiMode", mode);
  }
  /** What fullscreen mode prints on exit (default `transcript`). */
  getFullscreenExitOutput(): "transcript" | "resume-hint" {
    return this.settings.fullscreenExitOutput === "resume-hint" ? "resume-hint" : "transcript";
  }
  /** Saves the fullscreen exit output. */
  setFullscreenExitOutput(output: "transcript" | "resume-hint"): void {
    this.setGlobalValue("fullscreenExitOutput", output);
  }
  /** Fullscreen scrollbar (default `auto`). */
  getFullscreenScrollbar(): "auto" | "always" | "hidden" {
    const mode = this.settings.fullscreenScrollbar;
    return mode === "always" || mode === "hidden" ? mode : "auto";
  }
  /** Saves the scrollbar mode. */
  setFullscreenScrollbar(mode: "auto" | "always" | "hidden"): void {
    this.setGlobalValue("fullscreenScrollbar", mode);
  }
  /** Whether selecting text copies it (default true). */
  getFullscreenCopyOnSelect(): boolean {
    return this.settings.fullscreenCopyOnSelect ?? true;
  }
  /** Saves copy-on-select. */
  setFullscreenCopyOnSelect(enabled: boolean): void {
    this.setGlobalValue("fullscreenCopyOnSelect", enabled);
  }
  /** Lines per wheel step, 1–100, or `auto`. */
  getFullscreenWheelScrollLines(): number | "auto" {
    const lines = this.settings.fullscreenWheelScrollLines;
    return typeof lines === "number" && Number.isFinite(lines)
      ? Math.max(1, Math.min(100, Math.floor(lines)))
      : "auto";
  }
  /** Saves the wheel step (clamped to 1–100) or `auto`. */
  setFullscreenWheelScrollLines(lines: number | "auto"): void {
    this.setGlobalValue(
      "fullscreenWheelScrollLines",
      lines === "auto" ? lines : Math.max(1, Math.min(100, Math.floor(lines))),
    );
  }

  /** Blank columns around output (0 or the default 1). */
  getOutputPad(): 0 | 1 {
    return this.settings.outputPad === 0 ? 0 : 1;
  }
  /** Saves the output padding. */
  setOutputPad(padding: 0 | 1): void {
    this.setGlobalValue("outputPad", padding);
  }

  /** Mermaid rendering (default `streaming`). */
  getMermaidRenderingMode(): "off" | "final" | "streaming" {
    const mode = this.settings.markdown?.mermaid;
    return mode === "off" || mode === "final" ? mode : "streaming";
  }
  /** Saves the Mermaid mode. */
  setMermaidRenderingMode(mode: "off" | "final" | "streaming"): void {
    this.globalSettings.markdown = { ...(this.globalSettings.markdown ?? {}), mermaid: mode };
    this.markModified("markdown", "mermaid");
    this.save();
  }

  /**
   * The tools `defaultTools` selects, or undefined when no layer sets it: plain names replace
   * {@link DEFAULT_TOOL_NAMES}, then `+name` adds and `-name` removes, in order.
   */
  getDefaultTools(): string[] | undefined {
    const tools: unknown = this.settings.defaultTools;
    if (tools === undefined) return undefined;
    const entries = Array.isArray(tools) ? tools.filter((t): t is string => typeof t === "string") : [];
    const plain = entries.filter((entry) => !isToolModifier(entry));
    return applyToolModifiers(plain.length > 0 || entries.length === 0 ? plain : DEFAULT_TOOL_NAMES, entries);
  }
}

function readEditorEnv(): Record<string, string | undefined> {
  return { VISUAL: readEnv("VISUAL"), EDITOR: readEnv("EDITOR") };
}
