/**
 * `TuiBase`: the renderer-independent half of a TUI. It owns the terminal from start() to stop(),
 * routes input (colour replies, listeners, the debug key, then the focused component), schedules
 * frames (at most one per 16 ms, keys at once) and restores the terminal when the process exits
 * without stop(). The main-screen and alternate-screen renderers implement `doRender()`.
 *
 * @module
 */
import { isKeyRelease, matchesKey } from "./keys.ts";
import {
  parseOscColorResponse,
  parseTerminalColorSchemeReport,
  type RgbColor,
  type TerminalColors,
  type TerminalColorScheme,
} from "./terminal_colors.ts";
import type { Terminal } from "./terminal_interface.ts";
import { listenSignal } from "./terminal_process_io.ts";
import { getCapabilities, setCellDimensions } from "./terminal_image.ts";
import { TuiOverlayHost } from "./tui_overlay_host.ts";
import type { TUI, TuiInputListener, TuiMode, TuiStopOptions } from "./tui_types.ts";

const PALETTE_SIZE = 16;
/** OSC 10 and 11 plus OSC 4 for every palette color. */
const COLOR_REPLY_COUNT = 2 + PALETTE_SIZE;
/**
 * Default colors, palette colors 0-15, then a primary device attributes (DA1) request. Every
 * terminal answers DA1 and terminals answer in order, so its reply marks the end of the colour
 * replies, also for terminals that ignore the colour queries.
 */
const COLOR_QUERY = "\x1b]10;?\x07\x1b]11;?\x07" +
  Array.from({ length: PALETTE_SIZE }, (_, i) => `\x1b]4;${i};?\x07`).join("") + "\x1b[c";
// deno-lint-ignore no-control-regex
const DEVICE_ATTRIBUTES_REPLY = /^\x1b\[\?[\d;]*c$/;
// deno-lint-ignore no-control-regex
const CELL_SIZE_REPLY = /^\x1b\[6;(\d+);(\d+)t$/;

/** A colour query waiting for its DA1 reply. It stays queued after a timeout to collect late replies. */
interface ColorQuery {
  foreground?: RgbColor;
  background?: RgbColor;
  palette: (RgbColor | undefined)[];
  replied: Set<string>;
  /** Receives the result: the promise's resolve, then onLateReply after a timeout. */
  deliver: ((colors: TerminalColors) => void) | undefined;
  timer: ReturnType<typeof setTimeout> | undefined;
}

/** Base of both renderers: focus, overlays, input routing, render scheduling, terminal ownership. */
export abstract class TuiBase extends TuiOverlayHost implements TUI {
  /** Which screen this renderer draws on. */
  abstract readonly mode: TuiMode;
  private inputListeners = new Set<TuiInputListener>();
  /** Global callback for debug key (Shift+Ctrl+D). Called before input is forwarded to focused component. */
  onDebug?: () => void;
  private suspendSignalHandler: (() => void) | undefined;
  private readonly suspendSignalListener = () => this.suspendSignalHandler?.();
  // From start() until stop(). Unlike `stopped`, false before the first start().
  private ownsTerminal = false;
  private suspendSignalListening = false;
  private renderRequested = false;
  private immediateRenderScheduled = false;
  private renderTimer: ReturnType<typeof setTimeout> | undefined;
  private lastRenderAt = 0;
  private static readonly MIN_RENDER_INTERVAL_MS = 16;
  private clearOnShrink = false;
  /** How many frames were drawn in full; renderers count them. */
  protected fullRedrawCount = 0;
  private pendingTerminalColorQueries: ColorQuery[] = [];
  private terminalColorSchemeListeners = new Set<(scheme: TerminalColorScheme) => void>();
  private terminalColorSchemeNotificationsEnabled = false;
  /** Directory for debug/crash logs. When undefined, debug logging is disabled and crash dumps fall back to the OS temp directory. */
  protected readonly logDirectory: string | undefined;

  /** A TUI on `terminal`; the hardware cursor is hidden unless `showHardwareCursor`; crash logs go to `logDirectory`. */
  constructor(terminal: Terminal, showHardwareCursor?: boolean, logDirectory?: string) {
    super(terminal, showHardwareCursor);
    this.logDirectory = logDirectory;
  }

  /** Draws a frame. */
  protected abstract doRender(): void;
  /** Forgets what is on screen, so the next frame is drawn in full. */
  protected resetRenderState(): void {}
  /** Hook: before the terminal starts (raw mode, protocols). */
  protected beforeTerminalStart(): void {}
  /** Hook: after the terminal started. */
  protected afterTerminalStart(): void {}
  /** Hook: before the terminal is given back. */
  protected beforeTerminalStop(_options: TuiStopOptions): void {}
  /** Hook: after the terminal was given back. */
  protected afterTerminalStop(_options: TuiStopOptions): void {}

  /** Mode resets written before the terminal's own resets when the process exits without stop(). */
  protected getExitRestorePrefix(): string {
    return `${this.terminalColorSchemeNotificationsEnabled ? "\x1b[?2031l" : ""}\x1b[?25h`;
  }

  /** Mode resets written after the terminal's own resets when the process exits without stop(). */
  protected getExitRestoreSuffix(): string {
    return "";
  }

  /**
   * Last-resort restore for exits that skip stop() (Deno.exit(), the end of the program). Hard
   * kills and native aborts run no JavaScript and cannot be covered.
   */
  private readonly exitRestoreHandler = () => {
    if (this.stopped) return;
    try {
      this.terminal.restoreOnExit?.(this.getExitRestorePrefix(), this.getExitRestoreSuffix());
    } catch {
      // Never throw from an exit handler.
    }
  };

  /**
   * Deno runs no unload handlers when an uncaught error or unhandled rejection ends the process,
   * so those events restore too — unless an earlier listener prevented the default and the
   * process goes on.
   */
  private readonly crashRestoreHandler = (event: Event) => {
    if (!event.defaultPrevented) this.exitRestoreHandler();
  };

  /** Registers (or removes) the restore for exits and crashes that skip stop(). */
  private listenForExit(listen: boolean): void {
    globalThis.removeEventListener("unload", this.exitRestoreHandler);
    globalThis.removeEventListener("error", this.crashRestoreHandler);
    globalThis.removeEventListener("unhandledrejection", this.crashRestoreHandler);
    if (!listen) return;
    globalThis.addEventListener("unload", this.exitRestoreHandler);
    globalThis.addEventListener("error", this.crashRestoreHandler);
    globalThis.addEventListener("unhandledrejection", this.crashRestoreHandler);
  }

  /** How many frames were drawn in full (not differentially). */
  get fullRedraws(): number {
    return this.fullRedrawCount;
  }

  /** Whether the terminal's cursor is shown at the focused component's cursor. */
  getShowHardwareCursor(): boolean {
    return this.showHardwareCursor;
  }

  /** Shows the terminal cursor at the focused component's cursor (for IME), or hides it. */
  setShowHardwareCursor(enabled: boolean): void {
    if (this.showHardwareCursor === enabled) return;
    this.showHardwareCursor = enabled;
    if (!enabled) this.hideTerminalCursor();
    this.requestRender();
  }

  /** Whether shrinking content triggers a full redraw. */
  getClearOnShrink(): boolean {
    return this.clearOnShrink;
  }

  /**
   * Set whether to trigger full re-render when content shrinks.
   * When true, empty rows are cleared when content shrinks.
   * When false (default), empty rows remain (reduces redraws on slower terminals).
   */
  setClearOnShrink(enabled: boolean): void {
    this.clearOnShrink = enabled;
  }

  /** Takes the terminal: raw input, hidden cursor, and a first frame soon. */
  start(): void {
    this.stopped = false;
    this.listenForExit(true);
    this.ownsTerminal = true;
    this.updateSuspendSignalListener();
    this.beforeTerminalStart();
    this.terminal.start((data) => this.handleTerminalInput(data), () => this.requestRender());
    this.afterTerminalStart();
    this.terminal.hideCursor();
    if (this.terminalColorSchemeNotificationsEnabled) this.terminal.write("\x1b[?2031h");
    // Cell size in pixels (CSI 16 t) only matters for images.
    if (getCapabilities().images) this.terminal.write("\x1b[16t");
    this.requestRender();
  }

  /** Adds a listener that sees input before the focused component; returns its remover. */
  addInputListener(listener: TuiInputListener): () => void {
    this.inputListeners.add(listener);
    return () => {
      this.inputListeners.delete(listener);
    };
  }

  /** Removes an input listener. */
  removeInputListener(listener: TuiInputListener): void {
    this.inputListeners.delete(listener);
  }

  /** Calls the listener when the terminal reports a dark/light switch; returns its remover. */
  onTerminalColorSchemeChange(listener: (scheme: TerminalColorScheme) => void): () => void {
    this.terminalColorSchemeListeners.add(listener);
    return () => {
      this.terminalColorSchemeListeners.delete(listener);
    };
  }

  /** Asks the terminal to report colour scheme changes (mode 2031), or to stop. */
  setTerminalColorSchemeNotifications(enabled: boolean): void {
    if (this.terminalColorSchemeNotificationsEnabled === enabled) return;
    this.terminalColorSchemeNotificationsEnabled = enabled;
    if (!this.stopped) this.terminal.write(enabled ? "\x1b[?2031h" : "\x1b[?2031l");
  }

  setSuspendSignalHandler(handler: (() => void) | undefined): void {
    this.suspendSignalHandler = handler;
    this.updateSuspendSignalListener();
  }

  // Listen only while the TUI owns the terminal: afterwards a child (external editor) owns it and a
  // listener would keep SIGTSTP from stopping the process. Only real changes touch the listener:
  // an off/on pair would let a SIGTSTP in between stop the process with the TUI running.
  /** Listens for SIGTSTP exactly while the TUI owns the terminal and a handler is set. */
  private updateSuspendSignalListener(): void {
    const listen = this.ownsTerminal && this.suspendSignalHandler !== undefined;
    if (listen === this.suspendSignalListening) return;
    this.suspendSignalListening = listen;
    listenSignal("SIGTSTP", this.suspendSignalListener, listen);
  }

  /** Gives the terminal back: shown cursor, cooked mode, protocols off. */
  stop(options: TuiStopOptions = {}): void {
    this.stopped = true;
    this.listenForExit(false);
    this.cancelRenderTimer();
    if (this.terminalColorSchemeNotificationsEnabled) this.terminal.write("\x1b[?2031l");
    this.beforeTerminalStop(options);
    this.terminal.showCursor();
    this.terminal.stop();
    this.afterTerminalStop(options);
    // Last, so a SIGTSTP during the restore above is caught (and dropped when the listener goes)
    // instead of stopping the process with the terminal half restored.
    this.ownsTerminal = false;
    this.updateSuspendSignalListener();
  }

  /** Draws a frame now (in full when forced). */
  renderNow(force = false): void {
    if (force) this.resetRenderState();
    this.contentChanged = true;
    this.renderRequested = false;
    this.cancelRenderTimer();
    this.lastRenderAt = performance.now();
    this.doRender();
  }

  /** Asks for a frame; forced requests redraw in full without waiting for the frame interval. */
  requestRender(force = false): void {
    if (force) {
      this.resetRenderState();
      this.requestImmediateRender();
      return;
    }
    this.contentChanged = true;
    this.requestViewRender();
  }

  /** Request a frame for a change that leaves component output unchanged, such as a scroll position. */
  protected requestViewRender(): void {
    if (this.renderRequested) return;
    this.renderRequested = true;
    queueMicrotask(() => this.scheduleRender());
  }

  /** Draws on the next microtask, preempting a throttled frame (for keys). */
  private requestImmediateRender(): void {
    this.contentChanged = true;
    this.cancelRenderTimer();
    this.renderRequested = true;
    if (this.immediateRenderScheduled) return;
    this.immediateRenderScheduled = true;
    queueMicrotask(() => {
      this.immediateRenderScheduled = false;
      if (this.stopped || !this.renderRequested) return;
      // A throttled frame queued earlier may have set a timer by now; input preempts it.
      this.cancelRenderTimer();
      this.renderRequested = false;
      this.lastRenderAt = performance.now();
      this.doRender();
    });
  }

  /** Cancels a throttled frame's timer. */
  private cancelRenderTimer(): void {
    if (this.renderTimer === undefined) return;
    clearTimeout(this.renderTimer);
    this.renderTimer = undefined;
  }

  /** Draws once at least 16 ms have passed since the last frame. */
  private scheduleRender(): void {
    if (this.stopped || this.renderTimer !== undefined || !this.renderRequested) return;
    const delay = Math.max(0, TuiBase.MIN_RENDER_INTERVAL_MS - (performance.now() - this.lastRenderAt));
    this.renderTimer = setTimeout(() => {
      this.renderTimer = undefined;
      if (this.stopped || !this.renderRequested) return;
      this.renderRequested = false;
      this.lastRenderAt = performance.now();
      this.doRender();
      if (this.renderRequested) this.scheduleRender();
    }, delay);
  }

  /** Routes terminal input: replies the TUI asked for, listeners, the debug key, then the focused component. */
  private handleTerminalInput(input: string): void {
    if (this.consumeTerminalColorResponse(input)) return;
    if (this.consumeTerminalColorSchemeReport(input)) return;
    let data = input;
    if (this.inputListeners.size > 0) {
      for (const listener of this.inputListeners) {
        const result = listener(data);
        if (result?.consume) return;
        if (result?.data !== undefined) data = result.data;
      }
      if (data.length === 0) return;
    }
    if (this.consumeCellSizeResponse(data)) return;
    if (matchesKey(data, "shift+ctrl+d") && this.onDebug) {
      this.onDebug();
      return;
    }
    this.refocusBeforeInput();
    const focused = this.focusedComponent;
    if (!focused?.handleInput) return;
    // Key releases (Kitty protocol) only reach components that ask for them.
    if (isKeyRelease(data) && !focused.wantsKeyRelease) return;
    focused.handleInput(data);
    // Keys are latency-sensitive: draw at once instead of on the throttled timer.
    this.requestImmediateRender();
  }

  /** Before a key is delivered: move focus off an overlay that became invisible, or back to one. */
  private refocusBeforeInput(): void {
    const focusedOverlay = this.overlayStack.find((o) => o.component === this.focusedComponent);
    if (focusedOverlay && !this.isOverlayVisible(focusedOverlay)) {
      const top = this.getTopmostVisibleOverlay();
      if (top) this.setFocus(top.component);
      else this.setFocusInternal(focusedOverlay.preFocus, "preserve");
    }
    if (this.overlayStack.some((o) => o.component === this.focusedComponent)) return;
    const restore = this.getVisibleOverlayFocusRestore();
    if (restore.status === "eligible") {
      this.setFocus(restore.overlay.component);
    } else if (restore.status === "blocked" && restore.blockedBy !== this.focusedComponent) {
      if (restore.resume.status === "restore-overlay") {
        this.setFocus(restore.overlay.component);
      } else {
        this.clearOverlayFocusRestore();
        this.setFocus(restore.resume.target);
      }
    }
  }

  /** Takes OSC 10/11/4 colour replies and the DA1 that ends a pending colour query. */
  private consumeTerminalColorResponse(data: string): boolean {
    const query = this.pendingTerminalColorQueries[0];
    if (!query) return false;
    if (DEVICE_ATTRIBUTES_REPLY.test(data)) {
      this.pendingTerminalColorQueries.shift();
      this.completeTerminalColorQuery(query);
      return true;
    }
    const response = parseOscColorResponse(data);
    if (!response) return false;
    const { target, rgb } = response;
    const key = String(target);
    if (!query.deliver || query.replied.has(key)) return true;
    query.replied.add(key);
    if (target === "foreground") query.foreground = rgb;
    else if (target === "background") query.background = rgb;
    else if (target < PALETTE_SIZE) query.palette[target] = rgb;
    if (query.replied.size === COLOR_REPLY_COUNT) this.completeTerminalColorQuery(query);
    return true;
  }

  /** Resolves a colour query with what arrived (or hands it to onLateReply after a timeout). */
  private completeTerminalColorQuery(query: ColorQuery): void {
    const deliver = query.deliver;
    query.deliver = undefined;
    clearTimeout(query.timer);
    deliver?.(colorQueryResult(query));
  }

  /** Takes a colour scheme report (mode 2031) and tells the listeners. */
  private consumeTerminalColorSchemeReport(data: string): boolean {
    const scheme = parseTerminalColorSchemeReport(data);
    if (!scheme) return false;
    for (const listener of this.terminalColorSchemeListeners) listener(scheme);
    return true;
  }

  /** Takes a cell size reply (CSI 6;h;w t) and redraws images for it. */
  private consumeCellSizeResponse(data: string): boolean {
    const match = CELL_SIZE_REPLY.exec(data);
    if (!match) return false;
    const heightPx = parseInt(match[1], 10);
    const widthPx = parseInt(match[2], 10);
    if (heightPx <= 0 || widthPx <= 0) return true;
    setCellDimensions({ widthPx, heightPx });
    // Images depend on the cell size: draw them again.
    this.invalidate();
    this.requestRender();
    return true;
  }

  /**
   * Query the terminal's theme colors: the default foreground (OSC 10), the default background
   * (OSC 11), and ANSI colors 0-15 (OSC 4), followed by a DA1 request that marks the end of the
   * replies. Resolves when the DA1 reply or all color replies arrive, or when the timeout expires.
   * Colors the terminal did not report are undefined; the palette is only set when all 16 arrived.
   * @param timeoutMs Query timeout in milliseconds, for terminals that do not answer DA1 either.
   * @param onLateReply Receives the replies if the query completes after the timeout, e.g. over slow links.
   */
  queryTerminalColors({ timeoutMs, onLateReply }: {
    timeoutMs: number;
    onLateReply?: (colors: TerminalColors) => void;
  }): Promise<TerminalColors> {
    return new Promise((resolve) => {
      const query: ColorQuery = {
        palette: new Array(PALETTE_SIZE).fill(undefined),
        replied: new Set(),
        deliver: resolve,
        timer: undefined,
      };
      // Resolve with the replies so far, and keep collecting late replies for `onLateReply`.
      query.timer = setTimeout(() => {
        query.deliver = onLateReply;
        resolve(colorQueryResult(query));
      }, timeoutMs);
      this.pendingTerminalColorQueries.push(query);
      this.terminal.write(COLOR_QUERY);
    });
  }
}

function colorQueryResult(query: ColorQuery): TerminalColors {
  const complete = query.palette.every((color) => color !== undefined);
  return {
    foreground: query.foreground,
    background: query.background,
    palette: complete ? query.palette as RgbColor[] : undefined,
  };
}
