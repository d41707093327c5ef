/**
 * Line-level steps of composing a frame, shared by the renderers: fake cursors to reverse video,
 * the hardware cursor's position from CURSOR_MARKER, the reset that ends every written line, and
 * painting rendered overlays into the base lines.
 *
 * @module
 */
import { isImageLine } from "./terminal_image.ts";
import { CURSOR_MARKER, FAKE_CURSOR_END, FAKE_CURSOR_START } from "./tui_component.ts";
import { hideImagesUnderOverlay, SEGMENT_RESET } from "./tui_overlay_layout.ts";
import { normalizeTerminalOutput, sliceByColumn, visibleWidth } from "./utils_text.ts";

// CURSOR_MARKER + FAKE_CURSOR_START + text + FAKE_CURSOR_END; a line cut right after the cursor cell loses the end.
// deno-lint-ignore no-control-regex
const FOCUSED_FAKE_CURSOR = /(\x1b_pi:c\x07)\x1b_pi:fc\x07(.*?)(?:\x1b_pi:\/fc\x07|$)/s;

/**
 * Fake cursor markers become reverse video. With the hardware cursor shown, a fake cursor right
 * after CURSOR_MARKER is dropped, since the terminal draws its cursor there; fake cursors of
 * components without focus have no CURSOR_MARKER and stay.
 */
export function resolveFakeCursorLine(line: string, showHardwareCursor: boolean): string {
  if (!line.includes(FAKE_CURSOR_START)) return line;
  const resolved = showHardwareCursor ? line.replace(FOCUSED_FAKE_CURSOR, "$1$2") : line;
  return resolved.replaceAll(FAKE_CURSOR_START, "\x1b[7m").replaceAll(FAKE_CURSOR_END, "\x1b[27m");
}

/**
 * A line as written: cursor markers (internal render metadata) stripped, output normalized and a
 * full reset at the end so no style or link leaks into the next line. Image lines pass untouched.
 */
export function finishLine(line: string): string {
  if (isImageLine(line)) return line;
  return normalizeTerminalOutput(line.replaceAll(CURSOR_MARKER, "")) + SEGMENT_RESET;
}

/**
 * Finds CURSOR_MARKER in the bottom `height` lines (the visible viewport), searching from the
 * bottom; strips the markers of that line in place and returns where the first one was.
 */
export function extractCursorPosition(lines: string[], height: number): { row: number; col: number } | null {
  const viewportTop = Math.max(0, lines.length - height);
  for (let row = lines.length - 1; row >= viewportTop; row--) {
    const line = lines[row];
    const at = line.indexOf(CURSOR_MARKER);
    if (at === -1) continue;
    lines[row] = line.replaceAll(CURSOR_MARKER, "");
    return { row, col: visibleWidth(line.slice(0, at)) };
  }
  return null;
}

/** An overlay ready to paint: its lines and where they go (row relative to the screen). */
export interface PlacedOverlay {
  lines: readonly string[];
  row: number;
  col: number;
  width: number;
}

/**
 * Paints overlays, back to front, into `result` (changed in place): first padded to the terminal
 * height so overlay rows are screen-relative, then each overlay line composited at its column.
 * The high-water mark of lines ever rendered is left out of the padding on purpose: it inflated
 * itself and pushed content into scrollback.
 */
export function paintOverlays(
  result: string[],
  overlays: readonly PlacedOverlay[],
  termHeight: number,
  composite: (base: string, overlay: string, col: number, width: number) => string,
): string[] {
  let minLines = result.length;
  for (const o of overlays) minLines = Math.max(minLines, o.row + o.lines.length);
  const workingHeight = Math.max(result.length, termHeight, minLines);
  while (result.length < workingHeight) result.push("");
  const viewportStart = Math.max(0, workingHeight - termHeight);
  for (const { lines, row, col, width } of overlays) {
    // Hiding images per overlay also hides images drawn by overlays below it.
    hideImagesUnderOverlay(result, { row, col, width, height: lines.length }, viewportStart);
    for (let i = 0; i < lines.length; i++) {
      const index = viewportStart + row + i;
      if (index < 0 || index >= result.length) continue;
      // Components should respect the width already; cut anyway so one bad line cannot break the frame.
      const line = visibleWidth(lines[i]) > width ? sliceByColumn(lines[i], 0, width, true) : lines[i];
      result[index] = composite(result[index], line, col, width);
    }
  }
  return result;
}
