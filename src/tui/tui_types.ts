/**
 * The shapes a TUI deals in: overlay options and handles, input listeners, stop options and the
 * `TUI` interface both renderers (main screen and alternate screen) implement.
 *
 * @module
 */
import type { Terminal } from "./terminal_interface.ts";
import type { TerminalColors, TerminalColorScheme } from "./terminal_colors.ts";
import type { Component } from "./tui_component.ts";

/** What an input listener decides: swallow the input, or pass on (possibly rewritten) data. */
export type TuiInputListenerResult = {
  consume?: boolean;
  data?: string;
} | undefined;

/** Sees terminal input before the focused component does. */
export type TuiInputListener = (data: string) => TuiInputListenerResult;

/** Anchor position for overlays */
export type OverlayAnchor =
  | "center"
  | "top-left"
  | "top-right"
  | "bottom-left"
  | "bottom-right"
  | "top-center"
  | "bottom-center"
  | "left-center"
  | "right-center";

/** Margin configuration for overlays */
export interface OverlayMargin {
  /** Rows kept free above. */
  top?: number;
  /** Columns kept free on the right. */
  right?: number;
  /** Rows kept free below. */
  bottom?: number;
  /** Columns kept free on the left. */
  left?: number;
}

/** Value that can be absolute (number) or percentage (string like "50%") */
export type SizeValue = number | `${number}%`;

/**
 * Options for overlay positioning and sizing.
 * Values can be absolute numbers or percentage strings (e.g., "50%").
 */
export interface OverlayOptions {
  /** Width in columns, or percentage of terminal width (e.g., "50%") */
  width?: SizeValue;
  /** Minimum width in columns */
  minWidth?: number;
  /** Maximum height in rows, or percentage of terminal height (e.g., "50%") */
  maxHeight?: SizeValue;
  /** Anchor point for positioning (default: 'center') */
  anchor?: OverlayAnchor;
  /** Horizontal offset from anchor position (positive = right) */
  offsetX?: number;
  /** Vertical offset from anchor position (positive = down) */
  offsetY?: number;
  /** Row position: absolute number, or percentage (e.g., "25%" = 25% from top) */
  row?: SizeValue;
  /** Column position: absolute number, or percentage (e.g., "50%" = centered horizontally) */
  col?: SizeValue;
  /** Margin from terminal edges. Number applies to all sides. */
  margin?: OverlayMargin | number;
  /**
   * Control overlay visibility based on terminal dimensions.
   * If provided, overlay is only rendered when this returns true.
   * Called each render cycle with current terminal dimensions.
   */
  visible?: (termWidth: number, termHeight: number) => boolean;
  /** If true, don't capture keyboard focus when shown */
  nonCapturing?: boolean;
}

/** Options for {@link OverlayHandle.unfocus}. */
export interface OverlayUnfocusOptions {
  /** Explicit target to focus after releasing this overlay. */
  target: Component | null;
}

/** Last rendered terminal-relative overlay rectangle. */
export interface OverlayBounds {
  /** Top row on screen. */
  row: number;
  /** Left column on screen. */
  col: number;
  /** Width in columns. */
  width: number;
  /** Height in rows. */
  height: number;
}

/** Handle returned by showOverlay for controlling the overlay */
export interface OverlayHandle {
  /** Permanently remove the overlay (cannot be shown again) */
  hide(): void;
  /** Temporarily hide or show the overlay */
  setHidden(hidden: boolean): void;
  /** Check if overlay is temporarily hidden */
  isHidden(): boolean;
  /** Focus this overlay and bring it to the visual front */
  focus(): void;
  /** Release focus to the next visible capturing overlay or previous target, or to an explicit target when provided */
  unfocus(options?: OverlayUnfocusOptions): void;
  /** Check if this overlay currently has focus */
  isFocused(): boolean;
  /** Get the most recent rendered bounds for a visible overlay. */
  getBounds(): OverlayBounds | undefined;
}

/** Which screen a TUI draws on: the main screen with scrollback, or the alternate screen. */
export type TuiMode = "regular" | "fullscreen";

/** Options for {@link TUI.stop}. */
export interface TuiStopOptions {
  /** Leave renderer output in place for another TUI taking over the same terminal. */
  preserveScreen?: boolean;
}

/** A running terminal UI: a root container drawn on a terminal, with focus and overlays. */
export interface TUI extends Component {
  /** Which screen the TUI draws on. */
  readonly mode: TuiMode;
  /** Root components, top to bottom. */
  children: Component[];
  /** The terminal drawn on. */
  terminal: Terminal;
  /** Called for the debug key (Shift+Ctrl+D). */
  onDebug?: () => void;
  /** How many frames were drawn in full. */
  readonly fullRedraws: number;
  /** Appends a root component. */
  addChild(component: Component): void;
  /** Removes a root component. */
  removeChild(component: Component): void;
  /** Removes every root component. */
  clear(): void;
  /** Whether the terminal's cursor is shown at the focused component's cursor. */
  getShowHardwareCursor(): boolean;
  /** Shows or hides the terminal's cursor at the focused component's cursor (for IME). */
  setShowHardwareCursor(enabled: boolean): void;
  /** Whether shrinking content triggers a full redraw. */
  getClearOnShrink(): boolean;
  /** Sets whether shrinking content triggers a full redraw. */
  setClearOnShrink(enabled: boolean): void;
  /** Gives keyboard focus to a component, or to nobody. */
  setFocus(component: Component | null): void;
  /** Shows a component above the others; the handle hides, focuses and measures it. */
  showOverlay(component: Component, options?: OverlayOptions): OverlayHandle;
  /** Hides the topmost overlay. */
  hideOverlay(): void;
  /** Whether any overlay is visible. */
  hasOverlay(): boolean;
  /** Takes the terminal and starts drawing. */
  start(): void;
  /** Gives the terminal back. */
  stop(options?: TuiStopOptions): void;
  /** Draws a frame now (in full when forced). */
  renderNow(force?: boolean): void;
  /** Asks for a frame soon. */
  requestRender(force?: boolean): void;
  /** Adds a listener that sees input before the focused component; returns its remover. */
  addInputListener(listener: TuiInputListener): () => void;
  /** Removes an input listener. */
  removeInputListener(listener: TuiInputListener): void;
  /** Calls the listener when the terminal reports a dark/light switch; returns its remover. */
  onTerminalColorSchemeChange(listener: (scheme: TerminalColorScheme) => void): () => void;
  /** Asks the terminal to report colour scheme switches, or to stop. */
  setTerminalColorSchemeNotifications(enabled: boolean): void;
  /**
   * Sets the handler called on SIGTSTP while this TUI owns the terminal (from start() until stop()),
   * or clears it with undefined.
   * The listener is removed on stop(), so a child that owns the terminal afterwards is suspended normally.
   */
  setSuspendSignalHandler(handler: (() => void) | undefined): void;
  /** Asks the terminal for its colours (OSC 10, 11, 4) and resolves with what it answers. */
  queryTerminalColors(options: {
    timeoutMs: number;
    onLateReply?: (colors: TerminalColors) => void;
  }): Promise<TerminalColors>;
}

/** Marks a TUI that lays out a scrollable viewport (the alternate-screen renderer). */
export const VIEWPORT_TUI: unique symbol = Symbol.for("@earendil-works/pi-tui/viewport");

/** A TUI with a viewport: the alternate-screen renderer. */
export interface ViewportTUI extends TUI {
  /** The brand of a viewport TUI. */
  readonly [VIEWPORT_TUI]: true;
  /** Sets the component laid out in the viewport. */
  setLayoutRoot(component: Component | undefined): void;
}

/** Whether a TUI is a {@link ViewportTUI}. */
export function isViewportTUI(tui: TUI): tui is ViewportTUI {
  return (tui as Partial<ViewportTUI>)[VIEWPORT_TUI] === true;
}
