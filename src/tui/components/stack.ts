/**
 * The shared part of {@link HStack} and `VStack`: children with flex-like size options, and the
 * arithmetic that turns their sizes into a layout along one axis.
 *
 * @module
 */
import {
  LAYOUT_NODE,
  type LayoutViewport,
  type StackEntryOptions,
  type StackLayoutEntry,
  type StackLayoutNode,
} from "../layout_node.ts";
import { type Component, Container } from "../tui_component.ts";

export type { StackEntryOptions } from "../layout_node.ts";

/** A child together with its size options. */
export interface StackEntry extends StackEntryOptions {
  /** The child. */
  component: Component;
}

/** What a stack's constructor takes per child: the bare component or an entry with options. */
export type StackChild = Component | StackEntry;

/** Spacing and cross-axis alignment of a stack. */
export interface StackOptions {
  /** Empty cells (or lines) between neighbouring children. */
  gap?: number;
  /** Where a child shorter than the stack sits across its axis (default: stretched). */
  align?: "stretch" | "start" | "center" | "end";
}

type Align = "stretch" | "start" | "center" | "end";

function isStackEntry(child: StackChild): child is StackEntry {
  return !("render" in child);
}

/** A non-negative whole size, or `fallback` for an unset or non-finite value. */
function wholeSize(value: number | undefined, fallback: number): number {
  return value === undefined || !Number.isFinite(value) ? fallback : Math.max(0, Math.floor(value));
}

/** A container whose children are laid out along one axis; see `HStack` and `VStack`. */
export abstract class Stack extends Container {
  protected readonly entries: StackLayoutEntry[] = [];
  protected readonly gap: number;
  protected readonly align: Align;
  protected abstract readonly layoutType: "vstack" | "hstack";

  constructor(children: StackChild[] = [], options: StackOptions = {}) {
    super();
    this.gap = wholeSize(options.gap, 0);
    this.align = options.align ?? "stretch";
    for (const child of children) {
      if (isStackEntry(child)) this.addChild(child.component, child);
      else this.addChild(child);
    }
  }

  /** Appends a child; options that are set are normalised to whole, non-negative numbers. */
  override addChild(component: Component, options: StackEntryOptions = {}): void {
    super.addChild(component);
    const entry: StackLayoutEntry = { component };
    if (options.basis !== undefined) entry.basis = options.basis;
    if (options.grow !== undefined) entry.grow = wholeSize(options.grow, 0);
    if (options.shrink !== undefined) entry.shrink = wholeSize(options.shrink, 1);
    if (options.minSize !== undefined) entry.minSize = wholeSize(options.minSize, 0);
    if (options.maxSize !== undefined) entry.maxSize = wholeSize(options.maxSize, Number.MAX_SAFE_INTEGER);
    if (options.visible !== undefined) entry.visible = options.visible;
    this.entries.push(entry);
  }

  /** Removes a child and its options. */
  override removeChild(component: Component): void {
    super.removeChild(component);
    const index = this.entries.findIndex((entry) => entry.component === component);
    if (index !== -1) this.entries.splice(index, 1);
  }

  /** Removes every child. */
  override clear(): void {
    super.clear();
    this.entries.length = 0;
  }

  /** The stack's description for the fullscreen layout engine. */
  [LAYOUT_NODE](): StackLayoutNode {
    return { type: this.layoutType, entries: this.entries, gap: this.gap, align: this.align };
  }
}

/** The entries shown at `viewport` (those without a `visible` test, or whose test passes). */
export function visibleStackEntries(
  entries: readonly StackLayoutEntry[],
  viewport: LayoutViewport,
): StackLayoutEntry[] {
  return entries.filter((entry) => entry.visible?.(viewport) ?? true);
}

function clampToEntry(size: number, entry: StackLayoutEntry): number {
  const min = Math.max(0, Math.floor(entry.minSize ?? 0));
  const max = Math.max(min, Math.floor(entry.maxSize ?? Number.MAX_SAFE_INTEGER));
  return Math.max(min, Math.min(max, Math.max(0, Math.floor(size))));
}

/** Grow weight: the entry's `grow`. Shrink weight: `shrink` times its current size, as in CSS flexbox. */
function flexWeight(entry: StackLayoutEntry, size: number, growing: boolean): number {
  return growing ? entry.grow ?? 0 : (entry.shrink ?? 1) * Math.max(1, size);
}

/** How far an entry can still move: up to its max when growing, down to its min when shrinking. */
function flexRoom(entry: StackLayoutEntry, size: number, growing: boolean): number {
  return growing ? (entry.maxSize ?? Number.MAX_SAFE_INTEGER) - size : size - (entry.minSize ?? 0);
}

/**
 * Hands out `amount` cells to (growing) or takes them from (shrinking) the flexible entries by weight,
 * in rounds, whole cells only: every round each candidate moves at least one cell until the amount is
 * spent or nobody can move.
 */
function distribute(
  sizes: number[],
  entries: readonly StackLayoutEntry[],
  amount: number,
  growing: boolean,
): void {
  let remaining = amount;
  while (remaining > 0) {
    const candidates: number[] = [];
    for (let index = 0; index < entries.length; index++) {
      const entry = entries[index];
      const flexible = growing
        ? (entry.grow ?? 0) > 0 && sizes[index] < (entry.maxSize ?? Number.MAX_SAFE_INTEGER)
        : (entry.shrink ?? 1) > 0 && sizes[index] > (entry.minSize ?? 0);
      if (flexible) candidates.push(index);
    }
    if (candidates.length === 0) return;
    let totalWeight = 0;
    for (const index of candidates) totalWeight += flexWeight(entries[index], sizes[index], growing);
    let moved = 0;
    for (const index of candidates) {
      if (remaining <= 0) break;
      const entry = entries[index];
      const share = Math.max(
        1,
        Math.floor((remaining * flexWeight(entry, sizes[index], growing)) / totalWeight),
      );
      const delta = Math.min(remaining, share, flexRoom(entry, sizes[index], growing));
      if (delta <= 0) continue;
      sizes[index] += growing ? delta : -delta;
      remaining -= delta;
      moved += delta;
    }
    if (moved === 0) return;
  }
}

/**
 * The size of each entry along the stack's axis: its basis (or intrinsic size) clamped to its
 * min/max, then grown or shrunk to fill `availableSize` minus the gaps. With `availableSize`
 * undefined (an unbounded axis) the clamped bases are the answer.
 */
export function allocateStackSizes(
  entries: readonly StackLayoutEntry[],
  intrinsicSizes: readonly number[],
  availableSize: number | undefined,
  gap: number,
): number[] {
  const sizes = entries.map((entry, index) => {
    const basis = entry.basis === undefined || entry.basis === "auto"
      ? (intrinsicSizes[index] ?? 0)
      : entry.basis;
    return clampToEntry(basis, entry);
  });
  if (availableSize === undefined) return sizes;
  const contentSize = Math.max(0, Math.floor(availableSize) - Math.max(0, entries.length - 1) * gap);
  const total = sizes.reduce((sum, size) => sum + size, 0);
  if (total < contentSize) distribute(sizes, entries, contentSize - total, true);
  else if (total > contentSize) distribute(sizes, entries, total - contentSize, false);
  return sizes;
}
