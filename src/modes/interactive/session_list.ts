/**
 * The list part of pi 1.6.0's session picker: a search field, then one row per session (its name
 * or first message; on the right the cwd in the "all" scope, the file with the path toggle, the
 * message count and the age), ten rows at a time around the selection. Without a query the
 * "threaded" order nests forks under the session they came from (└─ ├─), newest activity first.
 *
 * @module
 */
import {
  type Component,
  type Focusable,
  getKeybindings,
  Input,
  truncateToWidth,
  visibleWidth,
} from "../../tui/mod.ts";
import type { SessionInfo } from "../../core/session_listing.ts";
import { keyText, matchesAction } from "./app_keys.ts";
import { formatCwdForFooter } from "./footer.ts";
import {
  filterAndSortSessions,
  hasSessionName,
  type SessionNameFilter,
  type SessionSortMode,
} from "./session_search.ts";
import type { Theme } from "./theme.ts";

/** The picker's own actions (pi 1.6.0's `app.session.*`). */
type SessionAction =
  | "app.session.togglePath"
  | "app.session.toggleSort"
  | "app.session.toggleNamedFilter"
  | "app.session.rename"
  | "app.session.delete"
  | "app.session.deleteNoninvasive";

/** The picker's keys as hints show them (`ctrl+p`), read when used so keybindings.json applies. */
export const SESSION_KEYS: Readonly<Record<SessionAction, string>> = {
  get "app.session.togglePath"() {
    return keyText("app.session.togglePath");
  },
  get "app.session.toggleSort"() {
    return keyText("app.session.toggleSort");
  },
  get "app.session.toggleNamedFilter"() {
    return keyText("app.session.toggleNamedFilter");
  },
  get "app.session.rename"() {
    return keyText("app.session.rename");
  },
  get "app.session.delete"() {
    return keyText("app.session.delete");
  },
  get "app.session.deleteNoninvasive"() {
    return keyText("app.session.deleteNoninvasive");
  },
};

// deno-lint-ignore no-control-regex -- matching control characters is the point
const CONTROL_CHARS = /[\x00-\x1f\x7f]/g;

/** Rows shown at a time. */
const VISIBLE = 10;

/** The age 1.6.0 shows: now, 5m, 3h, 2d, 1w, 4mo, 2y. */
export function formatSessionAge(modified: Date, now: number): string {
  const ms = now - modified.getTime();
  const minutes = Math.floor(ms / 60_000);
  const hours = Math.floor(ms / 3_600_000);
  const days = Math.floor(ms / 86_400_000);
  if (minutes < 1) return "now";
  if (minutes < 60) return `${minutes}m`;
  if (hours < 24) return `${hours}h`;
  if (days < 7) return `${days}d`;
  if (days < 30) return `${Math.floor(days / 7)}w`;
  if (days < 365) return `${Math.floor(days / 30)}mo`;
  return `${Math.floor(days / 365)}y`;
}

/** One row: a session and where it sits in the fork tree. */
export interface SessionRow {
  session: SessionInfo;
  depth: number;
  isLast: boolean;
  /** Per ancestor level: whether a `│` continues past this row. */
  ancestorContinues: boolean[];
}

interface TreeNode {
  session: SessionInfo;
  children: TreeNode[];
  latest: number;
}

/** Sessions nested under their parent session (when listed), subtrees ordered by latest activity. */
export function threadSessions(sessions: readonly SessionInfo[]): SessionRow[] {
  const byPath = new Map<string, TreeNode>();
  for (const session of sessions) {
    byPath.set(session.path, { session, children: [], latest: session.modified.getTime() });
  }
  const roots: TreeNode[] = [];
  for (const session of sessions) {
    const node = byPath.get(session.path)!;
    const parent = session.parentSessionPath ? byPath.get(session.parentSessionPath) : undefined;
    if (parent && parent !== node) parent.children.push(node);
    else roots.push(node);
  }
  const latest = (node: TreeNode): number => {
    for (const child of node.children) node.latest = Math.max(node.latest, latest(child));
    return node.latest;
  };
  const order = (nodes: TreeNode[]) => {
    nodes.sort((a, b) => b.latest - a.latest);
    for (const node of nodes) order(node.children);
  };
  for (const root of roots) latest(root);
  order(roots);
  const rows: SessionRow[] = [];
  const walk = (node: TreeNode, depth: number, ancestorContinues: boolean[], isLast: boolean) => {
    rows.push({ session: node.session, depth, isLast, ancestorContinues });
    node.children.forEach((child, i) => {
      // Roots draw no continuation line.
      walk(
        child,
        depth + 1,
        [...ancestorContinues, depth > 0 ? !isLast : false],
        i === node.children.length - 1,
      );
    });
  };
  roots.forEach((root, i) => walk(root, 0, [], i === roots.length - 1));
  return rows;
}

function treePrefix(row: SessionRow): string {
  if (row.depth === 0) return "";
  return row.ancestorContinues.map((c) => (c ? "│  " : "   ")).join("") + (row.isLast ? "└─ " : "├─ ");
}

/** What the list reports to the picker around it. */
export interface SessionListEvents {
  onSelect(path: string): void;
  onCancel(): void;
  onToggleScope(): void;
  onToggleSort(): void;
  onToggleNameFilter(): void;
  onTogglePath(showPath: boolean): void;
  onDeleteConfirmationChange(path: string | null): void;
  onDelete(path: string): void;
  onRename(path: string): void;
  onError(message: string): void;
}

/** The search field and the rows; takes the picker's keys. */
export class SessionList implements Component, Focusable {
  readonly search = new Input();
  #sessions: SessionInfo[] = [];
  #rows: SessionRow[] = [];
  #selected = 0;
  #showCwd = false;
  #showPath = false;
  #sortMode: SessionSortMode = "threaded";
  #nameFilter: SessionNameFilter = "all";
  #confirmingDelete: string | null = null;
  #focused = false;
  /** The user moved the selection: a reloaded list keeps it on the same session. */
  #touched = false;

  /** A list over no sessions yet; `currentPath` (the open session) cannot be deleted. */
  constructor(
    private readonly theme: Theme,
    private readonly events: SessionListEvents,
    private readonly now: () => number,
    private readonly home: string | undefined,
    private readonly currentPath?: string,
  ) {}

  /** Focus reaches the search field (its cursor). */
  get focused(): boolean {
    return this.#focused;
  }
  set focused(value: boolean) {
    this.#focused = value;
    this.search.focused = value;
  }

  /** The rows shown, in order. */
  get rows(): readonly SessionRow[] {
    return this.#rows;
  }

  /** The highlighted session's file. */
  selectedPath(): string | undefined {
    return this.#rows[this.#selected]?.session.path;
  }

  /**
   * Replaces the sessions; `showCwd` in the "all" scope. A selection the user moved stays on its
   * session (or its row, when that session is gone); otherwise the top row is selected.
   */
  setSessions(sessions: SessionInfo[], showCwd: boolean): void {
    const keep = this.#touched ? this.selectedPath() : undefined;
    this.#sessions = sessions;
    this.#showCwd = showCwd;
    this.#filter();
    if (!this.#touched) this.#selected = 0;
    else if (keep) {
      const index = this.#rows.findIndex((r) => r.session.path === keep);
      if (index >= 0) this.#selected = index;
    }
  }

  /** Sets the order and filters again. */
  setSortMode(mode: SessionSortMode): void {
    this.#sortMode = mode;
    this.#filter();
  }

  /** Sets the named-only filter and filters again. */
  setNameFilter(filter: SessionNameFilter): void {
    this.#nameFilter = filter;
    this.#filter();
  }

  #filter(): void {
    const query = this.search.getValue();
    const named = this.#nameFilter === "all" ? this.#sessions : this.#sessions.filter(hasSessionName);
    this.#rows = this.#sortMode === "threaded" && !query.trim()
      ? threadSessions(named)
      : filterAndSortSessions(named, query, this.#sortMode).map((session) => ({
        session,
        depth: 0,
        isLast: true,
        ancestorContinues: [],
      }));
    this.#selected = Math.min(this.#selected, Math.max(0, this.#rows.length - 1));
  }

  invalidate(): void {}

  render(width: number): string[] {
    const theme = this.theme;
    const lines = [...this.search.render(width), ""];
    if (this.#rows.length === 0) {
      lines.push(theme.fg("muted", truncateToWidth(this.#emptyText(), width, "…")));
      return lines;
    }
    const count = this.#rows.length;
    const start = Math.max(0, Math.min(this.#selected - Math.floor(VISIBLE / 2), count - VISIBLE));
    const end = Math.min(start + VISIBLE, count);
    for (let i = start; i < end; i++) lines.push(this.#renderRow(this.#rows[i], i === this.#selected, width));
    if (start > 0 || end < count) {
      lines.push(theme.fg("muted", truncateToWidth(`  (${this.#selected + 1}/${count})`, width, "")));
    }
    return lines;
  }

  #emptyText(): string {
    if (this.#nameFilter === "named") {
      const key = SESSION_KEYS["app.session.toggleNamedFilter"];
      return this.#showCwd
        ? `  No named sessions found. Press ${key} to show all.`
        : `  No named sessions in current folder. Press ${key} to show all, or Tab to view all.`;
    }
    return this.#showCwd ? "  No sessions found" : "  No sessions in current folder. Press Tab to view all.";
  }

  #renderRow(row: SessionRow, selected: boolean, width: number): string {
    const theme = this.theme;
    const session = row.session;
    const deleting = session.path === this.#confirmingDelete;
    const prefix = treePrefix(row);
    // Control characters (a pasted newline in a first message) would break the row: each is a space.
    const text = (session.name ?? session.firstMessage).replace(CONTROL_CHARS, " ").trim();
    let right = `${session.messageCount} ${formatSessionAge(session.modified, this.now())}`;
    if (this.#showCwd && session.cwd) right = `${formatCwdForFooter(session.cwd, this.home)} ${right}`;
    if (this.#showPath) right = `${formatCwdForFooter(session.path, this.home)} ${right}`;
    const room = width - 2 - visibleWidth(prefix) - (visibleWidth(right) + 2);
    const shown = truncateToWidth(text, Math.max(10, room), "…");
    const color = deleting
      ? "error"
      : this.#isCurrent(session.path)
      ? "accent"
      : session.name
      ? "warning"
      : undefined;
    let styled = color ? theme.fg(color, shown) : shown;
    if (selected) styled = theme.bold(styled);
    const left = (selected ? theme.fg("accent", "› ") : "  ") + theme.fg("dim", prefix) + styled;
    const gap = Math.max(1, width - visibleWidth(left) - visibleWidth(right));
    let line = left + " ".repeat(gap) + theme.fg(deleting ? "error" : "dim", right);
    if (selected) line = theme.bg("selectedBg", line);
    return truncateToWidth(line, width);
  }

  #isCurrent(path: string): boolean {
    return this.currentPath !== undefined && path === this.currentPath;
  }

  #setConfirmingDelete(path: string | null): void {
    this.#confirmingDelete = path;
    this.events.onDeleteConfirmationChange(path);
  }

  #askDelete(): void {
    const row = this.#rows[this.#selected];
    if (!row) return;
    if (this.#isCurrent(row.session.path)) {
      this.events.onError("Cannot delete the currently active session");
      return;
    }
    this.#setConfirmingDelete(row.session.path);
  }

  handleInput(data: string): void {
    const kb = getKeybindings();
    if (this.#confirmingDelete !== null) {
      // Only confirm or cancel while a deletion is asked.
      if (kb.matches(data, "tui.select.confirm")) {
        const path = this.#confirmingDelete;
        this.#setConfirmingDelete(null);
        this.events.onDelete(path);
      } else if (kb.matches(data, "tui.select.cancel")) {
        this.#setConfirmingDelete(null);
      }
      return;
    }
    if (kb.matches(data, "tui.input.tab")) return this.events.onToggleScope();
    if (matchesAction(data, "app.session.toggleSort")) return this.events.onToggleSort();
    if (matchesAction(data, "app.session.toggleNamedFilter")) {
      return this.events.onToggleNameFilter();
    }
    if (matchesAction(data, "app.session.togglePath")) {
      this.#showPath = !this.#showPath;
      return this.events.onTogglePath(this.#showPath);
    }
    if (matchesAction(data, "app.session.delete")) return this.#askDelete();
    if (matchesAction(data, "app.session.rename")) {
      const row = this.#rows[this.#selected];
      if (row) this.events.onRename(row.session.path);
      return;
    }
    if (matchesAction(data, "app.session.deleteNoninvasive")) {
      // With a query typed it is the word-deleting key of the search field.
      if (this.search.getValue().length === 0) return this.#askDelete();
    }
    this.#touched = true;
    const count = this.#rows.length;
    if (kb.matches(data, "tui.select.up")) {
      this.#selected = Math.max(0, this.#selected - 1);
    } else if (kb.matches(data, "tui.select.down")) {
      this.#selected = Math.max(0, Math.min(count - 1, this.#selected + 1));
    } else if (kb.matches(data, "tui.select.pageUp")) {
      this.#selected = Math.max(0, this.#selected - VISIBLE);
    } else if (kb.matches(data, "tui.select.pageDown")) {
      this.#selected = Math.max(0, Math.min(count - 1, this.#selected + VISIBLE));
    } else if (kb.matches(data, "tui.select.confirm")) {
      const row = this.#rows[this.#selected];
      if (row) this.events.onSelect(row.session.path);
    } else if (kb.matches(data, "tui.select.cancel")) {
      this.events.onCancel();
    } else {
      this.#typeInSearch(data);
    }
  }

  /** A key for the search field; a changed, non-empty query selects the best match (the top row). */
  #typeInSearch(data: string): void {
    const before = this.search.getValue();
    this.search.handleInput(data);
    const query = this.search.getValue();
    if (query === before) return;
    this.#filter();
    if (!query.trim()) return;
    this.#selected = 0;
    this.#touched = false;
  }
}
