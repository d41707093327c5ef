/**
 * The compaction members RPC uses on a session. They are attached by the compaction module, so
 * they are looked up at run time; without them the settings still answer and `compact` reports
 * that compaction is unavailable.
 *
 * @module
 */
import type { AgentSession } from "../../../core/agent_session.ts";
import type { CompactionResult } from "../../../core/agent_session_types.ts";

/** The members of a session that can compact. */
export interface CompactingSession {
  compact(customInstructions?: string): Promise<CompactionResult>;
  readonly isCompacting: boolean;
  readonly autoCompactionEnabled: boolean;
  setAutoCompactionEnabled(enabled: boolean): void;
  abortCompaction(): void;
}

/** The session's compaction members, or undefined when compaction is not wired in. */
export function compactionOf(session: AgentSession): CompactingSession | undefined {
  const candidate = session as AgentSession & Partial<CompactingSession>;
  return typeof candidate.compact === "function" ? candidate as AgentSession & CompactingSession : undefined;
}

/** Whether a compaction is running. */
export function isCompacting(session: AgentSession): boolean {
  return compactionOf(session)?.isCompacting ?? false;
}

/** Whether auto-compaction is on. */
export function autoCompactionEnabled(session: AgentSession): boolean {
  return compactionOf(session)?.autoCompactionEnabled ?? session.settingsManager.getCompactionEnabled();
}

/** Turns auto-compaction on or off (persisted in global settings). */
export function setAutoCompaction(session: AgentSession, enabled: boolean): void {
  const compacting = compactionOf(session);
  if (compacting) compacting.setAutoCompactionEnabled(enabled);
  else session.settingsManager.setCompactionEnabled(enabled);
}
