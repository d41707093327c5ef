/**
 * The shapes stored in a session file (JSONL, version 3) and the views built from them.
 * Field order in the entry literals that create these matters: it is the order the reference
 * writes, so files stay byte-compatible in shape.
 *
 * @module
 */
import type { ImageContent, TextContent } from "../ai/types.ts";
import type { AgentMessage } from "./messages.ts";

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

/** History before `firstKeptEntryId` is replaced by `summary` in the LLM context. */
export interface CompactionEntry<T = unknown> extends SessionEntryBase {
  type: "compaction";
  summary: string;
  firstKeptEntryId: string;
  tokensBefore: number;
  /** Extension-specific data. */
  details?: T;
  /** True when an extension produced the summary. */
  fromHook?: boolean;
}

/** Summary of an abandoned branch, placed where the conversation continues. */
export interface BranchSummaryEntry<T = unknown> extends SessionEntryBase {
  type: "branch_summary";
  fromId: string;
  summary: string;
  details?: T;
  fromHook?: boolean;
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
  | SessionInfoEntry;

/** Any line of a session file. */
export type FileEntry = SessionHeader | SessionEntry;

/** Node of `getTree()`: an entry, its children (oldest first) and its resolved label. */
export interface SessionTreeNode {
  entry: SessionEntry;
  children: SessionTreeNode[];
  label?: string;
  labelTimestamp?: string;
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
