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
  top?: number;
  right?: number;
  bottom?: number;
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
  row: number;
  col: number;
  width: number;
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
  readonly mode: TuiMode;
  children: Component[];
  terminal: Terminal;
  onDebug?: () => void;
  readonly fullRedraws: number;
  addChild(component: Component): void;
  removeChild(component: Component): void;
  clear(): void;
  getShowHardwareCursor(): boolean;
  setShowHardwareCursor(enabled: boolean): void;
  getClearOnShrink(): boolean;
  setClearOnShrink(enabled: boolean): void;
  setFocus(component: Component | null): void;
  showOverlay(component: Component, options?: OverlayOptions): OverlayHandle;
  hideOverlay(): void;
  hasOverlay(): boolean;
  start(): void;
  stop(options?: TuiStopOptions): void;
  renderNow(force?: boolean): void;
  requestRender(force?: boolean): void;
  addInputListener(listener: TuiInputListener): () => void;
  removeInputListener(listener: TuiInputListener): void;
  onTerminalColorSchemeChange(listener: (scheme: TerminalColorScheme) => void): () => void;
  setTerminalColorSchemeNotifications(enabled: boolean): void;
  /**
   * Sets the handler called on SIGTSTP while this TUI owns the terminal (from start() until stop()),
   * or clears it with undefined.
   * The listener is removed on stop(), so a child that owns the terminal afterwards is suspended normally.
   */
  setSuspendSignalHandler(handler: (() => void) | undefined): void;
  queryTerminalColors(options: {
    timeoutMs: number;
    onLateReply?: (colors: TerminalColors) => void;
  }): Promise<TerminalColors>;
}

/** Marks a TUI that lays out a scrollable viewport (the alternate-screen renderer). */
export const VIEWPORT_TUI: unique symbol = Symbol.for("@earendil-works/pi-tui/viewport");

/** A TUI with a viewport: the alternate-screen renderer. */
export interface ViewportTUI extends TUI {
  readonly [VIEWPORT_TUI]: true;
  setLayoutRoot(component: Component | undefined): void;
}

/** Whether a TUI is a {@link ViewportTUI}. */
export function isViewportTUI(tui: TUI): tui is ViewportTUI {
  return (tui as Partial<ViewportTUI>)[VIEWPORT_TUI] === true;
}
