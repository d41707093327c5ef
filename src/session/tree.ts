/**
 * The session as a tree for navigation UIs (children oldest first, labels resolved), and the
 * label-free path a branched session starts from.
 *
 * @module
 */
import type { LabelEntry, SessionEntry, SessionTreeNode } from "./entries.ts";
import { generateEntryId } from "./ids.ts";

/**
 * Builds root nodes from `entries`. Entries whose parent is missing (or themselves) become
 * extra roots rather than disappearing.
 */
export function buildTree(
  entries: SessionEntry[],
  labels: Map<string, string>,
  labelTimestamps: Map<string, string>,
): SessionTreeNode[] {
  const nodes = new Map<string, SessionTreeNode>();
  for (const entry of entries) {
    nodes.set(entry.id, {
      entry,
      children: [],
      label: labels.get(entry.id),
      labelTimestamp: labelTimestamps.get(entry.id),
    });
  }
  const roots: SessionTreeNode[] = [];
  for (const entry of entries) {
    const node = nodes.get(entry.id)!;
    const parent = entry.parentId === null || entry.parentId === entry.id
      ? undefined
      : nodes.get(entry.parentId);
    if (parent) parent.children.push(node);
    else roots.push(node);
  }
  // Iterative: sessions can be tens of thousands of entries deep.
  const stack = [...roots];
  while (stack.length > 0) {
    const node = stack.pop()!;
    node.children.sort((a, b) => Date.parse(a.entry.timestamp) - Date.parse(b.entry.timestamp));
    for (const c of node.children) stack.push(c);
  }
  return roots;
}

/**
 * The path without its label entries (they are re-created from the resolved labels). Later
 * entries may hang off a label, so parents are re-chained, and a compaction whose
 * `firstKeptEntryId` names a dropped label points at the entry that took its place.
 */
export function withoutLabels(path: SessionEntry[]): SessionEntry[] {
  const out: SessionEntry[] = [];
  const replacement = new Map<string, string>();
  const pendingLabels: string[] = [];
  let parentId: string | null = null;
  for (const entry of path) {
    if (entry.type === "label") {
      pendingLabels.push(entry.id);
      continue;
    }
    for (const id of pendingLabels) replacement.set(id, entry.id);
    pendingLabels.length = 0;
    if (entry.type === "compaction") {
      const firstKept = entry.firstKeptEntryId === entry.id
        ? entry.id
        : replacement.get(entry.firstKeptEntryId) ?? entry.firstKeptEntryId;
      out.push({ ...entry, parentId, firstKeptEntryId: firstKept });
    } else {
      out.push({ ...entry, parentId });
    }
    parentId = entry.id;
  }
  return out;
}

/**
 * Label entries for the labels in force on `kept` (target id → label, and when each was set),
 * chained after its last entry: a branched session keeps its bookmarks without the history of
 * label changes.
 */
export function recreateLabels(
  kept: readonly SessionEntry[],
  labels: ReadonlyMap<string, string>,
  labelTimestamps: ReadonlyMap<string, string>,
): LabelEntry[] {
  const ids = new Set(kept.map((e) => e.id));
  const out: LabelEntry[] = [];
  let parentId: string | null = kept[kept.length - 1]?.id ?? null;
  for (const [targetId, label] of labels) {
    if (!ids.has(targetId)) continue;
    const entry: LabelEntry = {
      type: "label",
      id: generateEntryId(ids),
      parentId,
      timestamp: labelTimestamps.get(targetId)!,
      targetId,
      label,
    };
    ids.add(entry.id);
    out.push(entry);
    parentId = entry.id;
  }
  return out;
}
