/**
 * Builds what the LLM sees from a session tree: the path from root to leaf, with compaction
 * replacing old history by its summary and the settings (model, thinking level) in force there.
 *
 * @module
 */
import type { CompactionEntry, SessionContext, SessionEntry } from "./entries.ts";
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

/** Root-first path to `leaf` following parentIds. */
export function pathToRoot(leaf: SessionEntry | undefined, byId: Map<string, SessionEntry>): SessionEntry[] {
  const path: SessionEntry[] = [];
  let current = leaf;
  const seen = new Set<string>();
  while (current && !seen.has(current.id)) {
    seen.add(current.id);
    path.push(current);
    current = current.parentId ? byId.get(current.parentId) : undefined;
  }
  return path.reverse();
}

function toMessage(entry: SessionEntry): AgentMessage | undefined {
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
      return entry.summary
        ? createBranchSummaryMessage(entry.summary, entry.fromId, entry.timestamp)
        : undefined;
    default:
      return undefined;
  }
}

/**
 * Context for `leafId`: `null` means "before the first entry" (empty context); undefined or an
 * unknown id falls back to the last entry.
 */
export function buildSessionContext(
  entries: SessionEntry[],
  leafId?: string | null,
  byId?: Map<string, SessionEntry>,
): SessionContext {
  if (leafId === null) return { messages: [], thinkingLevel: "off", model: null };
  if (!byId) {
    byId = new Map();
    for (const e of entries) byId.set(e.id, e);
  }
  const leaf = (leafId ? byId.get(leafId) : undefined) ?? entries[entries.length - 1];
  if (!leaf) return { messages: [], thinkingLevel: "off", model: null };
  const path = pathToRoot(leaf, byId);

  let thinkingLevel = "off";
  let model: SessionContext["model"] = null;
  let compactionIdx = -1;
  for (let i = 0; i < path.length; i++) {
    const e = path[i];
    if (e.type === "thinking_level_change") thinkingLevel = e.thinkingLevel;
    else if (e.type === "model_change") model = { provider: e.provider, modelId: e.modelId };
    else if (e.type === "message" && e.message.role === "assistant") {
      model = { provider: e.message.provider, modelId: e.message.model };
    } else if (e.type === "compaction") compactionIdx = i;
  }

  const messages: AgentMessage[] = [];
  const push = (e: SessionEntry) => {
    const m = toMessage(e);
    if (m) messages.push(m);
  };
  if (compactionIdx >= 0) {
    const compaction = path[compactionIdx] as CompactionEntry;
    messages.push(
      createCompactionSummaryMessage(compaction.summary, compaction.tokensBefore, compaction.timestamp),
    );
    let kept = false;
    for (let i = 0; i < compactionIdx; i++) {
      if (path[i].id === compaction.firstKeptEntryId) kept = true;
      if (kept) push(path[i]);
    }
    for (let i = compactionIdx + 1; i < path.length; i++) push(path[i]);
  } else {
    for (const e of path) push(e);
  }
  return { messages, thinkingLevel, model };
}
