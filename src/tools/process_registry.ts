/**
 * The process trees of commands that are still running, so that pi never leaves one behind
 * when it exits.
 *
 * Each command runs as the leader of its own process group (spawned detached), so one group
 * signal reaches the shell, its pipelines and background jobs alike. While at least one group
 * is live this module listens for SIGINT (which nothing else in pi handles: without a listener
 * Deno would exit at once and leave the groups running) and for the process's `unload` event
 * (every `Deno.exit` and a normal end). Modes that handle SIGTERM/SIGHUP themselves call
 * {@link killLiveProcessGroups} before they exit.
 *
 * @module
 */
import { isWindows } from "../util/os.ts";

/** Leaders (pid = pgid) of the groups of commands that are still running. */
const liveGroups = new Set<number>();
let listening = false;

/** Exit status for a SIGINT: what the default disposition would have given (128 + 2). */
const SIGINT_EXIT_CODE = 130;

function onSigint(): void {
  killLiveProcessGroups();
  Deno.exit(SIGINT_EXIT_CODE);
}

function onUnload(): void {
  killLiveProcessGroups();
}

function listen(): void {
  if (listening) return;
  listening = true;
  globalThis.addEventListener("unload", onUnload);
  if (!isWindows()) Deno.addSignalListener("SIGINT", onSigint);
}

function stopListening(): void {
  if (!listening) return;
  listening = false;
  globalThis.removeEventListener("unload", onUnload);
  // Without our listener Ctrl-C gets its default action back.
  if (!isWindows()) Deno.removeSignalListener("SIGINT", onSigint);
}

/** Records a running command's group (its leader's pid) until {@link untrackProcessGroup}. */
export function trackProcessGroup(pid: number): void {
  liveGroups.add(pid);
  listen();
}

/** Forgets a group once its leader has exited; background jobs it left are the user's. */
export function untrackProcessGroup(pid: number): void {
  liveGroups.delete(pid);
  if (liveGroups.size === 0) stopListening();
}

/**
 * The exit hook: SIGKILLs every live group (each command's whole tree) and forgets them.
 * Synchronous, so a signal handler can call it right before `Deno.exit`.
 */
export function killLiveProcessGroups(): void {
  for (const pid of liveGroups) killProcessTree(pid);
  liveGroups.clear();
  stopListening();
}

/** How many groups are live (for tests and diagnostics). */
export function liveProcessGroupCount(): number {
  return liveGroups.size;
}

/**
 * SIGKILLs the process group led by `pid`; falls back to the single process when the group is
 * gone or was never created. Errors mean "already dead" and are ignored.
 */
export function killProcessTree(pid: number): void {
  if (isWindows()) {
    try {
      new Deno.Command("taskkill", {
        args: ["/F", "/T", "/PID", String(pid)],
        stdout: "null",
        stderr: "null",
      })
        .spawn();
    } catch {
      // taskkill unavailable: nothing more we can do.
    }
    return;
  }
  try {
    Deno.kill(-pid, "SIGKILL");
  } catch {
    try {
      Deno.kill(pid, "SIGKILL");
    } catch {
      // Already exited.
    }
  }
}
