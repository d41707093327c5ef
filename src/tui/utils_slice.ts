/**
 * Cutting styled lines by terminal column: truncation with an ellipsis, column slices, the
 * before/after pieces around an overlay, and background padding.
 *
 * @module
 */
import { openOsc8CloseAt, walkRuns } from "./utils_ansi.ts";
import { StyleState } from "./utils_style.ts";
import { graphemesOf, graphemeWidth, isPrintableAscii, visibleWidth, walkLine } from "./utils_width.ts";

/** The longest start of `text` no wider than `maxWidth`, with the sequences before each kept cluster. */
function fittingPrefix(text: string, maxWidth: number): { text: string; width: number } {
  if (maxWidth <= 0 || text.length === 0) return { text: "", width: 0 };
  if (isPrintableAscii(text)) {
    const clipped = text.slice(0, maxWidth);
    return { text: clipped, width: clipped.length };
  }
  let out = "";
  let width = 0;
  let pending = "";
  walkLine(text, (code) => {
    pending += code;
  }, (cluster, w) => {
    if (width + w > maxWidth) return false;
    out += pending + cluster;
    pending = "";
    width += w;
  });
  return { text: out, width };
}

/**
 * A truncated line: the kept prefix, any hyperlink it leaves open closed, a full reset, then the
 * ellipsis and another reset (so the ellipsis never takes the cut text's style).
 */
function finishTruncated(
  prefix: string,
  prefixWidth: number,
  ellipsis: string,
  ellipsisWidth: number,
  maxWidth: number,
  pad: boolean,
): string {
  let out = prefix + openOsc8CloseAt(prefix) + "\x1b[0m";
  if (ellipsis.length > 0) out += ellipsis + "\x1b[0m";
  return pad ? out + " ".repeat(Math.max(0, maxWidth - prefixWidth - ellipsisWidth)) : out;
}

function padded(text: string, textWidth: number, maxWidth: number, pad: boolean): string {
  return pad ? text + " ".repeat(Math.max(0, maxWidth - textWidth)) : text;
}

/**
 * Truncate text to fit within a maximum visible width, adding ellipsis if needed.
 * Optionally pad with spaces to reach exactly maxWidth.
 * Properly handles ANSI escape codes (they don't count toward width).
 *
 * @param text - Text to truncate (may contain ANSI codes)
 * @param maxWidth - Maximum visible width
 * @param ellipsis - Ellipsis string to append when truncating (default: "...")
 * @param pad - If true, pad result with spaces to exactly maxWidth (default: false)
 * @returns Truncated text, optionally padded to exactly maxWidth
 */
export function truncateToWidth(text: string, maxWidth: number, ellipsis = "...", pad = false): string {
  if (maxWidth <= 0) return "";
  if (text.length === 0) return pad ? " ".repeat(maxWidth) : "";
  const ellipsisWidth = visibleWidth(ellipsis);

  if (ellipsisWidth >= maxWidth) {
    // No room for text beside the ellipsis: the text if it fits, else as much ellipsis as fits.
    const textWidth = visibleWidth(text);
    if (textWidth <= maxWidth) return padded(text, textWidth, maxWidth, pad);
    const clipped = fittingPrefix(ellipsis, maxWidth);
    if (clipped.width === 0) return pad ? " ".repeat(maxWidth) : "";
    return finishTruncated("", 0, clipped.text, clipped.width, maxWidth, pad);
  }

  const targetWidth = maxWidth - ellipsisWidth;
  if (isPrintableAscii(text)) {
    if (text.length <= maxWidth) return padded(text, text.length, maxWidth, pad);
    return finishTruncated(text.slice(0, targetWidth), targetWidth, ellipsis, ellipsisWidth, maxWidth, pad);
  }

  // One pass: keep the clusters that fit beside the ellipsis, and stop as soon as the whole text
  // is known not to fit. Sequences are kept only in front of a kept cluster.
  let kept = "";
  let keptWidth = 0;
  let keeping = true;
  let pending = "";
  let seenWidth = 0;
  let overflowed = false;
  walkLine(text, (code) => {
    pending += code;
  }, (cluster, w) => {
    if (keeping && keptWidth + w <= targetWidth) {
      kept += pending + cluster;
      keptWidth += w;
    } else {
      keeping = false;
    }
    pending = "";
    seenWidth += w;
    if (seenWidth > maxWidth) {
      overflowed = true;
      return false;
    }
  });
  if (!overflowed) return padded(text, seenWidth, maxWidth, pad);
  return finishTruncated(kept, keptWidth, ellipsis, ellipsisWidth, maxWidth, pad);
}

/**
 * Extract a range of visible columns from a line. Handles ANSI codes and wide chars.
 * @param strict - If true, exclude wide chars at boundary that would extend past the range
 */
export function sliceByColumn(line: string, startCol: number, length: number, strict = false): string {
  return sliceWithWidth(line, startCol, length, strict).text;
}

/** Like sliceByColumn but also returns the actual visible width of the result. */
export function sliceWithWidth(
  line: string,
  startCol: number,
  length: number,
  strict = false,
): { text: string; width: number } {
  const endCol = startCol + length;
  // An empty range, or one ending before column 0, takes nothing, not even the sequences at the start.
  if (length <= 0 || endCol <= 0) return { text: "", width: 0 };
  let out = "";
  let width = 0;
  let col = 0;
  // Sequences met before the range, written in front of its first cluster (in their order).
  let pending = "";
  walkRuns(line, (code) => {
    if (col >= startCol) {
      out += pending + code;
      pending = "";
    } else if (!code.startsWith("\x1b_")) {
      // APC sequences (the cursor marker) mark a position; they are no style to carry into the range.
      pending += code;
    }
  }, (run) => {
    if (isPrintableAscii(run)) {
      const from = Math.max(0, startCol - col);
      const to = Math.min(run.length, endCol - col);
      if (to > from) {
        out += pending + run.slice(from, to);
        pending = "";
        width += to - from;
      }
      col += run.length;
    } else {
      for (const cluster of graphemesOf(run)) {
        const w = graphemeWidth(cluster);
        if (col >= startCol && (!strict || col + w <= endCol)) {
          out += pending + cluster;
          pending = "";
          width += w;
        }
        col += w;
        if (col >= endCol) break;
      }
    }
    return col < endCol;
  });
  return { text: out, width };
}

let overlayStyle: StyleState | undefined;

/**
 * Extract "before" and "after" segments from a line in a single pass.
 * Used for overlay compositing where we need content before and after the overlay region.
 * Preserves styling from before the overlay that should affect content after it.
 */
export function extractSegments(
  line: string,
  beforeEnd: number,
  afterStart: number,
  afterLen: number,
  strictAfter = false,
): { before: string; beforeWidth: number; after: string; afterWidth: number } {
  let before = "";
  let beforeWidth = 0;
  let after = "";
  let afterWidth = 0;
  let col = 0;
  let pendingBefore = "";
  let afterStarted = false;
  const afterEnd = afterStart + afterLen;
  // Done once the "before" piece is complete (no "after" wanted) or the "after" piece is.
  const doneAt = afterLen <= 0 ? beforeEnd : afterEnd;
  // Reused across calls: the compositor calls this for every overlaid row.
  const style = overlayStyle ??= new StyleState();
  style.clear();
  walkLine(line, (code) => {
    style.process(code);
    if (col < beforeEnd) {
      pendingBefore += code;
    } else if (col >= afterStart && col < afterEnd && (afterStarted || code.startsWith("\x1b_"))) {
      // Before the first "after" cluster, styles reach it through the state written in front of
      // it; a cursor marker is no style, so it stays where it is.
      after += code;
    }
  }, (cluster, w) => {
    if (col < beforeEnd && col + w <= beforeEnd) {
      before += pendingBefore + cluster;
      pendingBefore = "";
      beforeWidth += w;
    } else if (col >= afterStart && col < afterEnd && (!strictAfter || col + w <= afterEnd)) {
      if (!afterStarted) {
        after += style.activeCodes();
        afterStarted = true;
      }
      after += cluster;
      afterWidth += w;
    }
    col += w;
    return col < doneAt;
  });
  return { before, beforeWidth, after, afterWidth };
}

/**
 * Apply background color to a line, padding to full width.
 *
 * @param line - Line of text (may contain ANSI codes)
 * @param width - Total width to pad to
 * @param bgFn - Background color function
 * @returns Line with background applied and padded to width
 */
export function applyBackgroundToLine(line: string, width: number, bgFn: (text: string) => string): string {
  return bgFn(line + " ".repeat(Math.max(0, width - visibleWidth(line))));
}
