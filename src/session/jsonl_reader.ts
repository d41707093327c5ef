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

/** Feeds a chunk through the splitter; returns false if the callback asked to stop. */
function splitChunk(
  chunk: Uint8Array,
  carry: LineAssembler,
  state: { line: number },
  onLine: LineCallback,
): boolean {
  let start = 0;
  while (start < chunk.length) {
    const nl = chunk.indexOf(NEWLINE, start);
    if (nl === -1) {
      carry.push(chunk.subarray(start));
      return true;
    }
    const text = carry.take(chunk.subarray(start, nl));
    state.line++;
    if (onLine(text, state.line, true) === false) return false;
    start = nl + 1;
  }
  return true;
}

/** Reads `path` synchronously line by line. Throws if the file cannot be opened. */
export function readLinesSync(path: string, onLine: LineCallback): LineScan {
  const file = Deno.openSync(path, { read: true });
  try {
    const buf = new Uint8Array(CHUNK_SIZE);
    const carry = new LineAssembler();
    const state = { line: 0 };
    let bytesRead = 0;
    let lastByte = NEWLINE;
    for (;;) {
      const n = file.readSync(buf);
      if (n === null || n === 0) break;
      bytesRead += n;
      lastByte = buf[n - 1];
      if (!splitChunk(buf.subarray(0, n), carry, state, onLine)) {
        return { bytesRead, endsWithNewline: lastByte === NEWLINE, stoppedEarly: true };
      }
    }
    if (!carry.empty) onLine(carry.take(new Uint8Array(0)), state.line + 1, false);
    return { bytesRead, endsWithNewline: lastByte === NEWLINE, stoppedEarly: false };
  } finally {
    file.close();
  }
}

/** Async twin of {@link readLinesSync}, for listing many files without blocking. */
export async function readLines(path: string, onLine: LineCallback): Promise<LineScan> {
  const file = await Deno.open(path, { read: true });
  try {
    const buf = new Uint8Array(CHUNK_SIZE);
    const carry = new LineAssembler();
    const state = { line: 0 };
    let bytesRead = 0;
    let lastByte = NEWLINE;
    for (;;) {
      const n = await file.read(buf);
      if (n === null || n === 0) break;
      bytesRead += n;
      lastByte = buf[n - 1];
      if (!splitChunk(buf.subarray(0, n), carry, state, onLine)) {
        return { bytesRead, endsWithNewline: lastByte === NEWLINE, stoppedEarly: true };
      }
    }
    if (!carry.empty) onLine(carry.take(new Uint8Array(0)), state.line + 1, false);
    return { bytesRead, endsWithNewline: lastByte === NEWLINE, stoppedEarly: false };
  } finally {
    file.close();
  }
}
