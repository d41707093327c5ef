/**
 * The TUI core, mirroring pi-tui's `tui.js`: components and containers, cursor markers, mouse
 * routing, overlay compositing and `TuiBase`, the renderer-independent half of a TUI.
 *
 * The code lives in `tui_*.ts`; this file gathers pi-tui's names.
 *
 * @module
 */
export {
  type ChildLines,
  type Component,
  Container,
  CURSOR_MARKER,
  dispatchMouseEvent,
  dispatchMouseToChildLines,
  FAKE_CURSOR_END,
  FAKE_CURSOR_START,
  type Focusable,
  isFocusable,
  renderChildLines,
  renderFakeCursor,
  retargetMouseEvent,
  type TuiMouseButton,
  type TuiMouseDispatchResult,
  type TuiMouseDispatchTarget,
  type TuiMouseEvent,
  type TuiMouseEventResult,
  type TuiMouseEventType,
} from "./tui_component.ts";
export {
  isViewportTUI,
  type OverlayAnchor,
  type OverlayBounds,
  type OverlayHandle,
  type OverlayMargin,
  type OverlayOptions,
  type OverlayUnfocusOptions,
  type SizeValue,
  type TUI,
  type TuiInputListener,
  type TuiInputListenerResult,
  type TuiMode,
  type TuiStopOptions,
  VIEWPORT_TUI,
  type ViewportTUI,
} from "./tui_types.ts";
export { compositeTuiLine } from "./tui_overlay_layout.ts";
export { TuiBase } from "./tui_base.ts";
export { visibleWidth } from "./utils_text.ts";
