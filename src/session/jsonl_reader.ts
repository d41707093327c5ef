/**
 * Line-by-line reading of JSONL files in fixed-size chunks, so a 200 MB session never exists as
 * one string. Lines are split on the `\n` byte, which never occurs inside a UTF-8 multi-byte
 * sequence, so each line decodes on its own.
 *
 * @module
 */

const CHUNK_SIZE = 1 << 20;
const NEWLINE = 0x0a;

/**
 * Called for each line. `terminated` is false only for a last line without `\n` (a torn write,
 * or a hand-edited file). Return `false` to stop reading.
 */
export type LineCallback = (line: string, lineNumber: number, terminated: boolean) => boolean | void;

/** What the reader saw of the file as a whole. */
export interface LineScan {
  /** Bytes read (the whole file unless the callback stopped early). */
  bytesRead: number;
  /** True when the file is empty or its last byte is `\n`: appends can start right away. */
  endsWithNewline: boolean;
  /** True when the callback stopped the scan. */
  stoppedEarly: boolean;
}

/** Joins the carried-over pieces of a line that spans chunks. */
class LineAssembler {
  #parts: Uint8Array[] = [];
  #length = 0;
  #decoder = new TextDecoder();

  push(bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    // Copy: the chunk buffer is reused for the next read.
    this.#parts.push(bytes.slice());
    this.#length += bytes.length;
  }

  get empty(): boolean {
    return this.#length === 0;
  }

  /** Decodes the carried pieces followed by `tail` and resets. */
  take(tail: Uint8Array): string {
    if (this.#length === 0) return this.#decoder.decode(tail);
    const all = new Uint8Array(this.#length + tail.length);
    let at = 0;
    for (const p of this.#parts) {
      all.set(p, at);
      at += p.length;
    }
    all.set(tail, at);
    this.#parts = [];
    this.#length = 0;
    return this.#decoder.decode(all);
  }
}

/** The state of one scan: lines split from chunks as they are read, sync or async alike. */
class LineScanner {
  #carry = new LineAssembler();
  #line = 0;
  #bytesRead = 0;
  #lastByte = NEWLINE;
  readonly #onLine: LineCallback;

  constructor(onLine: LineCallback) {
    this.#onLine = onLine;
  }

  /** Splits a chunk into lines; false when the callback asked to stop. */
  feed(chunk: Uint8Array): boolean {
    this.#bytesRead += chunk.length;
    this.#lastByte = chunk[chunk.length - 1];
    let start = 0;
    while (start < chunk.length) {
      const nl = chunk.indexOf(NEWLINE, start);
      if (nl === -1) {
        this.#carry.push(chunk.subarray(start));
        return true;
      }
      const text = this.#carry.take(chunk.subarray(start, nl));
      this.#line++;
      if (this.#onLine(text, this.#line, true) === false) return false;
      start = nl + 1;
    }
    return true;
  }

  /** The summary after a stop (`stopped`) or at end of file, where a last unterminated line is delivered. */
  finish(stopped: boolean): LineScan {
    if (!stopped && !this.#carry.empty) {
      this.#onLine(this.#carry.take(new Uint8Array(0)), this.#line + 1, false);
    }
    return { bytesRead: this.#bytesRead, endsWithNewline: this.#lastByte === NEWLINE, stoppedEarly: stopped };
  }
}

/**
 * Reads `path` synchronously line by line. Throws if the file cannot be opened. `chunkSize`
 * is the read size (small for readers that stop after the first line, such as header reads).
 */
export function readLinesSync(path: string, onLine: LineCallback, chunkSize = CHUNK_SIZE): LineScan {
  const file = Deno.openSync(path, { read: true });
  try {
    const buf = new Uint8Array(chunkSize);
    const scanner = new LineScanner(onLine);
    for (;;) {
      const n = file.readSync(buf);
      if (n === null || n === 0) return scanner.finish(false);
      if (!scanner.feed(buf.subarray(0, n))) return scanner.finish(true);
    }
  } finally {
    file.close();
  }
}

/** Async twin of {@link readLinesSync}, for listing many files without blocking. */
export async function readLines(path: string, onLine: LineCallback): Promise<LineScan> {
  const file = await Deno.open(path, { read: true });
  try {
    const buf = new Uint8Array(CHUNK_SIZE);
    const scanner = new LineScanner(onLine);
    for (;;) {
      const n = await file.read(buf);
      if (n === null || n === 0) return scanner.finish(false);
      if (!scanner.feed(buf.subarray(0, n))) return scanner.finish(true);
    }
  } finally {
    file.close();
  }
}
