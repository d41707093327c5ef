/**
 * The data of a fullscreen layout frame: boxes with their screen rectangles and clips.
 *
 * @module
 */
import type { ScrollView } from "./components/scroll_view.ts";
import type { Component } from "./tui_component.ts";

/** A rectangle of terminal cells; `x`/`y` are zero-based screen coordinates. */
export interface LayoutRect {
  /** First column. */
  x: number;
  /** First row. */
  y: number;
  /** Columns. */
  width: number;
  /** Rows. */
  height: number;
}

/** Where one component landed in a frame. */
export interface LayoutBox {
  /** The component laid out. */
  component: Component;
  /** The cells the component was given (may extend past the screen or its parent). */
  rect: LayoutRect;
  /** The part of `rect` that is visible through every ancestor. */
  clip: LayoutRect;
  /** Boxes of its children. */
  children: LayoutBox[];
  /** The enclosing box. */
  parent?: LayoutBox;
  /** A leaf's rendered lines. */
  lines?: readonly string[];
  /** The first of `lines` shown (to keep a cursor line visible in a box shorter than its lines). */
  lineOffset?: number;
  /** Set on a scroll view's box. */
  scrollView?: ScrollView;
  /** A scroll view's whole content, as rendered this frame. */
  scrollContentLines?: readonly string[];
  /** Stacking order for hit-testing (higher: on top). */
  layer: number;
}

/** Component output by width, as rendered for one layout frame. */
export type LayoutRenderCache = Map<Component, Map<number, readonly string[]>>;

/** One laid-out and painted screen. */
export interface LayoutFrame {
  /** The root component's box. */
  root: LayoutBox;
  /** Screen columns. */
  width: number;
  /** Screen rows. */
  height: number;
  /** The painted rows. */
  lines: string[];
  /** The primary scroll view (the first laid out, unless one is marked primary). */
  primaryScrollView?: ScrollView;
  /** Output of every component this frame rendered; pass it to a later frame whose content did not change. */
  renderCache: LayoutRenderCache;
}

/** Where a scroll view's scrollbar and its thumb are on screen. */
export interface ScrollbarGeometry {
  /** The screen column of the bar (the view's last). */
  column: number;
  /** The first screen row of the track. */
  trackTop: number;
  /** The track's rows (the view's height). */
  trackHeight: number;
  /** The first screen row of the thumb. */
  thumbTop: number;
  /** The thumb's rows (at least two, when the track has them). */
  thumbHeight: number;
  /** The largest scroll position. */
  maxScrollTop: number;
}
