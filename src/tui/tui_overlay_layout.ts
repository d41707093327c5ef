/**
 * Where overlays go and how they are painted into base lines: size and position from
 * {@link OverlayOptions}, compositing one overlay line into a base line, and dropping images an
 * overlay would cover.
 *
 * @module
 */
import {
  getImageLineExtent,
  getMaxKittyImageRows,
  isImageLine,
  stripImageSequences,
} from "./terminal_image.ts";
import type { OverlayAnchor, OverlayOptions, SizeValue } from "./tui_types.ts";
import { extractSegments, sliceByColumn, sliceWithWidth, visibleWidth } from "./utils_text.ts";

/** Ends every style and hyperlink, so nothing leaks between a line's segments or into the next line. */
export const SEGMENT_RESET = "\x1b[0m\x1b]8;;\x07";

const PERCENT = /^(\d+(?:\.\d+)?)%$/;

/** A percentage's fraction ("25%" → 0.25), or undefined for anything else. */
function percentOf(value: string): number | undefined {
  const match = PERCENT.exec(value);
  return match ? parseFloat(match[1]) / 100 : undefined;
}

/** Absolute value of a size: numbers as they are, "N%" of the reference size (floored). */
export function parseSizeValue(value: SizeValue | undefined, referenceSize: number): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value === "number") return value;
  const fraction = percentOf(value);
  return fraction === undefined ? undefined : Math.floor(referenceSize * fraction);
}

/** An overlay's resolved rectangle: width, top row, left column and the height limit, if any. */
export interface OverlayLayout {
  width: number;
  row: number;
  col: number;
  maxHeight: number | undefined;
}

function anchorRow(anchor: OverlayAnchor, height: number, available: number, top: number): number {
  if (anchor.startsWith("top-")) return top;
  if (anchor.startsWith("bottom-")) return top + available - height;
  return top + Math.floor((available - height) / 2);
}

function anchorCol(anchor: OverlayAnchor, width: number, available: number, left: number): number {
  if (anchor === "top-left" || anchor === "left-center" || anchor === "bottom-left") return left;
  if (anchor === "top-right" || anchor === "right-center" || anchor === "bottom-right") {
    return left + available - width;
  }
  return left + Math.floor((available - width) / 2);
}

/**
 * Resolves an overlay's rectangle on a terminal of `termWidth` × `termHeight` for content of
 * `overlayHeight` lines. Width and maxHeight do not depend on the height, so callers resolve once
 * with 0 to learn the width to render at, then again with the rendered height.
 */
export function resolveOverlayLayout(
  options: OverlayOptions | undefined,
  overlayHeight: number,
  termWidth: number,
  termHeight: number,
): OverlayLayout {
  const opt = options ?? {};
  const m = typeof opt.margin === "number"
    ? { top: opt.margin, right: opt.margin, bottom: opt.margin, left: opt.margin }
    : (opt.margin ?? {});
  const top = Math.max(0, m.top ?? 0);
  const right = Math.max(0, m.right ?? 0);
  const bottom = Math.max(0, m.bottom ?? 0);
  const left = Math.max(0, m.left ?? 0);
  const availWidth = Math.max(1, termWidth - left - right);
  const availHeight = Math.max(1, termHeight - top - bottom);

  let width = parseSizeValue(opt.width, termWidth) ?? Math.min(80, availWidth);
  if (opt.minWidth !== undefined) width = Math.max(width, opt.minWidth);
  width = Math.max(1, Math.min(width, availWidth));

  let maxHeight = parseSizeValue(opt.maxHeight, termHeight);
  if (maxHeight !== undefined) maxHeight = Math.max(1, Math.min(maxHeight, availHeight));
  const height = maxHeight !== undefined ? Math.min(overlayHeight, maxHeight) : overlayHeight;

  const anchor = opt.anchor ?? "center";
  let row: number;
  if (opt.row === undefined) {
    row = anchorRow(anchor, height, availHeight, top);
  } else if (typeof opt.row === "number") {
    row = opt.row;
  } else {
    // Percentages place the overlay within the free space: 0% at the top, 100% at the bottom.
    const fraction = percentOf(opt.row);
    row = fraction === undefined
      ? anchorRow("center", height, availHeight, top)
      : top + Math.floor(Math.max(0, availHeight - height) * fraction);
  }
  let col: number;
  if (opt.col === undefined) {
    col = anchorCol(anchor, width, availWidth, left);
  } else if (typeof opt.col === "number") {
    col = opt.col;
  } else {
    const fraction = percentOf(opt.col);
    col = fraction === undefined
      ? anchorCol("center", width, availWidth, left)
      : left + Math.floor(Math.max(0, availWidth - width) * fraction);
  }
  if (opt.offsetY !== undefined) row += opt.offsetY;
  if (opt.offsetX !== undefined) col += opt.offsetX;
  row = Math.max(top, Math.min(row, termHeight - bottom - height));
  col = Math.max(left, Math.min(col, termWidth - right - width));
  return { width, row, col, maxHeight };
}

/** Composite overlay content into a terminal line at a fixed column. */
export function compositeTuiLine(
  baseLine: string,
  overlayLine: string,
  startCol: number,
  overlayWidth: number,
  totalWidth: number,
): string {
  // Image lines carry an escape sequence that draws over several cells; splicing text into them breaks it.
  if (isImageLine(baseLine)) return baseLine;
  const afterStart = startCol + overlayWidth;
  const base = extractSegments(baseLine, startCol, afterStart, totalWidth - afterStart, true);
  const overlay = sliceWithWidth(overlayLine, 0, overlayWidth, true);
  const beforeWidth = Math.max(startCol, base.beforeWidth);
  const middleWidth = Math.max(overlayWidth, overlay.width);
  const afterTarget = Math.max(0, totalWidth - beforeWidth - middleWidth);
  const result = base.before + " ".repeat(Math.max(0, startCol - base.beforeWidth)) +
    SEGMENT_RESET + overlay.text + " ".repeat(Math.max(0, overlayWidth - overlay.width)) +
    SEGMENT_RESET + base.after + " ".repeat(Math.max(0, afterTarget - base.afterWidth));
  return visibleWidth(result) <= totalWidth ? result : sliceByColumn(result, 0, totalWidth, true);
}

/**
 * Drops image placements that intersect an overlay rectangle (`row` is viewport-relative), since
 * terminals draw images above text and an overlay could not cover them. The renderer deletes a
 * placement once its line changes and draws it again when the overlay is gone.
 */
export function hideImagesUnderOverlay(
  lines: string[],
  overlay: { row: number; col: number; width: number; height: number },
  viewportStart: number,
): void {
  if (overlay.height === 0) return;
  // Kitty images extend downward, so an image line above the viewport can still reach into it.
  for (let i = Math.max(0, viewportStart - getMaxKittyImageRows()); i < lines.length; i++) {
    const extent = getImageLineExtent(lines[i]);
    if (!extent) continue;
    const firstRow = i + extent.firstRow - viewportStart;
    const lastRow = i + extent.lastRow - viewportStart;
    if (
      firstRow < overlay.row + overlay.height && lastRow >= overlay.row &&
      extent.startCol < overlay.col + overlay.width && extent.endCol > overlay.col
    ) {
      lines[i] = stripImageSequences(lines[i]);
    }
  }
}
