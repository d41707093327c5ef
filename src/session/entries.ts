/**
 * The shapes stored in a session file (JSONL, version 3) and the views built from them.
 * Field order in the entry literals that create these matters: it is the order the reference
 * writes, so files stay byte-compatible in shape.
 *
 * @module
 */
import type { ImageContent, TextContent, ThinkingContent, ToolCall, Usage } from "../ai/types.ts";
import type { AgentMessage } from "./messages.ts";
import type { SystemMessage } from "./system_message.ts";

/** The format version this code writes; older files are migrated on load. */
export const CURRENT_SESSION_VERSION = 3;

/** First line of every session file. */
export interface SessionHeader {
  /** Record kind of the header line. */
  type: "session";
  /** Session format version; absent means version 1. */
  version?: number;
  /** Id of the session. */
  id: string;
  /** ISO time the session was created. */
  timestamp: string;
  /** Working folder the session started in. */
  cwd: string;
  /** Path of the session this one was forked from. */
  parentSession?: string;
}

/** Options for starting a fresh session in an existing manager. */
export interface NewSessionOptions {
  /** A caller-chosen id (`--session-id`): letters, digits, `.`, `_`, `-`, alphanumeric at both ends. */
  id?: string;
  /** Path of the session the new one is forked from. */
  parentSession?: string;
}

/** Fields every non-header entry carries; `parentId` links the tree. */
export interface SessionEntryBase {
  /** Entry kind. */
  type: string;
  /** Id of the entry, unique in the file. */
  id: string;
  /** Id of the entry before it on its branch; null for the first. */
  parentId: string | null;
  /** ISO time the entry was written. */
  timestamp: string;
}

/** A conversation message (user, assistant, toolResult, bashExecution, custom). */
export interface SessionMessageEntry extends SessionEntryBase {
  /** Entry kind. */
  type: "message";
  /** The message. */
  message: AgentMessage;
}

/** The thinking level changed from here on. */
export interface ThinkingLevelChangeEntry extends SessionEntryBase {
  /** Entry kind. */
  type: "thinking_level_change";
  /** The thinking level from here on. */
  thinkingLevel: string;
}

/** The model changed from here on. */
export interface ModelChangeEntry extends SessionEntryBase {
  /** Entry kind. */
  type: "model_change";
  /** Provider of the model from here on. */
  provider: string;
  /** Id of the model from here on. */
  modelId: string;
}

/**
 * History before `firstKeptEntryId` is replaced by `summary` in the LLM context. A compaction
 * that keeps nothing stores its own id there.
 */
export interface CompactionEntry<T = unknown> extends SessionEntryBase {
  /** Entry kind. */
  type: "compaction";
  /** Summary of the history it replaces. */
  summary: string;
  /** Id of the first entry kept verbatim. */
  firstKeptEntryId: string;
  /** Context tokens before compaction. */
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
  /** Entry kind. */
  type: "branch_summary";
  /** Id of the entry the abandoned branch left from. */
  fromId: string;
  /** Summary of the abandoned branch. */
  summary: string;
  /** Extension-specific data. */
  details?: T;
  /** Tokens and cost of producing the summary; counted in session totals. */
  usage?: Usage;
  /** True when an extension produced the summary. */
  fromHook?: boolean;
}

/** New content for an edited entry: a string, or blocks as the target's role allows. */
export interface ContextEditReplacement {
  /** The new content: a message's content of any role (1.6.0's `ContextEditableContent`). */
  content: string | (TextContent | ImageContent)[] | (TextContent | ThinkingContent | ToolCall)[];
}

/**
 * Changes what the model sees of an earlier entry on this branch from here on: `null` omits
 * it, a replacement swaps its content. The target itself stays as it was (UI, export, totals).
 */
export interface ContextEditEntry extends SessionEntryBase {
  /** Entry kind. */
  type: "context_edit";
  /** Id of the entry whose content changes. */
  targetId: string;
  /** The new content, or null to leave the entry out. */
  replacement: ContextEditReplacement | null;
}

/**
 * Model usage that is not an assistant message (e.g. `kind: "cache_warm"` keep-alive requests).
 * Counted in session totals, never part of the context, hidden from the tree view.
 */
export interface UsageEntry extends SessionEntryBase {
  /** Entry kind. */
  type: "usage";
  /** What produced it; unknown kinds are ordinary usage. */
  kind: string;
  /** Provider of the request. */
  provider: string;
  /** Model of the request. */
  model: string;
  /** Tokens and cost. */
  usage: Usage;
  /** Free text about the request. */
  note?: string;
}

/** Extension state; never part of the LLM context. */
export interface CustomEntry<T = unknown> extends SessionEntryBase {
  /** Entry kind. */
  type: "custom";
  /** Kind of data, chosen by the extension that wrote it. */
  customType: string;
  /** The extension's data; never sent to the model. */
  data?: T;
}

/** Bookmark on an entry; an empty/undefined label clears it. */
export interface LabelEntry extends SessionEntryBase {
  /** Entry kind. */
  type: "label";
  /** Id of the labelled entry. */
  targetId: string;
  /** The label; undefined removes it. */
  label: string | undefined;
}

/** Session metadata such as the display name; an empty name clears it. */
export interface SessionInfoEntry extends SessionEntryBase {
  /** Entry kind. */
  type: "session_info";
  /** Name of the session. */
  name?: string;
}

/** Extension message that does take part in the LLM context (as a user message). */
export interface CustomMessageEntry<T = unknown> extends SessionEntryBase {
  /** Entry kind. */
  type: "custom_message";
  /** Kind of message, chosen by the extension that wrote it. */
  customType: string;
  /** Text or blocks sent to the model. */
  content: string | (TextContent | ImageContent)[];
  /** Extension-specific data; not sent to the model. */
  details?: T;
  /** Whether the interactive view shows the message. */
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
  /** The entry. */
  entry: SessionEntry;
  /** Entries that continue from it, oldest first. */
  children: SessionTreeNode[];
  /** The entry's label, if any. */
  label?: string;
  /** ISO time the label was set. */
  labelTimestamp?: string;
}

/** One selected entry and the messages it contributes to the model context (none if omitted). */
export interface ProjectedEntry {
  /** The entry. */
  sourceEntry: SessionEntry;
  /** Messages it contributes; none when it is left out. */
  messages: AgentMessage[];
}

/** The model context with provenance: each message's source entry, then the flat list. */
export interface SessionProjection extends SessionContext {
  /** Each selected entry with its messages. */
  entries: ProjectedEntry[];
}

/** What the LLM gets: messages on the leaf's path plus the settings in force there. */
export interface SessionContext {
  /** Messages the model sees. */
  messages: AgentMessage[];
  /** Thinking level in force at the leaf. */
  thinkingLevel: string;
  /** Model in force at the leaf, if any was recorded. */
  model: { provider: string; modelId: string } | null;
}

/** One row of a session list (resume picker, `--resume`). */
export interface SessionInfo {
  /** Path of the session file. */
  path: string;
  /** Id of the session. */
  id: string;
  /** Working directory the session started in; empty for very old files. */
  cwd: string;
  /** Name of the session, if one was set. */
  name?: string;
  /** Path of the session it was forked from. */
  parentSessionPath?: string;
  /** When the session was created. */
  created: Date;
  /** When the file last changed. */
  modified: Date;
  /** Messages in the session. */
  messageCount: number;
  /** Text of the first user message. */
  firstMessage: string;
  /** Text of all messages, for searching. */
  allMessagesText: string;
}

/** Progress callback for listing: files read so far and the total. */
export type SessionListProgress = (loaded: number, total: number) => void;
