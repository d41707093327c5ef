/**
 * The focus and overlay half of a TUI: which component has keyboard focus, the overlay stack with
 * its focus hand-back rules, compositing overlays into a frame, and the cursor markers of a frame.
 * `TuiBase` adds the terminal lifecycle, input and render scheduling on top.
 *
 * @module
 */
import type { Terminal } from "./terminal_interface.ts";
import {
  type Component,
  Container,
  dispatchMouseEvent,
  isFocusable,
  type TuiMouseDispatchResult,
  type TuiMouseEvent,
} from "./tui_component.ts";
import {
  extractCursorPosition,
  finishLine,
  paintOverlays,
  type PlacedOverlay,
  resolveFakeCursorLine,
} from "./tui_frame_lines.ts";
import { compositeTuiLine, resolveOverlayLayout } from "./tui_overlay_layout.ts";
import type { OverlayBounds, OverlayHandle, OverlayOptions, OverlayUnfocusOptions } from "./tui_types.ts";

/** One shown overlay. */
export interface OverlayEntry {
  component: Component;
  options?: OverlayOptions;
  /** Who had focus when the overlay was shown; focus goes back there. */
  preFocus: Component | null;
  hidden: boolean;
  /** Stacking order: higher is drawn on top. */
  focusOrder: number;
  bounds?: OverlayBounds;
}

interface RenderedOverlayLayout {
  entry: OverlayEntry;
  row: number;
  col: number;
  width: number;
  height: number;
}

type OverlayFocusResume =
  | { status: "restore-overlay" }
  | { status: "focus-target"; target: Component | null };

/**
 * Whether focus should go back to an overlay the user clicked away from. "eligible": the focused
 * overlay can take focus back on the next key; "blocked": something else was focused on purpose
 * and holds focus until it lets go, then `resume` says where focus goes.
 */
type OverlayFocusRestore =
  | { status: "inactive" }
  | { status: "eligible"; overlay: OverlayEntry }
  | { status: "blocked"; overlay: OverlayEntry; blockedBy: Component | null; resume: OverlayFocusResume };

/** Focus, overlays and cursor markers of a TUI; see {@link TuiBase}. */
export abstract class TuiOverlayHost extends Container {
  /** The terminal drawn on. */
  terminal: Terminal;
  /** The component receiving keys. */
  protected focusedComponent: Component | null = null;
  /** Whether a render request since the last frame may have changed component output. */
  protected contentChanged = true;
  /** Set by stop(); cleared by start(). */
  protected stopped = false;
  protected showHardwareCursor = false;
  protected overlayStack: OverlayEntry[] = [];
  private focusOrderCounter = 0;
  private renderedOverlayLayouts: RenderedOverlayLayout[] = [];
  protected overlayFocusRestore: OverlayFocusRestore = { status: "inactive" };

  constructor(terminal: Terminal, showHardwareCursor?: boolean) {
    super();
    this.terminal = terminal;
    if (showHardwareCursor !== undefined) this.showHardwareCursor = showHardwareCursor;
  }

  /** Asks for a frame. */
  abstract requestRender(force?: boolean): void;

  /** Whether any overlay, visible or not, is on the stack. */
  get hasOverlayEntries(): boolean {
    return this.overlayStack.length > 0;
  }

  /** The component receiving keys, if any. */
  getFocusedComponent(): Component | null {
    return this.focusedComponent;
  }

  /** Gives keyboard focus to a component (or to nobody). */
  setFocus(component: Component | null): void {
    this.setFocusInternal(component, "clear");
  }

  protected setFocusInternal(component: Component | null, restoreMode: "clear" | "preserve"): void {
    // Focused components draw a cursor, so a focus change must not reuse earlier output.
    this.contentChanged = true;
    const previous = this.focusedComponent;
    let next = component;
    const previousOverlay = previous ? this.visibleEntryOf(previous) : undefined;
    const nextIsOverlay = next !== null && this.overlayStack.some((e) => e.component === next);
    const restore = this.getVisibleOverlayFocusRestore();
    if (next && !nextIsOverlay) {
      if (restore.status === "blocked" && restore.blockedBy === previous) {
        if (restore.resume.status === "focus-target" || !this.isComponentMounted(restore.blockedBy)) {
          next = this.resolveBlockedOverlayFocusResume(restore);
        } else {
          this.overlayFocusRestore = { ...restore, blockedBy: next };
        }
      } else if (
        previousOverlay && restore.status !== "inactive" && restore.overlay === previousOverlay &&
        !this.isOverlayFocusAncestor(previousOverlay, next)
      ) {
        this.overlayFocusRestore = {
          status: "blocked",
          overlay: previousOverlay,
          blockedBy: next,
          resume: { status: "restore-overlay" },
        };
      }
    } else if (next === null) {
      if (restore.status === "blocked" && restore.blockedBy === previous) {
        next = this.resolveBlockedOverlayFocusResume(restore);
      } else if (restoreMode === "clear") {
        this.clearOverlayFocusRestore();
      }
    }
    if (isFocusable(this.focusedComponent)) this.focusedComponent.focused = false;
    this.focusedComponent = next;
    if (isFocusable(next)) next.focused = true;
    const focusedOverlay = next ? this.visibleEntryOf(next) : undefined;
    if (focusedOverlay) this.overlayFocusRestore = { status: "eligible", overlay: focusedOverlay };
  }

  private visibleEntryOf(component: Component): OverlayEntry | undefined {
    return this.overlayStack.find((e) => e.component === component && this.isOverlayVisible(e));
  }

  protected clearOverlayFocusRestore(): void {
    this.overlayFocusRestore = { status: "inactive" };
  }

  private clearOverlayFocusRestoreFor(overlay: OverlayEntry): void {
    const restore = this.overlayFocusRestore;
    if (restore.status !== "inactive" && restore.overlay === overlay) this.clearOverlayFocusRestore();
  }

  private resolveBlockedOverlayFocusResume(
    restore: Extract<OverlayFocusRestore, { status: "blocked" }>,
  ): Component | null {
    if (restore.resume.status === "restore-overlay") return restore.overlay.component;
    this.clearOverlayFocusRestore();
    return restore.resume.target;
  }

  /** The restore state, or inactive when its overlay is gone or not visible. */
  protected getVisibleOverlayFocusRestore(): OverlayFocusRestore {
    const restore = this.overlayFocusRestore;
    if (restore.status === "inactive") return restore;
    if (!this.overlayStack.includes(restore.overlay) || !this.isOverlayVisible(restore.overlay)) {
      return { status: "inactive" };
    }
    return restore;
  }

  /** Whether `component` is on the chain of components focused before this overlay (and overlays below). */
  private isOverlayFocusAncestor(entry: OverlayEntry, component: Component): boolean {
    const seen = new Set<Component>();
    let current = entry.preFocus;
    while (current && !seen.has(current)) {
      seen.add(current);
      if (current === component) return true;
      const holder: Component = current;
      current = this.overlayStack.find((o) => o.component === holder)?.preFocus ?? null;
    }
    return false;
  }

  /** Overlays that would hand focus back to a removed overlay hand it to what that one would have. */
  private retargetOverlayPreFocus(removed: OverlayEntry): void {
    for (const overlay of this.overlayStack) {
      if (overlay !== removed && overlay.preFocus === removed.component) overlay.preFocus = removed.preFocus;
    }
  }

  /** The roots of the component tree; the alternate screen adds its layout root. */
  protected getMountedRoots(): readonly Component[] {
    return this.children;
  }

  private isComponentMounted(component: Component | null): boolean {
    return this.getMountedRoots().some((root) => containsComponent(root, component));
  }

  /** Hide the cursor while running. After stop(), the shell owns the cursor and it must stay visible. */
  protected hideTerminalCursor(): void {
    if (!this.stopped) this.terminal.hideCursor();
  }

  /**
   * Show an overlay component with configurable positioning and sizing.
   * Returns a handle to control the overlay's visibility.
   */
  showOverlay(component: Component, options?: OverlayOptions): OverlayHandle {
    const entry: OverlayEntry = {
      component,
      ...(options === undefined ? {} : { options }),
      preFocus: this.focusedComponent,
      hidden: false,
      focusOrder: ++this.focusOrderCounter,
    };
    this.overlayStack.push(entry);
    if (!options?.nonCapturing && this.isOverlayVisible(entry)) this.setFocus(component);
    this.hideTerminalCursor();
    this.requestRender();
    return {
      hide: () => {
        if (!this.overlayStack.includes(entry)) return;
        this.removeOverlay(entry);
        this.requestRender();
      },
      setHidden: (hidden) => {
        if (entry.hidden === hidden) return;
        entry.hidden = hidden;
        if (hidden) {
          this.clearOverlayFocusRestoreFor(entry);
          if (this.focusedComponent === component) this.focusNextAfter(entry);
        } else if (!options?.nonCapturing && this.isOverlayVisible(entry)) {
          entry.focusOrder = ++this.focusOrderCounter;
          this.setFocus(component);
        }
        this.requestRender();
      },
      isHidden: () => entry.hidden,
      focus: () => {
        if (!this.overlayStack.includes(entry) || !this.isOverlayVisible(entry)) return;
        entry.focusOrder = ++this.focusOrderCounter;
        this.setFocus(component);
        this.requestRender();
      },
      unfocus: (unfocusOptions) => this.unfocusOverlay(entry, unfocusOptions),
      isFocused: () => this.focusedComponent === component,
      getBounds: () => {
        if (!this.overlayStack.includes(entry) || !this.isOverlayVisible(entry) || !entry.bounds) {
          return undefined;
        }
        return { ...entry.bounds };
      },
    };
  }

  private unfocusOverlay(entry: OverlayEntry, options: OverlayUnfocusOptions | undefined): void {
    const isFocused = this.focusedComponent === entry.component;
    const restore = this.overlayFocusRestore;
    const pending = restore.status !== "inactive" && restore.overlay === entry;
    if (!isFocused && !pending) return;
    if (
      restore.status === "blocked" && restore.overlay === entry && this.focusedComponent === restore.blockedBy
    ) {
      // Focus is elsewhere already: only change where it goes once the blocker lets go.
      if (options) {
        this.overlayFocusRestore = { ...restore, resume: { status: "focus-target", target: options.target } };
      } else {
        this.clearOverlayFocusRestore();
      }
      this.requestRender();
      return;
    }
    this.clearOverlayFocusRestoreFor(entry);
    if (isFocused || options) {
      const top = this.getTopmostVisibleOverlay();
      const fallback = top && top !== entry ? top.component : entry.preFocus;
      this.setFocus(options ? options.target : fallback);
    }
    this.requestRender();
  }

  /** Focus moves from a hidden or removed overlay to the topmost visible one, else to its preFocus. */
  private focusNextAfter(entry: OverlayEntry): void {
    this.setFocus(this.getTopmostVisibleOverlay()?.component ?? entry.preFocus);
  }

  private removeOverlay(entry: OverlayEntry): void {
    this.clearOverlayFocusRestoreFor(entry);
    this.retargetOverlayPreFocus(entry);
    this.overlayStack.splice(this.overlayStack.indexOf(entry), 1);
    if (this.focusedComponent === entry.component) this.focusNextAfter(entry);
    if (this.overlayStack.length === 0) this.hideTerminalCursor();
  }

  /** Hide the topmost overlay and restore previous focus. */
  hideOverlay(): void {
    const overlay = this.overlayStack[this.overlayStack.length - 1];
    if (!overlay) return;
    this.removeOverlay(overlay);
    this.requestRender();
  }

  /** Check if there are any visible overlays */
  hasOverlay(): boolean {
    return this.overlayStack.some((o) => this.isOverlayVisible(o));
  }

  /** Check if the focused component is a visible overlay */
  protected isOverlayFocused(): boolean {
    return this.overlayStack.some((e) => e.component === this.focusedComponent && this.isOverlayVisible(e));
  }

  /** Keep overlay containers as keyboard focus owners when a nested control is clicked. */
  protected resolveMouseFocusTarget(component: Component): Component {
    for (let i = this.overlayStack.length - 1; i >= 0; i--) {
      const overlay = this.overlayStack[i];
      if (this.isOverlayVisible(overlay) && containsComponent(overlay.component, component)) {
        return overlay.component;
      }
    }
    return component;
  }

  /** Dispatch to the visually topmost overlay under the pointer. */
  protected dispatchMouseToOverlay(event: TuiMouseEvent): { hit: boolean; result?: TuiMouseDispatchResult } {
    for (let i = this.renderedOverlayLayouts.length - 1; i >= 0; i--) {
      const layout = this.renderedOverlayLayouts[i];
      if (
        event.screenX < layout.col || event.screenX >= layout.col + layout.width ||
        event.screenY < layout.row || event.screenY >= layout.row + layout.height
      ) continue;
      const result = dispatchMouseEvent(layout.entry.component, {
        ...event,
        x: event.screenX - layout.col,
        y: event.screenY - layout.row,
        width: layout.width,
        height: layout.height,
      });
      if (!result) return { hit: true };
      return {
        hit: true,
        result: result.focus ? { ...result, focusTarget: layout.entry.component } : result,
      };
    }
    return { hit: false };
  }

  /** Whether an overlay is shown: not hidden, and its visible() callback agrees. */
  protected isOverlayVisible(entry: OverlayEntry): boolean {
    if (entry.hidden) return false;
    const visible = entry.options?.visible;
    return visible ? visible(this.terminal.columns, this.terminal.rows) : true;
  }

  /** The visual-frontmost visible capturing overlay, if any. */
  protected getTopmostVisibleOverlay(): OverlayEntry | undefined {
    let top: OverlayEntry | undefined;
    for (const overlay of this.overlayStack) {
      if (overlay.options?.nonCapturing || !this.isOverlayVisible(overlay)) continue;
      if (!top || overlay.focusOrder > top.focusOrder) top = overlay;
    }
    return top;
  }

  /** Invalidates every mounted root and every overlay. */
  override invalidate(): void {
    for (const root of this.getMountedRoots()) root.invalidate();
    for (const overlay of this.overlayStack) overlay.component.invalidate();
  }

  /** Composite all overlays into content lines (sorted by focusOrder, higher = on top). */
  protected compositeOverlays(lines: string[], termWidth: number, termHeight: number): string[] {
    if (this.overlayStack.length === 0) {
      this.renderedOverlayLayouts = [];
      return lines;
    }
    for (const entry of this.overlayStack) entry.bounds = undefined;
    const visible = this.overlayStack.filter((e) => this.isOverlayVisible(e))
      .sort((a, b) => a.focusOrder - b.focusOrder);
    const rendered: RenderedOverlayLayout[] = [];
    const placed: PlacedOverlay[] = [];
    for (const entry of visible) {
      const { width, maxHeight } = resolveOverlayLayout(entry.options, 0, termWidth, termHeight);
      let overlayLines = this.resolveFakeCursors(entry.component.render(width));
      if (maxHeight !== undefined && overlayLines.length > maxHeight) {
        overlayLines = overlayLines.slice(0, maxHeight);
      }
      const { row, col } = resolveOverlayLayout(entry.options, overlayLines.length, termWidth, termHeight);
      entry.bounds = { row, col, width, height: overlayLines.length };
      rendered.push({ entry, row, col, width, height: overlayLines.length });
      placed.push({ lines: overlayLines, row, col, width });
    }
    this.renderedOverlayLayouts = rendered;
    return paintOverlays(
      lines.slice(),
      placed,
      termHeight,
      (base, overlay, col, width) => this.compositeLineAt(base, overlay, col, width, termWidth),
    );
  }

  /** Ends every line with a full reset and strips cursor markers (image lines pass untouched). */
  protected applyLineResets(lines: string[]): string[] {
    for (let i = 0; i < lines.length; i++) lines[i] = finishLine(lines[i]);
    return lines;
  }

  protected compositeLineAt(
    baseLine: string,
    overlayLine: string,
    startCol: number,
    overlayWidth: number,
    totalWidth: number,
  ): string {
    return compositeTuiLine(baseLine, overlayLine, startCol, overlayWidth, totalWidth);
  }

  /**
   * Find and extract cursor position from rendered lines.
   * Searches the bottom `height` lines (the visible viewport) from the bottom for CURSOR_MARKER,
   * strips the markers of that line and returns where the first one was.
   */
  protected extractCursorPosition(lines: string[], height: number): { row: number; col: number } | null {
    return extractCursorPosition(lines, height);
  }

  /**
   * Resolve fake cursor markers to reverse video. When the hardware cursor is shown, a fake cursor
   * directly after CURSOR_MARKER is dropped because the terminal cursor is drawn there. Fake cursors
   * of components without focus have no CURSOR_MARKER and stay visible.
   */
  protected resolveFakeCursors(lines: readonly string[]): string[] {
    return lines.map((line) => resolveFakeCursorLine(line, this.showHardwareCursor));
  }
}

/** Whether `target` is `root` or inside it (through nested containers). */
function containsComponent(root: Component, target: Component | null): boolean {
  if (root === target) return true;
  if (!(root instanceof Container)) return false;
  return root.children.some((child) => containsComponent(child, target));
}
