/**
 * What the fullscreen TUI paints over a laid-out frame: search-match highlights, the jump-to-end
 * label and the flash messages. Plain functions from screen rows to screen rows.
 *
 * @module
 */
import type { AltScreenSearchMatch } from "./alt_screen_search.ts";
import type { ScrollView } from "./components/scroll_view.ts";
import { getScrollbarGeometry, getScrollViewBox, type LayoutFrame } from "./layout.ts";
import { isImageLine } from "./terminal_image.ts";
import { compositeTuiLine } from "./tui_overlay_layout.ts";
import { extractAnsiCode, sliceByColumn, truncateToWidth, visibleWidth } from "./utils_text.ts";

/** Styles the text of a match; escape sequences inside it are passed through unstyled. */
function styleMatchText(text: string, style: (text: string) => string): string {
  let result = "";
  let plainStart = 0;
  let index = 0;
  while (index < text.length) {
    const ansi = extractAnsiCode(text, index);
    if (!ansi) {
      index += 1;
      continue;
    }
    if (index > plainStart) result += style(text.slice(plainStart, index));
    result += ansi.code;
    index += ansi.length;
    plainStart = index;
  }
  if (plainStart < text.length) result += style(text.slice(plainStart));
  return result;
}

/** The search state the highlighter needs. */
export interface SearchHighlightInput {
  /** Every match, in content order. */
  matches: readonly AltScreenSearchMatch[];
  /** The current match (-1: none). */
  selectedIndex: number;
  /** The view searched. */
  scrollView: ScrollView;
  /** Terminal columns. */
  columns: number;
  /** Style of the other matches. */
  matchStyle: (text: string) => string;
  /** Style of the current match. */
  currentMatchStyle: (text: string) => string;
}

interface HighlightRange {
  startCol: number;
  endCol: number;
  current: boolean;
}

/**
 * `screen` with the matches that are visible in the scroll view's box styled (the selected one
 * with the current-match style), never over its scrollbar.
 */
export function applySearchHighlights(
  screen: string[],
  layout: LayoutFrame,
  search: SearchHighlightInput,
): string[] {
  const { matches, scrollView } = search;
  if (search.selectedIndex < 0 || matches.length === 0) return screen;
  const box = getScrollViewBox(layout, scrollView);
  if (!box) return screen;
  const scrollbarColumn = getScrollbarGeometry(box)?.column;
  const minRow = Math.max(0, box.rect.y, box.clip.y);
  const maxRow = Math.min(screen.length, box.rect.y + box.rect.height, box.clip.y + box.clip.height);
  const minColumn = Math.max(0, box.rect.x, box.clip.x);
  const maxColumn = Math.min(
    search.columns,
    box.rect.x + box.rect.width,
    box.clip.x + box.clip.width,
    scrollbarColumn ?? Number.POSITIVE_INFINITY,
  );
  const firstContentRow = scrollView.scrollTop + minRow - box.rect.y;
  const lastContentRow = scrollView.scrollTop + maxRow - box.rect.y - 1;
  // Matches are in content order: find the first one that ends at or below the viewport's top.
  let low = 0;
  let high = matches.length;
  while (low < high) {
    const middle = low + Math.floor((high - low) / 2);
    const segments = matches[middle].segments;
    if ((segments[segments.length - 1]?.row ?? -1) < firstContentRow) low = middle + 1;
    else high = middle;
  }
  const rangesByRow = new Map<number, HighlightRange[]>();
  for (let index = low; index < matches.length; index++) {
    const match = matches[index];
    if ((match.segments[0]?.row ?? 0) > lastContentRow) break;
    for (const segment of match.segments) {
      const row = box.rect.y + segment.row - scrollView.scrollTop;
      if (row < minRow || row >= maxRow) continue;
      const startCol = Math.max(minColumn, box.rect.x + segment.startCol);
      const endCol = Math.min(maxColumn, box.rect.x + segment.endCol);
      if (endCol <= startCol) continue;
      const ranges = rangesByRow.get(row) ?? [];
      ranges.push({ startCol, endCol, current: index === search.selectedIndex });
      rangesByRow.set(row, ranges);
    }
  }
  const result = [...screen];
  for (const [row, ranges] of rangesByRow) {
    let line = result[row] ?? "";
    if (isImageLine(line)) continue;
    const lineWidth = visibleWidth(line);
    // Right to left, so earlier columns stay where they were.
    for (const range of ranges.sort((a, b) => b.startCol - a.startCol)) {
      const startCol = Math.min(range.startCol, lineWidth);
      const endCol = Math.min(range.endCol, lineWidth);
      if (endCol <= startCol) continue;
      const before = sliceByColumn(line, 0, startCol, true);
      const matched = sliceByColumn(line, startCol, endCol - startCol, true);
      const after = sliceByColumn(line, endCol, Math.max(0, lineWidth - endCol), true);
      const style = range.current ? search.currentMatchStyle : search.matchStyle;
      line = `${before}${styleMatchText(matched, style)}${after}`;
    }
    result[row] = line;
  }
  return result;
}

/** Where the jump-to-end label was drawn, so a click on it can be recognised. */
export interface ScrollToEndIndicatorRect {
  /** Screen row. */
  row: number;
  /** First screen column. */
  column: number;
  /** Columns. */
  width: number;
}

/**
 * `screen` with `label` centred on the last visible row of a follow-end scroll view that is
 * scrolled away from its end (left of its scrollbar), and where it went; the screen unchanged and
 * no rect when nothing was drawn.
 */
export function compositeScrollToEndIndicator(
  screen: string[],
  layout: LayoutFrame,
  scrollView: ScrollView,
  label: (() => string) | undefined,
  width: number,
): { screen: string[]; rect?: ScrollToEndIndicatorRect } {
  if (!label || !scrollView.followEnd || scrollView.isFollowingEnd) return { screen };
  const box = getScrollViewBox(layout, scrollView);
  const clip = box?.clip;
  if (!box || !clip || clip.width <= 0 || clip.height <= 0) return { screen };
  const row = clip.y + clip.height - 1;
  if (row >= screen.length || isImageLine(screen[row] ?? "")) return { screen };
  const scrollbarColumn = getScrollbarGeometry(box)?.column;
  const full = truncateToWidth(label(), clip.width, "");
  const column = clip.x + Math.floor((clip.width - visibleWidth(full)) / 2);
  const rightEdge = scrollbarColumn ?? clip.x + clip.width;
  const text = truncateToWidth(full, Math.max(0, rightEdge - column), "");
  const textWidth = visibleWidth(text);
  if (textWidth === 0) return { screen };
  const result = [...screen];
  result[row] = compositeTuiLine(result[row] ?? "", text, column, textWidth, width);
  return { screen: result, rect: { row, column, width: textWidth } };
}

/** `screen` with the flash lines right-aligned from the top row down (the newest `height` of them). */
export function compositeFlashes(
  screen: string[],
  flashLines: readonly string[],
  width: number,
  height: number,
): string[] {
  const shown = flashLines.slice(-height);
  if (shown.length === 0) return screen;
  const result = [...screen];
  while (result.length < height) result.push("");
  for (let row = 0; row < shown.length; row++) {
    const line = shown[row];
    const flashWidth = visibleWidth(line);
    if (flashWidth === 0) continue;
    result[row] = compositeTuiLine(result[row] ?? "", line, width - flashWidth, flashWidth, width);
  }
  return result;
}
