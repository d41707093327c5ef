/**
 * The `pi config` resource selector of pi 1.6.0: a framed list of every extension, skill, prompt
 * template and theme, grouped by source, each with a checkbox. Typing filters; Up/Down/PageUp/
 * PageDown move between resources; Space or Enter toggles (and writes settings.json at once, see
 * config_selector_filters.ts); Tab switches between global and project mode when the project is
 * trusted; Escape or Ctrl+C closes.
 *
 * @module
 */
import {
  type Component,
  Container,
  type Focusable,
  getKeybindings,
  Input,
  matchesKey,
  Spacer,
  truncateToWidth,
  visibleWidth,
} from "../../tui/mod.ts";
import { CONFIG_DIR_NAME } from "../../config/paths.ts";
import type { ConfigGroup, ConfigItem, ConfigSubgroup } from "./config_selector_groups.ts";
import { ResourceFilterWriter, type ResourceSettings } from "./config_selector_filters.ts";
import { BorderLine } from "./model_selector.ts";
import type { Theme } from "./theme.ts";

/** Which settings file the selector writes. */
export type ConfigWriteScope = "global" | "project";

type Row =
  | { type: "group"; group: ConfigGroup }
  | { type: "subgroup"; subgroup: ConfigSubgroup; group: ConfigGroup }
  | { type: "item"; item: ConfigItem };

/** What the selector shows and where it writes. */
export interface ConfigSelectorOptions {
  /** The groups of the global view and of the project view (the same when the project is not trusted). */
  groups: Record<ConfigWriteScope, ConfigGroup[]>;
  settings: ResourceSettings;
  cwd: string;
  agentDir: string;
  writeScope: ConfigWriteScope;
  /** Whether Tab may switch to project mode (the project is trusted). */
  projectModeAvailable: boolean;
  terminalRows: number;
  onClose: () => void;
  requestRender: () => void;
}

class Header implements Component {
  constructor(private readonly theme: Theme, public scope: ConfigWriteScope, private readonly tab: boolean) {}
  invalidate(): void {}
  render(width: number): string[] {
    const t = this.theme;
    const hint = (key: string, text: string) => t.fg("dim", key) + t.fg("muted", ` ${text}`);
    const sep = t.fg("muted", " · ");
    const title = t.bold(this.scope === "project" ? "Project Local Resources" : "Global Resources");
    const keys = getKeybindings().getKeys("tui.input.tab").join("/");
    const hints = (this.tab ? hint(keys, "switch mode") + sep : "") +
      hint("space", this.scope === "project" ? "cycle inherit/+/-" : "toggle") + sep + hint("esc", "close");
    const spacing = Math.max(1, width - visibleWidth(title) - visibleWidth(hints));
    const where = this.scope === "project"
      ? t.fg("muted", `${CONFIG_DIR_NAME}/settings.json · inherited global resources are dimmed`)
      : t.fg("muted", `~/${CONFIG_DIR_NAME}/agent/settings.json`);
    return [
      truncateToWidth(`${title}${" ".repeat(spacing)}${hints}`, width, ""),
      truncateToWidth(where, width, ""),
    ];
  }
}

class ResourceList implements Component, Focusable {
  #focused = false;
  #search = new Input();
  #rows: Row[] = [];
  #shown: Row[] = [];
  #selected = 0;
  readonly #maxVisible: number;
  readonly #writer: ResourceFilterWriter;

  constructor(
    private readonly theme: Theme,
    private readonly options: ConfigSelectorOptions,
    public scope: ConfigWriteScope,
  ) {
    // Eight rows of frame: spacers, borders and the two header rows.
    this.#maxVisible = Math.max(5, options.terminalRows - 8);
    const inherited = new Map<string, boolean>();
    for (const item of allItems(options.groups.global)) {
      inherited.set(ResourceFilterWriter.itemKey(item), item.enabled);
    }
    this.#writer = new ResourceFilterWriter(options.settings, options.cwd, options.agentDir, inherited);
    this.#build();
    this.#shown = [...this.#rows];
  }

  get focused(): boolean {
    return this.#focused;
  }
  set focused(value: boolean) {
    this.#focused = value;
    this.#search.focused = value;
  }

  setScope(scope: ConfigWriteScope): void {
    this.scope = scope;
    this.#build();
    this.#filter(this.#search.getValue());
  }

  #build(): void {
    this.#rows = [];
    for (const group of this.options.groups[this.scope]) {
      this.#rows.push({ type: "group", group });
      for (const subgroup of group.subgroups) {
        this.#rows.push({ type: "subgroup", subgroup, group });
        for (const item of subgroup.items) this.#rows.push({ type: "item", item });
      }
    }
    this.#selected = Math.max(0, this.#rows.findIndex((r) => r.type === "item"));
  }

  #filter(query: string): void {
    const q = query.trim().toLowerCase();
    if (!q) this.#shown = [...this.#rows];
    else {
      const items = new Set<ConfigItem>();
      for (const row of this.#rows) {
        if (row.type !== "item") continue;
        const { item } = row;
        if ([item.displayName, item.kind, item.path].some((text) => text.toLowerCase().includes(q))) {
          items.add(item);
        }
      }
      const hasMatch = (subgroup: ConfigSubgroup) => subgroup.items.some((i) => items.has(i));
      this.#shown = this.#rows.filter((row) =>
        row.type === "item"
          ? items.has(row.item)
          : row.type === "subgroup"
          ? hasMatch(row.subgroup)
          : row.group.subgroups.some(hasMatch)
      );
    }
    this.#selected = Math.max(0, this.#shown.findIndex((r) => r.type === "item"));
  }

  #next(from: number, direction: 1 | -1): number {
    for (let i = from + direction; i >= 0 && i < this.#shown.length; i += direction) {
      if (this.#shown[i].type === "item") return i;
    }
    return from;
  }

  invalidate(): void {}

  render(width: number): string[] {
    const t = this.theme;
    const lines = [...this.#search.render(width), ""];
    if (this.#shown.length === 0) return [...lines, t.fg("muted", "  No resources found")];
    const start = Math.max(
      0,
      Math.min(this.#selected - Math.floor(this.#maxVisible / 2), this.#shown.length - this.#maxVisible),
    );
    const end = Math.min(start + this.#maxVisible, this.#shown.length);
    const project = this.scope === "project";
    for (let i = start; i < end; i++) {
      const row = this.#shown[i];
      if (row.type === "group") {
        const inherited = project && row.group.scope === "user";
        const label = t.bold(`${row.group.label}${inherited ? " · inherited global" : ""}`);
        lines.push(truncateToWidth(`  ${t.fg(inherited ? "dim" : "accent", label)}`, width, ""));
      } else if (row.type === "subgroup") {
        const color = project && row.group.scope === "user" ? "dim" : "muted";
        lines.push(truncateToWidth(`    ${t.fg(color, row.subgroup.label)}`, width, ""));
      } else {
        const { item } = row;
        const selected = i === this.#selected;
        const dimmed = this.#dimmed(item);
        const text = selected && !dimmed ? t.bold(item.displayName) : item.displayName;
        const name = dimmed ? t.fg("dim", text) : text;
        const line = `${selected ? "> " : "  "}    ${this.#checkbox(item)} ${name}${this.#suffix(item)}`;
        lines.push(truncateToWidth(line, width, "..."));
      }
    }
    if (start > 0 || end < this.#shown.length) {
      const count = this.#shown.filter((r) => r.type === "item").length;
      const position = this.#shown.slice(0, this.#selected).filter((r) => r.type === "item").length + 1;
      lines.push(t.fg("dim", `  (${position}/${count})`));
    }
    return lines;
  }

  #checkbox(item: ConfigItem): string {
    const t = this.theme;
    if (this.scope === "project") {
      const state = this.#writer.overrideState(item);
      if (state === "load") return t.fg("success", "[+]");
      if (state === "unload") return t.fg("warning", "[-]");
      return t.fg("dim", item.enabled ? "[x]" : "[ ]");
    }
    return item.enabled ? t.fg("success", "[x]") : t.fg("dim", "[ ]");
  }

  #suffix(item: ConfigItem): string {
    if (this.scope !== "project") return "";
    const state = this.#writer.overrideState(item);
    if (state === "load") return this.theme.fg("muted", "  project load");
    if (state === "unload") return this.theme.fg("muted", "  project unload");
    return this.#writer.isInherited(item) ? this.theme.fg("dim", "  inherited global") : "";
  }

  #dimmed(item: ConfigItem): boolean {
    return this.scope === "project" && this.#writer.isInherited(item) &&
      this.#writer.overrideState(item) === "inherit";
  }

  handleInput(data: string): void {
    const kb = getKeybindings();
    if (kb.matches(data, "tui.select.up")) this.#selected = this.#next(this.#selected, -1);
    else if (kb.matches(data, "tui.select.down")) this.#selected = this.#next(this.#selected, 1);
    else if (kb.matches(data, "tui.select.pageUp")) {
      let target = Math.max(0, this.#selected - this.#maxVisible);
      while (target < this.#shown.length && this.#shown[target].type !== "item") target++;
      if (target < this.#shown.length) this.#selected = target;
    } else if (kb.matches(data, "tui.select.pageDown")) {
      let target = Math.min(this.#shown.length - 1, this.#selected + this.#maxVisible);
      while (target >= 0 && this.#shown[target].type !== "item") target--;
      if (target >= 0) this.#selected = target;
    } else if (kb.matches(data, "tui.select.cancel") || matchesKey(data, "ctrl+c")) this.options.onClose();
    else if (kb.matches(data, "tui.input.tab")) this.onSwitchMode?.();
    else if (data === " " || kb.matches(data, "tui.select.confirm")) this.#toggleSelected();
    else {
      // Everything else edits the search; cursor keys leave the query (and the selection) alone.
      const before = this.#search.getValue();
      this.#search.handleInput(data);
      const after = this.#search.getValue();
      if (after !== before) this.#filter(after);
    }
  }

  /** Set by the selector when project mode is available. */
  onSwitchMode?: () => void;

  #toggleSelected(): void {
    const row = this.#shown[this.#selected];
    if (row?.type !== "item") return;
    const { item } = row;
    // Global mode changes only the user's own resources; the project's are changed in project mode.
    if (this.scope !== "project" && item.metadata.scope !== "user") return;
    let enabled: boolean;
    if (this.scope === "project") {
      const state = this.#writer.nextState(item);
      if (!this.#writer.setOverride(item, state)) return;
      enabled = state === "inherit" ? this.#writer.inheritedState(item) : state === "load";
    } else {
      enabled = !item.enabled;
      this.#writer.toggle(item, enabled);
    }
    item.enabled = enabled;
    this.options.requestRender();
  }
}

function allItems(groups: ConfigGroup[]): ConfigItem[] {
  return groups.flatMap((g) => g.subgroups.flatMap((s) => s.items));
}

/** The selector: frame, header, and the resource list (which takes the keys). */
export class ConfigSelector extends Container implements Focusable {
  #focused = false;
  readonly #header: Header;
  readonly #list: ResourceList;

  constructor(theme: Theme, options: ConfigSelectorOptions) {
    super();
    this.#header = new Header(theme, options.writeScope, options.projectModeAvailable);
    this.#list = new ResourceList(theme, options, options.writeScope);
    if (options.projectModeAvailable) {
      this.#list.onSwitchMode = () => {
        const scope = this.#list.scope === "global" ? "project" : "global";
        this.#header.scope = scope;
        this.#list.setScope(scope);
        options.requestRender();
      };
    }
    for (const child of [new Spacer(1), new BorderLine(theme), new Spacer(1), this.#header, new Spacer(1)]) {
      this.addChild(child);
    }
    this.addChild(this.#list);
    this.addChild(new Spacer(1));
    this.addChild(new BorderLine(theme));
  }

  get focused(): boolean {
    return this.#focused;
  }
  set focused(value: boolean) {
    this.#focused = value;
    this.#list.focused = value;
  }

  /** The component that takes the keys. */
  get list(): Component & Focusable {
    return this.#list;
  }
}
