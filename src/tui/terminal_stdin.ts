/**
 * Reading the process's standard input for a terminal UI on Deno APIs: a read loop decoding UTF-8
 * that can be paused so it no longer keeps the process alive.
 *
 * A pending `Deno.stdin.read()` cannot be cancelled, and it keeps the event loop alive, so a
 * program that stopped its TUI would never exit. Deno's own `node:process` stdin solves this with
 * the stdin resource's REF/UNREF methods; they are internal symbols on `Deno.stdin`'s prototype,
 * looked up by description here (loading `node:process`'s stdin costs ~35 ms of start-up). Where
 * they are missing the read stays referenced and the program must exit explicitly.
 *
 * @module
 */

type RefMethod = (this: typeof Deno.stdin) => void;

function stdinRefMethod(name: "REF" | "UNREF"): RefMethod | undefined {
  const proto = Object.getPrototypeOf(Deno.stdin) as Record<symbol, unknown>;
  const symbol = Object.getOwnPropertySymbols(proto).find((s) => s.description === name);
  const method = symbol === undefined ? undefined : proto[symbol];
  return typeof method === "function" ? method as RefMethod : undefined;
}

/** At most this much input read while paused is kept for the next resume(). */
const HELD_LIMIT = 64 * 1024;

/** A primary device attributes (DA1) reply: the sentinel that ends a {@link StdinReader.release}. */
// deno-lint-ignore no-control-regex -- an escape sequence on purpose
const DA1_REPLY = /\x1b\[\?[\d;]*c/;

/**
 * Delivers stdin as text while resumed. Paused, it does not keep the process alive, and input its
 * pending read still receives is held for the next resume(), as a paused Node stream leaves input
 * in the terminal for later.
 */
export class StdinReader {
  private onData: ((text: string) => void) | undefined;
  private held = "";
  private looping = false;
  private decoder = new TextDecoder();
  /** When data last arrived (ms since the epoch), delivered or not. */
  lastDataAt = 0;
  /** A release waits for its DA1 reply; called when the loop has ended. */
  private releasing: (() => void) | undefined;

  /**
   * Ends the read loop once a DA1 reply arrives (the caller asks the terminal for one right after),
   * so that no read is left pending: a child process given the terminal (an external editor) then
   * gets every key, where a pending read would take some. The reply is dropped; input before and
   * after it is kept. Resolves when the loop has ended, or after `timeoutMs` (a terminal that does
   * not answer). resume() starts reading again.
   */
  release(timeoutMs: number): Promise<void> {
    if (!this.looping) return Promise.resolve();
    const ended = new Promise<void>((resolve) => this.releasing = resolve);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<void>((resolve) => timer = setTimeout(resolve, timeoutMs));
    return Promise.race([ended, timeout]).finally(() => {
      clearTimeout(timer);
      this.releasing = undefined;
    });
  }

  /** Starts (or continues) delivering input to `onData`. */
  resume(onData: (text: string) => void): void {
    this.onData = onData;
    stdinRefMethod("REF")?.call(Deno.stdin);
    this.releasing = undefined;
    if (!this.looping) void this.loop();
    if (this.held) {
      // Later, not inside the caller's start(): input must not arrive before start() returns.
      queueMicrotask(() => {
        const held = this.held;
        this.held = "";
        if (held && this.onData) this.onData(held);
        else this.held = held + this.held;
      });
    }
  }

  /** Stops delivering; input that arrives meanwhile is held for the next resume(). */
  pause(): void {
    this.onData = undefined;
    stdinRefMethod("UNREF")?.call(Deno.stdin);
  }

  private async loop(): Promise<void> {
    this.looping = true;
    const buffer = new Uint8Array(16 * 1024);
    try {
      while (true) {
        const n = await Deno.stdin.read(buffer);
        if (n === null) break;
        this.lastDataAt = Date.now();
        let text = this.decoder.decode(buffer.subarray(0, n), { stream: true });
        const reply = this.releasing ? DA1_REPLY.exec(text) : null;
        if (reply) text = text.slice(0, reply.index) + text.slice(reply.index + reply[0].length);
        if (text) {
          if (this.onData) this.onData(text);
          else if (this.held.length < HELD_LIMIT) this.held += text;
        }
        if (reply) break;
      }
    } catch {
      // stdin closed or unreadable: no more input.
    } finally {
      this.looping = false;
      this.releasing?.();
    }
  }
}
