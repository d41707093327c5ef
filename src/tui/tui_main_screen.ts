/**
 * `TuiMainScreen`: the renderer for the terminal's main screen, where output scrolls into the
 * scrollback like any program's. Each frame is compared with the last; only the changed lines are
 * rewritten, inside synchronized output (CSI ?2026h … ?2026l) so the terminal shows no half frame.
 * Width and height changes, and changes above what is still on screen, redraw in full.
 *
 * @module
 */
import { isImageLine } from "./terminal_image.ts";
import { TuiBase } from "./tui_base.ts";
import { finishLine, resolveFakeCursorLine } from "./tui_frame_lines.ts";
import {
  BoundedTerminalWriter,
  collectKittyImageIds,
  deleteKittyImages,
  deleteKittyImagesInRange,
  expandRangeForKittyImages,
  getKittyImageReservedRows,
} from "./tui_main_screen_output.ts";
import type { TUI, TuiStopOptions } from "./tui_types.ts";
import { visibleWidth } from "./utils_text.ts";
import { readEnv } from "../util/env.ts";
import { dumpRender, logFullRender, overwideLineMessage, writeCrashLog } from "./tui_main_screen_debug.ts";

/** OSC 133 prompt markers at the start of a rendered line. Fullscreen uses them for prompt navigation. */
// deno-lint-ignore no-control-regex
const OSC133_ZONE_PREFIX = /^(?:\x1b\]133;[ABC](?:\x07|\x1b\\))+/;
const SYNC_BEGIN = "\x1b[?2026h";
const SYNC_END = "\x1b[?2026l";

/** What the renderer knows of the screen; a second renderer can take over from it. */
export interface TuiMainScreenRenderState {
  /** The lines last written. */
  previousLines: string[];
  /** The width they were written at. */
  previousWidth: number;
  /** The height of the terminal then. */
  previousHeight: number;
  /** Index of the last content line. */
  cursorRow: number;
  /** Row the terminal's cursor is on. */
  hardwareCursorRow: number;
  /** Most lines drawn since the last clear. */
  maxLinesRendered: number;
  /** Buffer row at the top of the screen. */
  previousViewportTop: number;
}

/** Cursor movement by rows: CSI n B down, CSI n A up, nothing for 0. */
function moveRows(delta: number): string {
  if (delta > 0) return `\x1b[${delta}B`;
  if (delta < 0) return `\x1b[${-delta}A`;
  return "";
}

/** TUI implementation that renders into the terminal's main screen and scrollback. */
export class TuiMainScreen extends TuiBase implements TUI {
  /** Draws on the main screen. */
  readonly mode = "regular" as const;
  private previousLines: string[] = [];
  private previousKittyImageIds = new Set<number>();
  private previousWidth = 0;
  private previousHeight = 0;
  /** Last line of content (for the viewport). */
  private cursorRow = 0;
  /** Where the terminal's cursor actually is (for relative moves). */
  private hardwareCursorRow = 0;
  /** Most lines ever drawn since the last clear: the terminal's working area. */
  private maxLinesRendered = 0;
  /** Buffer row shown at the top of the screen. */
  private previousViewportTop = 0;
  /** Last frame's component lines → the same with OSC 133 prefixes dropped and fake cursors resolved. */
  private preparedLines = new Map<string, string>();
  /** Last frame's composed lines → what was written for them (line resets applied). */
  private finishedLines = new Map<string, string>();
  private lineCacheHardwareCursor = false;

  /** A copy of what the renderer knows of the screen. */
  captureRenderState(): TuiMainScreenRenderState {
    return {
      previousLines: [...this.previousLines],
      previousWidth: this.previousWidth,
      previousHeight: this.previousHeight,
      cursorRow: this.cursorRow,
      hardwareCursorRow: this.hardwareCursorRow,
      maxLinesRendered: this.maxLinesRendered,
      previousViewportTop: this.previousViewportTop,
    };
  }

  /** Continues from a captured state; image lines count as changed since their placement is unknown. */
  restoreRenderState(state: TuiMainScreenRenderState): void {
    this.previousLines = state.previousLines.map((line) => (isImageLine(line) ? "" : line));
    this.previousKittyImageIds = new Set();
    this.previousWidth = state.previousWidth;
    this.previousHeight = state.previousHeight;
    this.cursorRow = state.cursorRow;
    this.hardwareCursorRow = state.hardwareCursorRow;
    this.maxLinesRendered = state.maxLinesRendered;
    this.previousViewportTop = state.previousViewportTop;
  }

  /** Forgets the screen: the next frame is drawn in full. */
  protected override resetRenderState(): void {
    this.previousLines = [];
    this.previousWidth = -1;
    this.previousHeight = -1;
    this.cursorRow = 0;
    this.hardwareCursorRow = 0;
    this.maxLinesRendered = 0;
    this.previousViewportTop = 0;
  }

  /** Leaves the cursor on a fresh line below the content, so the shell prompt starts clean. */
  protected override beforeTerminalStop(options: TuiStopOptions): void {
    if (options.preserveScreen || this.previousLines.length === 0) return;
    this.terminal.write(" ");
    const lineDiff = this.previousLines.length - this.hardwareCursorRow;
    if (lineDiff !== 0) this.terminal.write(moveRows(lineDiff));
    this.terminal.write("\r\n");
  }

  /** Widens a changed range to whole Kitty image blocks that overlap it, old or new. */
  private expandChangedRangeForKittyImages(
    firstChanged: number,
    lastChanged: number,
    newLines: readonly string[],
  ): { firstChanged: number; lastChanged: number } {
    return expandRangeForKittyImages([this.previousLines, newLines], firstChanged, lastChanged);
  }

  /** Deletes the Kitty images placed by the old lines of a changed range. */
  private deleteChangedKittyImages(firstChanged: number, lastChanged: number): string {
    return deleteKittyImagesInRange(this.previousLines, firstChanged, lastChanged);
  }

  /** Logs why a frame is drawn in full (PI_TUI_DEBUG_REDRAW=1). */
  private logRedraw(reason: string, newLineCount: number, height: number): void {
    logFullRender(this.logDirectory, reason, this.previousLines.length, newLineCount, height);
  }

  /**
   * Builds the frame's lines: components, overlays, cursor position, line resets.
   *
   * Per line the work is a pure function of the component's line, so the results of the previous
   * frame are looked up by line instead of computed again. Besides the regex passes this saves,
   * unchanged lines come out as the very strings of the last frame, and the diff compares them by
   * identity instead of character by character: a keystroke under a long transcript stays cheap.
   */
  private composeFrame(
    width: number,
    height: number,
  ): { lines: string[]; cursor: { row: number; col: number } | null } {
    const hardwareCursor = this.getShowHardwareCursor();
    if (hardwareCursor !== this.lineCacheHardwareCursor) {
      this.preparedLines = new Map();
      this.finishedLines = new Map();
      this.lineCacheHardwareCursor = hardwareCursor;
    }
    const raw = this.render(width);
    const prepared = new Map<string, string>();
    let lines: string[] = new Array(raw.length);
    for (let i = 0; i < raw.length; i++) {
      const line = raw[i];
      let out = prepared.get(line) ?? this.preparedLines.get(line);
      // OSC 133 markers go: the terminal reads 133;A as a new shell prompt, which ends program
      // status (OSC 7501). Fake cursors resolve before compositing so overlays see plain SGR codes.
      if (out === undefined) {
        out = resolveFakeCursorLine(line.replace(OSC133_ZONE_PREFIX, ""), hardwareCursor);
      }
      prepared.set(line, out);
      lines[i] = out;
    }
    this.preparedLines = prepared;
    if (this.hasOverlayEntries) lines = this.compositeOverlays(lines, width, height);
    // The cursor marker is found before line resets strip it.
    const cursor = this.extractCursorPosition(lines, height);
    const finished = new Map<string, string>();
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i];
      let out = finished.get(line) ?? this.finishedLines.get(line);
      if (out === undefined) out = finishLine(line);
      finished.set(line, out);
      lines[i] = out;
    }
    this.finishedLines = finished;
    return { lines, cursor };
  }

  /** Draws a frame: in full when needed, else only the lines that changed. */
  protected doRender(): void {
    if (this.stopped) return;
    const width = this.terminal.columns;
    const height = this.terminal.rows;
    const widthChanged = this.previousWidth !== 0 && this.previousWidth !== width;
    const heightChanged = this.previousHeight !== 0 && this.previousHeight !== height;
    const previousBufferLength = this.previousHeight > 0
      ? this.previousViewportTop + this.previousHeight
      : height;
    const prevViewportTop = heightChanged
      ? Math.max(0, previousBufferLength - height)
      : this.previousViewportTop;
    const { lines: newLines, cursor } = this.composeFrame(width, height);

    if (this.previousLines.length === 0 && !widthChanged && !heightChanged) {
      // First frame: the screen below the cursor is assumed clean.
      this.logRedraw("first render", newLines.length, height);
      this.fullRender(newLines, cursor, width, height, false);
      return;
    }
    if (widthChanged) {
      // Wrapping changes with the width.
      this.logRedraw(`terminal width changed (${this.previousWidth} -> ${width})`, newLines.length, height);
      this.fullRender(newLines, cursor, width, height, true);
      return;
    }
    // Termux changes the height when its software keyboard shows or hides; redrawing the whole
    // history on every toggle would be worse than a viewport that is off for a moment.
    if (heightChanged && !readEnv("TERMUX_VERSION")) {
      this.logRedraw(
        `terminal height changed (${this.previousHeight} -> ${height})`,
        newLines.length,
        height,
      );
      this.fullRender(newLines, cursor, width, height, true);
      return;
    }
    // Overlays need the padding rows, so shrinking only clears without them.
    if (this.getClearOnShrink() && newLines.length < this.maxLinesRendered && !this.hasOverlayEntries) {
      this.logRedraw(`clearOnShrink (maxLinesRendered=${this.maxLinesRendered})`, newLines.length, height);
      this.fullRender(newLines, cursor, width, height, true);
      return;
    }
    this.renderChanges(newLines, cursor, width, height, prevViewportTop);
  }

  /** Writes every line (after clearing screen and scrollback when `clear`). */
  private fullRender(
    newLines: string[],
    cursor: { row: number; col: number } | null,
    width: number,
    height: number,
    clear: boolean,
  ): void {
    this.fullRedrawCount += 1;
    const out = new BoundedTerminalWriter((data) => this.terminal.write(data));
    out.append(SYNC_BEGIN);
    if (clear) {
      out.append(deleteKittyImages(this.previousKittyImageIds));
      out.append("\x1b[2J\x1b[H\x1b[3J"); // screen, home, scrollback
    }
    for (let i = 0; i < newLines.length; i++) {
      if (i > 0) out.append("\r\n");
      const line = newLines[i];
      const reserved = isImageLine(line) ? getKittyImageReservedRows(newLines, i) : 1;
      if (reserved > 1 && reserved <= height) {
        // Make room for the image first, then draw it from its top row.
        out.append("\r\n".repeat(reserved - 1) + `\x1b[${reserved - 1}A` + line + `\x1b[${reserved - 1}B`);
        i += reserved - 1;
        continue;
      }
      out.append(line);
    }
    out.append(SYNC_END);
    out.flush();
    this.cursorRow = Math.max(0, newLines.length - 1);
    this.hardwareCursorRow = this.cursorRow;
    this.maxLinesRendered = clear ? newLines.length : Math.max(this.maxLinesRendered, newLines.length);
    this.previousViewportTop = Math.max(0, Math.max(height, newLines.length) - height);
    this.positionHardwareCursor(cursor, newLines.length);
    this.rememberFrame(newLines, width, height);
  }

  /** Keeps the frame as the base of the next diff. */
  private rememberFrame(newLines: string[], width: number, height: number): void {
    this.previousLines = newLines;
    this.previousKittyImageIds = collectKittyImageIds(newLines);
    this.previousWidth = width;
    this.previousHeight = height;
  }

  /** The differential path: rewrite the changed range, clear lines that went away. */
  private renderChanges(
    newLines: string[],
    cursor: { row: number; col: number } | null,
    width: number,
    height: number,
    viewportTopBefore: number,
  ): void {
    const previous = this.previousLines;
    let firstChanged = -1;
    let lastChanged = -1;
    const maxLines = Math.max(newLines.length, previous.length);
    for (let i = 0; i < maxLines; i++) {
      if ((i < previous.length ? previous[i] : "") !== (i < newLines.length ? newLines[i] : "")) {
        if (firstChanged === -1) firstChanged = i;
        lastChanged = i;
      }
    }
    const appended = newLines.length > previous.length;
    if (appended) {
      if (firstChanged === -1) firstChanged = previous.length;
      lastChanged = newLines.length - 1;
    }
    if (firstChanged !== -1) {
      ({ firstChanged, lastChanged } = this.expandChangedRangeForKittyImages(
        firstChanged,
        lastChanged,
        newLines,
      ));
    }
    // Appending right below the old content starts with a newline from its last line, which scrolls when needed.
    const appendStart = appended && firstChanged === previous.length && firstChanged > 0;

    if (firstChanged === -1) {
      // Nothing changed; the cursor may still have moved.
      this.positionHardwareCursor(cursor, newLines.length);
      this.previousViewportTop = viewportTopBefore;
      this.previousHeight = height;
      return;
    }
    let prevViewportTop = viewportTopBefore;
    let viewportTop = prevViewportTop;
    let hardwareCursorRow = this.hardwareCursorRow;
    const rowsTo = (target: number) => (target - viewportTop) - (hardwareCursorRow - prevViewportTop);

    if (firstChanged >= newLines.length) {
      // Only lines past the new end changed: clear them.
      if (previous.length > newLines.length) {
        const out = new BoundedTerminalWriter((data) => this.terminal.write(data));
        out.append(SYNC_BEGIN);
        out.append(this.deleteChangedKittyImages(firstChanged, lastChanged));
        const targetRow = Math.max(0, newLines.length - 1);
        if (targetRow < prevViewportTop) {
          this.logRedraw(
            `deleted lines moved viewport up (${targetRow} < ${prevViewportTop})`,
            newLines.length,
            height,
          );
          this.fullRender(newLines, cursor, width, height, true);
          return;
        }
        out.append(moveRows(rowsTo(targetRow)) + "\r");
        const extraLines = previous.length - newLines.length;
        if (extraLines > height) {
          this.logRedraw(`extraLines > height (${extraLines} > ${height})`, newLines.length, height);
          this.fullRender(newLines, cursor, width, height, true);
          return;
        }
        // With no content left the clearing starts on the current row, else on the row below.
        const startOffset = newLines.length === 0 ? 0 : 1;
        if (extraLines > 0 && startOffset > 0) out.append(`\x1b[${startOffset}B`);
        for (let i = 0; i < extraLines; i++) {
          out.append("\r\x1b[2K");
          if (i < extraLines - 1) out.append("\x1b[1B");
        }
        const moveBack = Math.max(0, extraLines - 1 + startOffset);
        if (moveBack > 0) out.append(`\x1b[${moveBack}A`);
        out.append(SYNC_END);
        out.flush();
        this.cursorRow = targetRow;
        this.hardwareCursorRow = targetRow;
      }
      this.positionHardwareCursor(cursor, newLines.length);
      this.rememberFrame(newLines, width, height);
      this.previousViewportTop = prevViewportTop;
      return;
    }

    // Only what is still on screen can be rewritten in place.
    if (firstChanged < prevViewportTop) {
      this.logRedraw(
        `firstChanged < viewportTop (${firstChanged} < ${prevViewportTop})`,
        newLines.length,
        height,
      );
      this.fullRender(newLines, cursor, width, height, true);
      return;
    }

    const out = new BoundedTerminalWriter((data) => this.terminal.write(data));
    out.append(SYNC_BEGIN);
    out.append(this.deleteChangedKittyImages(firstChanged, lastChanged));
    const prevViewportBottom = prevViewportTop + height - 1;
    const moveTargetRow = appendStart ? firstChanged - 1 : firstChanged;
    if (moveTargetRow > prevViewportBottom) {
      // The target is below the screen: go to the bottom row and scroll with newlines.
      const screenRow = Math.max(0, Math.min(height - 1, hardwareCursorRow - prevViewportTop));
      const toBottom = height - 1 - screenRow;
      if (toBottom > 0) out.append(`\x1b[${toBottom}B`);
      const scroll = moveTargetRow - prevViewportBottom;
      out.append("\r\n".repeat(scroll));
      prevViewportTop += scroll;
      viewportTop += scroll;
      hardwareCursorRow = moveTargetRow;
    }
    out.append(moveRows(rowsTo(moveTargetRow)));
    out.append(appendStart ? "\r\n" : "\r");

    // Rewrite only the changed range, not everything to the end: a spinner touches one line.
    const renderEnd = Math.min(lastChanged, newLines.length - 1);
    for (let i = firstChanged; i <= renderEnd; i++) {
      if (i > firstChanged) out.append("\r\n");
      const line = newLines[i];
      const isImage = isImageLine(line);
      const reserved = isImage ? getKittyImageReservedRows(newLines, i, renderEnd) : 1;
      if (reserved > 1) {
        const imageTop = i - viewportTop;
        if (imageTop < 0 || imageTop + reserved > height) {
          this.logRedraw(
            `kitty image pre-clear would scroll (${imageTop} + ${reserved} > ${height})`,
            newLines.length,
            height,
          );
          this.fullRender(newLines, cursor, width, height, true);
          return;
        }
        out.append("\x1b[2K" + "\r\n\x1b[2K".repeat(reserved - 1));
        out.append(`\x1b[${reserved - 1}A` + line + `\x1b[${reserved - 1}B`);
        i += reserved - 1;
        continue;
      }
      out.append("\x1b[2K");
      if (!isImage && visibleWidth(line) > width) this.failOnOverwideLine(newLines, i, width);
      out.append(line);
    }

    let finalCursorRow = renderEnd;
    if (previous.length > newLines.length) {
      // Clear the rows of lines that went away, then come back to the end of the content.
      if (renderEnd < newLines.length - 1) {
        out.append(`\x1b[${newLines.length - 1 - renderEnd}B`);
        finalCursorRow = newLines.length - 1;
      }
      const extraLines = previous.length - newLines.length;
      out.append("\r\n\x1b[2K".repeat(extraLines));
      out.append(`\x1b[${extraLines}A`);
    }
    out.append(SYNC_END);
    dumpRender({
      firstChanged,
      viewportTop,
      cursorRow: this.cursorRow,
      height,
      hardwareCursorRow,
      renderEnd,
      finalCursorRow,
      cursor,
      newLines,
      previousLines: previous,
      written: out.length,
    });
    out.flush();
    this.cursorRow = Math.max(0, newLines.length - 1);
    this.hardwareCursorRow = finalCursorRow;
    this.maxLinesRendered = Math.max(this.maxLinesRendered, newLines.length);
    this.previousViewportTop = Math.max(prevViewportTop, finalCursorRow - height + 1);
    this.positionHardwareCursor(cursor, newLines.length);
    this.rememberFrame(newLines, width, height);
  }

  /**
   * A component drew a line wider than the terminal, which would wrap and corrupt every later
   * frame: dump the frame to a crash log, give the terminal back and throw.
   */
  private failOnOverwideLine(lines: readonly string[], index: number, width: number): never {
    const crashLogPath = writeCrashLog(this.logDirectory, lines, index, width);
    this.stop();
    throw new Error(overwideLineMessage(visibleWidth(lines[index]), index, width, crashLogPath));
  }

  /**
   * Put the hardware cursor where the focused component's cursor marker was (for the IME
   * candidate window), shown or hidden as configured; hidden when there is no marker.
   */
  private positionHardwareCursor(cursor: { row: number; col: number } | null, totalLines: number): void {
    if (!cursor || totalLines <= 0) {
      this.terminal.hideCursor();
      return;
    }
    const targetRow = Math.max(0, Math.min(cursor.row, totalLines - 1));
    const targetCol = Math.max(0, cursor.col);
    this.terminal.write(moveRows(targetRow - this.hardwareCursorRow) + `\x1b[${targetCol + 1}G`);
    this.hardwareCursorRow = targetRow;
    if (this.getShowHardwareCursor()) this.terminal.showCursor();
    else this.terminal.hideCursor();
  }
}
