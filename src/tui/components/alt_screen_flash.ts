/**
 * Short-lived notices ("Copied!") in the top-right corner of the fullscreen TUI.
 *
 * @module
 */
import type { Component } from "../tui_component.ts";
import { truncateToWidth } from "../utils_text.ts";

const DEFAULT_DURATION_MS = 1000;

interface FlashEntry {
  id: number;
  message: string;
  timer: ReturnType<typeof setTimeout>;
}

/** Transient messages composited by the alternate-screen renderer. */
export class AltScreenFlashContainer implements Component {
  private readonly entries: FlashEntry[] = [];
  private nextId = 0;
  private readonly requestRender: () => void;

  /** `requestRender` is called when a message appears or expires. */
  constructor(requestRender: () => void) {
    this.requestRender = requestRender;
  }

  /** Shows `message` for `durationMs` (default one second). The timer does not keep the process alive. */
  flash(message: string, durationMs: number = DEFAULT_DURATION_MS): void {
    const id = this.nextId++;
    const timer = setTimeout(() => {
      const index = this.entries.findIndex((entry) => entry.id === id);
      if (index === -1) return;
      this.entries.splice(index, 1);
      this.requestRender();
    }, Math.max(0, durationMs));
    Deno.unrefTimer(timer);
    this.entries.push({ id, message, timer });
    this.requestRender();
  }

  /** Drops every message and its timer. */
  dispose(): void {
    for (const entry of this.entries) clearTimeout(entry.timer);
    this.entries.length = 0;
  }

  /** Nothing is cached. */
  invalidate(): void {}

  /** One reverse-video line per message, oldest first, each padded with a space and cut to `width`. */
  render(width: number): string[] {
    return this.entries.map((entry) => `\x1b[7m${truncateToWidth(` ${entry.message} `, width, "")}\x1b[27m`);
  }
}
