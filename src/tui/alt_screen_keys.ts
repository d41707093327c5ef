/**
 * The fullscreen TUI's keys: the search keys, then (unless a focused overlay or component takes
 * viewport keys) paging, line and half-page scrolling, OSC 133 prompt jumps and top/bottom. Key
 * releases of a bound key are swallowed so they reach nobody.
 *
 * @module
 */
import type { AltScreenSearchController } from "./alt_screen_search_state.ts";
import { getKeybindings, type Keybinding } from "./keybindings.ts";
import { isKeyRelease } from "./keys.ts";
import type { TuiInputListenerResult } from "./tui_types.ts";

/** Rows a page keeps from the previous page, for context. */
const PAGE_SCROLL_OVERLAP = 4;
// deno-lint-ignore no-control-regex
const OSC133_PROMPT_START = /^\x1b\]133;A(?:\x07|\x1b\\)/;

/** What the keys act on. */
export interface AltScreenKeysHost {
  /** The transcript search. */
  search: AltScreenSearchController;
  /** Whether a focused overlay or component takes viewport keys now. */
  deferViewportKeys(): boolean;
  /** Rows of the primary scroll view. */
  viewportHeight(): number;
  /** Scrolls the primary view by lines (negative: up). */
  scrollBy(lines: number): void;
  /** Scrolls the primary view to its first line. */
  scrollToTop(): void;
  /** Scrolls the primary view to its end. */
  scrollToBottom(): void;
  /** Scrolls to the previous (-1) or next (1) prompt line. */
  scrollToPrompt(direction: -1 | 1): void;
}

/** The viewport keys and their actions, in the order they are matched. */
function viewportActions(host: AltScreenKeysHost): [Keybinding, () => void][] {
  const page = () => Math.max(1, host.viewportHeight() - PAGE_SCROLL_OVERLAP);
  const halfPage = () => Math.max(1, Math.floor(host.viewportHeight() / 2));
  return [
    ["tui.altScreen.pageUp", () => host.scrollBy(-page())],
    ["tui.altScreen.pageDown", () => host.scrollBy(page())],
    ["tui.altScreen.halfPageUp", () => host.scrollBy(-halfPage())],
    ["tui.altScreen.halfPageDown", () => host.scrollBy(halfPage())],
    ["tui.altScreen.lineUp", () => host.scrollBy(-1)],
    ["tui.altScreen.lineDown", () => host.scrollBy(1)],
    ["tui.altScreen.previousPrompt", () => host.scrollToPrompt(-1)],
    ["tui.altScreen.nextPrompt", () => host.scrollToPrompt(1)],
    ["tui.altScreen.top", () => host.scrollToTop()],
    ["tui.altScreen.bottom", () => host.scrollToBottom()],
  ];
}

/** Handles `data` when it is one of the fullscreen keys: consumed, or undefined to pass it on. */
export function handleAltScreenKey(data: string, host: AltScreenKeysHost): TuiInputListenerResult {
  const keybindings = getKeybindings();
  const release = isKeyRelease(data);
  const act = (action: () => void): TuiInputListenerResult => {
    if (!release) action();
    return { consume: true };
  };
  const search = host.search;
  if (keybindings.matches(data, "tui.altScreen.search")) return act(() => search.toggle());
  if (search.focused) {
    if (keybindings.matches(data, "tui.altScreen.searchNext")) return act(() => search.navigate(1));
    if (keybindings.matches(data, "tui.altScreen.searchPrevious")) return act(() => search.navigate(-1));
    if (keybindings.matches(data, "tui.altScreen.searchClose")) return act(() => search.close());
  }
  if (host.deferViewportKeys()) return undefined;
  for (const [id, action] of viewportActions(host)) {
    if (keybindings.matches(data, id)) return act(action);
  }
  return undefined;
}

/** The first row from `from + direction` on (going `direction`) that starts an OSC 133 prompt. */
export function findPromptRow(lines: readonly string[], from: number, direction: -1 | 1): number | undefined {
  for (let row = from + direction; row >= 0 && row < lines.length; row += direction) {
    if (OSC133_PROMPT_START.test(lines[row] ?? "")) return row;
  }
  return undefined;
}
