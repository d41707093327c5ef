/**
 * Mouse-wheel events to scrolled lines, with optional velocity-based acceleration.
 *
 * @module
 */
import { readEnv } from "../util/env.ts";

/** Lines moved per mouse-wheel event, or `"auto"` to accelerate fast wheel spins. */
export type WheelScrollLines = number | "auto";

/** Events closer than this are one physical notch (Ghostty sends several ~4 ms apart) or a
 * high-resolution device: one line each, no acceleration. */
const BURST_GAP_MS = 5;
/** A pause longer than this starts a new gesture. */
const GESTURE_GAP_MS = 200;
/** The average gap between events that means one line per event; faster spins scale up from it. */
const REFERENCE_GAP_MS = 100;
const MAX_AUTO_LINES = 6;

/**
 * Whether the OS already accelerated the wheel: local macOS terminals get accelerated deltas and
 * emit one event per line. Elsewhere, and over SSH (the client's platform is unknown), one event
 * usually means one notch.
 */
function terminalAcceleratesWheel(): boolean {
  return Deno.build.os === "darwin" &&
    readEnv("SSH_CONNECTION") === undefined &&
    readEnv("SSH_CLIENT") === undefined &&
    readEnv("SSH_TTY") === undefined;
}

/**
 * Converts wheel events into line counts.
 *
 * In `"auto"` mode on terminals that do not accelerate wheel input, the count follows event
 * velocity: an isolated notch moves one line, while a fast spin moves up to six lines per event.
 * For example, notches 100 ms apart move 1 line each, 50 ms apart move 2, and 20 ms apart move 5.
 */
export class WheelScrollAccelerator {
  private lines: WheelScrollLines;
  private readonly accelerate: boolean;
  private lastTime = Number.NEGATIVE_INFINITY;
  private lastDirection = 0;
  private averageGap: number | undefined;
  /** The fraction of a line owed from earlier events, so slow-ish spins still add up. */
  private carry = 0;

  /** `accelerate` defaults to whether the terminal does not accelerate wheel input itself. */
  constructor(lines: WheelScrollLines = "auto", accelerate: boolean = !terminalAcceleratesWheel()) {
    this.lines = lines;
    this.accelerate = accelerate;
  }

  /** Switches between a fixed count and `"auto"`; the current gesture is forgotten. */
  setLines(lines: WheelScrollLines): void {
    this.lines = lines;
    this.reset();
  }

  /** Return the positive line count for a wheel event in `direction` at time `now` (milliseconds). */
  next(direction: -1 | 1, now: number): number {
    if (this.lines !== "auto") {
      return Number.isFinite(this.lines) ? Math.max(1, Math.floor(this.lines)) : 1;
    }
    if (!this.accelerate) return 1;
    const gap = now - this.lastTime;
    const continues = direction === this.lastDirection && gap <= GESTURE_GAP_MS;
    this.lastTime = now;
    this.lastDirection = direction;
    if (!continues) {
      this.averageGap = undefined;
      this.carry = 0;
      return 1;
    }
    if (gap < BURST_GAP_MS) return 1;
    this.averageGap = this.averageGap === undefined ? gap : (this.averageGap + gap) / 2;
    const exact = Math.min(MAX_AUTO_LINES, Math.max(1, REFERENCE_GAP_MS / this.averageGap)) + this.carry;
    const whole = Math.floor(exact);
    this.carry = exact - whole;
    return whole;
  }

  /** Forgets the gesture. */
  private reset(): void {
    this.lastTime = Number.NEGATIVE_INFINITY;
    this.lastDirection = 0;
    this.averageGap = undefined;
    this.carry = 0;
  }
}
