/**
 * Public types of AgentSession: its events (the agent's plus session-level ones), prompt
 * options, statistics. Names and shapes follow the reference SDK.
 *
 * @module
 */
import type { AgentEvent, AgentMessage, AgentThinkingLevel } from "../agent/types.ts";
import type { SessionEntry } from "../session/entries.ts";
import type { ImageContent, Model } from "../ai/types.ts";
import type { CompactionResult } from "../compaction/compaction.ts";
import type { BuildSystemPromptOptions } from "../resources/system_prompt.ts";
import type { BoundaryDispatcher } from "./boundary_types.ts";

/** The run boundaries' shapes (`turn_end`, `agent_before_settle`), public with the hooks that use them. */
export type * from "./boundary_types.ts";
/** What a user `!command` produced; re-exported so modes reach it through core, not tools. */
export type { BashResult } from "../tools/bash_executor.ts";

/** Context-window usage; `tokens`/`percent` are null right after a compaction until a new reply. */
export interface ContextUsage {
  /** Estimated tokens in the context; null when unknown (e.g. right after compaction). */
  tokens: number | null;
  /** Context window of the model. */
  contextWindow: number;
  /** Share of the window in use, 0-100; null when tokens are unknown. */
  percent: number | null;
}

/** What a compaction produced (the compaction entry's payload); one type with `compact()`'s result. */
export type { CompactionResult } from "../compaction/compaction.ts";

/** Why a compaction ran. */
export type CompactionReason = "manual" | "threshold" | "overflow";

/** Everything an AgentSession tells its listeners. */
export type AgentSessionEvent =
  | Exclude<AgentEvent, { type: "agent_end" }>
  /** A low-level run ended; `willRetry` says an automatic retry follows. */
  | { type: "agent_end"; messages: AgentMessage[]; willRetry: boolean }
  /**
   * The last event of a session-level run: no retry, compaction recovery or queued message
   * continues it. `aborted` when it ended because it was aborted.
   */
  | { type: "agent_settled"; aborted: boolean }
  /** An entry was appended outside the message flow (a retry's `context_edit`, for instance). */
  | { type: "entry_appended"; entry: SessionEntry }
  | { type: "queue_update"; steering: readonly string[]; followUp: readonly string[] }
  | { type: "compaction_start"; reason: CompactionReason }
  | {
    type: "compaction_end";
    reason: CompactionReason;
    result: CompactionResult | undefined;
    aborted: boolean;
    willRetry: boolean;
    errorMessage?: string;
  }
  | { type: "session_info_changed"; name: string | undefined }
  | { type: "thinking_level_changed"; level: AgentThinkingLevel }
  | { type: "auto_retry_start"; attempt: number; maxAttempts: number; delayMs: number; errorMessage: string }
  | { type: "auto_retry_end"; success: boolean; attempt: number; finalError?: string }
  /** A failed summary request (compaction or branch summary) is retried after `delayMs` (1.6.0). */
  | {
    type: "summarization_retry_scheduled";
    attempt: number;
    maxAttempts: number;
    delayMs: number;
    errorMessage: string;
  }
  /** The retried summary request starts; `reason` only for compaction. */
  | {
    type: "summarization_retry_attempt_start";
    source: "compaction" | "branchSummary";
    reason?: CompactionReason;
  }
  /** The summary request's retries are over (whatever the outcome). */
  | { type: "summarization_retry_finished" };

/** A listener of session events. */
export type AgentSessionEventListener = (event: AgentSessionEvent) => void;

/** Options of `AgentSession.prompt`. */
export interface PromptOptions {
  /** Expand `/skill:…` and prompt templates (default true). */
  expandPromptTemplates?: boolean;
  /** Images sent with the text. */
  images?: ImageContent[];
  /** Required while streaming: queue the text as a steering or follow-up message. */
  streamingBehavior?: "steer" | "followUp";
  /** Where the prompt came from. */
  source?: "interactive" | "rpc" | "extension" | "print";
  /**
   * Told whether the prompt was accepted, before the run starts; `"handled"` when an extension
   * command or `input` handler consumed it (no run).
   */
  preflightResult?: (success: boolean | "handled") => void;
}

/** A model paired with an optional thinking level (from `--models`); one type with the resolver's. */
export type { ScopedModel } from "../config/model_resolver.ts";

/** The result of cycling models. */
export interface ModelCycleResult {
  /** The model now in use. */
  model: Model;
  /** The thinking level now in use. */
  thinkingLevel: AgentThinkingLevel;
  /** Whether the model came from the scoped list. */
  isScoped: boolean;
}

/**
 * Counts and totals over every entry of the session file (pi 1.6.0): compacted history and other
 * branches included, and the usage of summaries and `usage` entries.
 */
export interface SessionStats {
  /** Path of the session file; undefined in memory. */
  sessionFile: string | undefined;
  /** Id of the session. */
  sessionId: string;
  /** User messages in the file. */
  userMessages: number;
  /** Assistant messages in the file. */
  assistantMessages: number;
  /** Tool calls made. */
  toolCalls: number;
  /** Tool results received. */
  toolResults: number;
  /** All message entries in the file, system messages included. */
  totalMessages: number;
  /** Token totals of everything billed in the session. */
  tokens: { input: number; output: number; cacheRead: number; cacheWrite: number; total: number };
  /** Total cost in US dollars. */
  cost: number;
  /** How full the context is now. */
  contextUsage?: ContextUsage;
}

/**
 * What the extension host (src/core/extension_host.ts) plugs into a session: it sees agent events
 * before the listeners, may consume or rewrite each prompt, and adds messages or a system prompt
 * to a prompt's run.
 */
export interface SessionExtensionHooks {
  /** `turn_end` and `agent_before_settle` (src/core/session_boundary.ts). */
  boundaries?: BoundaryDispatcher;
  /** Awaited for each agent event before the session's listeners get it. */
  onAgentEvent?(event: AgentEvent): Promise<void>;
  /** Extension commands and `input` handlers: `handled` consumes the prompt. */
  input?(
    text: string,
    images: ImageContent[] | undefined,
    source: string,
    commandsAllowed: boolean,
  ): Promise<{ handled: true } | { text: string; images?: ImageContent[] }>;
  /**
   * `before_agent_start`: messages for the run, and a system prompt for it alone: its text, and
   * the sections the transcript records when handlers edited `systemPromptOptions`.
   */
  beforeAgentStart?(
    prompt: string,
    images: ImageContent[] | undefined,
    systemPrompt: string,
    systemPromptOptions: () => BuildSystemPromptOptions,
  ): Promise<
    {
      messages: AgentMessage[];
      systemPrompt?: string;
      sections?: Record<string, string>;
      selectedTools?: string[];
    }
  >;
}
