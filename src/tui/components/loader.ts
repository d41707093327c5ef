/**
 * Loader: a one-line spinner with a message, as in pi-tui 1.6.0's `components/loader`.
 *
 * @module
 */
import type { TUI } from "../tui_types.ts";
import { Text } from "./text.ts";

/** How the indicator is drawn. */
export interface LoaderIndicatorOptions {
  /** Animation frames. Use an empty array to hide the indicator. */
  frames?: string[];
  /** Frame interval in milliseconds for animated indicators. */
  intervalMs?: number;
}

/** The braille spinner pi draws by default. */
const DEFAULT_FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
const DEFAULT_INTERVAL_MS = 80;

/**
 * A spinner frame and a message on one row, after an empty row. It starts animating when
 * constructed (a timer asks `ui` for a render on every frame); call {@link Loader.stop} to end it.
 */
export class Loader extends Text {
  private frames: string[] = [...DEFAULT_FRAMES];
  private intervalMs = DEFAULT_INTERVAL_MS;
  private currentFrame = 0;
  private intervalId: ReturnType<typeof setInterval> | null = null;
  private ui: TUI | null = null;
  /** Custom frames are the caller's own styling, so the spinner colour is not applied to them. */
  private renderIndicatorVerbatim = false;
  private spinnerColorFn: (str: string) => string;
  private messageColorFn: (str: string) => string;
  private message = "Loading...";

  /** Starts the animation at once. */
  constructor(
    ui: TUI,
    spinnerColorFn: (str: string) => string,
    messageColorFn: (str: string) => string,
    message = "Loading...",
    indicator?: LoaderIndicatorOptions,
  ) {
    super("", 1, 0);
    this.ui = ui;
    this.spinnerColorFn = spinnerColorFn;
    this.messageColorFn = messageColorFn;
    this.message = message;
    this.setIndicator(indicator);
  }

  /** An empty row, then the indicator and message. */
  override render(width: number): string[] {
    return ["", ...super.render(width)];
  }

  /** Draws the current frame and (re)starts the timer. */
  start(): void {
    this.updateDisplay();
    this.restartAnimation();
  }

  /** Stops the timer; the current frame stays drawn. */
  stop(): void {
    if (this.intervalId === null) return;
    clearInterval(this.intervalId);
    this.intervalId = null;
  }

  /** Replaces the message and asks for a render. */
  setMessage(message: string): void {
    this.message = message;
    this.updateDisplay();
  }

  /** Rebuilds the text, so that colour functions reading a changed theme take effect. */
  override invalidate(): void {
    super.invalidate();
    this.updateDisplay();
  }

  /** Changes the frames and interval (undefined: the default spinner) and restarts from the first frame. */
  setIndicator(indicator?: LoaderIndicatorOptions): void {
    this.renderIndicatorVerbatim = indicator !== undefined;
    this.frames = indicator?.frames !== undefined ? [...indicator.frames] : [...DEFAULT_FRAMES];
    const interval = indicator?.intervalMs;
    this.intervalMs = interval && interval > 0 ? interval : DEFAULT_INTERVAL_MS;
    this.currentFrame = 0;
    this.start();
  }

  /** One frame or none needs no timer. */
  private restartAnimation(): void {
    this.stop();
    if (this.frames.length <= 1) return;
    this.intervalId = setInterval(() => {
      this.currentFrame = (this.currentFrame + 1) % this.frames.length;
      this.updateDisplay();
    }, this.intervalMs);
  }

  /** The current frame as drawn; subclasses may draw something else. */
  protected getRenderedIndicator(): string {
    const frame = this.frames[this.currentFrame] ?? "";
    return this.renderIndicatorVerbatim ? frame : this.spinnerColorFn(frame);
  }

  private updateDisplay(): void {
    const indicator = this.getRenderedIndicator();
    this.setText(`${indicator.length > 0 ? `${indicator} ` : ""}${this.messageColorFn(this.message)}`);
    this.ui?.requestRender();
  }
}
