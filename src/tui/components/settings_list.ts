/**
 * SettingsList: label/value rows that cycle through values or open submenus, with optional fuzzy
 * search, as in pi-tui 1.6.0's `components/settings-list`.
 *
 * @module
 */
import { fuzzyFilter } from "../fuzzy.ts";
import { getKeybindings, getSelectPageIndex } from "../keybindings.ts";
import type { Component, TuiMouseEvent, TuiMouseEventResult } from "../tui_component.ts";
import { truncateToWidth, visibleWidth, wrapTextWithAnsi } from "../utils_text.ts";
import { Input } from "./input.ts";
import { selectWindowStart } from "./select_list.ts";

/** One setting row. */
export interface SettingItem {
  /** Unique identifier for this setting */
  id: string;
  /** Display label (left side) */
  label: string;
  /** Optional description shown when selected */
  description?: string;
  /** Current value to display (right side) */
  currentValue: string;
  /** If provided, Enter/Space cycles through these values */
  values?: string[];
  /** If provided, Enter opens this submenu. Receives current value and done callback.
   *  done() accepts an optional selectedValue and an optional navigateTo id to move the cursor after close. */
  submenu?: (
    currentValue: string,
    done: (selectedValue?: string, options?: { navigateTo?: string }) => void,
  ) => Component;
}

/** Styling of a {@link SettingsList}; `cursor` is the prefix of the selected row. */
export interface SettingsListTheme {
  /** A label, padded to the label column. */
  label: (text: string, selected: boolean) => string;
  /** A value, already truncated to fit. */
  value: (text: string, selected: boolean) => string;
  /** Each wrapped line of the selected item's description. */
  description: (text: string) => string;
  /** The prefix of the selected row (other rows get two spaces). */
  cursor: string;
  /** The hint, empty-list and scroll lines. */
  hint: (text: string) => string;
}

/** Construction options of a {@link SettingsList}. */
export interface SettingsListOptions {
  /** Show a search field above the list; typed text fuzzy-filters the labels. */
  enableSearch?: boolean;
}

/** Labels wider than this are not used to align the value column. */
const MAX_LABEL_COLUMN = 36;
const VALUE_SEPARATOR = "  ";

/** A list of settings: Enter or Space cycles a value or opens its submenu, Escape cancels. */
export class SettingsList implements Component {
  /** The list consumes viewport keys (page up/down) instead of letting the screen scroll. */
  readonly capturesViewportInput: boolean = true;
  private items: SettingItem[];
  private filteredItems: SettingItem[];
  private theme: SettingsListTheme;
  private selectedIndex = 0;
  private mousePressedIndex: number | undefined;
  private maxVisible: number;
  private onChange: (id: string, newValue: string) => void;
  private onCancel: () => void;
  private searchInput?: Input;
  private searchEnabled: boolean;
  private submenuComponent: Component | null = null;
  /** The row that opened the submenu, selected again when it closes. */
  private submenuItemIndex: number | null = null;
  /** An id the submenu asked to go to (and open) when it closes. */
  private navigateAfterClose: string | null = null;

  /** `onChange` hears every value change (cycled or from a submenu); `onCancel` the cancel key. */
  constructor(
    items: SettingItem[],
    maxVisible: number,
    theme: SettingsListTheme,
    onChange: (id: string, newValue: string) => void,
    onCancel: () => void,
    options: SettingsListOptions = {},
  ) {
    this.items = items;
    this.filteredItems = items;
    this.maxVisible = maxVisible;
    this.theme = theme;
    this.onChange = onChange;
    this.onCancel = onCancel;
    this.searchEnabled = options.enableSearch ?? false;
    if (this.searchEnabled) this.searchInput = new Input();
  }

  /** Update an item's currentValue */
  updateValue(id: string, newValue: string): void {
    const item = this.items.find((i) => i.id === id);
    if (item) item.currentValue = newValue;
  }

  /** Move selection to the item with the given id (no-op if not found). */
  selectItem(id: string): void {
    const index = this.getDisplayItems().findIndex((i) => i.id === id);
    if (index !== -1) this.selectedIndex = index;
  }

  /** Passes on to an open submenu; the list itself caches nothing. */
  invalidate(): void {
    this.submenuComponent?.invalidate?.();
  }

  /** The open submenu, or the list. */
  render(width: number): readonly string[] {
    return this.submenuComponent ? this.submenuComponent.render(width) : this.renderMainList(width);
  }

  private renderMainList(width: number): string[] {
    const lines: string[] = [];
    if (this.searchEnabled && this.searchInput) lines.push(...this.searchInput.render(width), "");
    if (this.items.length === 0) {
      lines.push(this.theme.hint("  No settings available"));
      if (this.searchEnabled) this.addHintLine(lines, width);
      return lines;
    }
    const displayItems = this.getDisplayItems();
    if (displayItems.length === 0) {
      lines.push(truncateToWidth(this.theme.hint("  No matching settings"), width));
      this.addHintLine(lines, width);
      return lines;
    }
    const { startIndex, endIndex } = this.getVisibleRange(displayItems);
    // Values line up after the widest label of all items, so filtering does not shift them.
    const labelColumn = Math.min(MAX_LABEL_COLUMN, Math.max(...this.items.map((i) => visibleWidth(i.label))));
    for (let i = startIndex; i < endIndex; i++) {
      const item = displayItems[i];
      if (!item) continue;
      const selected = i === this.selectedIndex;
      const prefix = selected ? this.theme.cursor : "  ";
      const label = item.label + " ".repeat(Math.max(0, labelColumn - visibleWidth(item.label)));
      const valueWidth = width - (visibleWidth(prefix) + labelColumn + visibleWidth(VALUE_SEPARATOR)) - 2;
      const value = this.theme.value(truncateToWidth(item.currentValue, valueWidth, ""), selected);
      lines.push(
        truncateToWidth(prefix + this.theme.label(label, selected) + VALUE_SEPARATOR + value, width),
      );
    }
    if (startIndex > 0 || endIndex < displayItems.length) {
      const info = `  (${this.selectedIndex + 1}/${displayItems.length})`;
      lines.push(this.theme.hint(truncateToWidth(info, width - 2, "")));
    }
    const description = displayItems[this.selectedIndex]?.description;
    if (description) {
      lines.push("");
      for (const line of wrapTextWithAnsi(description, width - 4)) {
        lines.push(this.theme.description(`  ${line}`));
      }
    }
    this.addHintLine(lines, width);
    return lines;
  }

  /** Rows 0–1 are the search field and its gap when search is on; a click activates the row pressed. */
  handleMouse(event: TuiMouseEvent): TuiMouseEventResult | undefined {
    if (this.submenuComponent) {
      const result = this.submenuComponent.handleMouse?.(event);
      return result ? { ...result, focus: true } : undefined;
    }
    if (this.searchEnabled && this.searchInput) {
      if (event.y === 0) {
        const result = this.searchInput.handleMouse?.(event);
        return result ? { ...result, focus: true } : undefined;
      }
      if (event.y === 1) return undefined;
    }
    const displayItems = this.getDisplayItems();
    if (displayItems.length === 0) return undefined;
    if (event.type === "wheel" && event.wheelDelta) {
      const before = this.selectedIndex;
      const step = event.wheelDelta < 0 ? -1 : 1;
      this.selectedIndex = Math.max(0, Math.min(displayItems.length - 1, before + step));
      return { handled: true, render: this.selectedIndex !== before };
    }
    // Hovering never moves the selection: the window is centred on it and would slide under the pointer.
    if (event.button !== "left" || (event.type !== "press" && event.type !== "click")) return undefined;
    const { startIndex, endIndex } = this.getVisibleRange(displayItems);
    const row = startIndex + event.y - (this.searchEnabled ? 2 : 0);
    if (row < startIndex || row >= endIndex) return undefined;
    if (event.type === "press") {
      this.mousePressedIndex = row;
      this.selectedIndex = row;
      return { handled: true, focus: true };
    }
    this.selectedIndex = this.mousePressedIndex ?? row;
    this.mousePressedIndex = undefined;
    this.activateItem();
    return { handled: true };
  }

  /** Keys go to an open submenu; else move, page, activate, cancel, or type into the search field. */
  handleInput(data: string): void {
    if (this.submenuComponent) {
      // The submenu closes itself through done(), e.g. from its own cancel handler.
      this.submenuComponent.handleInput?.(data);
      return;
    }
    const kb = getKeybindings();
    const displayItems = this.getDisplayItems();
    const count = displayItems.length;
    const pageIndex = getSelectPageIndex(kb, data, this.selectedIndex, count, this.maxVisible);
    if (kb.matches(data, "tui.select.up")) {
      if (count === 0) return;
      this.selectedIndex = this.selectedIndex === 0 ? count - 1 : this.selectedIndex - 1;
    } else if (kb.matches(data, "tui.select.down")) {
      if (count === 0) return;
      this.selectedIndex = this.selectedIndex === count - 1 ? 0 : this.selectedIndex + 1;
    } else if (pageIndex !== undefined) {
      if (count === 0) return;
      this.selectedIndex = pageIndex;
    } else if (
      kb.matches(data, "tui.select.confirm") ||
      // Space activates unless it is part of a search query being typed.
      (data === " " && (!this.searchEnabled || this.searchInput?.getValue().length === 0))
    ) {
      this.activateItem();
    } else if (kb.matches(data, "tui.select.cancel")) {
      this.onCancel();
    } else if (this.searchEnabled && this.searchInput) {
      // Cursor keys leave the query as it is and must not move the selection.
      const before = this.searchInput.getValue();
      this.searchInput.handleInput(data);
      const query = this.searchInput.getValue();
      if (query !== before) this.applyFilter(query);
    }
  }

  private getDisplayItems(): SettingItem[] {
    return this.searchEnabled ? this.filteredItems : this.items;
  }

  private getVisibleRange(displayItems: SettingItem[]): { startIndex: number; endIndex: number } {
    const startIndex = selectWindowStart(this.selectedIndex, displayItems.length, this.maxVisible);
    return { startIndex, endIndex: Math.min(startIndex + this.maxVisible, displayItems.length) };
  }

  /** Opens the selected item's submenu, or moves its value to the next one (wrapping). */
  private activateItem(): void {
    const item = this.getDisplayItems()[this.selectedIndex];
    if (!item) return;
    if (item.submenu) {
      this.submenuItemIndex = this.selectedIndex;
      this.submenuComponent = item.submenu(item.currentValue, (selectedValue, options) => {
        if (selectedValue !== undefined) {
          item.currentValue = selectedValue;
          this.onChange(item.id, selectedValue);
        }
        if (options?.navigateTo) this.navigateAfterClose = options.navigateTo;
        this.closeSubmenu();
      });
    } else if (item.values && item.values.length > 0) {
      // A current value not in the list counts as index -1, so the first value comes next.
      const next = item.values[(item.values.indexOf(item.currentValue) + 1) % item.values.length];
      item.currentValue = next;
      this.onChange(item.id, next);
    }
  }

  private closeSubmenu(): void {
    this.submenuComponent = null;
    if (this.navigateAfterClose !== null) {
      const id = this.navigateAfterClose;
      this.navigateAfterClose = null;
      this.submenuItemIndex = null;
      this.selectItem(id);
      // The target's submenu opens at once: navigation goes from one submenu to another.
      this.activateItem();
    } else if (this.submenuItemIndex !== null) {
      this.selectedIndex = this.submenuItemIndex;
      this.submenuItemIndex = null;
    }
  }

  private applyFilter(query: string): void {
    this.filteredItems = fuzzyFilter(this.items, query, (item) => item.label);
    this.selectedIndex = 0;
  }

  private addHintLine(lines: string[], width: number): void {
    const hint = this.searchEnabled
      ? "  Type to search · Enter/Space to change · Esc to cancel"
      : "  Enter/Space to change · Esc to cancel";
    lines.push("", truncateToWidth(this.theme.hint(hint), width));
  }
}
