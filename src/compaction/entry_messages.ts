/**
 * The message a session entry contributes to a summarization request. Compaction and branch
 * summarization differ in which entries count, so each picks its variant here.
 *
 * @module
 */
import type { SessionEntry } from "../session/entries.ts";
import {
  type AgentMessage,
  createBranchSummaryMessage,
  createCompactionSummaryMessage,
  createCustomMessage,
} from "../session/messages.ts";

/** Any entry that carries conversation content, including earlier compactions' summaries. */
function messageOf(entry: SessionEntry): AgentMessage | undefined {
  switch (entry.type) {
    case "message":
      return entry.message;
    case "custom_message":
      return createCustomMessage(
        entry.customType,
        entry.content,
        entry.display,
        entry.details,
        entry.timestamp,
      );
    case "branch_summary":
      return createBranchSummaryMessage(entry.summary, entry.fromId, entry.timestamp);
    case "compaction":
      return createCompactionSummaryMessage(entry.summary, entry.tokensBefore, entry.timestamp);
    default:
      return undefined;
  }
}

/**
 * For compaction: an earlier compaction is not re-summarized as a message (its summary is
 * passed separately as the previous summary), nor is a `system` message: it is prompt state, not
 * conversation, and the compaction entry's checkpoint carries it on.
 */
export function compactionMessageOf(entry: SessionEntry): AgentMessage | undefined {
  if (entry.type === "compaction") return undefined;
  if (entry.type === "message" && entry.message.role === "system") return undefined;
  return messageOf(entry);
}

/**
 * For branch summaries: tool results are left out (the tool call already says what was done),
 * earlier compaction summaries are kept as context.
 */
export function branchMessageOf(entry: SessionEntry): AgentMessage | undefined {
  if (entry.type === "message" && entry.message.role === "toolResult") return undefined;
  return messageOf(entry);
}
