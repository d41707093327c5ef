/**
 * The /thinking selector of pi 1.6.0: the levels the model has, each with what it means, the
 * current one ticked and the default marked; typing filters, Enter picks for this session,
 * Ctrl+S saves as default, Escape or Ctrl+C cancels.
 *
 * @module
 */
import type { AgentThinkingLevel } from "../../agent/types.ts";
import {
  Container,
  type Focusable,
  fuzzyFilter,
  getKeybindings,
  Input,
  type SelectItem,
  SelectList,
  Spacer,
  Text,
} from "../../tui/mod.ts";
import { APP_KEYS, matchesAction } from "./app_keys.ts";
import { keyDisplayText } from "./hotkeys.ts";
import { frameSelector } from "./model_selector.ts";
import type { Theme } from "./theme.ts";

const LAYOUT = { minPrimaryColumnWidth: 12, maxPrimaryColumnWidth: 32 };

/** What each level means, as 1.6.0 words it. */
export const LEVEL_DESCRIPTIONS: Readonly<Record<string, string>> = {
  off: "No reasoning",
  minimal: "Very brief reasoning (~1k tokens)",
  low: "Light reasoning (~2k tokens)",
  medium: "Moderate reasoning (~8k tokens)",
  high: "Deep reasoning (~16k tokens)",
  xhigh: "Extra-high reasoning (~32k tokens)",
  max: "Maximum reasoning",
};

/** Options of {@link ThinkingSelector}. */
export interface ThinkingSelectorOptions {
  current: AgentThinkingLevel;
  levels: AgentThinkingLevel[];
  defaultLevel?: string;
  onSelect: (level: AgentThinkingLevel, asDefault: boolean) => void;
  onCancel: () => void;
}

/** The thinking level selector component. */
export class ThinkingSelector extends Container implements Focusable {
  #focused = false;
  #search = new Input();
  #items: SelectItem[];
  #list: SelectList;
  #listIndex: number;

  /** Shows `options.levels`. */
  constructor(private readonly theme: Theme, private readonly options: ThinkingSelectorOptions) {
    super();
    this.#items = options.levels.map((level) => ({
      value: level,
      label: `${level === options.current ? "✓ " : "  "}${level}`,
      description: level === options.defaultLevel
        ? `${LEVEL_DESCRIPTIONS[level]} · default`
        : LEVEL_DESCRIPTIONS[level],
    }));
    const cycle = `${keyDisplayText(APP_KEYS["app.thinking.cycle"])} cycles thinking levels in-session`;
    this.#list = this.#build(this.#items, options.current);
    this.#listIndex = frameSelector(
      this,
      theme,
      [new Text("Thinking Level", 0, 0), new Spacer(1), new Text(cycle, 0, 0)],
      this.#search,
      this.#list,
    );
  }

  /** Focus goes on to the search field (its cursor). */
  get focused(): boolean {
    return this.#focused;
  }
  set focused(value: boolean) {
    this.#focused = value;
    (this.#search as { focused?: boolean }).focused = value;
  }

  #build(items: SelectItem[], preselect: string | undefined): SelectList {
    const list = new SelectList(items, Math.max(1, items.length), this.theme.selectList(), LAYOUT);
    const index = items.findIndex((item) => item.value === preselect);
    if (index !== -1) list.setSelectedIndex(index);
    list.onSelect = (item) => this.options.onSelect(item.value as AgentThinkingLevel, false);
    list.onCancel = () => this.options.onCancel();
    return list;
  }

  /** Keys: list navigation, Ctrl+S to save as default, anything else filters. */
  handleInput(data: string): void {
    const kb = getKeybindings();
    if (matchesAction(data, "app.thinking.save")) {
      const item = this.#list.getSelectedItem();
      if (item) this.options.onSelect(item.value as AgentThinkingLevel, true);
      return;
    }
    const nav = kb.matches(data, "tui.select.up") || kb.matches(data, "tui.select.down") ||
      kb.matches(data, "tui.select.confirm") || kb.matches(data, "tui.select.cancel");
    if (nav) {
      this.#list.handleInput(data);
      return;
    }
    const before = this.#search.getValue();
    this.#search.handleInput(data);
    const query = this.#search.getValue();
    if (query === before) return;
    const filtered = query
      ? fuzzyFilter(this.#items, query, (item) => `${item.value} ${item.description ?? ""}`)
      : this.#items;
    this.#list = this.#build(filtered, this.#list.getSelectedItem()?.value);
    this.children[this.#listIndex] = this.#list;
  }
}
