/**
 * An extension's component (a widget, a `custom()` dialog, a footer or header) inside a guard: an
 * error its `render`, `handleInput` or `invalidate` throws is reported once as that extension's
 * error and the component draws nothing more, so a broken component cannot end pi or stop the
 * screen from drawing. (1.6.0 lets such an error reach its renderer; see docs/differences.md.)
 *
 * @module
 */
import type { Component, Focusable, TuiMouseEvent, TuiMouseEventResult } from "../../tui/mod.ts";

/** A component as an extension builds it: any of the optional parts, and `dispose`. */
export type ExtensionComponent = Component & Partial<Focusable> & { dispose?(): void };

/** Wraps an extension's component; `onError` hears the first error it throws. */
export class GuardedComponent implements Component, Focusable {
  #failed = false;

  /** Guards `inner`; `onError` gets the error and which method threw it. */
  constructor(
    readonly inner: ExtensionComponent,
    private readonly onError: (error: unknown, method: string) => void,
  ) {}

  #run<T>(method: string, fallback: T, call: () => T): T {
    if (this.#failed) return fallback;
    try {
      return call();
    } catch (error) {
      this.#failed = true;
      this.onError(error, method);
      return fallback;
    }
  }

  /** The inner component's lines; none once it has failed. */
  render(width: number): readonly string[] {
    return this.#run("render", [], () => {
      const lines = this.inner.render(width);
      if (!Array.isArray(lines)) throw new TypeError("render() must return an array of strings");
      return lines;
    });
  }

  /** Keys go to the inner component. */
  handleInput(data: string): void {
    this.#run("handleInput", undefined, () => this.inner.handleInput?.(data));
  }

  /** Mouse events go to the inner component. */
  handleMouse(event: TuiMouseEvent): TuiMouseEventResult | undefined {
    return this.#run("handleMouse", undefined, () => this.inner.handleMouse?.(event));
  }

  /** Passes on to the inner component. */
  invalidate(): void {
    this.#run("invalidate", undefined, () => this.inner.invalidate?.());
  }

  /** The inner component's focus (for its cursor). */
  get focused(): boolean {
    return this.inner.focused ?? false;
  }
  set focused(value: boolean) {
    if ("focused" in this.inner) this.#run("focused", undefined, () => void (this.inner.focused = value));
  }

  /** Whether the inner component wants key releases. */
  get wantsKeyRelease(): boolean | undefined {
    return this.inner.wantsKeyRelease;
  }

  /** Whether the inner component takes the viewport keys. */
  get capturesViewportInput(): boolean | undefined {
    return this.inner.capturesViewportInput;
  }

  /** Disposes the inner component; an error there is reported, not thrown. */
  dispose(): void {
    try {
      this.inner.dispose?.();
    } catch (error) {
      this.onError(error, "dispose");
    }
  }
}
