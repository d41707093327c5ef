/**
 * The fullscreen layout engine: places a component tree of stacks, scroll views and plain components
 * on a screen of fixed size, paints it, and answers which boxes lie under a cell.
 *
 * Plain components render lines as usual; stacks share their axis with `allocateStackSizes`; a scroll
 * view's child is laid out at its full height and shifted by the scroll position, and everything is
 * clipped to its ancestors. Each component is rendered at most once per width and frame.
 *
 * @module
 */
import type { ScrollView } from "./components/scroll_view.ts";
import { allocateStackSizes, visibleStackEntries } from "./components/stack.ts";
import {
  getLayoutNode,
  type LayoutViewport,
  type ScrollLayoutNode,
  type StackLayoutNode,
} from "./layout_node.ts";
import { paintLayoutBox } from "./layout_paint.ts";
import type { LayoutBox, LayoutFrame, LayoutRect, LayoutRenderCache } from "./layout_types.ts";
import { type Component, CURSOR_MARKER } from "./tui_component.ts";
import { visibleWidth } from "./utils_text.ts";

export type {
  LayoutBox,
  LayoutFrame,
  LayoutRect,
  LayoutRenderCache,
  ScrollbarGeometry,
} from "./layout_types.ts";
export { getScrollbarGeometry } from "./layout_paint.ts";

interface LayoutContext {
  viewport: LayoutViewport;
  renderCache: LayoutRenderCache;
  reusableOutput: LayoutRenderCache | undefined;
  requestRender: () => void;
  primaryScrollView: ScrollView | undefined;
}

function intersect(a: LayoutRect, b: LayoutRect): LayoutRect {
  const x = Math.max(a.x, b.x);
  const y = Math.max(a.y, b.y);
  const right = Math.min(a.x + a.width, b.x + b.width);
  const bottom = Math.min(a.y + a.height, b.y + b.height);
  return { x, y, width: Math.max(0, right - x), height: Math.max(0, bottom - y) };
}

/** The component's lines at `width`, rendered once per frame (or taken from the reusable output). */
function renderOnce(context: LayoutContext, component: Component, width: number): readonly string[] {
  const safeWidth = Math.max(1, Math.floor(width));
  let byWidth = context.renderCache.get(component);
  if (!byWidth) {
    byWidth = new Map();
    context.renderCache.set(component, byWidth);
  }
  let lines = byWidth.get(safeWidth);
  if (!lines) {
    lines = context.reusableOutput?.get(component)?.get(safeWidth) ?? component.render(safeWidth);
    byWidth.set(safeWidth, lines);
  }
  return lines;
}

function widestLine(lines: readonly string[]): number {
  let widest = 0;
  for (const line of lines) widest = Math.max(widest, visibleWidth(line));
  return widest;
}

function shiftBox(box: LayoutBox, deltaY: number): void {
  box.rect.y += deltaY;
  for (const child of box.children) shiftBox(child, deltaY);
}

function clipTree(box: LayoutBox, parentClip: LayoutRect): void {
  box.clip = intersect(parentClip, box.rect);
  for (const child of box.children) clipTree(child, box.clip);
}

function adopt(box: LayoutBox, parent: LayoutBox): LayoutBox {
  box.parent = parent;
  return box;
}

/** The cells offered to a component: position, width, height (undefined: as tall as it wants), clip. */
interface Slot {
  x: number;
  y: number;
  width: number;
  height: number | undefined;
  clip: LayoutRect;
}

/** Lays out `component` in `slot`. */
function layoutComponent(context: LayoutContext, component: Component, slot: Slot): LayoutBox {
  const sized = { ...slot, width: Math.max(1, Math.floor(slot.width)) };
  const node = getLayoutNode(component);
  if (!node) return layoutLeaf(context, component, sized);
  if (node.type === "scroll") return layoutScroll(context, component, node, sized);
  if (node.type === "vstack") return layoutVStack(context, component, node, sized);
  return layoutHStack(context, component, node, sized);
}

function layoutLeaf(context: LayoutContext, component: Component, slot: Slot): LayoutBox {
  const lines = renderOnce(context, component, slot.width);
  const allocated = slot.height === undefined ? lines.length : Math.max(0, Math.floor(slot.height));
  // Cut short, a component still shows the line with its cursor: the window slides down to it.
  let lineOffset = 0;
  if (lines.length > allocated && allocated > 0) {
    const cursorLine = lines.findIndex((line) => line.includes(CURSOR_MARKER));
    if (cursorLine >= allocated) lineOffset = cursorLine - allocated + 1;
  }
  const rect = { x: slot.x, y: slot.y, width: slot.width, height: allocated };
  return { component, rect, clip: intersect(slot.clip, rect), children: [], lines, lineOffset, layer: 0 };
}

function layoutScroll(
  context: LayoutContext,
  component: Component,
  node: ScrollLayoutNode,
  slot: Slot,
): LayoutBox {
  const state = node.state;
  const previousScrollTop = state.scrollTop;
  const contentWidth = state.getContentWidth(slot.width);
  const childBox = layoutComponent(context, node.component, {
    x: slot.x,
    y: slot.y - previousScrollTop,
    width: contentWidth,
    height: undefined,
    clip: slot.clip,
  });
  const contentHeight = childBox.rect.height;
  const viewportHeight = slot.height === undefined ? contentHeight : Math.max(0, Math.floor(slot.height));
  // The view clamps (or follows the end) now that it knows both heights; move the content to match.
  state.updateLayout(contentHeight, viewportHeight, context.requestRender);
  shiftBox(childBox, previousScrollTop - state.scrollTop);
  // Only ScrollView implements the scroll protocol, so the state is the view itself.
  const scrollView = state as ScrollView;
  if (state.primary || !context.primaryScrollView) context.primaryScrollView = scrollView;
  const rect = { x: slot.x, y: slot.y, width: slot.width, height: viewportHeight };
  const viewClip = intersect(slot.clip, rect);
  const box: LayoutBox = {
    component,
    rect,
    clip: viewClip,
    children: [childBox],
    scrollView,
    scrollContentLines: renderOnce(context, node.component, contentWidth),
    layer: 0,
  };
  childBox.parent = box;
  clipTree(childBox, viewClip);
  return box;
}

function layoutVStack(
  context: LayoutContext,
  component: Component,
  node: StackLayoutNode,
  slot: Slot,
): LayoutBox {
  const { x, width } = slot;
  const entries = visibleStackEntries(node.entries, context.viewport);
  const intrinsic = entries.map((entry) =>
    typeof entry.basis === "number" ? entry.basis : renderOnce(context, entry.component, width).length
  );
  const sizes = allocateStackSizes(entries, intrinsic, slot.height, node.gap);
  const natural = sizes.reduce((sum, size) => sum + size, 0) + Math.max(0, entries.length - 1) * node.gap;
  const height = slot.height === undefined ? natural : Math.max(0, Math.floor(slot.height));
  const rect = { x, y: slot.y, width, height };
  const box: LayoutBox = { component, rect, clip: intersect(slot.clip, rect), children: [], layer: 0 };
  let y = slot.y;
  for (let index = 0; index < entries.length; index++) {
    const child = layoutComponent(context, entries[index].component, {
      x,
      y,
      width,
      height: sizes[index],
      clip: box.clip,
    });
    box.children.push(adopt(child, box));
    y += sizes[index] + node.gap;
  }
  return box;
}

function layoutHStack(
  context: LayoutContext,
  component: Component,
  node: StackLayoutNode,
  slot: Slot,
): LayoutBox {
  const entries = visibleStackEntries(node.entries, context.viewport);
  const intrinsicWidths = entries.map((entry) =>
    typeof entry.basis === "number"
      ? entry.basis
      : widestLine(renderOnce(context, entry.component, slot.width))
  );
  const widths = allocateStackSizes(entries, intrinsicWidths, slot.width, node.gap);
  const heights = entries.map((entry, index) =>
    renderOnce(context, entry.component, Math.max(1, widths[index])).length
  );
  const height = slot.height === undefined
    ? heights.reduce((max, h) => Math.max(max, h), 0)
    : Math.max(0, slot.height);
  const rect = { x: slot.x, y: slot.y, width: slot.width, height };
  const box: LayoutBox = { component, rect, clip: intersect(slot.clip, rect), children: [], layer: 0 };
  let x = slot.x;
  for (let index = 0; index < entries.length; index++) {
    const childHeight = node.align === "stretch" ? height : Math.min(height, heights[index]);
    const y = slot.y +
      (node.align === "center"
        ? Math.floor((height - childHeight) / 2)
        : node.align === "end"
        ? height - childHeight
        : 0);
    const width = widths[index];
    const entry = entries[index];
    if (width === 0) {
      // A child squeezed to nothing keeps an empty box, so hit-testing still sees it in order.
      box.children.push({
        component: entry.component,
        rect: { x, y, width: 0, height: childHeight },
        clip: { x, y, width: 0, height: 0 },
        children: [],
        parent: box,
        layer: 0,
      });
    } else {
      const child = layoutComponent(context, entry.component, {
        x,
        y,
        width,
        height: childHeight,
        clip: box.clip,
      });
      box.children.push(adopt(child, box));
    }
    x += width + node.gap;
  }
  return box;
}

/**
 * Lay out and paint one frame.
 *
 * `reusableOutput` is an earlier frame's `renderCache`; its output is used instead of calling
 * `render()`. Pass it only when no component changed since that frame, e.g. when only a scroll
 * position moved: the frame then costs O(viewport) instead of re-rendering the whole scrollable
 * document. Each frame keeps only the output it used, so reuse never accumulates across frames.
 */
export function renderLayoutFrame(
  root: Component,
  width: number,
  height: number,
  requestRender: () => void,
  reusableOutput?: LayoutRenderCache,
): LayoutFrame {
  const safeWidth = Math.max(1, Math.floor(width));
  const safeHeight = Math.max(1, Math.floor(height));
  const context: LayoutContext = {
    viewport: { width: safeWidth, height: safeHeight },
    renderCache: new Map(),
    reusableOutput,
    requestRender,
    primaryScrollView: undefined,
  };
  const screen = { x: 0, y: 0, width: safeWidth, height: safeHeight };
  const rootBox = layoutComponent(context, root, {
    x: 0,
    y: 0,
    width: safeWidth,
    height: safeHeight,
    clip: screen,
  });
  const lines: string[] = new Array(safeHeight).fill("");
  paintLayoutBox(rootBox, lines, safeWidth);
  const frame: LayoutFrame = {
    root: rootBox,
    width: safeWidth,
    height: safeHeight,
    lines,
    renderCache: context.renderCache,
  };
  if (context.primaryScrollView !== undefined) frame.primaryScrollView = context.primaryScrollView;
  return frame;
}

function contains(rect: LayoutRect, x: number, y: number): boolean {
  return x >= rect.x && x < rect.x + rect.width && y >= rect.y && y < rect.y + rect.height;
}

/** Return the visual hit path from the deepest component to the layout root. */
export function getLayoutBoxesAt(frame: LayoutFrame, x: number, y: number): LayoutBox[] {
  const hits: { box: LayoutBox; depth: number }[] = [];
  const visit = (box: LayoutBox, depth: number): void => {
    if (!contains(box.clip, x, y)) return;
    hits.push({ box, depth });
    for (const child of box.children) visit(child, depth + 1);
  };
  visit(frame.root, 0);
  hits.sort((a, b) => b.box.layer - a.box.layer || b.depth - a.depth);
  return hits.map((hit) => hit.box);
}

/** The box of `scrollView` in `frame` (depth-first, first found), if it was laid out. */
export function getScrollViewBox(frame: LayoutFrame, scrollView: ScrollView): LayoutBox | undefined {
  const visit = (box: LayoutBox): LayoutBox | undefined => {
    if (box.scrollView === scrollView) return box;
    for (const child of box.children) {
      const match = visit(child);
      if (match) return match;
    }
    return undefined;
  };
  return visit(frame.root);
}

/** The scroll views under a cell, innermost first. */
export function getScrollViewsAt(frame: LayoutFrame, x: number, y: number): ScrollView[] {
  const hits: { scrollView: ScrollView; depth: number }[] = [];
  const visit = (box: LayoutBox, depth: number): void => {
    if (!contains(box.clip, x, y)) return;
    if (box.scrollView && contains(box.rect, x, y)) hits.push({ scrollView: box.scrollView, depth });
    for (const child of box.children) visit(child, depth + 1);
  };
  visit(frame.root, 0);
  hits.sort((a, b) => b.depth - a.depth);
  return hits.map((hit) => hit.scrollView);
}
