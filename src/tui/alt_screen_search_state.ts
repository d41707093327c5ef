/**
 * The state of an open transcript search and how it follows the content: which match is selected
 * after the query changes (the first at or below where the search started), after next/previous,
 * and after the transcript changes (the same match, found again by its key); and the controller that
 * opens, edits and closes the search box.
 *
 * @module
 */
import {
  AltScreenSearchComponent,
  AltScreenSearchIndex,
  type AltScreenSearchMatch,
  getAltScreenSearchMatchKey,
} from "./alt_screen_search.ts";
import type { ScrollView } from "./components/scroll_view.ts";
import type { OverlayHandle } from "./tui_types.ts";

/**
 * What the next refresh does with the selection: pick by the query's anchor row, step to the
 * next/previous match, or keep the current one.
 */
export type SearchSelectionMode = "query" | "next" | "previous" | "retain";

/** An open search. */
export interface ActiveSearch {
  /** The search box. */
  component: AltScreenSearchComponent;
  /** The overlay showing it. */
  overlay?: OverlayHandle;
  /** Cached corpus and matches. */
  index: AltScreenSearchIndex;
  /** The query as typed. */
  query: string;
  /** Matches of the query. */
  matches: AltScreenSearchMatch[];
  /** The selected match (-1: none). */
  selectedIndex: number;
  /** The selected match's key, to find it again after the content changes. */
  selectedKey?: string;
  /** The content row a new query searches from. */
  anchorRow: number;
  /** What the next refresh does with the selection. */
  selectionMode: SearchSelectionMode;
}

/** A fresh search state around `component`, searching from content row `anchorRow`. */
export function createActiveSearch(component: AltScreenSearchComponent, anchorRow: number): ActiveSearch {
  return {
    component,
    index: new AltScreenSearchIndex(),
    query: "",
    matches: [],
    selectedIndex: -1,
    anchorRow,
    selectionMode: "query",
  };
}

/** The first match whose first row is at or below `row`, wrapping to the first match. */
function firstMatchFrom(matches: readonly AltScreenSearchMatch[], row: number): number {
  let low = 0;
  let high = matches.length;
  while (low < high) {
    const middle = low + Math.floor((high - low) / 2);
    if ((matches[middle].segments[0]?.row ?? 0) < row) low = middle + 1;
    else high = middle;
  }
  return low < matches.length ? low : 0;
}

/**
 * Searches `lines` (the scroll view's content, undefined when it was not laid out) and updates the
 * selection; when the selection moved, scrolls it into view (a third down the viewport) without
 * resuming follow-end. Returns whether the view scrolled, i.e. whether the frame must be laid out again.
 */
export function refreshActiveSearch(
  search: ActiveSearch,
  lines: readonly string[] | undefined,
  scrollView: ScrollView,
): boolean {
  if (!lines || !search.query.trim()) {
    search.matches = [];
    search.selectedIndex = -1;
    search.selectedKey = undefined;
    search.selectionMode = "retain";
    search.component.setResult(-1, 0);
    return false;
  }
  const reveal = search.selectionMode !== "retain";
  const result = search.index.search(lines, search.query);
  const matches = result.matches;
  search.matches = matches;
  if (!result.changed && search.selectionMode === "retain") return false;
  const sameMatch = result.changed
    ? search.selectedKey
      ? matches.findIndex((match) => getAltScreenSearchMatchKey(match) === search.selectedKey)
      : -1
    : search.selectedIndex;
  let selected = -1;
  if (matches.length > 0) {
    const base = sameMatch >= 0 ? sameMatch : Math.min(search.selectedIndex, matches.length - 1);
    switch (search.selectionMode) {
      case "query":
        selected = firstMatchFrom(matches, search.anchorRow);
        break;
      case "next":
        selected = base < 0 ? 0 : (base + 1) % matches.length;
        break;
      case "previous":
        selected = base < 0 ? matches.length - 1 : (base - 1 + matches.length) % matches.length;
        break;
      default:
        selected = sameMatch >= 0
          ? sameMatch
          : Math.min(Math.max(0, search.selectedIndex), matches.length - 1);
    }
  }
  search.selectedIndex = selected;
  search.selectedKey = selected >= 0 ? getAltScreenSearchMatchKey(matches[selected]) : undefined;
  search.selectionMode = "retain";
  search.component.setResult(selected, matches.length);
  if (!reveal) return false;
  const match = matches[selected];
  const first = match?.segments[0];
  const last = match?.segments[match.segments.length - 1];
  if (!first || !last || scrollView.viewportHeight <= 0) return false;
  const before = scrollView.scrollTop;
  const visibleBottom = before + scrollView.viewportHeight - 1;
  const target = first.row < before || last.row > visibleBottom
    ? first.row - Math.floor(scrollView.viewportHeight / 3)
    : before;
  scrollView.scrollTo(target, { disableFollow: true });
  return scrollView.scrollTop !== before;
}

/** What the search needs of the TUI. */
export interface AltScreenSearchHost {
  /** Shows the search box as an overlay. */
  showOverlay(component: AltScreenSearchComponent): OverlayHandle;
  /** Asks for a frame. */
  requestRender(): void;
  /** The primary scroll view's first shown content line. */
  scrollTop(): number;
}

/** Styles of the search box and its highlights. */
export interface AltScreenSearchStyles {
  /** Style of a match. */
  match: (text: string) => string;
  /** Style of the current match. */
  currentMatch: (text: string) => string;
  /** Style of a navigation button. */
  navigationButton: (text: string, hovered: boolean) => string;
}

/** Opens, edits, steps through and closes the transcript search of one `TuiAltScreen`. */
export class AltScreenSearchController {
  /** The open search, if any. */
  active: ActiveSearch | undefined;
  /** Match and button styles. */
  readonly styles: AltScreenSearchStyles;
  private readonly host: AltScreenSearchHost;

  /** A controller for the TUI behind `host`. */
  constructor(host: AltScreenSearchHost, styles: AltScreenSearchStyles) {
    this.host = host;
    this.styles = styles;
  }

  /** Whether the search box has keyboard focus. */
  get focused(): boolean {
    return this.active?.overlay?.isFocused() === true;
  }

  /** Opens the search box (top right), or closes it when open. */
  toggle(): void {
    if (this.active) {
      this.close();
      return;
    }
    const component = new AltScreenSearchComponent(
      (query) => this.updateQuery(query),
      this.styles.navigationButton,
    );
    const search = createActiveSearch(component, this.host.scrollTop());
    this.active = search;
    search.overlay = this.host.showOverlay(component);
  }

  /** Closes the search box and drops the highlights. */
  close(): void {
    const search = this.active;
    if (!search) return;
    this.active = undefined;
    search.overlay?.hide();
    this.host.requestRender();
  }

  /** The query changed: search again from the selected match. */
  private updateQuery(query: string): void {
    const search = this.active;
    if (!search || query === search.query) return;
    // A new query searches on from the selected match, or from the top of the view.
    const selected = search.matches[search.selectedIndex];
    search.anchorRow = selected?.segments[0]?.row ?? this.host.scrollTop();
    search.query = query;
    search.selectionMode = "query";
    search.component.setResult(-1, 0);
    this.host.requestRender();
  }

  /** Selects the next (1) or previous (-1) match in the next frame. */
  navigate(direction: -1 | 1): void {
    const search = this.active;
    if (!search?.query) return;
    search.selectionMode = direction < 0 ? "previous" : "next";
    this.host.requestRender();
  }

  /** Clears the hovered button (the pointer left the terminal). */
  clearHover(): void {
    if (this.active?.component.setHoveredNavigationDirection(undefined)) this.host.requestRender();
  }

  /** Hover and clicks on the search box's buttons; true when the event pressed one. */
  handleMouse(event: { button: number; x: number; y: number; release: boolean }): boolean {
    const search = this.active;
    if (!search) return false;
    const bounds = search.overlay?.getBounds();
    const inside = bounds !== undefined && event.x >= bounds.col && event.x < bounds.col + bounds.width &&
      event.y >= bounds.row && event.y < bounds.row + bounds.height;
    const direction = inside
      ? search.component.getNavigationDirectionAt(event.y - bounds.row, event.x - bounds.col)
      : undefined;
    if (search.component.setHoveredNavigationDirection(direction)) this.host.requestRender();
    if (direction === undefined || event.release || (event.button & 32) !== 0 || (event.button & 3) !== 0) {
      return false;
    }
    this.navigate(direction);
    return true;
  }
}
