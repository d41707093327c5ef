/**
 * A vertically scrolled viewport over one child, for the fullscreen TUI.
 *
 * The fullscreen layout engine gives the view its height, tells it the child's full height
 * (`updateLayout`) and paints the visible window and the scrollbar; the view itself keeps the scroll
 * position, follows the end of growing content when asked to, and decides when its scrollbar shows.
 * Rendered inline (outside the fullscreen TUI) it is just its child, plus a blank scrollbar column.
 *
 * @module
 */
import { LAYOUT_NODE, type ScrollLayoutNode } from "../layout_node.ts";
import { type Component, Container } from "../tui_component.ts";

/** When the scrollbar is drawn: never, briefly after scrolling (when the content overflows), or always. */
export type ScrollViewScrollbar = "hidden" | "auto" | "always";

/** Behaviour and looks of a {@link ScrollView}. */
export interface ScrollViewOptions {
  /** Only `"vertical"` is supported. */
  axis?: "vertical";
  /** `"end"` keeps the view at the bottom while it is there and the content grows. */
  follow?: "none" | "end";
  /** The view the TUI's own scroll keys move (the first one in layout order when none is primary). */
  primary?: boolean;
  /** `"chain"` passes wheel movement left over at an edge on to the enclosing view; `"contain"` keeps it. */
  overscroll?: "chain" | "contain";
  /** When the scrollbar shows (default `"hidden"`). */
  scrollbar?: ScrollViewScrollbar;
  /** Styles the track glyph (default: bright black). */
  scrollbarTrackStyle?: (text: string) => string;
  /** Styles the thumb glyph (default: white). */
  scrollbarThumbStyle?: (text: string) => string;
  /** How long an `"auto"` scrollbar stays after the last scroll (default 1000 ms). */
  scrollbarHideDelayMs?: number;
}

/** Options of {@link ScrollView.scrollTo}. */
export interface ScrollViewScrollToOptions {
  /** Keep follow-end disabled even when the target is the current content end. */
  disableFollow?: boolean;
}

/** A scrollable viewport over exactly one child. */
export class ScrollView extends Container {
  private readonly child: Component;
  /** Whether the view was made to follow the end of its content (`follow: "end"`). */
  readonly followEnd: boolean;
  /** Whether the TUI's scroll keys move this view. */
  readonly primary: boolean;
  /** What happens to wheel movement left over at an edge. */
  readonly overscroll: "chain" | "contain";
  /** Styles the track glyph. */
  readonly scrollbarTrackStyle: (text: string) => string;
  /** Styles the thumb glyph. */
  readonly scrollbarThumbStyle: (text: string) => string;
  private currentScrollbar: ScrollViewScrollbar;
  private readonly scrollbarHideDelayMs: number;
  private currentScrollTop = 0;
  private contentHeight = 0;
  private currentViewportHeight = 0;
  private followingEnd: boolean;
  /** Set by `scrollTo(end, { disableFollow })`: at the end, yet not following, until it moves away. */
  private followSuppressedAtEnd = false;
  private requestRenderCallback: (() => void) | undefined;
  private transientScrollbarVisible = false;
  private scrollbarActive = false;
  private scrollbarHideTimer: ReturnType<typeof setTimeout> | undefined;

  /** A view over `component`; throws for an axis other than vertical. */
  constructor(component: Component, options: ScrollViewOptions = {}) {
    super();
    if (options.axis !== undefined && options.axis !== "vertical") {
      throw new Error(`Unsupported ScrollView axis: ${options.axis}`);
    }
    this.child = component;
    this.children.push(component);
    this.followEnd = (options.follow ?? "none") === "end";
    this.followingEnd = this.followEnd;
    this.primary = options.primary ?? false;
    this.overscroll = options.overscroll ?? "chain";
    this.currentScrollbar = options.scrollbar ?? "hidden";
    this.scrollbarTrackStyle = options.scrollbarTrackStyle ?? ((text) => `\x1b[90m${text}\x1b[39m`);
    this.scrollbarThumbStyle = options.scrollbarThumbStyle ?? ((text) => `\x1b[37m${text}\x1b[39m`);
    this.scrollbarHideDelayMs = Math.max(0, Math.floor(options.scrollbarHideDelayMs ?? 1000));
  }

  /** The first content line shown. */
  get scrollTop(): number {
    return this.currentScrollTop;
  }

  /** Whether the view sticks to the end of its content as it grows. */
  get isFollowingEnd(): boolean {
    return this.followingEnd;
  }

  /** Rows the view had in the last layout. */
  get viewportHeight(): number {
    return this.currentViewportHeight;
  }

  /** The scrollbar mode. */
  get scrollbar(): ScrollViewScrollbar {
    return this.currentScrollbar;
  }

  /** Whether the next frame draws the scrollbar. */
  get isScrollbarVisible(): boolean {
    if (this.currentScrollbar === "always") return this.currentViewportHeight > 0;
    return this.currentScrollbar === "auto" && this.contentHeight > this.currentViewportHeight &&
      this.transientScrollbarVisible;
  }

  /** Whether the pointer is on the scrollbar (its thumb is drawn solid and it does not hide). */
  get isScrollbarActive(): boolean {
    return this.scrollbarActive;
  }

  /** Changes the scrollbar mode and asks for a frame. */
  setScrollbar(scrollbar: ScrollViewScrollbar): void {
    if (scrollbar === this.currentScrollbar) return;
    this.currentScrollbar = scrollbar;
    if (scrollbar !== "auto") this.hideTransientScrollbar();
    else if (this.scrollbarActive) this.markScrollbarActivity();
    this.requestRenderCallback?.();
  }

  /** The width the child gets: one column less when an always-on scrollbar takes the last one. */
  getContentWidth(width: number): number {
    return this.currentScrollbar === "always" && width > 1 ? width - 1 : width;
  }

  /** Shows an `"auto"` scrollbar and (unless the pointer holds it) schedules hiding it again. */
  private markScrollbarActivity(): void {
    if (this.currentScrollbar !== "auto" || this.contentHeight <= this.currentViewportHeight) return;
    this.transientScrollbarVisible = true;
    if (this.scrollbarHideTimer !== undefined) {
      clearTimeout(this.scrollbarHideTimer);
      this.scrollbarHideTimer = undefined;
    }
    if (this.scrollbarActive) return;
    const timer = setTimeout(() => {
      this.scrollbarHideTimer = undefined;
      this.transientScrollbarVisible = false;
      this.requestRenderCallback?.();
    }, this.scrollbarHideDelayMs);
    Deno.unrefTimer(timer);
    this.scrollbarHideTimer = timer;
  }

  /** Hides an `"auto"` scrollbar now and drops its hide timer. */
  private hideTransientScrollbar(): void {
    this.transientScrollbarVisible = false;
    if (this.scrollbarHideTimer === undefined) return;
    clearTimeout(this.scrollbarHideTimer);
    this.scrollbarHideTimer = undefined;
  }

  /** Marks the pointer as on (or off) the scrollbar. */
  setScrollbarActive(active: boolean): void {
    if (active === this.scrollbarActive) return;
    this.scrollbarActive = active;
    this.markScrollbarActivity();
    this.requestRenderCallback?.();
  }

  /** Scrolls to a line (clamped to the content); reaching the end resumes following unless disabled. */
  scrollTo(scrollTop: number, options: ScrollViewScrollToOptions = {}): void {
    const requested = Number.isFinite(scrollTop) ? Math.trunc(scrollTop) : this.currentScrollTop;
    const maxScrollTop = this.maxScrollTop();
    const next = Math.max(0, Math.min(maxScrollTop, requested));
    const suppressed = options.disableFollow === true && next === maxScrollTop;
    const following = !suppressed && this.followEnd && next === maxScrollTop;
    if (
      next === this.currentScrollTop && following === this.followingEnd &&
      suppressed === this.followSuppressedAtEnd
    ) {
      return;
    }
    const moved = next !== this.currentScrollTop;
    this.currentScrollTop = next;
    this.followingEnd = following;
    this.followSuppressedAtEnd = suppressed;
    if (moved) this.markScrollbarActivity();
    this.requestRenderCallback?.();
  }

  /**
   * Scrolls by `lines` (negative: up) and returns the part that did not fit, so an enclosing view
   * can take it over (`overscroll: "chain"`).
   */
  scrollBy(lines: number): number {
    const requested = Number.isFinite(lines) ? Math.trunc(lines) : 0;
    if (requested === 0) return 0;
    const maxScrollTop = this.maxScrollTop();
    const start = this.followingEnd ? maxScrollTop : this.currentScrollTop;
    const next = Math.max(0, Math.min(maxScrollTop, start + requested));
    const moved = next - start;
    const wasFollowing = this.followingEnd;
    this.currentScrollTop = next;
    this.followingEnd = this.followEnd && next === maxScrollTop;
    this.followSuppressedAtEnd = false;
    if (moved !== 0) this.markScrollbarActivity();
    if (moved !== 0 || this.followingEnd !== wasFollowing) this.requestRenderCallback?.();
    return requested - moved;
  }

  /** Scrolls to the first line. */
  scrollToStart(): void {
    const following = this.followEnd && this.contentHeight <= this.currentViewportHeight;
    const changed = this.currentScrollTop !== 0 || this.followingEnd !== following;
    this.currentScrollTop = 0;
    this.followingEnd = following;
    this.followSuppressedAtEnd = false;
    if (changed) {
      this.markScrollbarActivity();
      this.requestRenderCallback?.();
    }
  }

  /** Scrolls to the last line and resumes following (for follow-end views). */
  scrollToEnd(): void {
    const next = this.maxScrollTop();
    const changed = this.currentScrollTop !== next || this.followingEnd !== this.followEnd;
    this.currentScrollTop = next;
    this.followingEnd = this.followEnd;
    this.followSuppressedAtEnd = false;
    if (changed) {
      this.markScrollbarActivity();
      this.requestRenderCallback?.();
    }
  }

  /** Called by the layout engine each frame with the child's height and the rows the view got. */
  updateLayout(contentHeight: number, viewportHeight: number, requestRender: () => void): void {
    this.contentHeight = Math.max(0, Math.floor(contentHeight));
    this.currentViewportHeight = Math.max(0, Math.floor(viewportHeight));
    this.requestRenderCallback = requestRender;
    const maxScrollTop = this.maxScrollTop();
    this.currentScrollTop = this.followingEnd
      ? maxScrollTop
      : Math.max(0, Math.min(this.currentScrollTop, maxScrollTop));
    if (this.currentScrollTop < maxScrollTop) this.followSuppressedAtEnd = false;
    if (this.followEnd && this.currentScrollTop === maxScrollTop && !this.followSuppressedAtEnd) {
      this.followingEnd = true;
    }
    if (this.contentHeight <= this.currentViewportHeight) this.hideTransientScrollbar();
  }

  /** Always throws: the child is fixed at construction. */
  override addChild(_component: Component): void {
    throw new Error("ScrollView has exactly one child");
  }

  /** Always throws: the child is fixed at construction. */
  override removeChild(_component: Component): void {
    throw new Error("ScrollView child cannot be removed");
  }

  /** Always throws: the child is fixed at construction. */
  override clear(): void {
    throw new Error("ScrollView child cannot be cleared");
  }

  /** The child's full output; with an always-on scrollbar each line gets a blank last column. */
  override render(width: number): readonly string[] {
    const contentWidth = this.getContentWidth(width);
    const lines = this.child.render(contentWidth);
    return contentWidth === width ? lines : lines.map((line) => `${line} `);
  }

  /** The view's description for the fullscreen layout engine. */
  [LAYOUT_NODE](): ScrollLayoutNode {
    return { type: "scroll", component: this.child, state: this };
  }

  /** The last scroll position that still fills the viewport. */
  private maxScrollTop(): number {
    return Math.max(0, this.contentHeight - this.currentViewportHeight);
  }
}
