/**
 * Text selection in the fullscreen TUI, the terminal's job that fullscreen takes over: press and
 * drag select cells, a double click a word and a triple click a line (dragging then extends by
 * words or lines), dragging onto a scroll view's edge row scrolls it, and the release copies the
 * text, opens a clicked OSC 8 link or passes a plain click on to the components.
 *
 * @module
 */
import { type AltScreenRawMouseEvent, createMouseEvent } from "./alt_screen_mouse.ts";
import {
  getLineSelection,
  getSelectionBounds,
  getSelectionText,
  getWordSelection,
  highlightSelection,
  type SelectionArea,
  type SelectionPoint,
  type SelectionRange,
} from "./alt_screen_selection.ts";
import type { ScrollView } from "./components/scroll_view.ts";
import { getScrollViewBox, getScrollViewsAt, type LayoutBox, type LayoutFrame } from "./layout.ts";
import type { Terminal } from "./terminal_interface.ts";
import type { TuiMouseEvent } from "./tui_component.ts";
import { getOsc8LinkAtColumn } from "./utils_text.ts";

const DOUBLE_CLICK_INTERVAL_MS = 500;
const AUTO_SCROLL_INTERVAL_MS = 50;

/** What the selection needs of the TUI. */
export interface AltScreenSelectionHost {
  /** The terminal (for its size). */
  terminal(): Terminal;
  /** The last frame's layout. */
  layout(): LayoutFrame | undefined;
  /** The last frame's rows, as written. */
  screen(): readonly string[];
  /** Asks for a frame. */
  requestRender(): void;
  /** Asks for a frame that reuses the last component output. */
  requestViewRender(): void;
  /** Whether an overlay is shown. */
  hasOverlay(): boolean;
  /** Offers a click to the components: undefined when none took it, else whether a frame is due. */
  dispatchClick(event: TuiMouseEvent): boolean | undefined;
  /** Copies the selection to the clipboard. */
  copySelection(): void;
  /** Whether releasing a selection copies it. */
  copyOnSelect(): boolean;
  /** Opens a clicked link. */
  openUrl?: (url: string) => void;
}

interface LastClick {
  timestamp: number;
  count: number;
  row: number;
  scrollView?: ScrollView;
  wordStart: number;
  wordEnd: number;
}

/** The selection state of one `TuiAltScreen`. */
export class AltScreenTextSelection {
  private readonly host: AltScreenSelectionHost;
  private anchor?: SelectionPoint;
  private focus?: SelectionPoint;
  private granularity: "character" | "word" | "line" = "character";
  /** The word or line a double or triple click selected; dragging extends by whole words or lines from it. */
  private initialRange?: SelectionRange;
  private lastClick?: LastClick;
  private dragPointer?: { x: number; y: number };
  private autoScrollDirection = 0;
  private autoScrollTimer?: ReturnType<typeof setInterval>;
  /** The left button went down on the text and is not released yet. */
  private pressActive = false;
  private dragged = false;
  private pressedUrl?: string;

  /** A selection for the TUI behind `host`. */
  constructor(host: AltScreenSelectionHost) {
    this.host = host;
  }

  /** Drops the selection (keeping the multi-click history). */
  clear(): void {
    this.stopAutoScroll();
    this.pressActive = false;
    this.anchor = undefined;
    this.focus = undefined;
    this.granularity = "character";
    this.initialRange = undefined;
    this.pressedUrl = undefined;
    this.dragged = false;
  }

  /** Drops the selection and the multi-click history. */
  reset(): void {
    this.clear();
    this.lastClick = undefined;
  }

  /** Ends a press in progress (the button state is unknown now) and keeps the selection. */
  stopGesture(): void {
    this.stopAutoScroll();
    this.pressActive = false;
  }

  /** The terminal lost focus: a selection being dragged is dropped, as is the click history. */
  focusLost(): void {
    const pressActive = this.pressActive;
    const hadSelection = pressActive && getSelectionBounds(this.anchor, this.focus) !== undefined;
    this.stopGesture();
    this.pressedUrl = undefined;
    this.dragged = false;
    if (pressActive) {
      this.anchor = undefined;
      this.focus = undefined;
      this.granularity = "character";
      this.initialRange = undefined;
      if (hadSelection) this.host.requestRender();
    }
    this.lastClick = undefined;
  }

  /** The visible rows of a scroll view's box, or undefined when none is visible. */
  private visibleRows(scrollView: ScrollView): { top: number; bottom: number; box: LayoutBox } | undefined {
    const layout = this.host.layout();
    const box = layout ? getScrollViewBox(layout, scrollView) : undefined;
    if (!box || box.rect.height <= 0 || box.clip.height <= 0) return undefined;
    const top = Math.max(0, box.rect.y, box.clip.y);
    const bottom = Math.min(
      this.host.terminal().rows - 1,
      box.rect.y + box.rect.height - 1,
      box.clip.y + box.clip.height - 1,
    );
    return { top, bottom, box };
  }

  /** The content cell of `scrollView` under (x, y), the row clamped to what is visible. */
  private getScrollSelectionPoint(scrollView: ScrollView, x: number, y: number): SelectionPoint | undefined {
    const visible = this.visibleRows(scrollView);
    if (!visible || visible.bottom < visible.top) return undefined;
    const { box } = visible;
    const pointerRow = Math.max(visible.top, Math.min(visible.bottom, y));
    const maxContentRow = Math.max(0, (box.scrollContentLines?.length ?? 1) - 1);
    return {
      row: Math.max(0, Math.min(maxContentRow, scrollView.scrollTop + pointerRow - box.rect.y)),
      col: Math.max(0, Math.min(box.rect.width - 1, x - box.rect.x)),
      scrollView,
    };
  }

  /** The cell under the event: in `scrollView` when given, else on the screen. */
  private getSelectionPoint(
    event: { x: number; y: number },
    scrollView: ScrollView | undefined,
  ): SelectionPoint {
    if (scrollView) {
      const point = this.getScrollSelectionPoint(scrollView, event.x, event.y);
      if (point) return point;
    }
    const terminal = this.host.terminal();
    return {
      row: Math.max(0, Math.min(terminal.rows - 1, event.y)),
      col: Math.max(0, Math.min(terminal.columns - 1, event.x)),
    };
  }

  /** The lines a point's rows index: a scroll view's content, or the screen. */
  private getSourceLines(scrollView: ScrollView | undefined): readonly string[] | undefined {
    if (!scrollView) return this.host.screen();
    const layout = this.host.layout();
    return layout ? getScrollViewBox(layout, scrollView)?.scrollContentLines : undefined;
  }

  /** The line a point's row indexes. */
  private getSourceLine(point: SelectionPoint): string {
    const lines = point.scrollView ? this.getSourceLines(point.scrollView) : undefined;
    return (lines ?? this.host.screen())[point.row] ?? "";
  }

  /** Moves the selection's free end (by whole words or lines after a double or triple click). */
  private updateFocus(point: SelectionPoint): void {
    const initial = this.initialRange;
    if (this.granularity === "character" || !initial) {
      this.focus = point;
      return;
    }
    const line = this.getSourceLine(point);
    const range = this.granularity === "word" ? getWordSelection(line, point) : getLineSelection(line, point);
    if (!range) return;
    const before = range.start.row < initial.start.row ||
      (range.start.row === initial.start.row && range.start.col < initial.start.col);
    // Extending by words or lines keeps the initially selected one whole on either side.
    this.anchor = before ? initial.end : initial.start;
    this.focus = before ? range.start : range.end;
  }

  /** 1, 2 or 3 for repeated clicks on one word within 500 ms. */
  private getClickCount(point: SelectionPoint, word: SelectionRange | undefined): number {
    const now = Date.now();
    const previous = this.lastClick;
    const count = word && previous && now - previous.timestamp <= DOUBLE_CLICK_INTERVAL_MS &&
        previous.row === point.row && previous.scrollView === point.scrollView &&
        previous.wordStart === word.start.col && previous.wordEnd === word.end.col
      ? (previous.count % 3) + 1
      : 1;
    this.lastClick = word
      ? {
        timestamp: now,
        count,
        row: point.row,
        scrollView: point.scrollView,
        wordStart: word.start.col,
        wordEnd: word.end.col,
      }
      : undefined;
    return count;
  }

  /** Starts, keeps or stops scrolling while a selection is dragged onto a view's first or last row. */
  private updateAutoScroll(event: { x: number; y: number }): void {
    const scrollView = this.anchor?.scrollView;
    const visible = scrollView ? this.visibleRows(scrollView) : undefined;
    if (!visible) {
      this.stopAutoScroll();
      return;
    }
    this.dragPointer = { x: event.x, y: event.y };
    this.autoScrollDirection = event.y <= visible.top ? -1 : event.y >= visible.bottom ? 1 : 0;
    if (this.autoScrollDirection === 0) {
      this.stopAutoScroll();
      return;
    }
    if (this.autoScrollTimer !== undefined) return;
    const timer = setInterval(() => this.autoScroll(), AUTO_SCROLL_INTERVAL_MS);
    Deno.unrefTimer(timer);
    this.autoScrollTimer = timer;
  }

  /** One step of auto-scroll: scroll a line and extend the selection. */
  private autoScroll(): void {
    const scrollView = this.anchor?.scrollView;
    const pointer = this.dragPointer;
    const direction = this.autoScrollDirection;
    if (!scrollView || !pointer || direction === 0) {
      this.stopAutoScroll();
      return;
    }
    if (scrollView.scrollBy(direction) === direction) {
      this.stopAutoScroll();
      return;
    }
    const point = this.getScrollSelectionPoint(scrollView, pointer.x, pointer.y);
    if (point) this.updateFocus(point);
    // The selection is painted after layout: no component output changed.
    this.host.requestViewRender();
  }

  /** Stops auto-scrolling. */
  private stopAutoScroll(): void {
    if (this.autoScrollTimer !== undefined) {
      clearInterval(this.autoScrollTimer);
      this.autoScrollTimer = undefined;
    }
    this.autoScrollDirection = 0;
    this.dragPointer = undefined;
  }

  /** A left-button press, drag or release that no component took. */
  handleMouseEvent(event: AltScreenRawMouseEvent): void {
    const button = event.button & 3;
    if (button !== 0 && !(event.release && button === 3)) return;
    const point = this.getSelectionPoint(event, this.anchor?.scrollView);
    if (event.release) {
      this.finish(event, point);
      return;
    }
    if ((event.button & 32) !== 0) {
      if (!this.pressActive || !this.anchor) return;
      this.dragged = true;
      this.lastClick = undefined;
      this.pressedUrl = undefined;
      this.updateFocus(point);
      this.updateAutoScroll(event);
      this.host.requestRender();
      return;
    }
    this.stopAutoScroll();
    this.pressActive = true;
    const layout = this.host.layout();
    const scrollView = !this.host.hasOverlay() && layout
      ? getScrollViewsAt(layout, event.x, event.y)[0]
      : undefined;
    const anchor = this.getSelectionPoint(event, scrollView);
    const word = getWordSelection(this.getSourceLine(anchor), anchor);
    const clickCount = this.getClickCount(anchor, word);
    const range = clickCount === 2
      ? word
      : clickCount === 3
      ? getLineSelection(this.getSourceLine(anchor), anchor)
      : undefined;
    this.granularity = range ? (clickCount === 2 ? "word" : "line") : "character";
    this.initialRange = range;
    this.anchor = range?.start ?? anchor;
    this.focus = range?.end ?? anchor;
    this.dragged = false;
    const terminal = this.host.terminal();
    const screenRow = Math.max(0, Math.min(terminal.rows - 1, event.y));
    const screenColumn = Math.max(0, Math.min(terminal.columns - 1, event.x));
    this.pressedUrl = range
      ? undefined
      : getOsc8LinkAtColumn(this.host.screen()[screenRow] ?? "", screenColumn);
    this.host.requestRender();
  }

  /** A release ends the selection: a click on a link opens it, a plain click goes to the components, a drag copies. */
  private finish(event: AltScreenRawMouseEvent, point: SelectionPoint): void {
    if (!this.pressActive) return;
    this.pressActive = false;
    this.stopAutoScroll();
    const anchor = this.anchor;
    if (!anchor) return;
    this.updateFocus(point);
    const isClick = !this.dragged && anchor.scrollView === point.scrollView &&
      anchor.row === point.row &&
      anchor.col === point.col;
    const clickedUrl = isClick ? this.pressedUrl : undefined;
    this.pressedUrl = undefined;
    if (clickedUrl && this.host.openUrl) {
      this.anchor = undefined;
      this.focus = undefined;
      try {
        this.host.openUrl(clickedUrl);
      } catch {
        // Opening a link is best-effort.
      }
      this.host.requestRender();
      return;
    }
    if (isClick) {
      const terminal = this.host.terminal();
      const click = createMouseEvent(
        "click",
        event.button,
        event.x,
        event.y,
        terminal.columns,
        terminal.rows,
        {
          clickCount: this.lastClick?.count ?? 1,
        },
      );
      const render = this.host.dispatchClick(click);
      if (render !== undefined) {
        this.clear();
        if (render) this.host.requestRender();
        return;
      }
    }
    if (this.host.copyOnSelect()) this.host.copySelection();
    this.host.requestRender();
  }

  /** The selected text, or undefined when nothing (or only blanks) is selected. */
  getActiveText(): string | undefined {
    const selection = getSelectionBounds(this.anchor, this.focus);
    if (!selection) return undefined;
    const lines = this.getSourceLines(selection.start.scrollView);
    return lines ? getSelectionText(lines, selection) : undefined;
  }

  /** `screen` with the selection in reverse video (mapped from content rows to the screen). */
  apply(screen: string[], layout: LayoutFrame): string[] {
    const selection = getSelectionBounds(this.anchor, this.focus);
    if (!selection) return screen;
    const columns = this.host.terminal().columns;
    const view = selection.start.scrollView;
    if (!view) {
      return highlightSelection(screen, selection, {
        minRow: 0,
        maxRow: screen.length - 1,
        minColumn: 0,
        maxColumn: columns,
      });
    }
    const box = getScrollViewBox(layout, view);
    if (!box) return screen;
    const area: SelectionArea = {
      minRow: Math.max(0, box.rect.y, box.clip.y),
      maxRow: Math.min(screen.length - 1, box.rect.y + box.rect.height - 1, box.clip.y + box.clip.height - 1),
      minColumn: Math.max(0, box.rect.x, box.clip.x),
      maxColumn: Math.min(columns, box.rect.x + box.rect.width, box.clip.x + box.clip.width),
    };
    const toScreen = (point: SelectionPoint): SelectionPoint => ({
      ...point,
      row: box.rect.y + point.row - view.scrollTop,
      col: box.rect.x + point.col,
    });
    return highlightSelection(
      screen,
      { start: toScreen(selection.start), end: toScreen(selection.end) },
      area,
    );
  }
}
