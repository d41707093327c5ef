/**
 * The model behind the /tree navigator (pi 1.6.0's): the session tree in display order (the
 * branch holding the current leaf first at every fork), the rows a filter, a search and the
 * folded segments leave visible, their indentation and connectors, and moving the selection
 * (by row, page, or branch segment). Drawing is tree_selector.ts's.
 *
 * @module
 */
import type { SessionEntry, SessionTreeNode } from "../../session/entries.ts";
import { entrySearchText, hasText, toolCallsOf, type TreeToolCall } from "./tree_entry_text.ts";

/** The navigator's filters, in the order the cycle keys step through them. */
export const TREE_FILTERS = ["default", "no-tools", "user-only", "labeled-only", "all"] as const;

/** One of {@link TREE_FILTERS}. */
export type TreeFilter = typeof TREE_FILTERS[number];

/** A vertical line kept for an ancestor's connector column. */
export interface Gutter {
  /** The indent level of the connector. */
  position: number;
  /** False after the last sibling: the column is blank. */
  show: boolean;
}

/** A visible row and its place in the drawn tree. */
export interface TreeRow {
  node: SessionTreeNode;
  indent: number;
  /** Drawn with `├─`/`└─` (it is one of several siblings). */
  showConnector: boolean;
  /** The last of its siblings (`└─`). */
  isLast: boolean;
  gutters: Gutter[];
  /** A root among several: no connector is drawn for it. */
  isVirtualRootChild: boolean;
}

/** Entries of the settings kind, hidden by the default filter. */
const SETTINGS_TYPES = new Set([
  "label",
  "context_edit",
  "custom",
  "model_change",
  "thinking_level_change",
  "session_info",
]);

/** The tree's entries in display order, with the selection, filter, search and folds over them. */
export class TreeList {
  /** Every node, depth first, the active branch first at each fork. */
  readonly #order: SessionTreeNode[] = [];
  readonly #byId = new Map<string, SessionTreeNode>();
  readonly #activePath = new Set<string>();
  /** Tool calls by id, to name tool result rows. */
  readonly toolCalls = new Map<string, TreeToolCall>();
  /** The visible rows. */
  rows: TreeRow[] = [];
  selected = 0;
  filter: TreeFilter;
  search = "";
  readonly folded = new Set<string>();
  /** More than one visible root: the roots hang off an invisible common root. */
  multipleRoots = false;
  #lastSelectedId: string | null = null;
  #visibleParent = new Map<string, string | null>();
  #visibleChildren = new Map<string | null, string[]>();

  /** The tree `roots` with `leafId` current; `selectId` (default: the leaf) selected first. */
  constructor(
    roots: readonly SessionTreeNode[],
    readonly leafId: string | null,
    filter: TreeFilter = "default",
    selectId?: string,
  ) {
    this.filter = filter;
    this.#orderTree(roots);
    for (let id = leafId; id;) {
      this.#activePath.add(id);
      id = this.#byId.get(id)?.entry.parentId ?? null;
    }
    this.applyFilter();
    this.selected = this.#nearestVisible(selectId ?? leafId);
    this.#lastSelectedId = this.rows[this.selected]?.node.entry.id ?? null;
  }

  /** Whether `id` is on the path from the root to the current leaf. */
  onActivePath(id: string): boolean {
    return this.#activePath.has(id);
  }

  /** The selected row. */
  get selectedRow(): TreeRow | undefined {
    return this.rows[this.selected];
  }

  #orderTree(roots: readonly SessionTreeNode[]): void {
    // Which subtrees hold the leaf, children before parents (no recursion: chains run deep).
    const preorder: SessionTreeNode[] = [];
    for (const stack = [...roots]; stack.length > 0;) {
      const node = stack.pop()!;
      preorder.push(node);
      for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]);
    }
    const holdsLeaf = new Set<SessionTreeNode>();
    for (let i = preorder.length - 1; i >= 0; i--) {
      const node = preorder[i];
      if (node.entry.id === this.leafId || node.children.some((c) => holdsLeaf.has(c))) holdsLeaf.add(node);
    }
    const activeFirst = (nodes: readonly SessionTreeNode[]) => [
      ...nodes.filter((n) => holdsLeaf.has(n)),
      ...nodes.filter((n) => !holdsLeaf.has(n)),
    ];
    for (const stack = activeFirst(roots).reverse(); stack.length > 0;) {
      const node = stack.pop()!;
      this.#order.push(node);
      this.#byId.set(node.entry.id, node);
      for (const [id, call] of toolCallsOf(node.entry)) this.toolCalls.set(id, call);
      stack.push(...activeFirst(node.children).reverse());
    }
  }

  /** Whether `entry` passes the filter (the search and folds aside). */
  #passesFilter(node: SessionTreeNode): boolean {
    const entry = node.entry;
    if (entry.type === "usage") return false;
    // Replies that only call tools say nothing in a row; the leaf always shows where one is.
    if (entry.type === "message" && entry.message.role === "assistant" && entry.id !== this.leafId) {
      const message = entry.message as { content?: unknown; stopReason?: string };
      const failed = message.stopReason && message.stopReason !== "stop" && message.stopReason !== "toolUse";
      if (!hasText(message.content) && !failed) return false;
    }
    const settings = SETTINGS_TYPES.has(entry.type);
    switch (this.filter) {
      case "user-only":
        return entry.type === "message" && entry.message.role === "user";
      case "no-tools":
        return !settings && !(entry.type === "message" && entry.message.role === "toolResult");
      case "labeled-only":
        return node.label !== undefined;
      case "all":
        return true;
      default:
        return !settings;
    }
  }

  /** Recomputes the visible rows after the filter, search or folds changed; keeps the selection. */
  applyFilter(): void {
    if (this.rows.length > 0) {
      this.#lastSelectedId = this.rows[this.selected]?.node.entry.id ?? this.#lastSelectedId;
    }
    const tokens = this.search.toLowerCase().split(/\s+/).filter(Boolean);
    let visible = this.#order.filter((node) => {
      if (!this.#passesFilter(node)) return false;
      if (tokens.length === 0) return true;
      const text = entrySearchText(node).toLowerCase();
      return tokens.every((t) => text.includes(t));
    });
    if (this.folded.size > 0) {
      const hidden = new Set<string>();
      for (const node of this.#order) {
        const parent = node.entry.parentId;
        if (parent != null && (this.folded.has(parent) || hidden.has(parent))) hidden.add(node.entry.id);
      }
      visible = visible.filter((node) => !hidden.has(node.entry.id));
    }
    this.#layout(visible);
    if (this.#lastSelectedId) this.selected = this.#nearestVisible(this.#lastSelectedId);
    else if (this.selected >= this.rows.length) this.selected = Math.max(0, this.rows.length - 1);
    if (this.rows.length > 0) {
      this.#lastSelectedId = this.rows[this.selected]?.node.entry.id ?? this.#lastSelectedId;
    }
  }

  /**
   * Indentation and connectors of the visible rows: each hangs off its nearest visible ancestor;
   * a fork indents its children one level, and the first generation after a fork one more, while
   * a single-child chain stays flat.
   */
  #layout(visible: SessionTreeNode[]): void {
    const shown = new Set(visible.map((n) => n.entry.id));
    const parentOf = new Map<string, string | null>();
    const childrenOf = new Map<string | null, string[]>([[null, []]]);
    for (const node of visible) {
      let parent = node.entry.parentId;
      while (parent != null && !shown.has(parent)) parent = this.#byId.get(parent)?.entry.parentId ?? null;
      parent ??= null;
      parentOf.set(node.entry.id, parent);
      if (!childrenOf.has(parent)) childrenOf.set(parent, []);
      childrenOf.get(parent)!.push(node.entry.id);
    }
    const roots = childrenOf.get(null)!;
    const multi = roots.length > 1;
    this.multipleRoots = multi;
    const rowOf = new Map<string, TreeRow>();
    type Pending = [string, number, boolean, boolean, boolean, Gutter[], boolean];
    const stack: Pending[] = roots.map((
      id,
      i,
    ): Pending => [id, multi ? 1 : 0, multi, multi, i === roots.length - 1, [], multi])
      .reverse();
    while (stack.length > 0) {
      const [id, indent, justBranched, showConnector, isLast, gutters, isVirtualRootChild] = stack.pop()!;
      rowOf.set(id, {
        node: this.#byId.get(id)!,
        indent,
        showConnector,
        isLast,
        gutters,
        isVirtualRootChild,
      });
      const children = childrenOf.get(id) ?? [];
      const fork = children.length > 1;
      const childIndent = fork || (justBranched && indent > 0) ? indent + 1 : indent;
      const displayIndent = multi ? Math.max(0, indent - 1) : indent;
      const childGutters = showConnector && !isVirtualRootChild
        ? [...gutters, { position: Math.max(0, displayIndent - 1), show: !isLast }]
        : gutters;
      for (let i = children.length - 1; i >= 0; i--) {
        stack.push([children[i], childIndent, fork, fork, i === children.length - 1, childGutters, false]);
      }
    }
    this.rows = visible.map((n) => rowOf.get(n.entry.id)!);
    this.#visibleParent = parentOf;
    this.#visibleChildren = childrenOf;
  }

  /** The row of `id`, or of its nearest visible ancestor; the last row when none is visible. */
  #nearestVisible(id: string | null | undefined): number {
    if (this.rows.length === 0) return 0;
    const index = new Map(this.rows.map((r, i) => [r.node.entry.id, i]));
    for (let current = id ?? null; current !== null;) {
      const found = index.get(current);
      if (found !== undefined) return found;
      const node = this.#byId.get(current);
      if (!node) break;
      current = node.entry.parentId ?? null;
    }
    return this.rows.length - 1;
  }

  /** A row can fold when it has visible children and is a root or the start of a branch segment. */
  isFoldable(id: string): boolean {
    if ((this.#visibleChildren.get(id) ?? []).length === 0) return false;
    const parent = this.#visibleParent.get(id);
    if (parent == null) return true;
    return (this.#visibleChildren.get(parent) ?? []).length > 1;
  }

  /** The row of the next branch segment's start: up the visible parents, or down the first children. */
  segmentStart(direction: "up" | "down"): number {
    const selectedId = this.selectedRow?.node.entry.id;
    if (!selectedId) return this.selected;
    const index = new Map(this.rows.map((r, i) => [r.node.entry.id, i]));
    let current = selectedId;
    if (direction === "down") {
      for (;;) {
        const children = this.#visibleChildren.get(current) ?? [];
        if (children.length === 0) return index.get(current)!;
        if (children.length > 1) return index.get(children[0])!;
        current = children[0];
      }
    }
    for (;;) {
      const parent = this.#visibleParent.get(current) ?? null;
      if (parent === null) return index.get(current)!;
      if ((this.#visibleChildren.get(parent) ?? []).length > 1) {
        const start = index.get(current)!;
        if (start < this.selected) return start;
      }
      current = parent;
    }
  }

  /** Sets (or with undefined clears) the label shown on `id`. */
  setLabel(id: string, label: string | undefined, timestamp = new Date().toISOString()): void {
    const node = this.#byId.get(id);
    if (!node) return;
    node.label = label;
    node.labelTimestamp = label ? timestamp : undefined;
  }

  /** The entry of `id`. */
  entry(id: string): SessionEntry | undefined {
    return this.#byId.get(id)?.entry;
  }
}
