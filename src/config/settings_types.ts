/**
 * Shape of settings.json (global `~/.pi/agent/settings.json` and project `.pi/settings.json`).
 * Every key is optional; defaults live in the SettingsManager getters.
 *
 * @module
 */

import type { Transport } from "../ai/types.ts";

/** Automatic context compaction. */
export interface CompactionSettings {
  enabled?: boolean;
  reserveTokens?: number;
  keepRecentTokens?: number;
  /** Per-model token settings, keyed `provider/modelId` (1.6.0). */
  modelOverrides?: Record<string, { reserveTokens?: number; keepRecentTokens?: number }>;
}

/** Summaries written when leaving a branch of the session tree. */
export interface BranchSummarySettings {
  reserveTokens?: number;
  skipPrompt?: boolean;
}

/** Retry knobs passed down to the provider SDK layer. */
export interface ProviderRetrySettings {
  timeoutMs?: number;
  maxRetries?: number;
  maxRetryDelayMs?: number;
}

/** Agent-level automatic retry on transient provider errors. */
export interface RetrySettings {
  enabled?: boolean;
  maxRetries?: number;
  baseDelayMs?: number;
  /** Longest wait before an automatic retry, e.g. for a server's Retry-After (default 60000). */
  maxAgentDelayMs?: number;
  provider?: ProviderRetrySettings;
}

/** Terminal rendering preferences. */
export interface TerminalSettings {
  showImages?: boolean;
  imageWidthCells?: number;
  clearOnShrink?: boolean;
  showTerminalProgress?: boolean;
  /** Overrides terminal detection (1.6.0): image protocol or `false` for none, colours, links. */
  images?: "kitty" | "iterm2" | false;
  trueColor?: boolean;
  hyperlinks?: boolean;
}

/** Image attachment handling. */
export interface ImageSettings {
  autoResize?: boolean;
  blockImages?: boolean;
}

/** Token budgets per thinking level for budget-based providers. */
export interface ThinkingBudgetsSettings {
  minimal?: number;
  low?: number;
  medium?: number;
  high?: number;
}

/** Markdown rendering preferences. */
export interface MarkdownSettings {
  codeBlockIndent?: string;
  /** Mermaid diagrams as Unicode art: off, after the reply, or while streaming (default). */
  mermaid?: "off" | "final" | "streaming";
}

/** One-time warnings the user can silence. */
export interface WarningSettings {
  anthropicExtraUsage?: boolean;
}

/** Transport preference (`sse`, `websocket`, …, `auto`). */
export type TransportSetting = Transport;

/** A package to load resources from: whole package (string) or a filtered selection. */
export type PackageSource = string | {
  source: string;
  extensions?: string[];
  skills?: string[];
  prompts?: string[];
  themes?: string[];
};

/** The thinking levels a user can pick, including `off`. */
export type SettingsThinkingLevel = "off" | "minimal" | "low" | "medium" | "high" | "xhigh" | "max";

/** Cache-warming profile (`idle` also warms between runs; paid requests). */
export type CacheWarmingMode = "off" | "streaming" | "idle";

/** The full settings document. */
export interface Settings {
  lastChangelogVersion?: string;
  defaultProvider?: string;
  defaultModel?: string;
  defaultThinkingLevel?: SettingsThinkingLevel;
  transport?: TransportSetting;
  steeringMode?: "all" | "one-at-a-time";
  followUpMode?: "all" | "one-at-a-time";
  theme?: string;
  compaction?: CompactionSettings;
  branchSummary?: BranchSummarySettings;
  retry?: RetrySettings;
  hideThinkingBlock?: boolean;
  shellPath?: string;
  /** `true` hides the start-up header and resource list; `"header"` hides only the header. */
  quietStartup?: boolean | "header";
  shellCommandPrefix?: string;
  npmCommand?: string[];
  collapseChangelog?: boolean;
  enableInstallTelemetry?: boolean;
  packages?: PackageSource[];
  extensions?: string[];
  skills?: string[];
  prompts?: string[];
  themes?: string[];
  enableSkillCommands?: boolean;
  terminal?: TerminalSettings;
  images?: ImageSettings;
  enabledModels?: string[];
  doubleEscapeAction?: "fork" | "tree" | "none";
  treeFilterMode?: "default" | "no-tools" | "user-only" | "labeled-only" | "all";
  thinkingBudgets?: ThinkingBudgetsSettings;
  editorPaddingX?: number;
  autocompleteMaxVisible?: number;
  showHardwareCursor?: boolean;
  markdown?: MarkdownSettings;
  warnings?: WarningSettings;
  sessionDir?: string;
  // 1.6.0 additions.
  cacheWarming?: CacheWarmingMode;
  codemode?: { mode?: "on" | "off"; inlineBudget?: number };
  /** Global only: what to do with a project that has protected files and no saved decision. */
  defaultProjectTrust?: "ask" | "always" | "never";
  /** Tools enabled at start-up: plain names replace the defaults, `+name`/`-name` modify them. */
  defaultTools?: string[];
  /** Thinking level per model, keyed `provider/modelId`. */
  modelThinkingLevels?: Record<string, SettingsThinkingLevel>;
  tuiMode?: "fullscreen" | "regular";
  fullscreenExitOutput?: "transcript" | "resume-hint";
  fullscreenScrollbar?: "auto" | "always" | "hidden";
  fullscreenCopyOnSelect?: boolean;
  fullscreenWheelScrollLines?: number | "auto";
  outputPad?: 0 | 1;
  externalEditor?: string;
  httpProxy?: string;
  httpIdleTimeoutMs?: number | string;
  websocketConnectTimeoutMs?: number | string;
  selfUpdateCommand?: string;
  sessionShareDestination?: "auto" | "gist" | "radius";
  showCacheMissNotices?: boolean;
  enableAnalytics?: boolean;
  trackingId?: string;
  deviceId?: string;
  extensionChangelogVersions?: Record<string, string>;
}

/** Which file a setting lives in. */
export type SettingsScope = "global" | "project";

/** A load or write failure, reported once through `drainErrors()`. */
export interface SettingsError {
  scope: SettingsScope;
  /** The file, when the storage has one. */
  path?: string;
  error: Error;
}

/**
 * Backing store for settings: `fn` receives the current text (undefined when absent) under the store's lock
 * and returns the new text to write, or undefined to leave it unchanged.
 */
export interface SettingsStorage {
  withLock(scope: SettingsScope, fn: (current: string | undefined) => string | undefined): void;
  /** The file behind a scope, for error messages (absent for in-memory storage). */
  pathFor?(scope: SettingsScope): string;
}
