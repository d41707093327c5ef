/**
 * Batched protocol output for JSON and RPC mode. A long reply produces one record per delta;
 * writing each as its own system call (and, on a pipe, waking the reader for each) cost several
 * times more than producing them. Records are gathered and written together once 64 KiB are
 * waiting or at the end of the current task, whichever comes first; every write is still whole
 * and in order. Whoever exits the process flushes first.
 *
 * @module
 */
import { writeStdout } from "./output.ts";

/** Bytes (UTF-16 units, close enough) gathered before a write happens at once. */
const FLUSH_AT = 64 * 1024;

/** Gathers lines and writes them to a sink in batches. */
export class OutputBatch {
  #parts: string[] = [];
  #size = 0;
  #timer?: ReturnType<typeof setTimeout>;
  readonly #sink: (text: string) => void;

  /** `sink` receives the joined text (default: a complete synchronous stdout write). */
  constructor(sink: (text: string) => void = writeStdout) {
    this.#sink = sink;
  }

  /** Queues `text`; written within this task, or at once when enough is waiting. */
  write(text: string): void {
    this.#parts.push(text);
    this.#size += text.length;
    if (this.#size >= FLUSH_AT) this.flush();
    else this.#timer ??= setTimeout(() => this.flush(), 0);
  }

  /** Writes everything queued now. */
  flush(): void {
    if (this.#timer !== undefined) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
    if (this.#parts.length === 0) return;
    const text = this.#parts.length === 1 ? this.#parts[0] : this.#parts.join("");
    this.#parts = [];
    this.#size = 0;
    this.#sink(text);
  }
}
