/**
 * Where compaction cuts the history: walk back from the newest entry until roughly
 * `keepRecentTokens` are kept, then move to the nearest entry a context may start with. A tool
 * result can never start the kept part, because it must follow its tool call.
 *
 * Two views share one walk: raw session entries (each contributing the messages it would put in
 * a context) and a session projection (entries with context edits and compaction applied), which
 * is what `prepareCompaction` cuts, as pi 1.6.0 does.
 *
 * @module
 */
import { sessionEntryToContextMessages } from "../session/context.ts";
import type { ProjectedEntry, SessionEntry } from "../session/entries.ts";
import type { AgentMessage } from "../session/messages.ts";
import { estimateTokens } from "./token_estimate.ts";

/** Where to cut, and whether the cut falls inside a turn. */
export interface CutPointResult {
  /** Index of the first entry that stays verbatim. */
  firstKeptEntryIndex: number;
  /** When the cut splits a turn: index of the entry that opened that turn; otherwise -1. */
  turnStartIndex: number;
  /** True when the first kept entry does not open a turn but a turn start exists before it. */
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

/** Message roles that open a turn (a reply and its tool results never do). */
const TURN_START_ROLES = new Set(["user", "bashExecution", "custom", "branchSummary", "compactionSummary"]);

/** One position of the walk: whether it is a compaction, and the messages it contributes. */
interface CutView {
  isCompaction(index: number): boolean;
  messages(index: number): AgentMessage[];
}

function rawView(entries: SessionEntry[]): CutView {
  return {
    isCompaction: (i) => entries[i].type === "compaction",
    messages: (i) => sessionEntryToContextMessages(entries[i]),
  };
}

function projectedView(entries: ProjectedEntry[]): CutView {
  return {
    isCompaction: (i) => entries[i].sourceEntry.type === "compaction",
    messages: (i) => entries[i].messages,
  };
}

function opensTurn(view: CutView, index: number): boolean {
  return !view.isCompaction(index) && view.messages(index).some((m) => TURN_START_ROLES.has(m.role));
}

function turnStartIn(view: CutView, entryIndex: number, startIndex: number): number {
  for (let i = entryIndex; i >= startIndex; i--) if (opensTurn(view, i)) return i;
  return -1;
}

/**
 * Index of the entry that opened the turn containing `entryIndex`: the nearest entry at or
 * before it (not before `startIndex`) whose context messages include a user, shell, extension
 * or summary message; -1 when there is none. Compactions never open a turn.
 */
export function findTurnStartIndex(entries: SessionEntry[], entryIndex: number, startIndex: number): number {
  return turnStartIn(rawView(entries), entryIndex, startIndex);
}

/** The walk: the cut index before the metadata back-scan, and whether the budget was reached. */
function walk(view: CutView, cutPoints: number[], startIndex: number, endIndex: number, keep: number) {
  let cutIndex = cutPoints[0];
  let exceeded = false;
  let accumulated = 0;
  for (let i = endIndex - 1; i >= startIndex; i--) {
    const tokens = view.messages(i).reduce((sum, m) => sum + estimateTokens(m), 0);
    if (tokens === 0) continue;
    accumulated += tokens;
    if (accumulated >= keep) {
      exceeded = true;
      // The nearest allowed cut at or after the crossing entry; when trailing tool results alone
      // exceed the budget, the last allowed cut (their tool call) rather than the first message.
      cutIndex = cutPoints.find((c) => c >= i) ?? cutPoints[cutPoints.length - 1];
      break;
    }
  }
  return { cutIndex, exceeded };
}

/** Moves the cut back over entries that add nothing to the context, then classifies it. */
function finish(view: CutView, cutIndex: number, startIndex: number): CutPointResult {
  while (cutIndex > startIndex) {
    const prev = cutIndex - 1;
    if (view.isCompaction(prev) || view.messages(prev).length > 0) break;
    cutIndex--;
  }
  const startsTurn = opensTurn(view, cutIndex);
  const turnStartIndex = startsTurn ? -1 : turnStartIn(view, cutIndex, startIndex);
  return { firstKeptEntryIndex: cutIndex, turnStartIndex, isSplitTurn: !startsTurn && turnStartIndex !== -1 };
}

function cutPointsIn(view: CutView, startIndex: number, endIndex: number): number[] {
  const out: number[] = [];
  for (let i = startIndex; i < endIndex; i++) {
    if (!view.isCompaction(i) && view.messages(i).some((m) => CUT_ROLES.has(m.role))) out.push(i);
  }
  return out;
}

/**
 * Chooses the cut within [startIndex, endIndex) of raw entries. Context sizes are summed newest
 * first; once the sum reaches `keepRecentTokens`, the cut goes to the first allowed entry at or
 * after the one that crossed it. If the budget is never reached everything is kept (cut at the
 * first allowed entry). Entries that add nothing to the context right before the cut are kept
 * with it.
 */
export function findCutPoint(
  entries: SessionEntry[],
  startIndex: number,
  endIndex: number,
  keepRecentTokens: number,
): CutPointResult {
  const view = rawView(entries);
  const cutPoints = cutPointsIn(view, startIndex, endIndex);
  if (cutPoints.length === 0) {
    return { firstKeptEntryIndex: startIndex, turnStartIndex: -1, isSplitTurn: false };
  }
  return finish(view, walk(view, cutPoints, startIndex, endIndex, keepRecentTokens).cutIndex, startIndex);
}

/**
 * {@link findCutPoint} over a session projection. One more rule: when everything after the cut
 * is a failed attempt hidden by a context edit (and its omission edits), the cut moves past the
 * cut entry, so the recovery attempt is not kept as the start of the new context while unsent
 * input is never cut away.
 */
export function findProjectedCutPoint(
  entries: ProjectedEntry[],
  startIndex: number,
  endIndex: number,
  keepRecentTokens: number,
): CutPointResult {
  const view = projectedView(entries);
  const cutPoints = cutPointsIn(view, startIndex, endIndex);
  if (cutPoints.length === 0) {
    return { firstKeptEntryIndex: startIndex, turnStartIndex: -1, isSplitTurn: false };
  }
  let { cutIndex, exceeded } = walk(view, cutPoints, startIndex, endIndex, keepRecentTokens);

  const suffix = entries.slice(cutIndex + 1, endIndex);
  const visibleByItself = (e: ProjectedEntry) =>
    e.sourceEntry.type !== "context_edit" && sessionEntryToContextMessages(e.sourceEntry).length > 0;
  const omitted = (e: ProjectedEntry) => visibleByItself(e) && e.messages.length === 0;
  const omittedIds = new Set(suffix.filter(omitted).map((e) => e.sourceEntry.id));
  const replacesOther = suffix.some((e) =>
    e.sourceEntry.type === "context_edit" && e.sourceEntry.replacement !== null &&
    !omittedIds.has(e.sourceEntry.targetId)
  );
  const onlyRecovery = exceeded && !replacesOther &&
    suffix.some((e) =>
      e.sourceEntry.type === "message" && e.sourceEntry.message.role === "assistant" && omitted(e)
    ) &&
    suffix.every((e) => e.sourceEntry.type !== "compaction" && (!visibleByItself(e) || omitted(e)));
  if (onlyRecovery) cutIndex++;
  return finish(view, cutIndex, startIndex);
}
