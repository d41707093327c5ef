/**
 * How a mode exits on SIGTERM/SIGHUP: the process trees of the commands tools still run (the
 * model's bash calls, the user's `!cmd`) are ended first. Modes reach tools only through core
 * (tests/architecture_test.ts), so this is their way to it; print and RPC mode share it.
 *
 * @module
 */
import { killTrackedDetachedChildren } from "../tools/shell.ts";

/** The signals that end the non-interactive modes. */
export type TerminationSignal = "SIGTERM" | "SIGHUP";

/**
 * Listens for SIGTERM and SIGHUP: on each, the process trees of running commands are ended and
 * `handler` gets the exit code a shell reports for the signal (143, 129). Returns the function
 * that stops listening. Nothing is installed on Windows, where Deno offers neither signal.
 *
 * @example
 * ```ts
 * const stop = onTerminationSignal((code) => Deno.exit(code));
 * // … run …
 * stop();
 * ```
 */
export function onTerminationSignal(
  handler: (exitCode: number, signal: TerminationSignal) => void,
): () => void {
  if (Deno.build.os === "windows") return () => {};
  const listeners = (["SIGTERM", "SIGHUP"] as const).map((signal) => {
    const listener = () => {
      killTrackedDetachedChildren();
      handler(signal === "SIGHUP" ? 129 : 143, signal);
    };
    Deno.addSignalListener(signal, listener);
    return [signal, listener] as const;
  });
  return () => {
    for (const [signal, listener] of listeners) Deno.removeSignalListener(signal, listener);
  };
}
