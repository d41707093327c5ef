/**
 * Where compaction cuts the history: walk back from the newest entry until roughly
 * `keepRecentTokens` are kept, then move to the nearest entry a context may start with. A tool
 * result can never start the kept part, because it must follow its tool call.
 *
 * @module
 */
import type { SessionEntry } from "../session/entries.ts";
import { estimateTokens } from "./token_estimate.ts";

/** Where to cut, and whether the cut falls inside a turn. */
export interface CutPointResult {
  /** Index of the first entry that stays verbatim. */
  firstKeptEntryIndex: number;
  /** When the cut splits a turn: index of the entry that opened that turn; otherwise -1. */
  turnStartIndex: number;
  /** True when the first kept entry is not a user message but a turn start exists before it. */
  isSplitTurn: boolean;
}

/** Message roles the kept part of the context may start with (everything but tool results). */
const CUT_ROLES = new Set([
  "user",
  "assistant",
  "bashExecution",
  "custom",
  "branchSummary",
  "compactionSummary",
]);

/** True for entries that may open the kept part of the context. */
function isCutPoint(entry: SessionEntry): boolean {
  if (entry.type === "branch_summary" || entry.type === "custom_message") return true;
  return entry.type === "message" && CUT_ROLES.has(entry.message.role);
}

/** Indices in [startIndex, endIndex) where a cut is allowed. */
function validCutPoints(entries: SessionEntry[], startIndex: number, endIndex: number): number[] {
  const out: number[] = [];
  for (let i = startIndex; i < endIndex; i++) if (isCutPoint(entries[i])) out.push(i);
  return out;
}

/**
 * Index of the entry that opened the turn containing `entryIndex`: the nearest user or shell
 * message, branch summary or extension message at or before it (not before `startIndex`);
 * -1 when there is none.
 */
export function findTurnStartIndex(entries: SessionEntry[], entryIndex: number, startIndex: number): number {
  for (let i = entryIndex; i >= startIndex; i--) {
    const entry = entries[i];
    if (entry.type === "branch_summary" || entry.type === "custom_message") return i;
    if (
      entry.type === "message" && (entry.message.role === "user" || entry.message.role === "bashExecution")
    ) {
      return i;
    }
  }
  return -1;
}

/**
 * Chooses the cut within [startIndex, endIndex). Message sizes are summed newest first; once
 * the sum reaches `keepRecentTokens`, the cut goes to the first allowed entry at or after the
 * message that crossed it. If the budget is never reached everything is kept (cut at the first
 * allowed entry). Settings-like entries directly before the cut are kept with it.
 */
export function findCutPoint(
  entries: SessionEntry[],
  startIndex: number,
  endIndex: number,
  keepRecentTokens: number,
): CutPointResult {
  const cutPoints = validCutPoints(entries, startIndex, endIndex);
  if (cutPoints.length === 0) {
    return { firstKeptEntryIndex: startIndex, turnStartIndex: -1, isSplitTurn: false };
  }

  let cutIndex = cutPoints[0];
  let accumulated = 0;
  for (let i = endIndex - 1; i >= startIndex; i--) {
    const entry = entries[i];
    if (entry.type !== "message") continue;
    accumulated += estimateTokens(entry.message);
    if (accumulated >= keepRecentTokens) {
      const next = cutPoints.find((c) => c >= i);
      if (next !== undefined) cutIndex = next;
      break;
    }
  }

  // Keep model/thinking changes, labels etc. that sit right before the cut; a message or an
  // earlier compaction ends that run.
  while (cutIndex > startIndex) {
    const prev = entries[cutIndex - 1];
    if (prev.type === "compaction" || prev.type === "message") break;
    cutIndex--;
  }

  const cutEntry = entries[cutIndex];
  const isUser = cutEntry.type === "message" && cutEntry.message.role === "user";
  const turnStartIndex = isUser ? -1 : findTurnStartIndex(entries, cutIndex, startIndex);
  return { firstKeptEntryIndex: cutIndex, turnStartIndex, isSplitTurn: !isUser && turnStartIndex !== -1 };
}
