/**
 * Strict JSONL framing for the RPC protocol: records end at `\n` and nowhere else. Line readers
 * that also break on U+2028/U+2029 (legal, unescaped, inside JSON strings) would cut a record in
 * two, so this splits by hand.
 *
 * @module
 */

/** One record as a line: `JSON.stringify(value)` plus `\n` (U+2028/U+2029 stay raw). */
export function serializeJsonLine(value: unknown): string {
  return `${JSON.stringify(value)}\n`;
}

/**
 * Splits decoded text into lines at `\n` only, dropping one trailing `\r` per line (CRLF input).
 * Feed it chunks with {@link JsonlSplitter.push}; call {@link JsonlSplitter.end} at EOF to get an
 * unterminated last line.
 */
export class JsonlSplitter {
  /** Pieces of the unterminated line; kept apart so a long line is never re-flattened per chunk. */
  #parts: string[] = [];

  /** Adds text and returns the complete lines it finished. */
  push(text: string): string[] {
    const lines: string[] = [];
    let start = 0;
    let index = text.indexOf("\n");
    while (index !== -1) {
      this.#parts.push(text.slice(start, index));
      lines.push(stripCr(this.#parts.join("")));
      this.#parts = [];
      start = index + 1;
      index = text.indexOf("\n", start);
    }
    if (start < text.length) this.#parts.push(text.slice(start));
    return lines;
  }

  /** The unterminated rest, if any. */
  end(): string[] {
    const rest = this.#parts.join("");
    this.#parts = [];
    return rest.length > 0 ? [stripCr(rest)] : [];
  }
}

function stripCr(line: string): string {
  return line.endsWith("\r") ? line.slice(0, -1) : line;
}

/** A source read into a caller's buffer, as `Deno.stdin` is; `null` at end of input. */
export interface ByteReader {
  read(buffer: Uint8Array): Promise<number | null>;
}

/** Bytes asked for per read from a {@link ByteReader}. */
const READ_SIZE = 64 * 1024;

/**
 * Reads `source` as UTF-8 (invalid bytes become U+FFFD) and calls `onLine` for every record, in
 * order. Resolves at EOF, after the last line was delivered. For stdin pass `Deno.stdin` itself:
 * reading it directly answers a command about 0.4 ms sooner than going through
 * `Deno.stdin.readable`, whose stream machinery costs that much per chunk.
 */
export async function readJsonlLines(
  source: ReadableStream<Uint8Array> | ByteReader,
  onLine: (line: string) => void,
): Promise<void> {
  const decoder = new TextDecoder("utf-8", { fatal: false });
  const splitter = new JsonlSplitter();
  const deliver = (bytes?: Uint8Array) => {
    const text = bytes ? decoder.decode(bytes, { stream: true }) : decoder.decode();
    for (const line of splitter.push(text)) onLine(line);
  };
  // Not `instanceof ReadableStream`: the first use of that global loads Deno's streams code (several
  // ms), which reading stdin directly never needs.
  if ("getReader" in source) {
    const reader = source.getReader();
    try {
      while (true) {
        const { value, done } = await reader.read();
        if (done) break;
        deliver(value);
      }
    } finally {
      reader.releaseLock();
    }
  } else {
    // The buffer is reused: decode() has copied the bytes into a string before the next read.
    const buffer = new Uint8Array(READ_SIZE);
    while (true) {
      const n = await source.read(buffer);
      if (n === null) break;
      deliver(buffer.subarray(0, n));
    }
  }
  deliver();
  for (const line of splitter.end()) onLine(line);
}
