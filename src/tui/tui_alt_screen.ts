/**
 * `TuiAltScreen`: the fullscreen TUI. It draws on the terminal's alternate screen and keeps its own
 * scrollback: the content is laid out by the fullscreen layout engine (`layout.ts`) into a screen of
 * exactly the terminal's size, with a primary scroll view the user moves with keys, the wheel, the
 * scrollbar and search. Since the terminal cannot select text it does not own, selection, copying
 * and clicking links are done here too.
 *
 * The pieces live beside it: mouse parsing (`alt_screen_mouse.ts`), selection (`alt_screen_selection.ts`),
 * search state (`alt_screen_search_state.ts`), painting over the frame (`alt_screen_paint.ts`) and
 * writing it (`alt_screen_frame.ts`), terminal modes (`alt_screen_modes.ts`); pointer gestures
 * (`alt_screen_pointer.ts`, `alt_screen_text_selection.ts`).
 *
 * @module
 */
import { toBase64 } from "../util/bytes.ts";
import {
  BEGIN_SYNCHRONIZED_OUTPUT,
  buildFrameOutput,
  END_SYNCHRONIZED_OUTPUT,
  KittyUploads,
} from "./alt_screen_frame.ts";
import {
  DISABLE_AUTOWRAP,
  DISABLE_MOUSE,
  ENABLE_AUTOWRAP,
  ENTER_ALT_SCREEN,
  EXIT_ALT_SCREEN,
  exitWithDocument,
  FOCUS_IN,
  FOCUS_OUT,
  mouseTrackingSequence,
} from "./alt_screen_modes.ts";
import { isMouseSequence, parseSgrMouseEvent, parseWheelEvent } from "./alt_screen_mouse.ts";
import type { TuiAltScreenOptions } from "./alt_screen_options.ts";
import {
  applySearchHighlights,
  compositeFlashes,
  compositeScrollToEndIndicator,
} from "./alt_screen_paint.ts";
import { AltScreenSearchController, refreshActiveSearch } from "./alt_screen_search_state.ts";
import { type AltScreenKeysHost, findPromptRow, handleAltScreenKey } from "./alt_screen_keys.ts";
import { AltScreenPointer } from "./alt_screen_pointer.ts";
import { AltScreenFlashContainer } from "./components/alt_screen_flash.ts";
import { ScrollView } from "./components/scroll_view.ts";
import { getScrollViewBox, type LayoutFrame, renderLayoutFrame } from "./layout.ts";
import { OSC133_ZONE_PREFIX } from "./layout_paint.ts";
import type { Terminal } from "./terminal_interface.ts";
import {
  deleteAllKittyImages,
  getCapabilities,
  type ImageProtocol,
  isImageLine,
  setCapabilities,
  type TerminalCapabilities,
} from "./terminal_image.ts";
import { type Component, CURSOR_MARKER, type TuiMouseEvent } from "./tui_component.ts";
import { TuiBase } from "./tui_base.ts";
import {
  type TuiInputListenerResult,
  type TuiStopOptions,
  VIEWPORT_TUI,
  type ViewportTUI,
} from "./tui_types.ts";
import { sliceByColumn, visibleWidth } from "./utils_text.ts";
import { WheelScrollAccelerator, type WheelScrollLines } from "./wheel_scroll.ts";

export type { TuiAltScreenOptions } from "./alt_screen_options.ts";

const ALT_WHEEL_SCROLL_MULTIPLIER = 5;
const COPY_ERROR_FLASH_DURATION_MS = 5000;

/** Alternate-screen TUI with a scrollable, application-owned viewport. */
export class TuiAltScreen extends TuiBase implements ViewportTUI {
  /** Draws on the alternate screen. */
  readonly mode = "fullscreen" as const;
  /** Marks a TUI that accepts a layout root (see `isViewportTUI`). */
  readonly [VIEWPORT_TUI] = true as const;
  private previousScreen: string[] = [];
  private previousScreenWidth = 0;
  private previousScreenHeight = 0;
  private layoutRoot: Component | undefined;
  private currentLayout: LayoutFrame | undefined;
  /** Without a layout root, the TUI's own children scroll in this primary, follow-end view. */
  private readonly implicitScrollView: ScrollView;
  private readonly flashes: AltScreenFlashContainer;
  private altScreenActive = false;
  private imageProtocol: ImageProtocol | null = null;
  private savedCapabilities?: TerminalCapabilities;
  private readonly kittyUploads = new KittyUploads();
  private readonly pointer: AltScreenPointer;
  private readonly search: AltScreenSearchController;
  private readonly keysHost: AltScreenKeysHost;
  private readonly wheelScroll: WheelScrollAccelerator;
  private readonly mouseEnabled: boolean;
  private readonly scrollToEndIndicator?: () => string;
  private readonly copySelection?: (text: string) => Promise<boolean | string>;
  private copyOnSelect: boolean;

  /**
   * A fullscreen TUI on `terminal`; `showHardwareCursor` shows the terminal cursor at CURSOR_MARKER,
   * `logDirectory` is where debug logs go (undefined: none).
   */
  constructor(
    terminal: Terminal,
    showHardwareCursor?: boolean,
    logDirectory?: string,
    options: TuiAltScreenOptions = {},
  ) {
    super(terminal, showHardwareCursor, logDirectory);
    const containerRender = (width: number) => super.render(width);
    const containerMouse = (event: TuiMouseEvent) => super.handleMouse(event);
    const implicitDocument: Component = {
      render: containerRender,
      handleMouse: containerMouse,
      invalidate: () => {
        for (const child of this.children) child.invalidate();
      },
    };
    this.implicitScrollView = new ScrollView(implicitDocument, { follow: "end", primary: true });
    this.flashes = new AltScreenFlashContainer(() => this.requestRender());
    this.wheelScroll = new WheelScrollAccelerator(options.wheelScrollLines ?? 1);
    this.mouseEnabled = options.mouse ?? true;
    this.search = new AltScreenSearchController({
      showOverlay: (component) =>
        this.showOverlay(component, { anchor: "top-right", width: "40%", minWidth: 32, margin: 1 }),
      requestRender: () => this.requestRender(),
      scrollTop: () => this.getPrimaryScrollView().scrollTop,
    }, {
      match: options.searchMatchStyle ?? ((text) => `\x1b[4m${text}\x1b[24m`),
      currentMatch: options.searchCurrentMatchStyle ?? ((text) => `\x1b[1;7m${text}\x1b[22;27m`),
      navigationButton: options.searchNavigationButtonStyle ?? ((text) => text),
    });
    this.scrollToEndIndicator = options.scrollToEndIndicator;
    this.copyOnSelect = options.copyOnSelect ?? true;
    this.copySelection = options.copySelection;
    this.pointer = new AltScreenPointer({
      terminal: () => this.terminal,
      layout: () => this.currentLayout,
      screen: () => this.previousScreen,
      requestRender: () => this.requestRender(),
      requestViewRender: () => this.requestViewRender(),
      hasOverlay: () => this.hasOverlay(),
      dispatchToOverlay: (event) => this.dispatchMouseToOverlay(event),
      resolveFocusTarget: (component) => this.resolveMouseFocusTarget(component),
      getFocusedComponent: () => this.getFocusedComponent(),
      setFocus: (component) => this.setFocus(component),
      scrollToBottom: () => this.scrollToBottom(),
      copySelection: () => void this.copyActiveSelectionToClipboard(),
      copyOnSelect: () => this.copyOnSelect,
      searchMouse: (event) => this.search.handleMouse(event),
      openUrl: options.openUrl,
      onRightClickPaste: options.onRightClickPaste,
    });
    this.keysHost = {
      search: this.search,
      deferViewportKeys: () => this.shouldDeferViewportInput(),
      viewportHeight: () => this.getPrimaryScrollView().viewportHeight,
      scrollBy: (lines) => this.scrollBy(lines),
      scrollToTop: () => this.scrollToTop(),
      scrollToBottom: () => this.scrollToBottom(),
      scrollToPrompt: (direction) => this.scrollToPrompt(direction),
    };
    this.addInputListener((data) => this.handleViewportInput(data));
  }

  /** The primary scroll view's first shown content line. */
  get viewportTop(): number {
    return this.getPrimaryScrollView().scrollTop;
  }

  /** Whether the primary scroll view sticks to the end of the content. */
  get isFollowingOutput(): boolean {
    return this.getPrimaryScrollView().isFollowingEnd;
  }

  /** Changes how far a wheel notch scrolls. */
  setWheelScrollLines(lines: WheelScrollLines): void {
    this.wheelScroll.setLines(lines);
  }

  /** Whether releasing a selection copies it. */
  getCopyOnSelect(): boolean {
    return this.copyOnSelect;
  }

  /** Sets whether releasing a selection copies it. */
  setCopyOnSelect(enabled: boolean): void {
    this.copyOnSelect = enabled;
  }

  /** Whether the fullscreen viewport has a non-empty active text selection. */
  hasActiveSelection(): boolean {
    return this.pointer.selection.getActiveText() !== undefined;
  }

  /** Copy the active fullscreen text selection, if any, using the configured selection clipboard path. */
  copyActiveSelectionToClipboard(): Promise<boolean> {
    const text = this.pointer.selection.getActiveText();
    if (!text) return Promise.resolve(false);
    return this.copyTextToClipboard(text);
  }

  /** Drop the text selection and multi-click history, e.g. before the host replaces the transcript. */
  resetTextSelection(): void {
    this.pointer.selection.reset();
  }

  /** The lines of the last rendered frame, one per terminal row, as written to the terminal. */
  getScreenLines(): string[] {
    return [...this.previousScreen];
  }

  /** Lays out `component` (stacks, scroll views) on the screen instead of scrolling the children. */
  setLayoutRoot(component: Component | undefined): void {
    if (this.layoutRoot === component) return;
    this.layoutRoot = component;
    this.currentLayout = undefined;
    this.requestRender();
  }

  /** The document: the layout root's lines, or the children's. */
  override render(width: number): readonly string[] {
    return this.layoutRoot?.render(width) ?? super.render(width);
  }

  /** The layout root when set, else the children: what focus and invalidation reach. */
  protected override getMountedRoots(): readonly Component[] {
    return this.layoutRoot ? [this.layoutRoot] : this.children;
  }

  /** The view the scroll keys move: the last frame's primary one, or the implicit document's. */
  private getPrimaryScrollView(): ScrollView {
    return this.currentLayout?.primaryScrollView ?? this.implicitScrollView;
  }

  /** Enters the alternate screen (mouse tracking on, autowrap off) with a clean slate. */
  protected override beforeTerminalStart(): void {
    this.pointer.reset();
    this.flashes.dispose();
    this.altScreenActive = true;
    const capabilities = getCapabilities();
    this.imageProtocol = capabilities.images;
    this.kittyUploads.clear();
    // iTerm2 images scroll with the text they are printed in; a redrawn screen cannot place them.
    if (capabilities.images === "iterm2") {
      this.savedCapabilities = capabilities;
      setCapabilities({ ...capabilities, images: null });
      this.invalidate();
    }
    this.resetRenderState();
    const mouse = this.mouseEnabled ? mouseTrackingSequence() : "";
    this.terminal.write(`${ENTER_ALT_SCREEN}${DISABLE_AUTOWRAP}${mouse}\x1b[2J\x1b[H\x1b[?25l`);
  }

  /** Closes the search, ends gestures, removes images and turns mouse tracking off. */
  protected override beforeTerminalStop(_options: TuiStopOptions): void {
    this.search.close();
    this.pointer.stopGestures();
    this.flashes.dispose();
    if (!this.altScreenActive) return;
    this.terminal.write(
      `${BEGIN_SYNCHRONIZED_OUTPUT}${this.deleteKittyImages()}${
        this.mouseEnabled ? DISABLE_MOUSE : ""
      }${ENABLE_AUTOWRAP}${END_SYNCHRONIZED_OUTPUT}`,
    );
    this.kittyUploads.clear();
  }

  /**
   * Leaves the alternate screen. Unless another TUI takes over (`preserveScreen`), the whole
   * document is printed on the main screen, so the session stays in the terminal's scrollback.
   */
  protected override afterTerminalStop(options: TuiStopOptions): void {
    if (!this.altScreenActive) return;
    this.altScreenActive = false;
    if (options.preserveScreen) {
      this.terminal.write(
        `${BEGIN_SYNCHRONIZED_OUTPUT}${EXIT_ALT_SCREEN}\x1b[?25h${END_SYNCHRONIZED_OUTPUT}`,
      );
    } else {
      const width = Math.max(1, this.terminal.columns);
      const documentLines = this.resolveFakeCursors(this.render(width)).map((line) =>
        line.replace(OSC133_ZONE_PREFIX, "").replaceAll(CURSOR_MARKER, "")
      );
      const lines = this.applyLineResets(documentLines).map((line) => clampToWidth(line, width));
      this.terminal.write(exitWithDocument(lines));
    }
    if (this.savedCapabilities) {
      setCapabilities(this.savedCapabilities);
      this.savedCapabilities = undefined;
    }
  }

  /** On an exit without stop(): end a half-written frame, mouse tracking off, autowrap on. */
  protected override getExitRestorePrefix(): string {
    const prefix = super.getExitRestorePrefix();
    if (!this.altScreenActive) return prefix;
    return `${END_SYNCHRONIZED_OUTPUT}${this.mouseEnabled ? DISABLE_MOUSE : ""}${ENABLE_AUTOWRAP}${prefix}`;
  }

  /** On an exit without stop(): back to the main screen with the cursor shown. */
  protected override getExitRestoreSuffix(): string {
    // Kitty keyboard flags are per screen, so the terminal pops them before the alternate screen is left.
    return `${super.getExitRestoreSuffix()}${this.altScreenActive ? `${EXIT_ALT_SCREEN}\x1b[?25h` : ""}`;
  }

  /** Deletes every Kitty image (on Kitty terminals). */
  private deleteKittyImages(): string {
    return this.imageProtocol === "kitty" ? deleteAllKittyImages() : "";
  }

  /** Forgets the last frame, so the next one redraws everything. */
  protected override resetRenderState(): void {
    this.previousScreen = [];
    this.previousScreenWidth = 0;
    this.previousScreenHeight = 0;
    this.currentLayout = undefined;
  }

  /** Scrolls the primary view by `lines` (negative: up). */
  scrollBy(lines: number): void {
    this.getPrimaryScrollView().scrollBy(lines);
    this.requestViewRender();
  }

  /** Scrolls the primary view to its first line. */
  scrollToTop(): void {
    this.getPrimaryScrollView().scrollToStart();
    this.requestViewRender();
  }

  /** Scrolls the primary view to its end (and resumes following output). */
  scrollToBottom(): void {
    this.getPrimaryScrollView().scrollToEnd();
    this.requestViewRender();
  }

  /** Scrolls to the previous (-1) or next (1) line that starts an OSC 133 prompt zone. */
  private scrollToPrompt(direction: -1 | 1): void {
    if (!this.currentLayout) return;
    const scrollView = this.getPrimaryScrollView();
    const lines = getScrollViewBox(this.currentLayout, scrollView)?.scrollContentLines;
    const row = lines ? findPromptRow(lines, scrollView.scrollTop, direction) : undefined;
    if (row === undefined) return;
    scrollView.scrollTo(row);
    this.requestViewRender();
  }

  /** Show a transient message in the alternate-screen flash stack. */
  flash(message: string, durationMs?: number): void {
    this.flashes.flash(message, durationMs);
  }

  /** Focused overlays and components that capture viewport input receive viewport keys instead of the transcript. */
  private shouldDeferViewportInput(): boolean {
    if (this.getFocusedComponent()?.capturesViewportInput) return true;
    return this.isOverlayFocused() && !this.search.focused;
  }

  /** The TUI's own input: focus reports, mouse reports and the viewport keys, before the focused component. */
  private handleViewportInput(data: string): TuiInputListenerResult {
    if (data === FOCUS_OUT) {
      this.search.clearHover();
      this.pointer.focusLost();
      return { consume: true };
    }
    if (data === FOCUS_IN) return { consume: true };
    const wheel = parseWheelEvent(data);
    if (wheel) {
      const lines = this.wheelScroll.next(wheel.direction, performance.now());
      // Bit 3 (8) of an SGR button code is the Alt modifier.
      const alt = (wheel.button & 8) !== 0;
      this.pointer.handleWheel(
        wheel,
        wheel.direction * (alt ? lines * ALT_WHEEL_SCROLL_MULTIPLIER : lines),
        this.getPrimaryScrollView(),
      );
      return { consume: true };
    }
    const mouse = parseSgrMouseEvent(data);
    if (mouse) {
      this.pointer.handleMouseEvent(mouse);
      return { consume: true };
    }
    if (isMouseSequence(data)) return { consume: true };
    return handleAltScreenKey(data, this.keysHost);
  }

  /** Copies `text` and flashes the outcome; resolves to whether it was copied. */
  private async copyTextToClipboard(text: string): Promise<boolean> {
    // An injected clipboard (native, or platform tools with a checked result) is preferred: a bare
    // OSC 52 write can look like success while the system clipboard stays untouched (macOS
    // Terminal.app, tmux without clipboard passthrough), so only a real copy reports success.
    if (this.copySelection) {
      const result = await this.copySelection(text);
      const ok = result === true;
      this.flash(
        ok ? "Copied!" : typeof result === "string" ? result : "Copy failed",
        ok ? undefined : COPY_ERROR_FLASH_DURATION_MS,
      );
      return ok;
    }
    this.terminal.write(`\x1b]52;c;${toBase64(new TextEncoder().encode(text))}\x07`);
    this.flash("Copied!");
    return true;
  }

  /**
   * Draws one frame: layout, search, highlights, the jump-to-end label, overlays, the selection and
   * flashes, then writes the rows that changed.
   */
  protected doRender(): void {
    if (this.stopped || !this.altScreenActive) return;
    const width = Math.max(1, this.terminal.columns);
    const height = Math.max(1, this.terminal.rows);
    const root = this.layoutRoot ?? this.implicitScrollView;
    const requestViewRender = () => this.requestViewRender();
    // Only scrolling since the last frame: its component output is still good.
    const reusable = this.contentChanged ? undefined : this.currentLayout?.renderCache;
    this.contentChanged = false;
    let layout = renderLayoutFrame(root, width, height, requestViewRender, reusable);
    const primary = layout.primaryScrollView ?? this.implicitScrollView;
    const search = this.search.active;
    if (search) {
      const lines = getScrollViewBox(layout, primary)?.scrollContentLines;
      if (refreshActiveSearch(search, lines, primary)) {
        layout = renderLayoutFrame(root, width, height, requestViewRender, layout.renderCache);
      }
    }
    // Fake cursors first: highlighting and compositing below track SGR codes only.
    let screen = this.resolveFakeCursors(layout.lines.map((line) => line.replace(OSC133_ZONE_PREFIX, "")));
    if (search) {
      screen = applySearchHighlights(screen, layout, {
        matches: search.matches,
        selectedIndex: search.selectedIndex,
        scrollView: layout.primaryScrollView ?? this.implicitScrollView,
        columns: this.terminal.columns,
        matchStyle: this.search.styles.match,
        currentMatchStyle: this.search.styles.currentMatch,
      });
    }
    const indicator = compositeScrollToEndIndicator(
      screen,
      layout,
      layout.primaryScrollView ?? this.implicitScrollView,
      this.scrollToEndIndicator,
      width,
    );
    this.pointer.scrollToEndIndicatorRect = indicator.rect;
    screen = this.compositeOverlays(indicator.screen, width, height);
    if (screen.length > height) screen = screen.slice(screen.length - height);
    screen = this.pointer.selection.apply(screen, layout);
    screen = compositeFlashes(screen, this.flashes.render(width), width, height);
    const cursor = this.extractCursorPosition(screen, height);
    screen = this.applyLineResets(screen).map((line) => clampToWidth(line, width));
    const fullRedraw = this.previousScreen.length === 0 || this.previousScreenWidth !== width ||
      this.previousScreenHeight !== height;
    if (fullRedraw) this.fullRedrawCount += 1;
    this.terminal.write(buildFrameOutput({
      screen,
      previousScreen: this.previousScreen,
      fullRedraw,
      height,
      width,
      imageProtocol: this.imageProtocol,
      kittyUploads: this.kittyUploads,
      cursor,
      showHardwareCursor: this.getShowHardwareCursor(),
    }));
    this.previousScreen = screen;
    this.previousScreenWidth = width;
    this.previousScreenHeight = height;
    this.currentLayout = layout;
  }
}

/** A line cut to `width` cells (image lines are left whole: their sequences are not text). */
function clampToWidth(line: string, width: number): string {
  return isImageLine(line) || visibleWidth(line) <= width ? line : sliceByColumn(line, 0, width, true);
}
