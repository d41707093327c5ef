/**
 * Shape of settings.json (global `~/.pi/agent/settings.json` and project `.pi/settings.json`).
 * Every key is optional; defaults live in the SettingsManager getters.
 *
 * @module
 */

import type { Transport } from "../ai/types.ts";

/** Automatic context compaction. */
export interface CompactionSettings {
  /** Whether automatic compaction runs. */
  enabled?: boolean;
  /** Tokens left free for the reply. */
  reserveTokens?: number;
  /** Roughly how many of the newest tokens stay verbatim. */
  keepRecentTokens?: number;
  /** Per-model token settings, keyed `provider/modelId` (1.6.0). */
  modelOverrides?: Record<string, { reserveTokens?: number; keepRecentTokens?: number }>;
}

/** Summaries written when leaving a branch of the session tree. */
export interface BranchSummarySettings {
  /** Tokens left free for the reply when summarising. */
  reserveTokens?: number;
  /** Summarise without asking. */
  skipPrompt?: boolean;
}

/** Retry knobs passed down to the provider SDK layer. */
export interface ProviderRetrySettings {
  /** Request timeout in milliseconds. */
  timeoutMs?: number;
  /** Retries of the provider's own client. */
  maxRetries?: number;
  /** Longest server-requested retry delay honoured in-client, in milliseconds. */
  maxRetryDelayMs?: number;
}

/** Agent-level automatic retry on transient provider errors. */
export interface RetrySettings {
  /** Whether failed requests are retried automatically. */
  enabled?: boolean;
  /** Most automatic retries. */
  maxRetries?: number;
  /** Delay before the first retry, in milliseconds; later retries wait longer. */
  baseDelayMs?: number;
  /** Longest wait before an automatic retry, e.g. for a server's Retry-After (default 60000). */
  maxAgentDelayMs?: number;
  /** Provider client settings. */
  provider?: ProviderRetrySettings;
}

/** Terminal rendering preferences. */
export interface TerminalSettings {
  /** Show images inline. */
  showImages?: boolean;
  /** Width of inline images in cells. */
  imageWidthCells?: number;
  /** Clear the screen when the content shrinks. */
  clearOnShrink?: boolean;
  /** Report progress to the terminal. */
  showTerminalProgress?: boolean;
  /** Overrides terminal detection (1.6.0): image protocol or `false` for none, colours, links. */
  images?: "kitty" | "iterm2" | false;
  /** Use 24-bit colours. */
  trueColor?: boolean;
  /** Make links clickable. */
  hyperlinks?: boolean;
}

/** Image attachment handling. */
export interface ImageSettings {
  /** Shrink large images before sending them. */
  autoResize?: boolean;
  /** Never send images to the model. */
  blockImages?: boolean;
}

/** Token budgets per thinking level for budget-based providers. */
export interface ThinkingBudgetsSettings {
  /** Token budget for the "minimal" level. */
  minimal?: number;
  /** Token budget for the "low" level. */
  low?: number;
  /** Token budget for the "medium" level. */
  medium?: number;
  /** Token budget for the "high" level. */
  high?: number;
}

/** Markdown rendering preferences. */
export interface MarkdownSettings {
  /** Indent of code blocks. */
  codeBlockIndent?: string;
  /** Mermaid diagrams as Unicode art: off, after the reply, or while streaming (default). */
  mermaid?: "off" | "final" | "streaming";
}

/** One-time warnings the user can silence. */
export interface WarningSettings {
  /** Warn about Anthropic's extra-usage billing. */
  anthropicExtraUsage?: boolean;
}

/** Transport preference (`sse`, `websocket`, …, `auto`). */
export type TransportSetting = Transport;

/** A package to load resources from: whole package (string) or a filtered selection. */
export type PackageSource = string | {
  source: string;
  /** `false` in a project entry: the entry's patterns adjust the user's entry for the same package. */
  autoload?: boolean;
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
  /** The last version whose changelog was shown. */
  lastChangelogVersion?: string;
  /** Provider of the default model. */
  defaultProvider?: string;
  /** Id of the default model. */
  defaultModel?: string;
  /** Thinking level used when a session starts. */
  defaultThinkingLevel?: SettingsThinkingLevel;
  /** Preferred transport for providers that offer more than one. */
  transport?: TransportSetting;
  /** How queued steering messages are delivered. */
  steeringMode?: "all" | "one-at-a-time";
  /** How queued follow-up messages are delivered. */
  followUpMode?: "all" | "one-at-a-time";
  /** Name of the theme. */
  theme?: string;
  /** Automatic context compaction. */
  compaction?: CompactionSettings;
  /** Summaries written when leaving a branch of the session tree. */
  branchSummary?: BranchSummarySettings;
  /** Automatic retry of failed requests. */
  retry?: RetrySettings;
  /** Hide thinking blocks in the interactive view. */
  hideThinkingBlock?: boolean;
  /** Shell used by the bash tool and `!` commands. */
  shellPath?: string;
  /** `true` hides the start-up header and resource list; `"header"` hides only the header. */
  quietStartup?: boolean | "header";
  /** Prepended to every bash command (e.g. to load aliases). */
  shellCommandPrefix?: string;
  /** Program and arguments used instead of `npm` for packages. */
  npmCommand?: string[];
  /** Show a short changelog after an update. */
  collapseChangelog?: boolean;
  /** Allow the anonymous install ping. */
  enableInstallTelemetry?: boolean;
  /** Packages that provide extensions, skills, prompts and themes. */
  packages?: PackageSource[];
  /** Extension files or folders to load. */
  extensions?: string[];
  /**
   * Our addition, global only: extension path (file or folder) or package source → the Deno
   * permissions it runs under in a Worker (`read`, `write`, `net`, `run`, `env`, `sys`: true,
   * false or a list); see docs/security.md.
   */
  extensionPermissions?: Record<string, Record<string, boolean | string[]>>;
  /** Skill files or folders to load. */
  skills?: string[];
  /** Prompt template files or folders to load. */
  prompts?: string[];
  /** Theme files or folders to load. */
  themes?: string[];
  /** Register `/skill:name` commands for skills. */
  enableSkillCommands?: boolean;
  /** Terminal behaviour. */
  terminal?: TerminalSettings;
  /** Image handling. */
  images?: ImageSettings;
  /** Model patterns offered when cycling models. */
  enabledModels?: string[];
  /** What a double Escape does in the editor. */
  doubleEscapeAction?: "fork" | "tree" | "none";
  /** Which entries the session tree shows by default. */
  treeFilterMode?: "default" | "no-tools" | "user-only" | "labeled-only" | "all";
  /** Token budgets per thinking level. */
  thinkingBudgets?: ThinkingBudgetsSettings;
  /** Horizontal padding of the editor. */
  editorPaddingX?: number;
  /** Most autocomplete suggestions shown at once. */
  autocompleteMaxVisible?: number;
  /** Show the terminal's cursor. */
  showHardwareCursor?: boolean;
  /** Markdown rendering. */
  markdown?: MarkdownSettings;
  /** Which warnings are shown. */
  warnings?: WarningSettings;
  /** Folder where sessions are stored. */
  sessionDir?: string;
  // 1.6.0 additions.
  /** Keep the prompt cache warm while streaming or idle. */
  cacheWarming?: CacheWarmingMode;
  /** Code mode: `on`, or `only` (tools reached only through the script), and its inline output budget. */
  codemode?: { mode?: "on" | "only"; inlineBudget?: number };
  /** Global only: what to do with a project that has protected files and no saved decision. */
  defaultProjectTrust?: "ask" | "always" | "never";
  /** Tools enabled at start-up: plain names replace the defaults, `+name`/`-name` modify them. */
  defaultTools?: string[];
  /** Thinking level per model, keyed `provider/modelId`. */
  modelThinkingLevels?: Record<string, SettingsThinkingLevel>;
  /** Full-screen or inline interactive view. */
  tuiMode?: "fullscreen" | "regular";
  /** What is printed when leaving the full-screen view. */
  fullscreenExitOutput?: "transcript" | "resume-hint";
  /** When the full-screen view shows a scrollbar. */
  fullscreenScrollbar?: "auto" | "always" | "hidden";
  /** Copy selected text as soon as it is selected. */
  fullscreenCopyOnSelect?: boolean;
  /** Lines scrolled per mouse-wheel step. */
  fullscreenWheelScrollLines?: number | "auto";
  /** Blank columns around output. */
  outputPad?: 0 | 1;
  /** Program used to edit a message outside pi. */
  externalEditor?: string;
  /** Proxy for outgoing HTTP requests. */
  httpProxy?: string;
  /** How long an HTTP connection may stay idle, in milliseconds (`"disabled"`: no limit). */
  httpIdleTimeoutMs?: number | "disabled";
  /** How long a WebSocket may take to connect, in milliseconds (`"disabled"`: no limit). */
  websocketConnectTimeoutMs?: number | "disabled";
  /** Command and arguments `pi update` runs to update pi itself (agent-dir settings only). */
  selfUpdateCommand?: string[];
  /** Where `/share` uploads sessions. */
  sessionShareDestination?: "auto" | "gist" | "radius";
  /** Report prompt-cache misses. */
  showCacheMissNotices?: boolean;
  /** Allow usage analytics. */
  enableAnalytics?: boolean;
  /** Anonymous id for analytics. */
  trackingId?: string;
  /** Anonymous device id. */
  deviceId?: string;
  /** Last changelog version shown per extension. */
  extensionChangelogVersions?: Record<string, string>;
}

/** Which file a setting lives in. */
export type SettingsScope = "global" | "project";

/** A load or write failure, reported once through `drainErrors()`. */
export interface SettingsError {
  /** Which file. */
  scope: SettingsScope;
  /** The file, when the storage has one. */
  path?: string;
  /** What went wrong. */
  error: Error;
}

/**
 * Backing store for settings: `fn` receives the current text (undefined when absent) under the store's lock
 * and returns the new text to write, or undefined to leave it unchanged.
 */
export interface SettingsStorage {
  /** Reads and writes one scope's file under its lock; `fn` returns the new text or undefined to keep it. */
  withLock(scope: SettingsScope, fn: (current: string | undefined) => string | undefined): void;
  /** The file behind a scope, for error messages (absent for in-memory storage). */
  pathFor?(scope: SettingsScope): string;
}
