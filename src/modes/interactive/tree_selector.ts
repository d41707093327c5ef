/**
 * The /tree navigator of pi 1.6.0: the session tree between borders under a "Session Tree"
 * heading, its key help and a search line. Rows show the tree's connectors (`├─`, `└─`, `│`,
 * `⊟`/`⊞` on foldable and folded segments), `•` on the path to the current leaf, `[label]`s and
 * the entry's text; a position line `(N/M)` with the filter's tag closes the list. Up/down move
 * (wrapping), left/right page, Ctrl+←/→ fold or jump between branch segments, typing searches,
 * Ctrl+D/T/U/L/A and Ctrl+O (Shift+Ctrl+O back) pick a filter, Shift+L edits a label, Shift+T
 * shows label times, Ctrl+X copies, Enter selects, Escape clears the search or closes.
 *
 * @module
 */
import {
  type Component,
  Container,
  CURSOR_MARKER,
  type Focusable,
  getKeybindings,
  Input,
  type Keybinding,
  sliceByColumn,
  Spacer,
  Text,
  truncateToWidth,
  visibleWidth,
  wrapTextWithAnsi,
} from "../../tui/mod.ts";
import type { SessionTreeNode } from "../../session/entries.ts";
import { APP_KEYS, type AppAction, matchesAction } from "./app_keys.ts";
import { BorderLine } from "./model_selector.ts";
import type { Theme } from "./theme.ts";
import { entryCopyText, entryRowText, formatLabelTime } from "./tree_entry_text.ts";
import { TREE_FILTERS, type TreeFilter, TreeList, type TreeRow } from "./tree_list.ts";

/** Columns of the selection marker (`› `), never scrolled away. */
const GUTTER_WIDTH = 2;

/** What the navigator reports. */
export interface TreeSelectorCallbacks {
  /** Enter on a row. */
  onSelect: (entryId: string) => void;
  /** Escape with no search typed. */
  onCancel: () => void;
  /** A label saved (undefined: removed). */
  onLabelChange: (entryId: string, label: string | undefined) => void;
  /** The copy key: the selected entry's text, undefined when it has none. */
  onCopy: (text: string | undefined) => void;
}

/** A drawn row before horizontal scrolling. */
interface DrawnRow {
  gutter: string;
  body: string;
  /** Where the entry's text starts (after the tree's indentation). */
  anchor: number;
  selected: boolean;
}

/**
 * Fits rows into `width`: the marker column stays, and the bodies shift left only when the
 * selected row's text would start too far right to show some of it (deep trees).
 */
function fitRows(rows: DrawnRow[], width: number): string[] {
  const view = Math.max(0, width - GUTTER_WIDTH);
  const widest = rows.reduce((max, r) => Math.max(max, visibleWidth(r.body)), 0);
  const maxScroll = Math.max(0, widest - view);
  const selected = rows.find((r) => r.selected);
  let scroll = 0;
  if (selected && maxScroll > 0) {
    const keepVisible = Math.min(20, Math.max(4, Math.floor(view / 3)));
    if (selected.anchor > view - keepVisible) {
      const context = Math.min(12, Math.max(2, Math.floor(view / 4)));
      scroll = Math.min(maxScroll, selected.anchor - context);
    }
  }
  return rows.map((r) => {
    const line = scroll > 0
      ? `${r.gutter}${sliceByColumn(r.body, scroll, view, true)}\x1b[0m`
      : r.gutter + r.body;
    return truncateToWidth(line, width, "");
  });
}

/** The list of rows (the part that takes the keys while no label is edited). */
class TreeView implements Component {
  showLabelTimes = false;

  constructor(
    private readonly theme: Theme,
    readonly list: TreeList,
    private readonly maxRows: number,
    private readonly callbacks: TreeSelectorCallbacks & { onEditLabel: (id: string, label?: string) => void },
    private readonly home?: string,
  ) {}

  invalidate(): void {}

  #tags(): string {
    const tag: Partial<Record<TreeFilter, string>> = {
      "no-tools": " [no-tools]",
      "user-only": " [user]",
      "labeled-only": " [labeled]",
      all: " [all]",
    };
    return (tag[this.list.filter] ?? "") + (this.showLabelTimes ? " [+label time]" : "");
  }

  render(width: number): string[] {
    const { theme, list } = this;
    const muted = (t: string) => truncateToWidth(theme.fg("muted", t), width);
    if (list.rows.length === 0) return [muted("  No entries found"), muted(`  (0/0)${this.#tags()}`)];
    const count = list.rows.length;
    const start = Math.max(0, Math.min(list.selected - Math.floor(this.maxRows / 2), count - this.maxRows));
    const end = Math.min(start + this.maxRows, count);
    const drawn: DrawnRow[] = [];
    for (let i = start; i < end; i++) drawn.push(this.#row(list.rows[i], i === list.selected));
    return [...fitRows(drawn, width), muted(`  (${list.selected + 1}/${count})${this.#tags()}`)];
  }

  #row(row: TreeRow, selected: boolean): DrawnRow {
    const { theme, list } = this;
    const id = row.node.entry.id;
    const displayIndent = list.multipleRoots ? Math.max(0, row.indent - 1) : row.indent;
    const hasConnector = row.showConnector && !row.isVirtualRootChild;
    const connectorLevel = hasConnector ? displayIndent - 1 : -1;
    const folded = list.folded.has(id);
    let prefix = "";
    for (let level = 0; level < displayIndent; level++) {
      const gutter = row.gutters.find((g) => g.position === level);
      if (gutter) prefix += `${gutter.show ? "│" : " "}  `;
      else if (level === connectorLevel) {
        const mark = folded ? "⊞" : list.isFoldable(id) ? "⊟" : "─";
        prefix += `${row.isLast ? "└" : "├"}${mark} `;
      } else prefix += "   ";
    }
    const foldMark = folded && !hasConnector ? theme.fg("accent", "⊞ ") : "";
    const pathMark = list.onActivePath(id) ? theme.fg("accent", "• ") : "";
    const node: SessionTreeNode = row.node;
    const label = node.label ? theme.fg("warning", `[${node.label}] `) : "";
    const time = this.showLabelTimes && node.label && node.labelTimestamp
      ? theme.fg("muted", `${formatLabelTime(node.labelTimestamp)} `)
      : "";
    const head = theme.fg("dim", prefix) + foldMark + pathMark;
    let gutter = selected ? theme.fg("accent", "› ") : "  ";
    let body = head + label + time + entryRowText(theme, node, selected, list.toolCalls, this.home);
    if (selected) {
      gutter = theme.bg("selectedBg", gutter);
      body = theme.bg("selectedBg", body);
    }
    return { gutter, body, anchor: visibleWidth(head), selected };
  }

  handleInput(data: string): void {
    const { list } = this;
    const kb = getKeybindings();
    const count = list.rows.length;
    const refilter = () => {
      list.folded.clear();
      list.applyFilter();
    };
    const toggle = (filter: TreeFilter) => {
      list.filter = list.filter === filter ? "default" : filter;
      refilter();
    };
    const cycle = (step: number) => {
      const at = TREE_FILTERS.indexOf(list.filter);
      list.filter = TREE_FILTERS[(at + step + TREE_FILTERS.length) % TREE_FILTERS.length];
      refilter();
    };
    const id = list.selectedRow?.node.entry.id;
    if (kb.matches(data, "tui.select.up")) {
      list.selected = list.selected === 0 ? count - 1 : list.selected - 1;
    } else if (kb.matches(data, "tui.select.down")) {
      list.selected = list.selected === count - 1 ? 0 : list.selected + 1;
    } else if (matchesAction(data, "app.tree.foldOrUp")) {
      if (id && list.isFoldable(id) && !list.folded.has(id)) {
        list.folded.add(id);
        list.applyFilter();
      } else list.selected = list.segmentStart("up");
    } else if (matchesAction(data, "app.tree.unfoldOrDown")) {
      if (id && list.folded.has(id)) {
        list.folded.delete(id);
        list.applyFilter();
      } else list.selected = list.segmentStart("down");
    } else if (kb.matches(data, "tui.editor.cursorLeft") || kb.matches(data, "tui.select.pageUp")) {
      list.selected = Math.max(0, list.selected - this.maxRows);
    } else if (kb.matches(data, "tui.editor.cursorRight") || kb.matches(data, "tui.select.pageDown")) {
      list.selected = Math.min(count - 1, list.selected + this.maxRows);
    } else if (kb.matches(data, "tui.select.confirm")) {
      if (id) this.callbacks.onSelect(id);
    } else if (matchesAction(data, "app.message.copy")) {
      this.callbacks.onCopy(list.selectedRow ? entryCopyText(list.selectedRow.node) : undefined);
    } else if (kb.matches(data, "tui.select.cancel")) {
      if (list.search) {
        list.search = "";
        refilter();
      } else this.callbacks.onCancel();
    } else if (matchesAction(data, "app.tree.filter.default")) {
      list.filter = "default";
      refilter();
    } else if (matchesAction(data, "app.tree.filter.noTools")) toggle("no-tools");
    else if (matchesAction(data, "app.tree.filter.userOnly")) toggle("user-only");
    else if (matchesAction(data, "app.tree.filter.labeledOnly")) toggle("labeled-only");
    else if (matchesAction(data, "app.tree.filter.all")) toggle("all");
    else if (matchesAction(data, "app.tree.filter.cycleBackward")) cycle(-1);
    else if (matchesAction(data, "app.tree.filter.cycleForward")) cycle(1);
    else if (kb.matches(data, "tui.editor.deleteCharBackward")) {
      if (list.search) {
        list.search = list.search.slice(0, -1);
        refilter();
      }
    } else if (matchesAction(data, "app.tree.editLabel")) {
      if (list.selectedRow) {
        this.callbacks.onEditLabel(list.selectedRow.node.entry.id, list.selectedRow.node.label);
      }
    } else if (matchesAction(data, "app.tree.toggleLabelTimestamp")) {
      this.showLabelTimes = !this.showLabelTimes;
    } else if (data.length > 0 && ![...data].some((ch) => isControl(ch.charCodeAt(0)))) {
      list.search += data;
      refilter();
    }
  }
}

const isControl = (code: number) => code < 32 || code === 0x7f || (code >= 0x80 && code <= 0x9f);

/** "  Type to search: query", with the cursor drawn after it while the navigator has focus. */
class SearchLine implements Component {
  focused = false;
  constructor(private readonly theme: Theme, private readonly list: TreeList) {}
  invalidate(): void {}
  render(width: number): string[] {
    if (width <= 0) return [""];
    const query = this.list.search;
    const line = `  ${this.theme.fg("muted", "Type to search:")} ${
      query ? this.theme.fg("accent", query) : ""
    }`;
    if (!this.focused) return [truncateToWidth(line, width)];
    return [`${truncateToWidth(line, Math.max(0, width - 1))}${CURSOR_MARKER}\x1b[7m \x1b[27m`];
  }
}

/** A key id as help shows it: arrows as `↑↓←→`, page keys as pgup/pgdn. */
function helpKeyName(key: string): string {
  return key.replace(/\bpageUp\b/g, "pgup").replace(/\bpageDown\b/g, "pgdn").replace(/\bup\b/g, "↑")
    .replace(/\bdown\b/g, "↓").replace(/\bleft\b/g, "←").replace(/\bright\b/g, "→");
}

/** The first key of each binding, sharing a modifier prefix when all have the same (`ctrl+d/t/u`). */
function helpKeys(bindings: readonly string[]): string {
  const kb = getKeybindings();
  const keys = bindings.map((b): string | undefined =>
    b.startsWith("app.") ? APP_KEYS[b as AppAction]?.[0] : kb.getKeys(b as Keybinding)[0]
  ).filter((k): k is string => k !== undefined);
  if (keys.length === 0) return "";
  const parts = keys.map((k) => {
    const cut = k.lastIndexOf("+");
    return cut === -1 ? { prefix: "", suffix: k } : { prefix: k.slice(0, cut + 1), suffix: k.slice(cut + 1) };
  });
  const prefix = parts[0].prefix;
  const joined = keys.length > 1 && prefix && parts.every((p) => p.prefix === prefix)
    ? `${prefix}${parts.map((p) => p.suffix).join("/")}`
    : keys.join("/");
  return helpKeyName(joined);
}

/** The help rows' items: keys, what they do, and whether the words come first. */
const HELP: readonly [readonly string[], string, boolean?][] = [
  [["tui.select.up", "tui.select.down"], "move"],
  [["tui.editor.cursorLeft", "tui.editor.cursorRight"], "page"],
  [["app.tree.foldOrUp", "app.tree.unfoldOrDown"], "branch"],
  [["app.message.copy"], "copy"],
  [["app.tree.editLabel"], "label"],
  [["app.tree.toggleLabelTimestamp"], "label time"],
  [
    [
      "app.tree.filter.default",
      "app.tree.filter.noTools",
      "app.tree.filter.userOnly",
      "app.tree.filter.labeledOnly",
      "app.tree.filter.all",
    ],
    "filters",
    true,
  ],
  [["app.tree.filter.cycleForward", "app.tree.filter.cycleBackward"], "cycle", true],
];

/** The key help, `·`-separated, wrapped at item boundaries. */
class TreeHelp implements Component {
  constructor(private readonly theme: Theme) {}
  invalidate(): void {}
  render(width: number): string[] {
    const items = HELP.map(([keys, label, first]) => {
      const text = helpKeys(keys);
      return !text ? label : first ? `${label} ${text}` : `${text} ${label}`;
    });
    const available = Math.max(1, width);
    const indented = (item: string) => visibleWidth(`  ${item}`) <= available ? `  ${item}` : item;
    const lines: string[] = [];
    let current = "";
    for (const item of items) {
      const candidate = current ? `${current} · ${item}` : indented(item);
      if (!current || visibleWidth(candidate) <= available) {
        current = candidate;
        continue;
      }
      lines.push(...wrapTextWithAnsi(current.trimEnd(), available));
      current = indented(item);
    }
    if (current) lines.push(...wrapTextWithAnsi(current.trimEnd(), available));
    return lines.map((l) => this.theme.fg("muted", l));
  }
}

/** "Label (empty to remove):" and a one-line input, Enter saves, Escape cancels. */
class LabelInput implements Component, Focusable {
  readonly input = new Input();
  #focused = false;

  constructor(
    private readonly theme: Theme,
    readonly entryId: string,
    current: string | undefined,
    private readonly onSubmit: (id: string, label: string | undefined) => void,
    private readonly onCancel: () => void,
  ) {
    if (current) this.input.setValue(current);
  }

  get focused(): boolean {
    return this.#focused;
  }

  set focused(value: boolean) {
    this.#focused = value;
    this.input.focused = value;
  }

  invalidate(): void {}

  render(width: number): string[] {
    const t = this.theme;
    const hint = (key: string, what: string) => t.fg("dim", key) + t.fg("muted", ` ${what}`);
    const kb = getKeybindings();
    const keys = (b: Keybinding) => kb.getKeys(b).join("/");
    return [
      truncateToWidth(`  ${t.fg("muted", "Label (empty to remove):")}`, width),
      ...this.input.render(width - 2).map((l) => truncateToWidth(`  ${l}`, width)),
      truncateToWidth(
        `  ${hint(keys("tui.select.confirm"), "save")}  ${hint(keys("tui.select.cancel"), "cancel")}`,
        width,
      ),
    ];
  }

  handleInput(data: string): void {
    const kb = getKeybindings();
    if (kb.matches(data, "tui.select.confirm")) {
      this.onSubmit(this.entryId, this.input.getValue().trim() || undefined);
    } else if (kb.matches(data, "tui.select.cancel")) this.onCancel();
    else this.input.handleInput(data);
  }
}

/** Options of {@link TreeSelector}. */
export interface TreeSelectorOptions extends TreeSelectorCallbacks {
  /** The terminal's rows: half of them (at least 5) list entries. */
  terminalRows: number;
  /** The filter to start with (the treeFilterMode setting). */
  filter?: TreeFilter;
  /** The entry to select first (default: the current leaf). */
  selectId?: string;
  /** The home folder, shortened to `~` in tool rows. */
  home?: string;
}

/** The /tree navigator. */
export class TreeSelector extends Container implements Focusable {
  readonly #view: TreeView;
  readonly #search: SearchLine;
  readonly #treeSlot = new Container();
  readonly #labelSlot = new Container();
  #label?: LabelInput;
  #focused = false;

  /** A navigator over `roots` with `leafId` current. */
  constructor(
    private readonly theme: Theme,
    roots: readonly SessionTreeNode[],
    leafId: string | null,
    options: TreeSelectorOptions,
  ) {
    super();
    const list = new TreeList(roots, leafId, options.filter, options.selectId);
    this.#view = new TreeView(theme, list, Math.max(5, Math.floor(options.terminalRows / 2)), {
      ...options,
      onEditLabel: (id, label) => this.#editLabel(id, label, options.onLabelChange),
    }, options.home);
    this.#search = new SearchLine(theme, list);
    this.#treeSlot.addChild(this.#view);
    for (
      const child of [
        new Spacer(1),
        new BorderLine(theme),
        new Text(theme.bold("  Session Tree"), 1, 0),
        new TreeHelp(theme),
        this.#search,
        new BorderLine(theme),
        new Spacer(1),
        this.#treeSlot,
        this.#labelSlot,
        new Spacer(1),
        new BorderLine(theme),
      ]
    ) this.addChild(child);
  }

  /** The rows' model (tests, and the host's label bookkeeping). */
  get list(): TreeList {
    return this.#view.list;
  }

  get focused(): boolean {
    return this.#focused;
  }

  /** Focus goes to the label input while one is open, else to the search line's cursor. */
  set focused(value: boolean) {
    this.#focused = value;
    this.#search.focused = value && !this.#label;
    if (this.#label) this.#label.focused = value;
  }

  #editLabel(
    id: string,
    current: string | undefined,
    onChange: TreeSelectorCallbacks["onLabelChange"],
  ): void {
    const close = () => {
      this.#label = undefined;
      this.focused = this.#focused;
      this.#labelSlot.clear();
      this.#treeSlot.clear();
      this.#treeSlot.addChild(this.#view);
    };
    this.#label = new LabelInput(this.theme, id, current, (entryId, label) => {
      this.list.setLabel(entryId, label);
      onChange(entryId, label);
      close();
    }, close);
    this.focused = this.#focused;
    this.#treeSlot.clear();
    this.#labelSlot.clear();
    this.#labelSlot.addChild(this.#label);
  }

  /** Keys go to the label input while one is open, else to the tree. */
  handleInput(data: string): void {
    if (this.#label) this.#label.handleInput(data);
    else this.#view.handleInput(data);
  }
}
