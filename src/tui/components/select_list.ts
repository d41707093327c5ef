/**
 * SelectList: a scrolling one-column (or label + description) list with a selection arrow, as in
 * pi-tui 1.6.0's `components/select-list`.
 *
 * @module
 */
import { getKeybindings, getSelectPageIndex } from "../keybindings.ts";
import type { Component, TuiMouseEvent, TuiMouseEventResult } from "../tui_component.ts";
import { truncateToWidth, visibleWidth } from "../utils_text.ts";

/** One entry of a {@link SelectList}: `label` is shown (falling back to `value` when empty). */
export interface SelectItem {
  /** What the item stands for; filters match its start. */
  value: string;
  /** The text shown; empty shows `value`. */
  label: string;
  /** Shown in a second column on wide terminals (line breaks become spaces). */
  description?: string;
}

/** Styling functions of a {@link SelectList}; each wraps already laid-out text. */
export interface SelectListTheme {
  /** Part of the theme type; pi-tui 1.6.0 itself never calls it (the arrow is inside selectedText). */
  selectedPrefix: (text: string) => string;
  /** The whole selected row. */
  selectedText: (text: string) => string;
  /** The description column of an unselected row, with the gap before it. */
  description: (text: string) => string;
  /** The `(n/total)` line. */
  scrollInfo: (text: string) => string;
  /** The line shown when the filter matches nothing. */
  noMatch: (text: string) => string;
}

/** What a custom primary-column truncator is told about the cell it fills. */
export interface SelectListTruncatePrimaryContext {
  /** The label (or value) to shorten. */
  text: string;
  /** The widest the result may be; a wider result is cut again. */
  maxWidth: number;
  /** The width of the label column, gap included. */
  columnWidth: number;
  /** The item the label belongs to. */
  item: SelectItem;
  /** Whether the row is the selected one. */
  isSelected: boolean;
}

/** Bounds of the label column and an optional custom truncation of labels. */
export interface SelectListLayoutOptions {
  /** The label column is at least this wide (default 32, or the maximum when only that is given). */
  minPrimaryColumnWidth?: number;
  /** The label column is at most this wide (default 32, or the minimum when only that is given). */
  maxPrimaryColumnWidth?: number;
  /** Shortens labels that do not fit, instead of cutting their end. */
  truncatePrimary?: (context: SelectListTruncatePrimaryContext) => string;
}

/** Column width used when the layout names no bounds. */
const DEFAULT_PRIMARY_COLUMN_WIDTH = 32;
/** Blank cells between the label column and the description. */
const PRIMARY_COLUMN_GAP = 2;
/** A description column narrower than this is dropped rather than shown as a stub. */
const MIN_DESCRIPTION_WIDTH = 10;

/** Descriptions are drawn on one row: line breaks become spaces. */
function oneLine(text: string): string {
  return text.replace(/[\r\n]+/g, " ").trim();
}

/** The shown text of an item. */
function displayValue(item: SelectItem): string {
  return item.label || item.value;
}

/**
 * The first row drawn so that the selection sits in the middle of the window where possible.
 * Shared by key and mouse handling so that a click hits the row the user sees.
 */
export function selectWindowStart(selected: number, count: number, maxVisible: number): number {
  return Math.max(0, Math.min(selected - Math.floor(maxVisible / 2), count - maxVisible));
}

/** A keyboard- and mouse-driven selection list. */
export class SelectList implements Component {
  /** The list consumes viewport keys (page up/down) instead of letting the screen scroll. */
  readonly capturesViewportInput: boolean = true;
  private items: SelectItem[];
  private filteredItems: SelectItem[];
  private selectedIndex = 0;
  private mousePressedIndex: number | undefined;
  private maxVisible: number;
  private theme: SelectListTheme;
  private layout: SelectListLayoutOptions;
  /** Called with the selected item on confirm (Enter) or click. */
  onSelect?: (item: SelectItem) => void;
  /** Called on cancel (Escape / Ctrl+C). */
  onCancel?: () => void;
  /** Called whenever the highlighted item changes through input. */
  onSelectionChange?: (item: SelectItem) => void;

  /** Shows `items`, at most `maxVisible` rows at once. */
  constructor(
    items: SelectItem[],
    maxVisible: number,
    theme: SelectListTheme,
    layout: SelectListLayoutOptions = {},
  ) {
    this.items = items;
    this.filteredItems = items;
    this.maxVisible = maxVisible;
    this.theme = theme;
    this.layout = layout;
  }

  /** Keeps the items whose value starts with `filter` (case-insensitive) and selects the first. */
  setFilter(filter: string): void {
    const prefix = filter.toLowerCase();
    this.filteredItems = this.items.filter((item) => item.value.toLowerCase().startsWith(prefix));
    this.selectedIndex = 0;
  }

  /** Selects the row at `index`, clamped to the filtered list. */
  setSelectedIndex(index: number): void {
    this.selectedIndex = Math.max(0, Math.min(index, this.filteredItems.length - 1));
  }

  /** Nothing is cached. */
  invalidate(): void {}

  /** The visible rows, then a `(n/total)` line when the list scrolls. */
  render(width: number): string[] {
    if (this.filteredItems.length === 0) return [this.theme.noMatch("  No matching commands")];
    const columnWidth = this.getPrimaryColumnWidth();
    const { startIndex, endIndex } = this.getVisibleRange();
    const lines: string[] = [];
    for (let i = startIndex; i < endIndex; i++) {
      const item = this.filteredItems[i];
      if (!item) continue;
      const description = item.description ? oneLine(item.description) : undefined;
      lines.push(this.renderItem(item, i === this.selectedIndex, width, description, columnWidth));
    }
    if (startIndex > 0 || endIndex < this.filteredItems.length) {
      const info = `  (${this.selectedIndex + 1}/${this.filteredItems.length})`;
      lines.push(this.theme.scrollInfo(truncateToWidth(info, width - 2, "")));
    }
    return lines;
  }

  /** Wheel moves the selection; a left press selects the row, a click confirms it. */
  handleMouse(event: TuiMouseEvent): TuiMouseEventResult | undefined {
    const count = this.filteredItems.length;
    if (count === 0) return undefined;
    if (event.type === "wheel" && event.wheelDelta) {
      const before = this.selectedIndex;
      const step = event.wheelDelta < 0 ? -1 : 1;
      this.selectedIndex = Math.max(0, Math.min(count - 1, before + step));
      const moved = this.selectedIndex !== before;
      if (moved) this.notifySelectionChange();
      return { handled: true, render: moved };
    }
    // Hovering never moves the selection: the window is centred on it and would slide under the pointer.
    if (event.button !== "left" || (event.type !== "press" && event.type !== "click")) return undefined;
    const { startIndex, endIndex } = this.getVisibleRange();
    const row = startIndex + event.y;
    if (row < startIndex || row >= endIndex) return undefined;
    if (event.type === "press") {
      this.mousePressedIndex = row;
      if (this.selectedIndex !== row) {
        this.selectedIndex = row;
        this.notifySelectionChange();
      }
      return { handled: true, focus: true };
    }
    // The press chose the row; the window may have moved since, so the click confirms that row.
    const target = this.mousePressedIndex ?? row;
    this.mousePressedIndex = undefined;
    const changed = this.selectedIndex !== target;
    this.selectedIndex = target;
    if (changed) this.notifySelectionChange();
    const item = this.filteredItems[this.selectedIndex];
    if (item) this.onSelect?.(item);
    return { handled: true };
  }

  /** Up/down wrap around, page keys move a window's worth, Enter selects, Escape cancels. */
  handleInput(keyData: string): void {
    const kb = getKeybindings();
    const count = this.filteredItems.length;
    const pageIndex = getSelectPageIndex(kb, keyData, this.selectedIndex, count, this.maxVisible);
    if (kb.matches(keyData, "tui.select.up")) {
      this.selectedIndex = this.selectedIndex === 0 ? count - 1 : this.selectedIndex - 1;
      this.notifySelectionChange();
    } else if (kb.matches(keyData, "tui.select.down")) {
      this.selectedIndex = this.selectedIndex === count - 1 ? 0 : this.selectedIndex + 1;
      this.notifySelectionChange();
    } else if (pageIndex !== undefined) {
      if (count === 0 || pageIndex === this.selectedIndex) return;
      this.selectedIndex = pageIndex;
      this.notifySelectionChange();
    } else if (kb.matches(keyData, "tui.select.confirm")) {
      const item = this.filteredItems[this.selectedIndex];
      if (item) this.onSelect?.(item);
    } else if (kb.matches(keyData, "tui.select.cancel")) {
      this.onCancel?.();
    }
  }

  private getVisibleRange(): { startIndex: number; endIndex: number } {
    const count = this.filteredItems.length;
    const startIndex = selectWindowStart(this.selectedIndex, count, this.maxVisible);
    return { startIndex, endIndex: Math.min(startIndex + this.maxVisible, count) };
  }

  private renderItem(
    item: SelectItem,
    isSelected: boolean,
    width: number,
    description: string | undefined,
    primaryColumnWidth: number,
  ): string {
    const prefix = isSelected ? "→ " : "  ";
    const prefixWidth = visibleWidth(prefix);
    // Two columns only on terminals wide enough to show a useful description.
    if (description && width > 40) {
      const columnWidth = Math.max(1, Math.min(primaryColumnWidth, width - prefixWidth - 4));
      const maxLabelWidth = Math.max(1, columnWidth - PRIMARY_COLUMN_GAP);
      const label = this.truncatePrimary(item, isSelected, maxLabelWidth, columnWidth);
      const labelWidth = visibleWidth(label);
      const gap = " ".repeat(Math.max(1, columnWidth - labelWidth));
      // Two cells are kept free on the right so a wide character cannot wrap the row.
      const descriptionWidth = width - (prefixWidth + labelWidth + gap.length) - 2;
      if (descriptionWidth > MIN_DESCRIPTION_WIDTH) {
        const shown = truncateToWidth(description, descriptionWidth, "");
        if (isSelected) return this.theme.selectedText(`${prefix}${label}${gap}${shown}`);
        return prefix + label + this.theme.description(gap + shown);
      }
    }
    const maxWidth = width - prefixWidth - 2;
    const label = this.truncatePrimary(item, isSelected, maxWidth, maxWidth);
    return isSelected ? this.theme.selectedText(`${prefix}${label}`) : prefix + label;
  }

  /** The widest label plus the gap, kept within the layout's bounds. */
  private getPrimaryColumnWidth(): number {
    const { min, max } = this.getPrimaryColumnBounds();
    let widest = 0;
    for (const item of this.filteredItems) {
      widest = Math.max(widest, visibleWidth(displayValue(item)) + PRIMARY_COLUMN_GAP);
    }
    return Math.max(min, Math.min(widest, max));
  }

  /** One bound given stands for both; bounds given the wrong way round are swapped. */
  private getPrimaryColumnBounds(): { min: number; max: number } {
    const { minPrimaryColumnWidth: minOpt, maxPrimaryColumnWidth: maxOpt } = this.layout;
    const a = minOpt ?? maxOpt ?? DEFAULT_PRIMARY_COLUMN_WIDTH;
    const b = maxOpt ?? minOpt ?? DEFAULT_PRIMARY_COLUMN_WIDTH;
    return { min: Math.max(1, Math.min(a, b)), max: Math.max(1, Math.max(a, b)) };
  }

  /** A custom truncator may shorten as it likes, but its result is still cut to fit. */
  private truncatePrimary(
    item: SelectItem,
    isSelected: boolean,
    maxWidth: number,
    columnWidth: number,
  ): string {
    const text = displayValue(item);
    const custom = this.layout.truncatePrimary;
    const shortened = custom
      ? custom({ text, maxWidth, columnWidth, item, isSelected })
      : truncateToWidth(text, maxWidth, "");
    return truncateToWidth(shortened, maxWidth, "");
  }

  private notifySelectionChange(): void {
    const item = this.filteredItems[this.selectedIndex];
    if (item) this.onSelectionChange?.(item);
  }

  /** The highlighted item, or null when nothing matches the filter. */
  getSelectedItem(): SelectItem | null {
    return this.filteredItems[this.selectedIndex] ?? null;
  }
}
