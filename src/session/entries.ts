/**
 * The shapes stored in a session file (JSONL, version 3) and the views built from them.
 * Field order in the entry literals that create these matters: it is the order the reference
 * writes, so files stay byte-compatible in shape.
 *
 * @module
 */
import type { ImageContent, TextContent, Usage } from "../ai/types.ts";
import type { AgentMessage } from "./messages.ts";
import type { SystemMessage } from "./system_message.ts";

/** The format version this code writes; older files are migrated on load. */
export const CURRENT_SESSION_VERSION = 3;

/** First line of every session file. */
export interface SessionHeader {
  type: "session";
  version?: number;
  id: string;
  timestamp: string;
  cwd: string;
  parentSession?: string;
}

/** Options for starting a fresh session in an existing manager. */
export interface NewSessionOptions {
  /** A caller-chosen id (`--session-id`): letters, digits, `.`, `_`, `-`, alphanumeric at both ends. */
  id?: string;
  parentSession?: string;
}

/** Fields every non-header entry carries; `parentId` links the tree. */
export interface SessionEntryBase {
  type: string;
  id: string;
  parentId: string | null;
  timestamp: string;
}

/** A conversation message (user, assistant, toolResult, bashExecution, custom). */
export interface SessionMessageEntry extends SessionEntryBase {
  type: "message";
  message: AgentMessage;
}

/** The thinking level changed from here on. */
export interface ThinkingLevelChangeEntry extends SessionEntryBase {
  type: "thinking_level_change";
  thinkingLevel: string;
}

/** The model changed from here on. */
export interface ModelChangeEntry extends SessionEntryBase {
  type: "model_change";
  provider: string;
  modelId: string;
}

/**
 * History before `firstKeptEntryId` is replaced by `summary` in the LLM context. A compaction
 * that keeps nothing stores its own id there.
 */
export interface CompactionEntry<T = unknown> extends SessionEntryBase {
  type: "compaction";
  summary: string;
  firstKeptEntryId: string;
  tokensBefore: number;
  /** Extension-specific data. */
  details?: T;
  /** Tokens and cost of producing the summary; counted in session totals. */
  usage?: Usage;
  /** True when an extension produced the summary. */
  fromHook?: boolean;
  /**
   * The replayed prompt and tools at the boundary: it leads the compacted context, and system
   * messages among the kept entries are dropped in its favour. Absent before pi 0.86.
   */
  systemMessage?: SystemMessage;
}

/** Summary of an abandoned branch, placed where the conversation continues. */
export interface BranchSummaryEntry<T = unknown> extends SessionEntryBase {
  type: "branch_summary";
  fromId: string;
  summary: string;
  details?: T;
  /** Tokens and cost of producing the summary; counted in session totals. */
  usage?: Usage;
  fromHook?: boolean;
}

/** New content for an edited entry: a string, or blocks as the target's role allows. */
export interface ContextEditReplacement {
  content: string | (TextContent | ImageContent)[];
}

/**
 * Changes what the model sees of an earlier entry on this branch from here on: `null` omits
 * it, a replacement swaps its content. The target itself stays as it was (UI, export, totals).
 */
export interface ContextEditEntry extends SessionEntryBase {
  type: "context_edit";
  targetId: string;
  replacement: ContextEditReplacement | null;
}

/**
 * Model usage that is not an assistant message (e.g. `kind: "cache_warm"` keep-alive requests).
 * Counted in session totals, never part of the context, hidden from the tree view.
 */
export interface UsageEntry extends SessionEntryBase {
  type: "usage";
  /** What produced it; unknown kinds are ordinary usage. */
  kind: string;
  provider: string;
  model: string;
  usage: Usage;
  note?: string;
}

/** Extension state; never part of the LLM context. */
export interface CustomEntry<T = unknown> extends SessionEntryBase {
  type: "custom";
  customType: string;
  data?: T;
}

/** Bookmark on an entry; an empty/undefined label clears it. */
export interface LabelEntry extends SessionEntryBase {
  type: "label";
  targetId: string;
  label: string | undefined;
}

/** Session metadata such as the display name; an empty name clears it. */
export interface SessionInfoEntry extends SessionEntryBase {
  type: "session_info";
  name?: string;
}

/** Extension message that does take part in the LLM context (as a user message). */
export interface CustomMessageEntry<T = unknown> extends SessionEntryBase {
  type: "custom_message";
  customType: string;
  content: string | (TextContent | ImageContent)[];
  details?: T;
  display: boolean;
}

/** Any tree entry. */
export type SessionEntry =
  | SessionMessageEntry
  | ThinkingLevelChangeEntry
  | ModelChangeEntry
  | CompactionEntry
  | BranchSummaryEntry
  | CustomEntry
  | CustomMessageEntry
  | LabelEntry
  | SessionInfoEntry
  | ContextEditEntry
  | UsageEntry;

/** Any line of a session file. */
export type FileEntry = SessionHeader | SessionEntry;

/** Node of `getTree()`: an entry, its children (oldest first) and its resolved label. */
export interface SessionTreeNode {
  entry: SessionEntry;
  children: SessionTreeNode[];
  label?: string;
  labelTimestamp?: string;
}

/** One selected entry and the messages it contributes to the model context (none if omitted). */
export interface ProjectedEntry {
  sourceEntry: SessionEntry;
  messages: AgentMessage[];
}

/** The model context with provenance: each message's source entry, then the flat list. */
export interface SessionProjection extends SessionContext {
  entries: ProjectedEntry[];
}

/** What the LLM gets: messages on the leaf's path plus the settings in force there. */
export interface SessionContext {
  messages: AgentMessage[];
  thinkingLevel: string;
  model: { provider: string; modelId: string } | null;
}

/** One row of a session list (resume picker, `--resume`). */
export interface SessionInfo {
  path: string;
  id: string;
  /** Working directory the session started in; empty for very old files. */
  cwd: string;
  name?: string;
  parentSessionPath?: string;
  created: Date;
  modified: Date;
  messageCount: number;
  firstMessage: string;
  allMessagesText: string;
}

/** Progress callback for listing: files read so far and the total. */
export type SessionListProgress = (loaded: number, total: number) => void;
