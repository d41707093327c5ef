/**
 * The process side of `ProcessTerminal` on Deno APIs: stdin's raw mode, writing all of the output
 * to stdout, signal listeners, the PI_TUI_WRITE_LOG path, and asking for a fresh size.
 *
 * @module
 */
import { readEnv } from "../util/env.ts";
import { isDirectorySync, writeAllSync } from "../util/fs.ts";
import { join } from "../util/path.ts";

/**
 * Refresh terminal dimensions on POSIX platforms by sending SIGWINCH to this process.
 * Best-effort: without the permission to signal, or where the platform refuses, nothing happens.
 */
export function refreshTerminalDimensions(): void {
  if (Deno.build.os === "windows") return;
  try {
    // Never prompt for the permission from a UI refresh.
    if (Deno.permissions.querySync({ name: "run" }).state !== "granted") return;
    Deno.kill(Deno.pid, "SIGWINCH");
  } catch {
    // Signal delivery not permitted in this environment; ignore.
  }
}

/** Whether the raw mode of stdin is on, as this module last set it (Deno cannot ask). */
let stdinRaw = false;

/** The raw mode of stdin as last set through {@link setStdinRaw}. */
export function stdinRawMode(): boolean {
  return stdinRaw;
}

/** Sets stdin's raw mode when stdin is a terminal. */
export function setStdinRaw(raw: boolean): void {
  try {
    if (!Deno.stdin.isTerminal()) return;
    Deno.stdin.setRaw(raw);
    stdinRaw = raw;
  } catch {
    // Not a terminal after all, or it went away.
  }
}

/** PI_TUI_WRITE_LOG: a file to copy output to, or a folder to put a timestamped file in. */
export function resolveWriteLogPath(): string {
  const configured = readEnv("PI_TUI_WRITE_LOG") || "";
  if (!configured || !isDirectorySync(configured)) return configured;
  const now = new Date();
  const two = (n: number) => String(n).padStart(2, "0");
  const stamp = `${now.getFullYear()}-${two(now.getMonth() + 1)}-${two(now.getDate())}_${
    two(now.getHours())
  }-${two(now.getMinutes())}-${two(now.getSeconds())}`;
  return join(configured, `tui-${stamp}-${Deno.pid}.log`);
}

/** Writes all of `data` to stdout; a terminal that went away swallows it. */
export function stdoutWrite(data: string): void {
  try {
    writeAllSync(Deno.stdout, data);
  } catch {
    // The terminal is gone (closed pty, broken pipe): output has nowhere to go.
  }
}

/** Adds or removes a signal listener; nothing where the platform lacks the signal. */
export function listenSignal(signal: Deno.Signal, handler: () => void, add: boolean): void {
  try {
    if (add) Deno.addSignalListener(signal, handler);
    else Deno.removeSignalListener(signal, handler);
  } catch {
    // The platform has no such signal (Windows).
  }
}
