/**
 * How full the context window is. After a compaction the last reply's usage describes the old,
 * longer context, so the figure is unknown (null) until a reply arrives after the compaction.
 *
 * @module
 */
import type { AgentMessage } from "../agent/types.ts";
import type { AssistantMessage, Model } from "../ai/types.ts";
import { getLatestCompactionEntry } from "../session/context.ts";
import type { SessionEntry } from "../session/entries.ts";
import { calculateContextTokens, estimateContextTokens } from "../compaction/token_estimate.ts";
import type { ContextUsage } from "./agent_session_types.ts";

/** Context usage for `model` given the current branch and transcript. */
export function computeContextUsage(
  model: Model,
  branch: SessionEntry[],
  messages: AgentMessage[],
): ContextUsage | undefined {
  const contextWindow = model.contextWindow ?? 0;
  if (contextWindow <= 0) return undefined;
  const compaction = getLatestCompactionEntry(branch);
  if (compaction) {
    const start = branch.lastIndexOf(compaction);
    let known = false;
    for (let i = branch.length - 1; i > start; i--) {
      const entry = branch[i];
      if (entry.type !== "message" || entry.message.role !== "assistant") continue;
      const assistant = entry.message as AssistantMessage;
      if (assistant.stopReason === "aborted" || assistant.stopReason === "error") continue;
      known = calculateContextTokens(assistant.usage) > 0;
      break;
    }
    if (!known) return { tokens: null, contextWindow, percent: null };
  }
  const estimate = estimateContextTokens(messages as never);
  return { tokens: estimate.tokens, contextWindow, percent: (estimate.tokens / contextWindow) * 100 };
}
