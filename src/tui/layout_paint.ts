/**
 * Painting a laid-out frame onto screen rows: each leaf's visible lines at its position and clip,
 * the Kitty image that starts above a scrolled viewport, and the scrollbars.
 *
 * @module
 */
import type { LayoutBox, ScrollbarGeometry } from "./layout_types.ts";
import {
  cropKittyImageLine,
  getKittyImageMetadata,
  getMaxKittyImageRows,
  isImageLine,
} from "./terminal_image.ts";
import { compositeTuiLine } from "./tui_overlay_layout.ts";
import {
  extractAnsiCode,
  getActiveBackgroundAnsi,
  getGraphemeCellRange,
  sliceByColumn,
  visibleWidth,
} from "./utils_text.ts";

/** OSC 133 prompt-zone marks at a line's start: meaningful to a transcript, not to a painted screen. */
// deno-lint-ignore no-control-regex
export const OSC133_ZONE_PREFIX = /^(?:\x1b\]133;[ABC](?:\x07|\x1b\\))+/;

/**
 * Where `box`'s scrollbar is, or undefined when it is not drawn (or its column is clipped away).
 * `includeHiddenAuto` also answers for an `"auto"` scrollbar that is hidden but would show, so the
 * pointer can reveal it.
 */
export function getScrollbarGeometry(
  box: LayoutBox,
  includeHiddenAuto = false,
): ScrollbarGeometry | undefined {
  const view = box.scrollView;
  if (!view || box.rect.width <= 0 || box.rect.height <= 0) return undefined;
  const contentHeight = box.children[0]?.rect.height ?? box.scrollContentLines?.length ?? 0;
  const trackHeight = box.rect.height;
  const revealable = includeHiddenAuto && view.scrollbar === "auto" && contentHeight > trackHeight;
  if (!view.isScrollbarVisible && !revealable) return undefined;
  const thumbHeight = Math.max(
    Math.min(2, trackHeight),
    Math.min(trackHeight, Math.round((trackHeight * trackHeight) / contentHeight)),
  );
  const maxScrollTop = Math.max(0, contentHeight - trackHeight);
  const thumbOffset = maxScrollTop === 0
    ? 0
    : Math.round((view.scrollTop / maxScrollTop) * (trackHeight - thumbHeight));
  const column = box.rect.x + box.rect.width - 1;
  if (column < box.clip.x || column >= box.clip.x + box.clip.width) return undefined;
  return {
    column,
    trackTop: box.rect.y,
    trackHeight,
    thumbTop: box.rect.y + thumbOffset,
    thumbHeight,
    maxScrollTop,
  };
}

/**
 * `line` with the cell at `column` (the whole grapheme when a wide one covers it) replaced by
 * `replacement`. Styles and hyperlinks are reset first so none leaks into the bar; a hidden-by-default
 * scrollbar keeps the cell's background so it blends into a coloured row.
 */
function replaceCell(
  line: string,
  column: number,
  totalWidth: number,
  replacement: string,
  keepBackground: boolean,
): string {
  if (isImageLine(line)) return line;
  const range = getGraphemeCellRange(line, column);
  const start = range?.start ?? column;
  const end = range?.end ?? column + 1;
  const before = sliceByColumn(line, 0, start, true);
  const target = sliceByColumn(line, start, end - start, true);
  const after = sliceByColumn(line, end, Math.max(0, totalWidth - end), true);
  let targetStyles = "";
  for (let index = 0; index < target.length;) {
    const ansi = extractAnsiCode(target, index);
    if (!ansi) break;
    targetStyles += ansi.code;
    index += ansi.length;
  }
  const background = keepBackground ? getActiveBackgroundAnsi(targetStyles) : "";
  return before +
    " ".repeat(Math.max(0, start - visibleWidth(before))) +
    `\x1b[0m\x1b]8;;\x07${background}` +
    " ".repeat(Math.max(0, column - start)) +
    replacement +
    " ".repeat(Math.max(0, end - column - 1)) +
    after;
}

function paintScrollbar(box: LayoutBox, screen: string[], totalWidth: number): void {
  const view = box.scrollView;
  const geometry = view ? getScrollbarGeometry(box) : undefined;
  if (!view || !geometry) return;
  for (let offset = 0; offset < geometry.trackHeight; offset++) {
    const row = geometry.trackTop + offset;
    if (row < box.clip.y || row >= box.clip.y + box.clip.height || row < 0 || row >= screen.length) continue;
    const onThumb = row >= geometry.thumbTop && row < geometry.thumbTop + geometry.thumbHeight;
    const glyph = onThumb
      ? view.scrollbarThumbStyle(view.isScrollbarActive ? "█" : "┃")
      : view.scrollbarTrackStyle("│");
    screen[row] = replaceCell(
      screen[row] ?? "",
      geometry.column,
      totalWidth,
      glyph,
      view.scrollbar !== "always",
    );
  }
}

function paintLines(box: LayoutBox, lines: readonly string[], screen: string[], totalWidth: number): void {
  const offset = box.lineOffset ?? 0;
  const firstRow = Math.max(box.rect.y, box.clip.y, 0);
  const endRow = Math.min(box.rect.y + box.rect.height, box.clip.y + box.clip.height, screen.length);
  for (let row = firstRow; row < endRow; row++) {
    const source = lines[offset + row - box.rect.y];
    if (source === undefined) continue;
    let line = source.replace(OSC133_ZONE_PREFIX, "");
    const image = getKittyImageMetadata(line);
    if (image) {
      const visibleRows = Math.min(image.rows, Math.min(screen.length, box.clip.y + box.clip.height) - row);
      if (visibleRows < image.rows) line = cropKittyImageLine(line, 0, visibleRows);
    }
    // A full-width box on a row nothing has painted yet can take the line as it is: composing would
    // re-segment the whole row every frame, and rows are written after an erase and clamped to the
    // width anyway.
    if (box.rect.x === 0 && box.rect.width >= totalWidth && (isImageLine(line) || !screen[row])) {
      screen[row] = line;
    } else {
      screen[row] = compositeTuiLine(screen[row] ?? "", line, box.rect.x, box.rect.width, totalWidth);
    }
  }
}

/**
 * A Kitty image whose first line scrolled above the viewport still covers its top rows: redraw it,
 * cropped, on the viewport's first row. Rows below an image line may hold anything (padding, text
 * beside it), so the search goes up at most as many rows as the tallest image has.
 */
function paintImageAboveViewport(box: LayoutBox, screen: string[], totalWidth: number): void {
  const view = box.scrollView;
  const content = box.scrollContentLines;
  if (!view || !content || view.scrollTop <= 0 || box.rect.height <= 0) return;
  const scrollTop = view.scrollTop;
  const lowest = Math.max(0, scrollTop - getMaxKittyImageRows());
  for (let imageRow = scrollTop - 1; imageRow >= lowest; imageRow--) {
    const imageLine = content[imageRow] ?? "";
    if (!isImageLine(imageLine)) continue;
    const image = getKittyImageMetadata(imageLine);
    if (!image) continue;
    const hiddenRows = scrollTop - imageRow;
    if (hiddenRows < image.rows && box.rect.x === 0 && box.rect.width >= totalWidth) {
      screen[box.rect.y] = cropKittyImageLine(
        imageLine,
        hiddenRows,
        Math.min(box.rect.height, image.rows - hiddenRows),
      );
    }
    return;
  }
}

/** Paints `box` and its descendants onto `screen` (one string per terminal row), children over parents. */
export function paintLayoutBox(box: LayoutBox, screen: string[], totalWidth: number): void {
  if (box.lines) paintLines(box, box.lines, screen, totalWidth);
  for (const child of box.children) paintLayoutBox(child, screen, totalWidth);
  paintImageAboveViewport(box, screen, totalWidth);
  paintScrollbar(box, screen, totalWidth);
}
