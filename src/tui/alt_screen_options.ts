/**
 * Options of the fullscreen TUI (`TuiAltScreen`).
 *
 * @module
 */
import type { WheelScrollLines } from "./wheel_scroll.ts";

/** Scrolling, mouse, search, selection and clipboard settings of a `TuiAltScreen`. */
export interface TuiAltScreenOptions {
  /**
   * Logical lines moved for each mouse-wheel event (default: 1). `"auto"` accelerates fast wheel
   * spins on terminals that send one event per notch. Alt+wheel moves five times as far.
   */
  wheelScrollLines?: WheelScrollLines;
  /** Capture mouse events for viewport scrolling and application-owned text selection. */
  mouse?: boolean;
  /** Style a non-current transcript search match. */
  searchMatchStyle?: (text: string) => string;
  /** Style the current transcript search match. */
  searchCurrentMatchStyle?: (text: string) => string;
  /** Style a transcript search navigation button. */
  searchNavigationButtonStyle?: (text: string, hovered: boolean) => string;
  /**
   * Render a clickable jump-to-end label. It is centered on the last row of a follow-end
   * primary scroll view while that view is scrolled away from its end.
   */
  scrollToEndIndicator?: () => string;
  /** Open an OSC 8 hyperlink activated with a primary-button click. */
  openUrl?: (url: string) => void;
  /** Handle an unmodified secondary-button press for clipboard paste. Currently enabled on Windows only. */
  onRightClickPaste?: () => void;
  /** Automatically copy selected text to the clipboard on mouse release (default: true). */
  copyOnSelect?: boolean;
  /**
   * Copy selected text to the system clipboard. Return `true` on success, an error message to
   * display on failure, or `false` for a generic error. When omitted, the selection is copied
   * via an OSC 52 write.
   */
  copySelection?: (text: string) => Promise<boolean | string>;
}
