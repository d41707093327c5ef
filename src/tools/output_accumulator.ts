/**
 * Bounded collection of streamed command output: the tail the model sees, the counts its
 * truncation notice needs, and the full bytes in a temp file once the output grows too large.
 *
 * @module
 */
import {
  DEFAULT_MAX_BYTES,
  DEFAULT_MAX_LINES,
  truncateTail,
  type TruncationResult,
  utf8ByteLength,
} from "./truncate.ts";
import { randomHex } from "../util/bytes.ts";
import { writeAllSync } from "../util/fs.ts";
import { tmpDir } from "../util/os.ts";
import { join } from "../util/path.ts";

/** A view of accumulated output: the tail to show plus how it was truncated. */
export interface OutputSnapshot {
  /** The tail shown to the model. */
  content: string;
  /** How the whole output was cut. */
  truncation: TruncationResult;
  /** File with the whole output, once it outgrew the limits. */
  fullOutputPath?: string;
}

/**
 * Collects streamed command output in bounded memory: decodes UTF-8 incrementally, keeps only a
 * rolling tail (about 4× the byte budget) for display, and once any limit is exceeded writes all
 * raw bytes — earlier chunks included — to `<tmpdir>/<prefix>-<16 hex>.log`.
 */
export class OutputAccumulator {
  readonly #maxLines: number;
  readonly #maxBytes: number;
  readonly #maxRollingBytes: number;
  readonly #prefix: string;
  #decoder = new TextDecoder();
  #rawChunks: Uint8Array[] = [];
  #tailText = "";
  #tailBytes = 0;
  #tailStartsAtLineBoundary = true;
  #totalRawBytes = 0;
  #totalDecodedBytes = 0;
  #completedLines = 0;
  #hasOpenLine = false;
  #totalLines = 0;
  #currentLineBytes = 0;
  #finished = false;
  #tempFilePath: string | undefined;
  #tempFile: Deno.FsFile | undefined;

  /** Limits default to the tools' `DEFAULT_MAX_LINES` and `DEFAULT_MAX_BYTES`. */
  constructor(options: { maxLines?: number; maxBytes?: number; tempFilePrefix?: string } = {}) {
    this.#maxLines = options.maxLines ?? DEFAULT_MAX_LINES;
    this.#maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
    this.#maxRollingBytes = Math.max(this.#maxBytes * 2, 1);
    this.#prefix = options.tempFilePrefix ?? "pi-output";
  }

  /** Adds a raw chunk of output. */
  append(data: Uint8Array): void {
    if (this.#finished) throw new Error("Cannot append to a finished output accumulator");
    this.#totalRawBytes += data.length;
    this.#appendDecoded(this.#decoder.decode(data, { stream: true }));
    if (this.#tempFile || this.#shouldUseTempFile()) {
      this.#ensureTempFile();
      this.#writeRaw(data);
    } else if (data.length > 0) {
      // Copy: callers may reuse their buffers.
      this.#rawChunks.push(data.slice());
    }
  }

  /** Flushes the decoder; no more data may follow. */
  finish(): void {
    if (this.#finished) return;
    this.#finished = true;
    this.#appendDecoded(this.#decoder.decode());
    if (this.#shouldUseTempFile()) this.#ensureTempFile();
  }

  /** The tail-truncated view of everything so far. */
  snapshot(options: { persistIfTruncated?: boolean } = {}): OutputSnapshot {
    const tail = truncateTail(this.#snapshotText() || this.#tailText, {
      maxLines: this.#maxLines,
      maxBytes: this.#maxBytes,
    });
    const truncated = this.#totalLines > this.#maxLines || this.#totalDecodedBytes > this.#maxBytes;
    const truncatedBy = truncated
      ? (tail.truncatedBy ?? (this.#totalDecodedBytes > this.#maxBytes ? "bytes" : "lines"))
      : null;
    const truncation: TruncationResult = {
      ...tail,
      truncated,
      truncatedBy,
      totalLines: this.#totalLines,
      totalBytes: this.#totalDecodedBytes,
      maxLines: this.#maxLines,
      maxBytes: this.#maxBytes,
    };
    if (options.persistIfTruncated && truncated) this.#ensureTempFile();
    return { content: truncation.content, truncation, fullOutputPath: this.#tempFilePath };
  }

  /** Closes the full-output file (if any) so its contents are complete on disk. */
  closeTempFile(): Promise<void> {
    const file = this.#tempFile;
    this.#tempFile = undefined;
    file?.close();
    return Promise.resolve();
  }

  /**
   * Everything written so far, for programmatic callers: whole when it fits in `maxBytes`,
   * else its head and tail around a `[... N bytes omitted ...]` marker. Call after
   * {@link closeTempFile}.
   */
  async readFullOutput(maxBytes: number): Promise<{ content: string; truncated: boolean }> {
    if (!this.#tempFilePath) {
      const all = new Uint8Array(this.#rawChunks.reduce((n, c) => n + c.length, 0));
      let offset = 0;
      for (const chunk of this.#rawChunks) {
        all.set(chunk, offset);
        offset += chunk.length;
      }
      return { content: new TextDecoder().decode(all), truncated: false };
    }
    const file = await Deno.open(this.#tempFilePath, { read: true });
    try {
      const size = (await file.stat()).size;
      if (size <= maxBytes) {
        return { content: new TextDecoder().decode(await readAt(file, 0, size)), truncated: false };
      }
      const headBytes = Math.floor(maxBytes / 2);
      const tailBytes = maxBytes - headBytes;
      const head = await readAt(file, 0, headBytes);
      const tail = await readAt(file, size - tailBytes, tailBytes);
      let tailStart = 0;
      while (tailStart < tail.length && (tail[tailStart] & 0xc0) === 0x80) tailStart++;
      const omitted = size - headBytes - tailBytes;
      return {
        content: `${
          new TextDecoder().decode(head, { stream: true })
        }\n\n[... ${omitted} bytes omitted ...]\n\n${new TextDecoder().decode(tail.subarray(tailStart))}`,
        truncated: true,
      };
    } finally {
      file.close();
    }
  }

  /** UTF-8 size of the last (possibly unterminated) line, for the partial-line notice. */
  getLastLineBytes(): number {
    return this.#currentLineBytes;
  }

  #writeRaw(data: Uint8Array): void {
    writeAllSync(this.#tempFile!, data);
  }

  #appendDecoded(text: string): void {
    if (text.length === 0) return;
    const bytes = utf8ByteLength(text);
    this.#totalDecodedBytes += bytes;
    this.#tailText += text;
    this.#tailBytes += bytes;
    if (this.#tailBytes > this.#maxRollingBytes * 2) this.#trimTail();
    let newlines = 0;
    let lastNewline = -1;
    for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) {
      newlines++;
      lastNewline = i;
    }
    if (newlines === 0) {
      this.#currentLineBytes += bytes;
      this.#hasOpenLine = true;
    } else {
      this.#completedLines += newlines;
      const tail = text.slice(lastNewline + 1);
      this.#currentLineBytes = utf8ByteLength(tail);
      this.#hasOpenLine = tail.length > 0;
    }
    // A trailing newline ends the last line; it does not start an empty one.
    this.#totalLines = this.#completedLines + (this.#hasOpenLine ? 1 : 0);
  }

  #trimTail(): void {
    const buffer = new TextEncoder().encode(this.#tailText);
    if (buffer.length <= this.#maxRollingBytes) {
      this.#tailBytes = buffer.length;
      return;
    }
    let start = buffer.length - this.#maxRollingBytes;
    while (start < buffer.length && (buffer[start] & 0xc0) === 0x80) start++;
    this.#tailStartsAtLineBoundary = start === 0
      ? this.#tailStartsAtLineBoundary
      : buffer[start - 1] === 0x0a;
    this.#tailText = new TextDecoder().decode(buffer.subarray(start));
    this.#tailBytes = utf8ByteLength(this.#tailText);
  }

  #snapshotText(): string {
    if (this.#tailStartsAtLineBoundary) return this.#tailText;
    const firstNewline = this.#tailText.indexOf("\n");
    return firstNewline === -1 ? this.#tailText : this.#tailText.slice(firstNewline + 1);
  }

  #shouldUseTempFile(): boolean {
    return this.#totalRawBytes > this.#maxBytes || this.#totalDecodedBytes > this.#maxBytes ||
      this.#totalLines > this.#maxLines;
  }

  #ensureTempFile(): void {
    if (this.#tempFilePath) return;
    this.#tempFilePath = join(tmpDir(), `${this.#prefix}-${randomHex(8)}.log`);
    this.#tempFile = Deno.openSync(this.#tempFilePath, { write: true, createNew: true, mode: 0o600 });
    for (const chunk of this.#rawChunks) this.#writeRaw(chunk);
    this.#rawChunks = [];
  }
}

/** Reads `length` bytes at `position` (fewer only at the end of the file). */
async function readAt(file: Deno.FsFile, position: number, length: number): Promise<Uint8Array> {
  await file.seek(position, Deno.SeekMode.Start);
  const buf = new Uint8Array(length);
  let filled = 0;
  while (filled < length) {
    const n = await file.read(buf.subarray(filled));
    if (n === null) break;
    filled += n;
  }
  return buf.subarray(0, filled);
}
