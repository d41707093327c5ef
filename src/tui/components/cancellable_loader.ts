/**
 * CancellableLoader: a {@link Loader} that the cancel key aborts, as in pi-tui 1.6.0's
 * `components/cancellable-loader`.
 *
 * @module
 */
import { getKeybindings } from "../keybindings.ts";
import { Loader } from "./loader.ts";

/**
 * Loader that can be cancelled with Escape.
 * Extends Loader with an AbortSignal for cancelling async operations.
 *
 * @example
 * ```ts ignore
 * const loader = new CancellableLoader(tui, cyan, dim, "Working...");
 * loader.onAbort = () => done(null);
 * doWork(loader.signal).then(done);
 * ```
 */
export class CancellableLoader extends Loader {
  private abortController = new AbortController();
  /** Called when user presses Escape */
  onAbort?: () => void;

  /** AbortSignal that is aborted when user presses Escape */
  get signal(): AbortSignal {
    return this.abortController.signal;
  }

  /** Whether the loader was aborted */
  get aborted(): boolean {
    return this.abortController.signal.aborted;
  }

  /** The `tui.select.cancel` key aborts the signal and calls {@link CancellableLoader.onAbort} (every time). */
  handleInput(data: string): void {
    if (!getKeybindings().matches(data, "tui.select.cancel")) return;
    this.abortController.abort();
    this.onAbort?.();
  }

  /** Stops the animation timer. */
  dispose(): void {
    this.stop();
  }
}
