/**
 * Mouse handling added around a component that has none (or not the one wanted).
 *
 * @module
 */
import {
  type Component,
  dispatchMouseEvent,
  type TuiMouseDispatchResult,
  type TuiMouseEvent,
  type TuiMouseEventResult,
} from "../tui_component.ts";

/** Called with the event when the wrapped component did not handle it. */
export type MouseRegionHandler = (event: TuiMouseEvent) => TuiMouseEventResult | undefined;

/** Adds mouse handling to an existing component without changing its rendering. */
export class MouseRegion implements Component {
  private readonly child: Component;
  private readonly onMouse: MouseRegionHandler;

  /** Wraps `child`; `onMouse` gets the events the child leaves unhandled. */
  constructor(child: Component, onMouse: MouseRegionHandler) {
    this.child = child;
    this.onMouse = onMouse;
  }

  /** The child's lines, untouched. */
  render(width: number): readonly string[] {
    return this.child.render(width);
  }

  /** The child gets the event first; the handler sees only what the child left unhandled. */
  handleMouse(event: TuiMouseEvent): TuiMouseDispatchResult | TuiMouseEventResult | undefined {
    return dispatchMouseEvent(this.child, event) ?? this.onMouse(event);
  }

  /** Forwards to the child. */
  invalidate(): void {
    this.child.invalidate();
  }
}
