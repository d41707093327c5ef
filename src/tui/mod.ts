/**
 * The terminal UI kit: pi-tui 1.6.0's API (`@earendil-works/pi-tui`) on Deno APIs.
 *
 * Each section below is owned by one area of the kit; keep exports grouped by the file they come from.
 *
 * @module
 */

// --- text utilities (text_*.ts) ---
export {
  getOsc8LinkAtColumn,
  replaceControlCharacters,
  sliceByColumn,
  stripTerminalSequences,
  truncateToWidth,
  visibleWidth,
  wrapTextWithAnsi,
} from "./utils.ts";

// --- keys, keybindings, stdin (keys*.ts, keybindings.ts, stdin_buffer.ts) ---

// --- colours, capabilities, images (colors.ts, oklab.ts, terminal_*.ts) ---

// --- core: components, TUI, terminal (tui*.ts, terminal.ts) ---
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
} from "./tui.ts";

// --- fullscreen: layout, stacks, scroll view (layout*.ts, stack.ts, scroll_view.ts, alt_screen*.ts) ---

// --- editor, input, autocomplete (editor*.ts, input.ts, autocomplete.ts) ---

// --- markdown, latex (markdown*.ts, latex*.ts) ---

// --- simple components (text.ts, box.ts, select_list.ts, settings_list.ts, loader.ts, image.ts…) ---

export {};
