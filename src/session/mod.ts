/**
 * Sessions: the append-only JSONL session tree (`SessionManager`), its entry types, and how a
 * branch becomes the model's context.
 *
 * @example
 * ```ts
 * import { SessionManager } from "@pi-deno/coding-agent/session";
 *
 * const sessions = SessionManager.inMemory(Deno.cwd());
 * sessions.appendMessage({ role: "user", content: "Hello", timestamp: Date.now() });
 * console.log(sessions.buildSessionContext().messages.length);
 * ```
 *
 * @module
 */

export { SessionManager } from "./session_manager.ts";
export type { ReadonlySessionManager } from "./session_manager.ts";
export type { SystemMessage, ToolReference } from "./system_message.ts";
export type * from "./entries.ts";
export type { ProjectedEntry as ProjectedSessionEntry } from "./entries.ts";
export {
  buildContextEntries,
  buildSessionContext,
  buildSessionProjection,
  getLatestCompactionEntry,
  sessionEntryToContextMessages,
} from "./context.ts";
export { migrateSessionEntries } from "./migrations.ts";
export { InvalidSessionFileError, loadEntriesFromFile, parseSessionEntries } from "./session_file.ts";
export { getDefaultSessionDir } from "./paths.ts";
export { convertToLlm } from "./messages.ts";
export type {
  /** The messages a session holds: LLM messages, system messages and pi's own kinds. */
  AgentMessage as SessionAgentMessage,
  BashExecutionMessage,
  BranchSummaryMessage,
  CompactionSummaryMessage,
  CustomMessage,
} from "./messages.ts";
