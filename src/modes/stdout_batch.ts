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

/** Bytes (UTF-16 units for a text sink, close enough) gathered before a write happens at once. */
const FLUSH_AT = 64 * 1024;

/** Room for the stdout buffer: a batch just under {@link FLUSH_AT} plus one more record. */
const BUFFER_BYTES = 2 * FLUSH_AT;

/** Bytes of UTF-8 one UTF-16 unit can take at most (a surrogate pair: 4 bytes for 2 units). */
const MAX_BYTES_PER_UNIT = 3;

const encoder = new TextEncoder();

/** Gathers lines and writes them to a sink in batches. */
export class OutputBatch {
  #parts: string[] = [];
  #size = 0;
  // Writing to stdout, records are encoded straight into one reused buffer as they come: none
  // of them outlives its own write() call, and no batch is joined and encoded again.
  readonly #bytes?: Uint8Array;
  #used = 0;
  #timer?: ReturnType<typeof setTimeout>;
  readonly #sink: (text: string) => void;
  readonly #byteSink: (bytes: Uint8Array) => void = writeStdout;

  /**
   * `sink` receives the joined text (default: a complete synchronous stdout write, fed from the
   * reused byte buffer); `byteSink` instead receives the encoded batches (a view of that buffer,
   * valid during the call), as stdout would.
   */
  constructor(sink: (text: string) => void = writeStdout, byteSink?: (bytes: Uint8Array) => void) {
    this.#sink = sink;
    if (byteSink) this.#byteSink = byteSink;
    if (sink === writeStdout || byteSink) this.#bytes = new Uint8Array(BUFFER_BYTES);
  }

  /** Queues `text`; written within this task, or at once when enough is waiting. */
  write(text: string): void {
    const bytes = this.#bytes;
    if (bytes) {
      if (this.#used + text.length * MAX_BYTES_PER_UNIT > bytes.length) {
        this.flush();
        // Too long for the buffer (a whole reply in a message_end): written as it is.
        if (text.length * MAX_BYTES_PER_UNIT > bytes.length) return this.#byteSink(encoder.encode(text));
      }
      this.#used += encoder.encodeInto(text, bytes.subarray(this.#used)).written;
      if (this.#used >= FLUSH_AT) this.flush();
      else this.#timer ??= setTimeout(() => this.flush(), 0);
      return;
    }
    this.#parts.push(text);
    this.#size += text.length;
    if (this.#size >= FLUSH_AT) this.flush();
    else this.#timer ??= setTimeout(() => this.flush(), 0);
  }

  /**
   * Queues `text` whose UTF-8 encoding the caller already holds (`bytes`, which must not change
   * afterwards): a constant part of many records is then copied rather than encoded each time.
   */
  writeEncoded(text: string, bytes: Uint8Array): void {
    const buffer = this.#bytes;
    if (!buffer) return this.write(text);
    if (this.#used + bytes.length > buffer.length) {
      this.flush();
      if (bytes.length > buffer.length) return this.#byteSink(bytes);
    }
    buffer.set(bytes, this.#used);
    this.#used += bytes.length;
    if (this.#used >= FLUSH_AT) this.flush();
    else this.#timer ??= setTimeout(() => this.flush(), 0);
  }

  /** Writes everything queued now. */
  flush(): void {
    if (this.#timer !== undefined) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
    if (this.#bytes) {
      if (this.#used === 0) return;
      const used = this.#used;
      this.#used = 0;
      this.#byteSink(this.#bytes.subarray(0, used));
      return;
    }
    if (this.#parts.length === 0) return;
    const text = this.#parts.length === 1 ? this.#parts[0] : this.#parts.join("");
    this.#parts = [];
    this.#size = 0;
    this.#sink(text);
  }
}
