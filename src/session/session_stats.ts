/**
 * Session statistics as pi 1.6.0 counts them: over every entry of the file (history compacted
 * away and other branches included), so tokens and cost are what was billed. Usage comes from
 * assistant messages, tool results that did nested model work, `usage` entries (e.g. cache
 * warming) and the summaries of compactions and branch summaries.
 *
 * @module
 */
import type { Usage } from "../ai/types.ts";
import type { SessionEntry } from "./entries.ts";

/** Token counts and cost summed over a session. */
export interface SessionUsageTotals {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  /** input + output + cacheRead + cacheWrite. */
  total: number;
}

/** What `get_session_stats` reports, apart from the session's file, id and context usage. */
export interface SessionEntryStats {
  userMessages: number;
  assistantMessages: number;
  toolCalls: number;
  toolResults: number;
  /** Every message entry, system messages included (as 1.6.0 counts). */
  totalMessages: number;
  tokens: SessionUsageTotals;
  /** Dollars. */
  cost: number;
}

/** The usage an entry was billed for, if any. */
export function entryUsage(entry: SessionEntry): Usage | undefined {
  switch (entry.type) {
    case "usage":
      return entry.usage;
    case "compaction":
    case "branch_summary":
      return entry.usage;
    case "message": {
      const m = entry.message;
      if (m.role === "assistant") return m.usage;
      if (m.role === "toolResult") return (m as { usage?: Usage }).usage;
      return undefined;
    }
    default:
      return undefined;
  }
}

/** Counts and billed usage over `entries` (pass `SessionManager.getEntries()`). */
export function computeSessionStats(entries: readonly SessionEntry[]): SessionEntryStats {
  const stats: SessionEntryStats = {
    userMessages: 0,
    assistantMessages: 0,
    toolCalls: 0,
    toolResults: 0,
    totalMessages: 0,
    tokens: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
    cost: 0,
  };
  for (const entry of entries) {
    const usage = entryUsage(entry);
    if (usage) {
      stats.tokens.input += usage.input;
      stats.tokens.output += usage.output;
      stats.tokens.cacheRead += usage.cacheRead;
      stats.tokens.cacheWrite += usage.cacheWrite;
      stats.cost += usage.cost.total;
    }
    if (entry.type !== "message") continue;
    stats.totalMessages++;
    const m = entry.message;
    if (m.role === "user") stats.userMessages++;
    else if (m.role === "toolResult") stats.toolResults++;
    else if (m.role === "assistant") {
      stats.assistantMessages++;
      if (Array.isArray(m.content)) stats.toolCalls += m.content.filter((c) => c.type === "toolCall").length;
    }
  }
  const t = stats.tokens;
  t.total = t.input + t.output + t.cacheRead + t.cacheWrite;
  return stats;
}
