/**
 * Builds what the LLM sees from a session tree (pi 1.6.0's projection). Three steps, in order:
 * the path from the root to the leaf; compaction (the latest compaction on the path stands in for
 * the history before its `firstKeptEntryId`, and its system checkpoint replaces the system
 * messages it folded); then `context_edit` entries (the latest edit of each target omits it or
 * swaps its content). The session is the source of model context: callers rebuild from it
 * instead of keeping their own message list.
 *
 * @module
 */
import type {
  CompactionEntry,
  ContextEditEntry,
  ProjectedEntry,
  SessionContext,
  SessionEntry,
  SessionProjection,
} from "./entries.ts";
import {
  type AgentMessage,
  createBranchSummaryMessage,
  createCompactionSummaryMessage,
  createCustomMessage,
} from "./messages.ts";

/** The newest compaction entry in `entries`, or null. */
export function getLatestCompactionEntry(entries: SessionEntry[]): CompactionEntry | null {
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i];
    if (e.type === "compaction") return e;
  }
  return null;
}

/** Root-first path to `leaf` following parentIds (a parent cycle in a damaged file ends the walk). */
export function pathToRoot(leaf: SessionEntry | undefined, byId: Map<string, SessionEntry>): SessionEntry[] {
  // A walk longer than the entry count has met a cycle: only then is a visited set needed
  // (it costs a hash insert per entry, noticeable on a 100,000-entry path).
  const path: SessionEntry[] = [];
  let current = leaf;
  while (current && path.length <= byId.size) {
    path.push(current);
    current = current.parentId ? byId.get(current.parentId) : undefined;
  }
  if (current) {
    path.length = 0;
    const seen = new Set<string>();
    current = leaf;
    while (current && !seen.has(current.id)) {
      seen.add(current.id);
      path.push(current);
      current = current.parentId ? byId.get(current.parentId) : undefined;
    }
  }
  return path.reverse();
}

function indexOf(entries: SessionEntry[], byId?: Map<string, SessionEntry>): Map<string, SessionEntry> {
  if (byId) return byId;
  const index = new Map<string, SessionEntry>();
  for (const e of entries) index.set(e.id, e);
  return index;
}

/**
 * The path for `leafId`: `null` means "before the first entry" (empty); undefined or an unknown id
 * falls back to the last entry.
 */
function sessionPath(
  entries: SessionEntry[],
  leafId: string | null | undefined,
  byId?: Map<string, SessionEntry>,
): SessionEntry[] {
  if (leafId === null) return [];
  const index = indexOf(entries, byId);
  const leaf = (leafId ? index.get(leafId) : undefined) ?? entries[entries.length - 1];
  return leaf ? pathToRoot(leaf, index) : [];
}

/**
 * Model and thinking level in force at the end of `path`: the last setting of each wins, so the
 * walk goes backwards and stops once both are known (a resumed session's old messages are then
 * never read).
 */
function contextSettings(path: SessionEntry[]): Pick<SessionContext, "thinkingLevel" | "model"> {
  let thinkingLevel: string | undefined;
  let model: SessionContext["model"] | undefined;
  for (let i = path.length - 1; i >= 0 && (thinkingLevel === undefined || model === undefined); i--) {
    const e = path[i];
    if (e.type === "thinking_level_change") thinkingLevel ??= e.thinkingLevel;
    else if (model !== undefined) continue;
    else if (e.type === "model_change") model = { provider: e.provider, modelId: e.modelId };
    else if (e.type === "message" && e.message.role === "assistant") {
      model = { provider: e.message.provider, modelId: e.message.model };
    }
  }
  return { thinkingLevel: thinkingLevel ?? "off", model: model ?? null };
}

/**
 * The messages one entry contributes to the context. Plain `custom`, `label`, `usage`,
 * `context_edit` and settings entries contribute none; a compaction contributes its system
 * checkpoint (when it has one) and its summary.
 */
export function sessionEntryToContextMessages(entry: SessionEntry): AgentMessage[] {
  switch (entry.type) {
    case "message": {
      const message = entry.message as AgentMessage & { content?: unknown };
      // Files are read without validation: old, forked or hand-edited ones may lack content.
      if (message.content == null) {
        if (message.role === "system") return [{ ...message, content: "" } as AgentMessage];
        if (message.role === "user" || message.role === "assistant" || message.role === "toolResult") {
          return [{ ...message, content: [] } as AgentMessage];
        }
      }
      return [entry.message];
    }
    case "custom_message":
      return [
        createCustomMessage(
          entry.customType,
          entry.content ?? [],
          entry.display,
          entry.details,
          entry.timestamp,
        ),
      ];
    case "branch_summary":
      return entry.summary ? [createBranchSummaryMessage(entry.summary, entry.fromId, entry.timestamp)] : [];
    case "compaction": {
      const summary = createCompactionSummaryMessage(entry.summary, entry.tokensBefore, entry.timestamp);
      return entry.systemMessage ? [entry.systemMessage, summary] : [summary];
    }
    default:
      return [];
  }
}

/**
 * The entries that make up the context, compaction applied: without a compaction, the whole
 * path; with one, the latest compaction first, then the kept entries before it (system messages
 * left out: the compaction's checkpoint replaces them), then everything after it. Entries that
 * contribute no message stay in the list so a UI can render them.
 */
export function buildContextEntries(
  entries: SessionEntry[],
  leafId?: string | null,
  byId?: Map<string, SessionEntry>,
  path: SessionEntry[] = sessionPath(entries, leafId, byId),
): SessionEntry[] {
  let compactionIdx = -1;
  for (let i = 0; i < path.length; i++) if (path[i].type === "compaction") compactionIdx = i;
  if (compactionIdx < 0) return path;
  const compaction = path[compactionIdx] as CompactionEntry;
  const out: SessionEntry[] = [compaction];
  let kept = false;
  for (let i = 0; i < compactionIdx; i++) {
    const e = path[i];
    if (e.id === compaction.firstKeptEntryId) kept = true;
    if (kept && !(e.type === "message" && e.message.role === "system")) out.push(e);
  }
  for (let i = compactionIdx + 1; i < path.length; i++) out.push(path[i]);
  return out;
}

/** The messages of `entry` with `edit` applied: omitted for `null`, else content replaced. */
export function projectContextEntry(entry: SessionEntry, edit?: ContextEditEntry): AgentMessage[] {
  const messages = sessionEntryToContextMessages(entry);
  if (!edit) return messages;
  const replacement = edit.replacement;
  if (replacement === null) return [];
  return messages.map((message) => {
    const role = message.role;
    if (role !== "user" && role !== "assistant" && role !== "toolResult" && role !== "custom") return message;
    // Assistant and tool results only take block arrays.
    const content = (role === "assistant" || role === "toolResult") && typeof replacement.content === "string"
      ? [{ type: "text" as const, text: replacement.content }]
      : replacement.content;
    return { ...message, content } as AgentMessage;
  });
}

/**
 * The model context for `leafId` with provenance: path, then compaction, then context edits.
 * Each selected entry is listed with the messages it contributes; the raw entries are untouched.
 */
export function buildSessionProjection(
  entries: SessionEntry[],
  leafId?: string | null,
  byId?: Map<string, SessionEntry>,
  path: SessionEntry[] = sessionPath(entries, leafId, byId),
): SessionProjection {
  const settings = contextSettings(path);
  const selected = buildContextEntries(entries, leafId, byId, path);
  const edits = new Map<string, ContextEditEntry>();
  for (const e of selected) if (e.type === "context_edit") edits.set(e.targetId, e);
  const projected: ProjectedEntry[] = selected.map((sourceEntry, index) => ({
    sourceEntry,
    // An older compaction can sit inside the kept range; only the one leading the list counts.
    messages: sourceEntry.type === "compaction" && index > 0
      ? []
      : projectContextEntry(sourceEntry, edits.get(sourceEntry.id)),
  }));
  return { entries: projected, messages: projected.flatMap((p) => p.messages), ...settings };
}

/** What the LLM sees from `leafId` (see {@link buildSessionProjection}), without provenance. */
export function buildSessionContext(
  entries: SessionEntry[],
  leafId?: string | null,
  byId?: Map<string, SessionEntry>,
): SessionContext {
  const { messages, thinkingLevel, model } = buildSessionProjection(entries, leafId, byId);
  return { messages, thinkingLevel, model };
}
