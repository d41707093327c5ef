/**
 * The message a session entry contributes to a branch summary request (compaction works on the
 * session projection instead).
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
 * For branch summaries: tool results are left out (the tool call already says what was done),
 * earlier compaction summaries are kept as context.
 */
export function branchMessageOf(entry: SessionEntry): AgentMessage | undefined {
  if (entry.type === "message" && entry.message.role === "toolResult") return undefined;
  return messageOf(entry);
}
