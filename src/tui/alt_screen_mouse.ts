/**
 * Mouse reports of the fullscreen TUI: parsing xterm's SGR (`CSI < b;x;y M/m`) and legacy X10
 * (`CSI M bxy`) encodings into zero-based cells, and building normalized {@link TuiMouseEvent}s.
 *
 * Button codes: bits 0–1 the button (3: none), 4 shift, 8 alt, 16 ctrl, 32 motion, 64 wheel.
 *
 * @module
 */
import type { TuiMouseButton, TuiMouseEvent, TuiMouseEventType } from "./tui_component.ts";

/** A wheel notch: up (-1) or down (1) at a cell, with its raw button code (for the modifiers). */
export interface AltScreenWheelEvent {
  /** -1 up, 1 down. */
  direction: -1 | 1;
  /** Zero-based column. */
  x: number;
  /** Zero-based row. */
  y: number;
  /** The raw button code (modifier bits included). */
  button: number;
}

/** An SGR mouse report: raw button code, zero-based cell, and whether it is a release (`m`). */
export interface AltScreenRawMouseEvent {
  /** The raw button code. */
  button: number;
  /** Zero-based column. */
  x: number;
  /** Zero-based row. */
  y: number;
  /** Whether a button was released (`m`). */
  release: boolean;
}

// deno-lint-ignore no-control-regex
const SGR_MOUSE = /^\x1b\[<(\d+);(\d+);(\d+)([Mm])$/;

function wheelDirection(button: number): -1 | 1 | undefined {
  if ((button & 64) === 0) return undefined;
  const code = button & 3;
  return code === 0 ? -1 : code === 1 ? 1 : undefined;
}

/** The wheel event in `data` (SGR or X10), or undefined for anything else. */
export function parseWheelEvent(data: string): AltScreenWheelEvent | undefined {
  const sgr = SGR_MOUSE.exec(data);
  if (sgr) {
    const button = Number.parseInt(sgr[1], 10);
    const direction = wheelDirection(button);
    if (direction === undefined) return undefined;
    return { direction, x: Number.parseInt(sgr[2], 10) - 1, y: Number.parseInt(sgr[3], 10) - 1, button };
  }
  if (data.length === 6 && data.startsWith("\x1b[M")) {
    const button = data.charCodeAt(3) - 32;
    const direction = wheelDirection(button);
    if (direction === undefined) return undefined;
    return { direction, x: data.charCodeAt(4) - 33, y: data.charCodeAt(5) - 33, button };
  }
  return undefined;
}

/** The SGR mouse report in `data`, or undefined. */
export function parseSgrMouseEvent(data: string): AltScreenRawMouseEvent | undefined {
  const match = SGR_MOUSE.exec(data);
  if (!match) return undefined;
  return {
    button: Number.parseInt(match[1], 10),
    x: Number.parseInt(match[2], 10) - 1,
    y: Number.parseInt(match[3], 10) - 1,
    release: match[4] === "m",
  };
}

/** Whether `data` is any mouse report (so it is swallowed rather than typed). */
export function isMouseSequence(data: string): boolean {
  // deno-lint-ignore no-control-regex
  return /^\x1b\[<\d+;\d+;\d+[Mm]$/.test(data) || (data.length === 6 && data.startsWith("\x1b[M"));
}

/** The button named by the low two bits of a button code. */
export function decodeMouseButton(button: number): TuiMouseButton {
  switch (button & 3) {
    case 0:
      return "left";
    case 1:
      return "middle";
    case 2:
      return "right";
    default:
      return "none";
  }
}

/** A screen-level mouse event (local coordinates equal screen ones; bounds are the terminal's). */
export function createMouseEvent(
  type: TuiMouseEventType,
  button: number,
  x: number,
  y: number,
  columns: number,
  rows: number,
  extra: { wheelDelta?: number; clickCount?: number } = {},
): TuiMouseEvent {
  const event: TuiMouseEvent = {
    type,
    button: type === "wheel" ? "none" : decodeMouseButton(button),
    x,
    y,
    screenX: x,
    screenY: y,
    width: Math.max(1, columns),
    height: Math.max(1, rows),
    shift: (button & 4) !== 0,
    alt: (button & 8) !== 0,
    ctrl: (button & 16) !== 0,
  };
  if (extra.wheelDelta !== undefined) event.wheelDelta = extra.wheelDelta;
  if (extra.clickCount !== undefined) event.clickCount = extra.clickCount;
  return event;
}
