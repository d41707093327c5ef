/**
 * A spinner between two border lines with the cancel key's hint, shown in the editor's place while
 * a slow command waits (1.6.0's BorderedLoader, e.g. "Creating gist..." for `/share`). The cancel
 * key aborts its signal.
 *
 * @module
 */
import { CancellableLoader, Container, getKeybindings, Spacer, Text, type TUI } from "../../tui/mod.ts";
import { BorderLine } from "./model_selector.ts";
import type { Theme } from "./theme.ts";

/** The bordered, cancellable spinner. */
export class BorderedLoader extends Container {
  #loader: CancellableLoader;

  /** A spinner with `message` in `tui`'s colours of `theme`. */
  constructor(tui: TUI, theme: Theme, message: string) {
    super();
    this.#loader = new CancellableLoader(
      tui,
      (s) => theme.fg("accent", s),
      (s) => theme.fg("muted", s),
      message,
    );
    const keys = getKeybindings().getKeys("tui.select.cancel").join("/");
    this.addChild(new BorderLine(theme));
    this.addChild(this.#loader);
    this.addChild(new Spacer(1));
    this.addChild(new Text(theme.fg("dim", keys) + theme.fg("muted", " cancel"), 1, 0));
    this.addChild(new Spacer(1));
    this.addChild(new BorderLine(theme));
  }

  /** Aborted when the user cancels. */
  get signal(): AbortSignal {
    return this.#loader.signal;
  }

  /** Called when the user cancels. */
  set onAbort(fn: () => void) {
    this.#loader.onAbort = fn;
  }

  /** The cancel key goes to the spinner. */
  handleInput(data: string): void {
    this.#loader.handleInput(data);
  }

  /** Stops the spinner's timer. */
  dispose(): void {
    this.#loader.dispose();
  }
}
