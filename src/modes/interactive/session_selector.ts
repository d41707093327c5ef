/**
 * The session picker of pi 1.6.0 (`pi -r` at start-up, `/resume` in a session): a heading with
 * the scope (current folder or all projects), the name filter and the order; key hints; then the
 * searchable list (session_list.ts). Tab switches the scope (each scope is loaded once, when first
 * shown), Ctrl+S cycles the order (threaded, recent, fuzzy), Ctrl+N shows named sessions only,
 * Ctrl+P shows file paths, Ctrl+D deletes (after a confirmation; never the open session), Ctrl+R
 * renames (in a session only), Enter resumes, Escape cancels.
 *
 * @module
 */
import {
  type Component,
  Container,
  type Focusable,
  getKeybindings,
  Input,
  type Keybinding,
  Spacer,
  Text,
  truncateToWidth,
  visibleWidth,
} from "../../tui/mod.ts";
import { deleteSessionFile, type SessionInfo, type SessionListLoaders } from "../../core/session_listing.ts";
import { SESSION_KEYS, SessionList } from "./session_list.ts";
import type { SessionNameFilter, SessionSortMode } from "./session_search.ts";
import type { Theme } from "./theme.ts";

type Scope = "current" | "all";

/** What a picker is opened with. */
export interface SessionSelectorOptions {
  /** Where the sessions come from. */
  loaders: SessionListLoaders;
  /** The chosen session file. */
  onSelect(path: string): void;
  /** Escape (or Ctrl+C). */
  onCancel(): void;
  /** Asks for a frame (loads finish and notices expire between keys). */
  requestRender(): void;
  /** Renames a session; without it Ctrl+R does nothing and its hint is not shown (start-up). */
  renameSession?: (path: string, name: string) => Promise<void> | void;
  /** The open session's file: shown in the accent colour and never deleted. */
  currentSessionPath?: string;
  /** The clock for the rows' ages (tests pass a fixed one). */
  now?: () => number;
  /** The home folder, written `~` in paths. */
  home?: string;
}

/** The keys of `binding` as hints show them (`escape/ctrl+c`). */
function keysOf(binding: Keybinding): string {
  return getKeybindings().getKeys(binding).join("/");
}

/** A full-width rule in the accent colour (1.6.0's DynamicBorder). */
class AccentRule implements Component {
  constructor(private readonly theme: Theme) {}
  invalidate(): void {}
  render(width: number): string[] {
    return [this.theme.fg("accent", "─".repeat(Math.max(1, width)))];
  }
}

/** The heading: title and state on one row, then two rows of key hints (or a notice). */
class SelectorHeading implements Component {
  scope: Scope = "current";
  sortMode: SessionSortMode = "threaded";
  nameFilter: SessionNameFilter = "all";
  loading = false;
  progress: { loaded: number; total: number } | null = null;
  showPath = false;
  confirmingDelete = false;
  #notice: { error: boolean; text: string } | null = null;
  #timer?: ReturnType<typeof setTimeout>;

  constructor(
    private readonly theme: Theme,
    private readonly showRenameHint: boolean,
    private readonly requestRender: () => void,
  ) {}

  /** Shows `text` instead of the hints for `ms` milliseconds (until replaced when undefined). */
  notify(notice: { error: boolean; text: string } | null, ms?: number): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#notice = notice;
    if (!notice || !ms) return;
    this.#timer = setTimeout(() => {
      this.#notice = null;
      this.#timer = undefined;
      this.requestRender();
    }, ms);
  }

  invalidate(): void {}

  render(width: number): string[] {
    const t = this.theme;
    const title = t.bold(
      this.scope === "current" ? "Resume Session (Current Folder)" : "Resume Session (All)",
    );
    const sort = this.sortMode === "threaded" ? "Threaded" : this.sortMode === "recent" ? "Recent" : "Fuzzy";
    const sortText = t.fg("muted", "Sort: ") + t.fg("accent", sort);
    const nameText = t.fg("muted", "Name: ") + t.fg("accent", this.nameFilter === "all" ? "All" : "Named");
    let scopeText: string;
    if (this.loading) {
      const progress = this.progress ? `${this.progress.loaded}/${this.progress.total}` : "...";
      scopeText = t.fg("muted", "○ Current Folder | ") + t.fg("accent", `Loading ${progress}`);
    } else if (this.scope === "current") {
      scopeText = t.fg("accent", "◉ Current Folder") + t.fg("muted", " | ○ All");
    } else {
      scopeText = t.fg("muted", "○ Current Folder | ") + t.fg("accent", "◉ All");
    }
    const right = truncateToWidth(`${scopeText}  ${nameText}  ${sortText}`, width, "");
    const left = truncateToWidth(title, Math.max(0, width - visibleWidth(right) - 1), "");
    const first = left + " ".repeat(Math.max(0, width - visibleWidth(left) - visibleWidth(right))) + right;
    if (this.confirmingDelete) {
      const hint = `Delete session? ${this.#hint("tui.select.confirm", "confirm")} · ${
        this.#hint("tui.select.cancel", "cancel")
      }`;
      return [first, t.fg("error", truncateToWidth(hint, width, "…")), ""];
    }
    if (this.#notice) {
      return [
        first,
        t.fg(this.#notice.error ? "error" : "accent", truncateToWidth(this.#notice.text, width, "…")),
        "",
      ];
    }
    const sep = t.fg("muted", " · ");
    const hint1 = this.#hint("tui.input.tab", "scope") + sep +
      t.fg("muted", 're:<pattern> regex · "phrase" exact');
    const parts = [
      this.#raw(SESSION_KEYS["app.session.toggleSort"], "sort"),
      this.#raw(SESSION_KEYS["app.session.toggleNamedFilter"], "named"),
      this.#raw(SESSION_KEYS["app.session.delete"], "delete"),
      this.#raw(SESSION_KEYS["app.session.togglePath"], `path ${this.showPath ? "(on)" : "(off)"}`),
    ];
    if (this.showRenameHint) parts.push(this.#raw(SESSION_KEYS["app.session.rename"], "rename"));
    return [first, truncateToWidth(hint1, width, "…"), truncateToWidth(parts.join(sep), width, "…")];
  }

  #hint(binding: Keybinding, text: string): string {
    return this.#raw(keysOf(binding), text);
  }

  #raw(keys: string, text: string): string {
    return this.theme.fg("dim", keys) + this.theme.fg("muted", ` ${text}`);
  }
}

/** The session picker. */
export class SessionSelector extends Container implements Focusable {
  readonly list: SessionList;
  readonly #heading: SelectorHeading;
  readonly #sessions: Record<Scope, SessionInfo[] | null> = { current: null, all: null };
  /** The load under way per scope (a token: a newer load or closing makes older results stale). */
  readonly #loads: Record<Scope, object | null> = { current: null, all: null };
  #scope: Scope = "current";
  #sortMode: SessionSortMode = "threaded";
  #nameFilter: SessionNameFilter = "all";
  #renaming: { path: string; input: Input } | null = null;
  #focused = false;
  #closed = false;

  /** Builds the picker and starts loading the current folder's sessions. */
  constructor(private readonly theme: Theme, private readonly options: SessionSelectorOptions) {
    super();
    this.#heading = new SelectorHeading(theme, options.renameSession !== undefined, options.requestRender);
    const close = () => {
      this.#closed = true;
      this.#heading.notify(null);
    };
    this.list = new SessionList(
      theme,
      {
        onSelect: (path) => {
          close();
          options.onSelect(path);
        },
        onCancel: () => {
          close();
          options.onCancel();
        },
        onToggleScope: () => this.#toggleScope(),
        onToggleSort: () => {
          this.#sortMode = this.#sortMode === "threaded"
            ? "recent"
            : this.#sortMode === "recent"
            ? "relevance"
            : "threaded";
          this.#heading.sortMode = this.#sortMode;
          this.list.setSortMode(this.#sortMode);
          options.requestRender();
        },
        onToggleNameFilter: () => {
          this.#nameFilter = this.#nameFilter === "all" ? "named" : "all";
          this.#heading.nameFilter = this.#nameFilter;
          this.list.setNameFilter(this.#nameFilter);
          options.requestRender();
        },
        onTogglePath: (show) => {
          this.#heading.showPath = show;
          options.requestRender();
        },
        onDeleteConfirmationChange: (path) => {
          this.#heading.confirmingDelete = path !== null;
          options.requestRender();
        },
        onDelete: (path) => void this.#delete(path),
        onRename: (path) => this.#startRename(path),
        onError: (message) => {
          this.#heading.notify({ error: true, text: message }, 3000);
          options.requestRender();
        },
      },
      options.now ?? Date.now,
      options.home,
      options.currentSessionPath,
    );
    this.#layout(this.list, true);
    void this.#load("current");
  }

  /** Focus reaches the search field, or the rename field while renaming. */
  get focused(): boolean {
    return this.#focused;
  }
  set focused(value: boolean) {
    this.#focused = value;
    this.list.focused = value && !this.#renaming;
    if (this.#renaming) this.#renaming.input.focused = value;
  }

  /** Stops the notice timer; a load still running is ignored when it ends. */
  dispose(): void {
    this.#closed = true;
    this.#heading.notify(null);
  }

  #layout(content: Component, withHeading: boolean): void {
    this.clear();
    this.addChild(new Spacer(1));
    this.addChild(new AccentRule(this.theme));
    this.addChild(new Spacer(1));
    if (withHeading) {
      this.addChild(this.#heading);
      this.addChild(new Spacer(1));
    }
    this.addChild(content);
    this.addChild(new Spacer(1));
    this.addChild(new AccentRule(this.theme));
  }

  handleInput(data: string): void {
    if (this.#renaming) {
      if (getKeybindings().matches(data, "tui.select.cancel")) this.#endRename();
      else this.#renaming.input.handleInput(data);
      this.options.requestRender();
      return;
    }
    this.list.handleInput(data);
    this.options.requestRender();
  }

  async #load(scope: Scope): Promise<void> {
    if (this.#loads[scope]) return;
    const token = {};
    this.#loads[scope] = token;
    const active = () => !this.#closed && this.#loads[scope] === token;
    const shown = () => scope === this.#scope;
    this.#heading.scope = this.#scope;
    this.#heading.loading = true;
    this.#heading.progress = null;
    this.options.requestRender();
    const loader = scope === "current" ? this.options.loaders.current : this.options.loaders.all;
    try {
      const sessions = await loader((loaded, total) => {
        if (!active() || !shown()) return;
        this.#heading.progress = { loaded, total };
        this.options.requestRender();
      });
      if (!active()) return;
      this.#loads[scope] = null;
      this.#sessions[scope] = sessions;
      if (!shown()) return;
      this.#heading.loading = false;
      this.list.setSessions(sessions, scope === "all");
    } catch (error) {
      if (!active()) return;
      this.#loads[scope] = null;
      this.#sessions[scope] = null;
      if (!shown()) return;
      this.#heading.loading = false;
      const message = error instanceof Error ? error.message : String(error);
      this.#heading.notify({ error: true, text: `Failed to load sessions: ${message}` }, 4000);
      this.list.setSessions([], scope === "all");
    }
    this.options.requestRender();
  }

  #toggleScope(): void {
    this.#scope = this.#scope === "current" ? "all" : "current";
    const sessions = this.#sessions[this.#scope];
    const loading = this.#loads[this.#scope] !== null;
    this.#heading.scope = this.#scope;
    this.#heading.loading = loading;
    this.#heading.progress = null;
    this.list.setSessions(sessions ?? [], this.#scope === "all");
    this.options.requestRender();
    if (sessions === null && !loading) void this.#load(this.#scope);
  }

  /** Forgets both scopes' lists and loads the shown one again (after a rename or deletion). */
  async #reload(): Promise<void> {
    this.#loads.current = this.#loads.all = null;
    this.#sessions.current = this.#sessions.all = null;
    await this.#load(this.#scope);
  }

  async #delete(path: string): Promise<void> {
    const result = await deleteSessionFile(path);
    if (result.ok) {
      for (const scope of ["current", "all"] as const) {
        this.#sessions[scope] = this.#sessions[scope]?.filter((s) => s.path !== path) ?? null;
      }
      this.list.setSessions(this.#sessions[this.#scope] ?? [], this.#scope === "all");
      this.#heading.notify({ error: false, text: "Session deleted" }, 2000);
      await this.#reload();
    } else {
      this.#heading.notify({ error: true, text: `Failed to delete: ${result.error}` }, 3000);
    }
    this.options.requestRender();
  }

  #startRename(path: string): void {
    if (!this.options.renameSession || this.#loads[this.#scope]) return;
    const session = this.#sessions[this.#scope]?.find((s) => s.path === path);
    const input = new Input();
    input.setValue(session?.name ?? "");
    input.focused = this.#focused;
    input.onSubmit = (value) => void this.#finishRename(value);
    this.#renaming = { path, input };
    this.list.focused = false;
    const panel = new Container();
    panel.addChild(new Text(this.theme.bold("Rename Session"), 1, 0));
    panel.addChild(new Spacer(1));
    panel.addChild(input);
    panel.addChild(new Spacer(1));
    panel.addChild(
      new Text(
        this.theme.fg(
          "muted",
          `${keysOf("tui.select.confirm")} to save · ${keysOf("tui.select.cancel")} to cancel`,
        ),
        1,
        0,
      ),
    );
    this.#layout(panel, false);
  }

  #endRename(): void {
    this.#renaming = null;
    this.list.focused = this.#focused;
    this.#layout(this.list, true);
    this.options.requestRender();
  }

  async #finishRename(value: string): Promise<void> {
    const name = value.trim();
    const renaming = this.#renaming;
    if (!name || !renaming || !this.options.renameSession) return;
    try {
      await this.options.renameSession(renaming.path, name);
      await this.#reload();
    } catch (error) {
      this.#heading.notify({ error: true, text: `Failed to rename: ${(error as Error).message}` }, 3000);
    } finally {
      this.#endRename();
    }
  }
}
