/**
 * Keeps an extension's stray errors from ending pi: an uncaught error or unhandled rejection
 * whose stack points into an extension's built modules becomes that extension's error.
 *
 * @module
 */
import type { ExtensionRunner } from "../extensions/runner.ts";

/** What the guard needs of a host: its runner (extensions, error reporting). */
interface GuardedHost {
  readonly runner: ExtensionRunner;
}

let guardedHost: GuardedHost | undefined;

/**
 * The extension whose code `error` was thrown from, by its stack: an error an extension causes
 * outside a handler (Deno's `fs.watch` reports a missing file asynchronously, where Node throws
 * in the handler) would otherwise end the process.
 */
function extensionOf(host: GuardedHost, error: unknown): string | undefined {
  const stack = error instanceof Error ? error.stack ?? "" : "";
  return host.runner.extensions.find((ext) => ext.moduleUrls.some((url) => stack.includes(url)))?.path;
}

/**
 * Uncaught errors and unhandled rejections thrown from an extension's code become that extension's
 * error (as 1.6.0 reports a handler's), and pi goes on; any other stays fatal. Installed once per
 * process; the latest bound host reports them.
 */
export function installUncaughtGuard(host: GuardedHost): void {
  const first = guardedHost === undefined;
  guardedHost = host;
  if (!first) return;
  const report = (event: Event, error: unknown) => {
    const current = guardedHost;
    const path = current && extensionOf(current, error);
    if (!current || !path) return;
    event.preventDefault();
    current.runner.emitError({
      extensionPath: path,
      event: "uncaught",
      error: error instanceof Error ? error.message : String(error),
    });
  };
  globalThis.addEventListener("error", (event) => report(event, event.error));
  globalThis.addEventListener("unhandledrejection", (event) => report(event, event.reason));
}
