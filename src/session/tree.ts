/**
 * The session as a tree for navigation UIs: children oldest first, labels resolved.
 *
 * @module
 */
import type { SessionEntry, SessionTreeNode } from "./entries.ts";

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
