/**
 * A spinner between two border lines with the cancel key's hint, shown in the editor's place while
 * a slow command waits (1.6.0's BorderedLoader, e.g. "Creating gist..." for `/share`). The cancel
 * key aborts its signal.
 *
 * @module
 */
import { CancellableLoader, Container, Loader, Spacer, Text, type TUI } from "../../tui/mod.ts";
import { DynamicBorder } from "./dynamic_border.ts";
import { keyHint } from "./key_hints.ts";

/**
 * The colours the loader uses: the app's `Theme`, or the `ctx.ui.theme` an extension passes
 * (1.6.0 exports this component to extensions).
 */
export interface LoaderTheme {
  fg(color: "accent" | "border" | "dim" | "muted", text: string): string;
}

/** 1.6.0's options: `cancellable` (default true) shows the cancel hint and takes its key. */
export interface BorderedLoaderOptions {
  cancellable?: boolean;
}

/** The bordered, cancellable spinner. */
export class BorderedLoader extends Container {
  #loader: CancellableLoader | Loader;
  /** The signal of a loader that cannot be cancelled (never aborted). */
  #fixed?: AbortController;

  /** A spinner with `message` in `tui`'s colours of `theme`. */
  constructor(tui: TUI, theme: LoaderTheme, message: string, options?: BorderedLoaderOptions) {
    super();
    const cancellable = options?.cancellable ?? true;
    const accent = (s: string) => theme.fg("accent", s);
    const muted = (s: string) => theme.fg("muted", s);
    this.#loader = cancellable
      ? new CancellableLoader(tui, accent, muted, message)
      : new Loader(tui, accent, muted, message);
    if (!cancellable) this.#fixed = new AbortController();
    const border = (s: string) => theme.fg("border", s);
    this.addChild(new DynamicBorder(border));
    this.addChild(this.#loader);
    if (cancellable) {
      this.addChild(new Spacer(1));
      // The app's theme, not `theme`, as in 1.6.0 (its keyHint reads the global theme).
      this.addChild(new Text(keyHint("tui.select.cancel", "cancel"), 1, 0));
    }
    this.addChild(new Spacer(1));
    this.addChild(new DynamicBorder(border));
  }

  /** Aborted when the user cancels. */
  get signal(): AbortSignal {
    return this.#loader instanceof CancellableLoader ? this.#loader.signal : this.#fixed!.signal;
  }

  /** Called when the user cancels. */
  set onAbort(fn: () => void) {
    if (this.#loader instanceof CancellableLoader) this.#loader.onAbort = fn;
  }

  /** The cancel key goes to the spinner. */
  handleInput(data: string): void {
    if (this.#loader instanceof CancellableLoader) this.#loader.handleInput(data);
  }

  /** Stops the spinner's timer. */
  dispose(): void {
    if (this.#loader instanceof CancellableLoader) this.#loader.dispose();
    else this.#loader.stop();
  }
}
