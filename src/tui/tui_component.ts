/**
 * The component model of the kit: what a component is, the cursor markers components emit, mouse
 * event routing, and `Container`, which stacks children vertically and keeps their concatenated
 * lines across frames.
 *
 * This file depends on nothing else in the kit, so every other area can build on it.
 *
 * @module
 */

/** Kinds of normalized mouse events. */
export type TuiMouseEventType = "press" | "release" | "move" | "drag" | "click" | "wheel";
/** Which mouse button an event is about. */
export type TuiMouseButton = "left" | "middle" | "right" | "none";

/** Normalized cell-based mouse event. Coordinates are zero-based. */
export interface TuiMouseEvent {
  /** What happened. */
  type: TuiMouseEventType;
  /** Which button. */
  button: TuiMouseButton;
  /** Coordinates local to the receiving component. */
  x: number;
  /** Row local to the receiving component. */
  y: number;
  /** Absolute terminal coordinates. */
  screenX: number;
  /** Absolute terminal row. */
  screenY: number;
  /** Current component bounds. */
  width: number;
  /** Component height. */
  height: number;
  /** Shift held. */
  shift: boolean;
  /** Alt held. */
  alt: boolean;
  /** Ctrl held. */
  ctrl: boolean;
  /** Logical lines. Negative values scroll up. */
  wheelDelta?: number;
  /** Consecutive click count when type is click. */
  clickCount?: number;
}

/** What a component's mouse handler asks of the renderer. */
export interface TuiMouseEventResult {
  /** Stop propagation and suppress renderer-level fallback behavior. */
  handled?: boolean;
  /** Route subsequent drag/release events to this component. Implies handled. */
  capture?: boolean;
  /** Give keyboard focus to this component. Implies handled. */
  focus?: boolean;
  /**
   * Explicitly request or suppress a render. Move and release default to false;
   * press, click, drag, and wheel default to true.
   */
  render?: boolean;
}

/** Internal target metadata used by containers and alternate-screen dispatch. */
export interface TuiMouseDispatchTarget {
  /** The component that took the event. */
  component: Component;
  /** Screen column of the component's left edge. */
  originX: number;
  /** Screen row of the component's top edge. */
  originY: number;
  /** The component's width. */
  width: number;
  /** The component's height. */
  height: number;
}

/** Result of dispatching to a concrete component. */
export interface TuiMouseDispatchResult extends TuiMouseEventResult {
  /** Always true: undefined stands for not handled. */
  handled: true;
  /** Where the event landed, for later events of a capture. */
  target: TuiMouseDispatchTarget;
  /** Keyboard focus target, which may be a delegating parent container. */
  focusTarget?: Component;
}

/** Anything that draws itself as lines of a given width. */
export interface Component {
  /**
   * Render the component to lines for the given viewport width
   * @param width - Current viewport width
   * @returns Lines to draw. Components may return a cached array: callers must not modify it.
   */
  render(width: number): readonly string[];
  /** Optional handler for keyboard input when component has focus. */
  handleInput?(data: string): void;
  /** Optional normalized mouse handler. */
  handleMouse?(event: TuiMouseEvent): TuiMouseEventResult | undefined;
  /**
   * If true, component receives key release events (Kitty protocol).
   * Default is false - release events are filtered out.
   */
  wantsKeyRelease?: boolean;
  /**
   * If true while focused, fullscreen viewport keys (`tui.altScreen.*` scrolling and prompt jumps) go to this
   * component instead of scrolling the transcript, as they do for a focused overlay. Default is false.
   */
  capturesViewportInput?: boolean;
  /**
   * Invalidate any cached rendering state.
   * Called when theme changes or when component needs to re-render from scratch.
   */
  invalidate(): void;
}

/**
 * Interface for components that can receive focus and display a hardware cursor.
 * When focused, the component should emit CURSOR_MARKER at the cursor position
 * in its render output. The TUI finds this marker and positions the hardware
 * cursor there for proper IME candidate window positioning.
 */
export interface Focusable {
  /** Set by TUI when focus changes. Component should emit CURSOR_MARKER when true. */
  focused: boolean;
}

/** Type guard to check if a component implements Focusable */
export function isFocusable(component: Component | null): component is Component & Focusable {
  return component !== null && "focused" in component;
}

/**
 * Cursor position marker - an APC (Application Program Command) sequence, which terminals ignore.
 * Focused components emit it at their cursor; the TUI strips it and puts the hardware cursor there.
 */
export const CURSOR_MARKER = "\x1b_pi:c\x07";
/** Start of a fake cursor: zero-width APC before the text drawn as the cursor. */
export const FAKE_CURSOR_START = "\x1b_pi:fc\x07";
/** End of a fake cursor: zero-width APC after the text drawn as the cursor. */
export const FAKE_CURSOR_END = "\x1b_pi:/fc\x07";

/** Wrap text in fake cursor markers. */
export function renderFakeCursor(text: string): string {
  return FAKE_CURSOR_START + text + FAKE_CURSOR_END;
}

/**
 * Dispatch an event to a component and retain the exact target and coordinate
 * transform. Containers use this when forwarding events to nested children.
 */
export function dispatchMouseEvent(
  component: Component,
  event: TuiMouseEvent,
): TuiMouseDispatchResult | undefined {
  const result = component.handleMouse?.(event);
  if (!result) return undefined;
  if ("target" in result) {
    // A host that forwarded the event to a child keeps keyboard focus itself (it routes keys to the
    // child), so focus never lands on a child the host may later detach.
    const forwarded = result as TuiMouseDispatchResult;
    return forwarded.focus && component.handleInput ? { ...forwarded, focusTarget: component } : forwarded;
  }
  if (!result.handled && !result.capture && !result.focus) return undefined;
  return {
    ...result,
    handled: true,
    ...(result.focus ? { focusTarget: component } : {}),
    target: {
      component,
      originX: event.screenX - event.x,
      originY: event.screenY - event.y,
      width: event.width,
      height: event.height,
    },
  };
}

/** Recreate local coordinates for a previously dispatched mouse target. */
export function retargetMouseEvent(event: TuiMouseEvent, target: TuiMouseDispatchTarget): TuiMouseEvent {
  return {
    ...event,
    x: event.screenX - target.originX,
    y: event.screenY - target.originY,
    width: target.width,
    height: target.height,
  };
}

/** Concatenated child output of a container, kept across frames. */
export interface ChildLines {
  /** The width the lines were rendered at. */
  readonly width: number;
  /** The children, in order, when rendered. */
  readonly children: readonly Component[];
  /** Each child's lines. */
  readonly parts: readonly (readonly string[])[];
  /** All lines, concatenated (read-only for callers). */
  readonly lines: string[];
}

function equalLines(a: readonly string[], b: readonly string[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    if (a[i] !== b[i]) return false;
  }
  return true;
}

/**
 * Render children and concatenate their lines.
 *
 * Returns `previous` unchanged when the children and their lines are unchanged, so an unchanged
 * subtree keeps array identity and no ancestor copies its lines again (a long transcript would
 * otherwise be copied once per nesting level per frame). The returned lines are read-only.
 */
export function renderChildLines(
  children: readonly Component[],
  width: number,
  previous: ChildLines | undefined,
): ChildLines {
  const parts: (readonly string[])[] = new Array(children.length);
  let same = previous !== undefined && previous.width === width &&
    previous.children.length === children.length;
  for (let i = 0; i < children.length; i++) {
    const part = children[i].render(width);
    parts[i] = part;
    if (same && (children[i] !== previous!.children[i] || !equalLines(part, previous!.parts[i]))) {
      same = false;
    }
  }
  if (same) return previous!;
  const lines: string[] = [];
  for (const part of parts) {
    for (const line of part) lines.push(line);
  }
  return { width, children: children.slice(), parts, lines };
}

/** Dispatch a mouse event to the child of a vertical child layout that covers its row. */
export function dispatchMouseToChildLines(
  layout: ChildLines,
  event: TuiMouseEvent,
): TuiMouseDispatchResult | undefined {
  let top = 0;
  for (let i = 0; i < layout.children.length; i++) {
    const height = layout.parts[i].length;
    if (event.y >= top && event.y < top + height) {
      return dispatchMouseEvent(layout.children[i], { ...event, y: event.y - top, height });
    }
    top += height;
  }
  return undefined;
}

/** A component that stacks its children vertically. */
export class Container implements Component {
  /** The children, top to bottom. */
  children: Component[] = [];
  private childLines?: ChildLines;

  /** Appends a child at the bottom. */
  addChild(component: Component): void {
    this.children.push(component);
  }

  /** Removes a child; does nothing when it is not a child. */
  removeChild(component: Component): void {
    const index = this.children.indexOf(component);
    if (index !== -1) this.children.splice(index, 1);
  }

  /** Removes every child. */
  clear(): void {
    this.children = [];
  }

  /** Invalidates every child. */
  invalidate(): void {
    for (const child of this.children) child.invalidate?.();
  }

  /** Routes the event to the child under its row (the last frame's layout when the width matches). */
  handleMouse(event: TuiMouseEvent): TuiMouseDispatchResult | undefined {
    if (event.y < 0 || event.y >= event.height) return undefined;
    const layout = this.childLines?.width === event.width
      ? this.childLines
      : renderChildLines(this.children, event.width, undefined);
    const result = dispatchMouseToChildLines(layout, event);
    // A container that handles keys itself keeps keyboard focus when a nested child asks for it.
    if (result?.focus && (this as Component).handleInput) return { ...result, focusTarget: this };
    return result;
  }

  /** The children's lines, concatenated; the same array while nothing changed. */
  render(width: number): readonly string[] {
    this.childLines = renderChildLines(this.children, width, this.childLines);
    return this.childLines.lines;
  }
}
