/**
 * The main-screen renderer's diagnostics: why a frame was redrawn in full (PI_TUI_DEBUG_REDRAW=1,
 * into the log directory), a dump of every differential frame (PI_TUI_DEBUG=1, into the temp
 * folder's `tui/`), and the crash log written when a component draws a line wider than the
 * terminal.
 *
 * @module
 */
import { readEnv } from "../util/env.ts";
import { tmpDir } from "../util/os.ts";
import { dirname, join } from "../util/path.ts";
import { visibleWidth } from "./utils_text.ts";

function writeLog(path: string, text: string, append: boolean): void {
  Deno.mkdirSync(dirname(path), { recursive: true });
  Deno.writeTextFileSync(path, text, { append });
}

/** Appends a full-redraw reason to `pi-tui-debug.log` when PI_TUI_DEBUG_REDRAW=1 and there is a log directory. */
export function logFullRender(
  logDirectory: string | undefined,
  reason: string,
  previousCount: number,
  newCount: number,
  height: number,
): void {
  if (logDirectory === undefined || readEnv("PI_TUI_DEBUG_REDRAW") !== "1") return;
  const message = `[${
    new Date().toISOString()
  }] fullRender: ${reason} (prev=${previousCount}, new=${newCount}, height=${height})\n`;
  writeLog(join(logDirectory, "pi-tui-debug.log"), message, true);
}

/** What a differential frame did, for {@link dumpRender}. */
export interface RenderDump {
  firstChanged: number;
  viewportTop: number;
  cursorRow: number;
  height: number;
  hardwareCursorRow: number;
  renderEnd: number;
  finalCursorRow: number;
  cursor: { row: number; col: number } | null;
  newLines: readonly string[];
  previousLines: readonly string[];
  /** Characters written for the frame. */
  written: number;
}

/** Writes one file per differential frame when PI_TUI_DEBUG=1. */
export function dumpRender(frame: RenderDump): void {
  if (readEnv("PI_TUI_DEBUG") !== "1") return;
  const text = [
    `firstChanged: ${frame.firstChanged}`,
    `viewportTop: ${frame.viewportTop}`,
    `cursorRow: ${frame.cursorRow}`,
    `height: ${frame.height}`,
    `hardwareCursorRow: ${frame.hardwareCursorRow}`,
    `renderEnd: ${frame.renderEnd}`,
    `finalCursorRow: ${frame.finalCursorRow}`,
    `cursorPos: ${JSON.stringify(frame.cursor)}`,
    `newLines.length: ${frame.newLines.length}`,
    `previousLines.length: ${frame.previousLines.length}`,
    "",
    "=== newLines ===",
    JSON.stringify(frame.newLines, null, 2),
    "",
    "=== previousLines ===",
    JSON.stringify(frame.previousLines, null, 2),
    "",
    "=== buffer ===",
    `[${frame.written} chars written in bounded chunks]`,
  ].join("\n");
  const name = `render-${Date.now()}-${Math.random().toString(36).slice(2)}.log`;
  writeLog(join(tmpDir(), "tui", name), text, false);
}

/** Writes every line of the frame with its width to `pi-tui-crash.log`; returns the log's path. */
export function writeCrashLog(
  logDirectory: string | undefined,
  lines: readonly string[],
  index: number,
  width: number,
): string {
  const path = join(logDirectory ?? tmpDir(), "pi-tui-crash.log");
  const text = [
    `Crash at ${new Date().toISOString()}`,
    `Terminal width: ${width}`,
    `Line ${index} visible width: ${visibleWidth(lines[index])}`,
    "",
    "=== All rendered lines ===",
    ...lines.map((l, i) => `[${i}] (w=${visibleWidth(l)}) ${l}`),
    "",
  ].join("\n");
  writeLog(path, text, false);
  return path;
}

/** The error thrown for a line wider than the terminal. */
export function overwideLineMessage(
  lineWidth: number,
  index: number,
  width: number,
  crashLogPath: string,
): string {
  return [
    `Rendered line ${index} exceeds terminal width (${lineWidth} > ${width}).`,
    "",
    "This is likely caused by a custom TUI component not truncating its output.",
    "Use visibleWidth() to measure and truncateToWidth() to truncate lines.",
    "",
    `Debug log written to: ${crashLogPath}`,
  ].join("\n");
}
