/**
 * The layout protocol between fullscreen containers and the layout engine (`layout.ts`).
 *
 * A component that takes part in fullscreen layout (a stack or a scroll view) exposes a method under
 * the well-known symbol {@link LAYOUT_NODE} that describes how its children are arranged. The symbol
 * is registered globally (`Symbol.for`) with pi-tui's key, so components built against either copy of
 * the kit are laid out alike.
 *
 * @module
 */
import type { Component } from "./tui_component.ts";

/** Key of the method that returns a component's {@link LayoutNode}. */
export const LAYOUT_NODE: unique symbol = Symbol.for("@earendil-works/pi-tui/layout-node");

/** The size a layout pass offers: the terminal's cells for the whole frame. */
export interface LayoutViewport {
  width: number;
  height: number;
}

/** How a stack child's size along the stack's axis is chosen (flexbox-like). */
export interface StackEntryOptions {
  /** Starting size; `"auto"` (or unset) measures the child. */
  basis?: number | "auto";
  /** Share of the free space this child takes (0: none). */
  grow?: number;
  /** Weight for giving up space when the children overflow (default 1). */
  shrink?: number;
  /** The smallest size the child is given. */
  minSize?: number;
  /** The largest size the child is given. */
  maxSize?: number;
  /** Hides the child for viewports where this returns false. */
  visible?: (viewport: LayoutViewport) => boolean;
}

/** One child of a stack and its size options. */
export interface StackLayoutEntry extends StackEntryOptions {
  component: Component;
}

/** A vertical or horizontal stack of children. */
export interface StackLayoutNode {
  type: "vstack" | "hstack";
  entries: readonly StackLayoutEntry[];
  gap: number;
  align: "stretch" | "start" | "center" | "end";
}

/** What the layout engine reads from and reports to a scroll view. */
export interface ScrollLayoutState {
  readonly scrollTop: number;
  readonly primary: boolean;
  readonly overscroll: "chain" | "contain";
  readonly viewportHeight: number;
  getContentWidth(width: number): number;
  updateLayout(contentHeight: number, viewportHeight: number, requestRender: () => void): void;
}

/** A vertically scrolled viewport over one child. */
export interface ScrollLayoutNode {
  type: "scroll";
  component: Component;
  state: ScrollLayoutState;
}

/** Any arrangement the layout engine understands. */
export type LayoutNode = StackLayoutNode | ScrollLayoutNode;

/** A component that describes its own layout. */
export interface LayoutComponent extends Component {
  [LAYOUT_NODE](): LayoutNode;
}

/** The layout node of `component`, or undefined for a plain component that just renders lines. */
export function getLayoutNode(component: Component): LayoutNode | undefined {
  const method = (component as Partial<LayoutComponent>)[LAYOUT_NODE];
  return typeof method === "function" ? method.call(component) : undefined;
}
