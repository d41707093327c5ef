/**
 * Everything the pointer does in the fullscreen TUI besides text selection: routing mouse events to
 * components (with capture, press targets and synthesized clicks), wheel routing through nested
 * scroll views, scrollbar hover and dragging, the jump-to-end label, right-click paste. Left-button
 * events nobody takes go to the text selection (`alt_screen_text_selection.ts`).
 *
 * It owns that state; the TUI gives it a narrow {@link AltScreenPointerHost} view of itself.
 *
 * @module
 */
import {
  type AltScreenRawMouseEvent,
  type AltScreenWheelEvent,
  createMouseEvent,
  decodeMouseButton,
} from "./alt_screen_mouse.ts";
import type { ScrollToEndIndicatorRect } from "./alt_screen_paint.ts";
import { type AltScreenSelectionHost, AltScreenTextSelection } from "./alt_screen_text_selection.ts";
import type { ScrollView } from "./components/scroll_view.ts";
import {
  getLayoutBoxesAt,
  getScrollbarGeometry,
  getScrollViewBox,
  getScrollViewsAt,
  type ScrollbarGeometry,
} from "./layout.ts";
import { getLayoutNode } from "./layout_node.ts";
import {
  type Component,
  Container,
  dispatchMouseEvent,
  retargetMouseEvent,
  type TuiMouseDispatchResult,
  type TuiMouseDispatchTarget,
  type TuiMouseEvent,
  type TuiMouseEventType,
} from "./tui_component.ts";
import { readEnv } from "../util/env.ts";

const DOUBLE_CLICK_INTERVAL_MS = 500;

/** What the pointer needs of the TUI: what the selection needs, and more. */
export interface AltScreenPointerHost extends Omit<AltScreenSelectionHost, "dispatchClick"> {
  /** The topmost overlay under the event and its result. */
  dispatchToOverlay(event: TuiMouseEvent): { hit: boolean; result?: TuiMouseDispatchResult };
  /** The component that keeps keyboard focus for a clicked one. */
  resolveFocusTarget(component: Component): Component;
  /** The focused component. */
  getFocusedComponent(): Component | null;
  /** Gives keyboard focus. */
  setFocus(component: Component | null): void;
  /** Scrolls the primary view to its end. */
  scrollToBottom(): void;
  /** The search box's buttons; true when the event pressed one. */
  searchMouse(event: AltScreenRawMouseEvent): boolean;
  /** Right-button paste (Windows). */
  onRightClickPaste?: () => void;
}

interface LastComponentClick {
  timestamp: number;
  count: number;
  component: Component;
  x: number;
  y: number;
}

/** Pointer state and gestures of one `TuiAltScreen`. */
export class AltScreenPointer {
  /** Where the jump-to-end label was drawn in the last frame (set by the renderer). */
  scrollToEndIndicatorRect: ScrollToEndIndicatorRect | undefined;
  /** The text selection, which gets the left-button events no component or scrollbar took. */
  readonly selection: AltScreenTextSelection;
  private readonly host: AltScreenPointerHost;
  private scrollbarDrag?: { scrollView: ScrollView; grabOffset: number };
  private scrollbarHover?: ScrollView;
  private mouseCapture?: TuiMouseDispatchTarget;
  private mousePressTarget?: TuiMouseDispatchTarget;
  private mousePressPoint?: { x: number; y: number };
  private mousePressMoved = false;
  private lastComponentClick?: LastComponentClick;

  /** A pointer for the TUI behind `host`. */
  constructor(host: AltScreenPointerHost) {
    this.host = host;
    this.selection = new AltScreenTextSelection({
      terminal: () => host.terminal(),
      layout: () => host.layout(),
      screen: () => host.screen(),
      requestRender: () => host.requestRender(),
      requestViewRender: () => host.requestViewRender(),
      hasOverlay: () => host.hasOverlay(),
      dispatchClick: (event) => {
        const result = this.dispatch(event);
        return result ? this.applyResult(event, result) : undefined;
      },
      copySelection: () => host.copySelection(),
      copyOnSelect: () => host.copyOnSelect(),
      openUrl: host.openUrl,
    });
  }

  /** Forgets every gesture and the selection (the TUI (re)starts). */
  reset(): void {
    this.stopGestures();
    this.selection.reset();
    this.lastComponentClick = undefined;
  }

  /** Ends running gestures (auto-scroll, drags, hover, captures) and keeps the selection. */
  stopGestures(): void {
    this.selection.stopGesture();
    this.stopScrollbarHover();
    this.scrollbarDrag = undefined;
    this.clearComponentMouseGesture();
  }

  /** The terminal lost focus: no button is down any more, so end gestures and drop a selection in progress. */
  focusLost(): void {
    this.selection.focusLost();
    this.stopScrollbarHover();
    this.scrollbarDrag = undefined;
    this.clearComponentMouseGesture();
    this.lastComponentClick = undefined;
  }

  /** Ends a component's press or capture. */
  private clearComponentMouseGesture(): void {
    this.mouseCapture = undefined;
    this.mousePressTarget = undefined;
    this.mousePressPoint = undefined;
    this.mousePressMoved = false;
  }

  // --- routing to components ---

  /** The deepest laid-out component under the event that handles it, in screen-to-local coordinates. */
  private dispatchToLayout(event: TuiMouseEvent): TuiMouseDispatchResult | undefined {
    const layout = this.host.layout();
    if (!layout) return undefined;
    const visited = new Set<Component>();
    for (const box of getLayoutBoxesAt(layout, event.screenX, event.screenY)) {
      if (visited.has(box.component)) continue;
      // Stacks and scroll views without their own handler: their children have boxes of their own.
      if (getLayoutNode(box.component) && box.component.handleMouse === Container.prototype.handleMouse) {
        continue;
      }
      visited.add(box.component);
      const result = dispatchMouseEvent(box.component, {
        ...event,
        x: event.screenX - box.rect.x,
        y: event.screenY - box.rect.y,
        width: box.rect.width,
        height: box.rect.height,
      });
      if (result) return result;
    }
    return undefined;
  }

  /** The overlay under the pointer, else the layout: the handling component's result. */
  private dispatch(event: TuiMouseEvent): TuiMouseDispatchResult | undefined {
    const overlay = this.host.dispatchToOverlay(event);
    return overlay.result ?? (overlay.hit ? undefined : this.dispatchToLayout(event));
  }

  /** Applies focus and capture requests; returns whether a frame is due. */
  private applyResult(event: TuiMouseEvent, result: TuiMouseDispatchResult): boolean {
    const focusTarget = this.host.resolveFocusTarget(result.focusTarget ?? result.target.component);
    const focusChanged = result.focus === true && this.host.getFocusedComponent() !== focusTarget;
    if (result.focus) this.host.setFocus(focusTarget);
    if (result.capture) this.mouseCapture = result.target;
    return result.render ??
      (focusChanged || event.type === "press" || event.type === "click" || event.type === "drag" ||
        event.type === "wheel");
  }

  /**
   * A wheel notch scrolling `delta` lines: a component under the pointer that handles wheel events
   * takes it; otherwise the scroll views there move.
   */
  handleWheel(wheel: AltScreenWheelEvent, delta: number, primary: ScrollView): void {
    const terminal = this.host.terminal();
    const event = createMouseEvent("wheel", wheel.button, wheel.x, wheel.y, terminal.columns, terminal.rows, {
      wheelDelta: delta,
    });
    const result = this.dispatch(event);
    if (result) {
      if (this.applyResult(event, result)) this.host.requestRender();
      return;
    }
    this.routeWheel(wheel.x, wheel.y, delta, primary);
  }

  /**
   * Scrolls the views under the pointer, innermost first, each passing on what it could not take
   * (unless it contains its overscroll); what is left goes to the primary view.
   */
  private routeWheel(x: number, y: number, delta: number, primary: ScrollView): void {
    let remaining = delta;
    const seen = new Set<ScrollView>();
    const layout = this.host.layout();
    for (const scrollView of layout ? getScrollViewsAt(layout, x, y) : []) {
      seen.add(scrollView);
      remaining = scrollView.scrollBy(remaining);
      if (remaining === 0 || scrollView.overscroll === "contain") break;
    }
    if (remaining !== 0 && !seen.has(primary)) primary.scrollBy(remaining);
    this.updateScrollbarHover(x, y);
    // Only the viewport moved: reusing the last output keeps a wheel frame O(viewport). Rendering a
    // long transcript again on every wheel event saturated a core.
    this.host.requestViewRender();
  }

  /** 1, 2 or 3 for repeated clicks on one cell of one component within 500 ms. */
  private getComponentClickCount(target: TuiMouseDispatchTarget, x: number, y: number): number {
    const now = Date.now();
    const previous = this.lastComponentClick;
    const count = previous && now - previous.timestamp <= DOUBLE_CLICK_INTERVAL_MS &&
        previous.component === target.component && previous.x === x && previous.y === y
      ? (previous.count % 3) + 1
      : 1;
    this.lastComponentClick = { timestamp: now, count, component: target.component, x, y };
    return count;
  }

  /** A press, motion or release report (wheel reports are routed by the TUI). */
  handleMouseEvent(raw: AltScreenRawMouseEvent): void {
    const terminal = this.host.terminal();
    const motion = (raw.button & 32) !== 0;
    const type: TuiMouseEventType = raw.release
      ? "release"
      : motion
      ? decodeMouseButton(raw.button) === "none" ? "move" : "drag"
      : "press";
    const event = createMouseEvent(type, raw.button, raw.x, raw.y, terminal.columns, terminal.rows);
    const target = this.mouseCapture ?? this.mousePressTarget;
    if (target) {
      this.continueComponentGesture(raw, event, target);
      return;
    }
    if (this.host.searchMouse(raw)) return;
    const overlay = this.host.dispatchToOverlay(event);
    if (!overlay.hit) {
      if (this.handleScrollToEndIndicator(raw)) return;
      const scrollbarHandled = this.handleScrollbarMouseEvent(raw);
      if (!this.scrollbarDrag) this.updateScrollbarHover(raw.x, raw.y);
      if (scrollbarHandled) return;
    } else {
      this.stopScrollbarHover();
    }
    const result = overlay.result ?? (overlay.hit ? undefined : this.dispatchToLayout(event));
    if (result) {
      const render = this.applyResult(event, result);
      if (type === "press") {
        this.selection.clear();
        this.mousePressTarget = result.target;
        this.mousePressPoint = { x: raw.x, y: raw.y };
        this.mousePressMoved = false;
      }
      if (render) this.host.requestRender();
      return;
    }
    if (this.handleRightClickPaste(raw)) return;
    this.selection.handleMouseEvent(raw);
  }

  /** Events after a component took a press go to it; a release where it was pressed is also a click. */
  private continueComponentGesture(
    raw: AltScreenRawMouseEvent,
    event: TuiMouseEvent,
    target: TuiMouseDispatchTarget,
  ): void {
    const terminal = this.host.terminal();
    if (this.mousePressPoint && (raw.x !== this.mousePressPoint.x || raw.y !== this.mousePressPoint.y)) {
      this.mousePressMoved = true;
      this.lastComponentClick = undefined;
    }
    let render = false;
    const targetResult = dispatchMouseEvent(target.component, retargetMouseEvent(event, target));
    if (targetResult) render = this.applyResult(event, targetResult);
    if (raw.release) {
      if (!this.mousePressMoved && this.mousePressPoint?.x === raw.x && this.mousePressPoint.y === raw.y) {
        const click = createMouseEvent("click", raw.button, raw.x, raw.y, terminal.columns, terminal.rows, {
          clickCount: this.getComponentClickCount(target, raw.x, raw.y),
        });
        const clickResult = dispatchMouseEvent(target.component, retargetMouseEvent(click, target));
        if (clickResult) render = this.applyResult(click, clickResult) || render;
      }
      this.clearComponentMouseGesture();
    }
    if (render) this.host.requestRender();
  }

  /** Right-button paste, for Windows terminals that do not paste on right click themselves. */
  private handleRightClickPaste(event: AltScreenRawMouseEvent): boolean {
    if (
      !this.host.onRightClickPaste || Deno.build.os !== "windows" ||
      readEnv("TERM_PROGRAM")?.toLowerCase() === "vscode" || event.release || event.button !== 2
    ) {
      return false;
    }
    try {
      this.host.onRightClickPaste();
    } catch {
      // Pasting is best-effort.
    }
    return true;
  }

  /** A press on the jump-to-end label scrolls to the end. */
  private handleScrollToEndIndicator(event: AltScreenRawMouseEvent): boolean {
    const rect = this.scrollToEndIndicatorRect;
    if (!rect || event.release || (event.button & 32) !== 0 || (event.button & 3) !== 0) return false;
    if (event.y !== rect.row || event.x < rect.column || event.x >= rect.column + rect.width) return false;
    this.host.scrollToBottom();
    return true;
  }

  // --- scrollbars ---

  /** The scroll view whose scrollbar is at (x, y), and its geometry. */
  private getScrollbarTargetAt(
    x: number,
    y: number,
    includeHiddenAuto = false,
  ): { scrollView: ScrollView; geometry: ScrollbarGeometry } | undefined {
    const layout = this.host.layout();
    if (this.host.hasOverlay() || !layout) return undefined;
    for (const scrollView of getScrollViewsAt(layout, x, y)) {
      const box = getScrollViewBox(layout, scrollView);
      const geometry = box ? getScrollbarGeometry(box, includeHiddenAuto) : undefined;
      if (
        geometry && x === geometry.column && y >= geometry.trackTop &&
        y < geometry.trackTop + geometry.trackHeight
      ) {
        return { scrollView, geometry };
      }
    }
    return undefined;
  }

  /** Marks the view whose scrollbar the pointer is on (its thumb is drawn solid). */
  private setScrollbarHover(scrollView: ScrollView | undefined): void {
    if (scrollView === this.scrollbarHover) return;
    this.scrollbarHover?.setScrollbarActive(false);
    this.scrollbarHover = scrollView;
    this.scrollbarHover?.setScrollbarActive(true);
  }

  /** Hover follows the pointer. */
  private updateScrollbarHover(x: number, y: number): void {
    this.setScrollbarHover(this.getScrollbarTargetAt(x, y, true)?.scrollView);
  }

  /** No scrollbar is hovered. */
  private stopScrollbarHover(): void {
    this.setScrollbarHover(undefined);
  }

  /** Scrolls so the thumb, held `grabOffset` rows below its top, is under the pointer. */
  private scrollToPointer(
    scrollView: ScrollView,
    geometry: ScrollbarGeometry,
    pointerY: number,
    grabOffset: number,
  ) {
    const maxThumbOffset = geometry.trackHeight - geometry.thumbHeight;
    const thumbOffset = Math.max(0, Math.min(maxThumbOffset, pointerY - geometry.trackTop - grabOffset));
    scrollView.scrollTo(
      maxThumbOffset === 0 ? 0 : Math.round((thumbOffset / maxThumbOffset) * geometry.maxScrollTop),
    );
  }

  /** Presses on a scrollbar and the drag that follows: true when the scrollbar took the event. */
  private handleScrollbarMouseEvent(event: AltScreenRawMouseEvent): boolean {
    if (this.scrollbarDrag) {
      if (event.release) {
        this.scrollbarDrag = undefined;
        return true;
      }
      const layout = this.host.layout();
      const box = layout ? getScrollViewBox(layout, this.scrollbarDrag.scrollView) : undefined;
      const geometry = box ? getScrollbarGeometry(box) : undefined;
      if (geometry) {
        this.scrollToPointer(this.scrollbarDrag.scrollView, geometry, event.y, this.scrollbarDrag.grabOffset);
      }
      return true;
    }
    if (event.release || (event.button & 32) !== 0 || (event.button & 3) !== 0) return false;
    const target = this.getScrollbarTargetAt(event.x, event.y);
    if (!target) return false;
    this.selection.reset();
    this.setScrollbarHover(target.scrollView);
    const { geometry } = target;
    const onThumb = event.y >= geometry.thumbTop && event.y < geometry.thumbTop + geometry.thumbHeight;
    // A press on the track jumps there, holding the thumb by its middle.
    const grabOffset = onThumb ? event.y - geometry.thumbTop : Math.floor(geometry.thumbHeight / 2);
    if (!onThumb) this.scrollToPointer(target.scrollView, geometry, event.y, grabOffset);
    this.scrollbarDrag = { scrollView: target.scrollView, grabOffset };
    return true;
  }
}
