/**
 * The submenus of the /settings menu, as pi 1.6.0's `settings-submenu` draws them: a titled list
 * to pick one value from (optionally filtered by typing), and a chain of such lists where each
 * step's choices depend on the steps before (Escape goes back a step).
 *
 * @module
 */
import {
  type Component,
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
import type { Theme } from "./theme.ts";

/** Column widths of the value/description table (1.6.0's). */
export interface SubmenuLayout {
  minPrimaryColumnWidth: number;
  maxPrimaryColumnWidth: number;
}

const DEFAULT_LAYOUT: SubmenuLayout = { minPrimaryColumnWidth: 12, maxPrimaryColumnWidth: 32 };

/** Options of a {@link SelectSubmenu}. */
export interface SelectSubmenuOptions {
  /** Typing filters the list (fuzzy, over label and description). */
  searchable?: boolean;
  layout?: SubmenuLayout;
  /** Hears each value the cursor moves to (the theme menu previews it). */
  onHighlight?: (value: string) => void;
}

/** A title, a description, an optional filter field and a list; Enter picks, Escape goes back. */
export class SelectSubmenu extends Container implements Focusable {
  #list: SelectList;
  #listIndex: number;
  #search?: Input;
  #focused = false;

  /** Lists `options` with `current` selected. */
  constructor(
    private readonly theme: Theme,
    title: string,
    description: string,
    private readonly options: SelectItem[],
    current: string,
    private readonly onSelect: (value: string) => void,
    private readonly onCancel: () => void,
    private readonly submenu: SelectSubmenuOptions = {},
  ) {
    super();
    this.addChild(new Text(theme.bold(theme.fg("accent", title)), 0, 0));
    if (description) {
      this.addChild(new Spacer(1));
      this.addChild(new Text(theme.fg("muted", description), 0, 0));
    }
    if (submenu.searchable) {
      this.addChild(new Spacer(1));
      this.#search = new Input();
      this.#search.onSubmit = () => this.#list.handleInput("\r");
      this.addChild(this.#search);
    }
    this.addChild(new Spacer(1));
    this.#list = this.#buildList(options, current);
    this.#listIndex = this.children.length;
    this.addChild(this.#list);
    this.addChild(new Spacer(1));
    const hint = submenu.searchable
      ? "  Type to filter · Enter to select · Esc to go back"
      : "  Enter to select · Esc to go back";
    this.addChild(new Text(theme.fg("dim", hint), 0, 0));
  }

  /** Passed on to the filter field, which draws the cursor. */
  get focused(): boolean {
    return this.#focused;
  }
  set focused(value: boolean) {
    this.#focused = value;
    if (this.#search) this.#search.focused = value;
  }

  #buildList(options: SelectItem[], preselect: string): SelectList {
    const list = new SelectList(
      options,
      Math.min(options.length, 10),
      this.theme.selectList(),
      this.submenu.layout ?? DEFAULT_LAYOUT,
    );
    const index = options.findIndex((o) => o.value === preselect);
    if (index !== -1) list.setSelectedIndex(index);
    list.onSelect = (item) => this.onSelect(item.value);
    list.onSelectionChange = (item) => this.submenu.onHighlight?.(item.value);
    list.onCancel = this.onCancel;
    return list;
  }

  /** List keys go to the list; with a filter field, other keys edit the filter. */
  handleInput(data: string): void {
    if (!this.#search) return this.#list.handleInput(data);
    const kb = getKeybindings();
    const listKeys = [
      "tui.select.up",
      "tui.select.down",
      "tui.select.pageUp",
      "tui.select.pageDown",
      "tui.select.confirm",
      "tui.select.cancel",
    ] as const;
    if (listKeys.some((key) => kb.matches(data, key))) return this.#list.handleInput(data);
    const before = this.#search.getValue();
    this.#search.handleInput(data);
    const query = this.#search.getValue();
    // Cursor keys leave the query as it is and must not move the selection.
    if (query === before) return;
    const filtered = query
      ? fuzzyFilter(this.options, query, (item) => `${item.label} ${item.description ?? ""}`)
      : this.options;
    this.#list = this.#buildList(filtered, "");
    this.children[this.#listIndex] = this.#list;
  }
}

/** One step of a {@link SteppedSubmenu}; `context` holds the values picked in earlier steps. */
export interface SubmenuStep {
  key: string;
  title: string | ((context: Record<string, string>) => string);
  description: string | ((context: Record<string, string>) => string);
  options: (context: Record<string, string>) => SelectItem[];
  preselect?: (context: Record<string, string>) => string | undefined;
  searchable?: boolean;
  layout?: SubmenuLayout;
}

/**
 * Steps of {@link SelectSubmenu}s: picking in the last step calls `onComplete` and (with `loop`)
 * starts over; Escape goes back a step, and from the first step calls `onCancel`.
 */
export class SteppedSubmenu implements Component, Focusable {
  #active: SelectSubmenu;
  #context: Record<string, string> = {};
  #focused = false;

  /** Shows the first of `steps`. */
  constructor(
    private readonly theme: Theme,
    private readonly steps: SubmenuStep[],
    private readonly onComplete: (selections: Record<string, string>) => void,
    private readonly onCancel: () => void,
    private readonly loop = false,
  ) {
    this.#active = this.#build(0);
  }

  /** Passed on to the step shown. */
  get focused(): boolean {
    return this.#focused;
  }
  set focused(value: boolean) {
    this.#focused = value;
    this.#active.focused = value;
  }

  #build(index: number): SelectSubmenu {
    const step = this.steps[index];
    const context = this.#context;
    const stepLabel = this.steps.length > 1 ? `Step ${index + 1}/${this.steps.length} · ` : "";
    const title = typeof step.title === "function" ? step.title(context) : step.title;
    const description = typeof step.description === "function" ? step.description(context) : step.description;
    const submenu = new SelectSubmenu(
      this.theme,
      title,
      `${stepLabel}${description}`,
      step.options(context),
      step.preselect?.(context) ?? "",
      (value) => {
        this.#context[step.key] = value;
        if (index < this.steps.length - 1) {
          this.#show(this.#build(index + 1));
          return;
        }
        this.onComplete({ ...this.#context });
        if (!this.loop) return this.onCancel();
        this.#context = {};
        this.#show(this.#build(0));
      },
      () => {
        if (index === 0) return this.onCancel();
        delete this.#context[step.key];
        this.#show(this.#build(index - 1));
      },
      { searchable: step.searchable, layout: step.layout },
    );
    submenu.focused = this.#focused;
    return submenu;
  }

  #show(submenu: SelectSubmenu): void {
    this.#active = submenu;
  }

  /** The step shown. */
  render(width: number): readonly string[] {
    return this.#active.render(width);
  }

  /** Keys go to the step shown. */
  handleInput(data: string): void {
    this.#active.handleInput(data);
  }

  /** Passed on to the step shown. */
  invalidate(): void {
    this.#active.invalidate();
  }
}
