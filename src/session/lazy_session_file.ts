/**
 * Lazy loading of a session file for resume: one pass over the bytes finds the lines; short lines
 * are parsed as usual and long ones become lazy objects (see lazy_json.ts) whose big strings and
 * arrays (message content, summaries, extension data) are read back from the file when used. So
 * resuming a 500 MB session keeps the tree's shape and the small fields, not the content.
 *
 * The outcome equals a full load's: same entries (same keys, order and values once read), same
 * skipped lines and warnings, same torn-tail state. The file is append-only; a deferred read
 * checks that the file is still the one scanned (same inode, long enough) and otherwise throws
 * an error naming the file and line rather than returning other bytes.
 *
 * @module
 */
import type { FileEntry } from "./entries.ts";
import { type DeferredSource, scanLazyLine } from "./lazy_json.ts";
import type { StubFile } from "./entry_stubs.ts";

/** Lines up to this many bytes are parsed in full at once by default (a lazy object would cost more). */
export const EAGER_LINE_BYTES = 2048;
const CHUNK_SIZE = 1 << 20;
const NEWLINE = 0x0a;

/** What a lazy read learnt; the same fields as session_file.ts's LoadedSessionFile. */
export interface LazyLoadedFile {
  entries: FileEntry[];
  warnings: string[];
  endsWithNewline: boolean;
  blank: boolean;
}

/**
 * Where the complete lines of a lazy read end, so a session index (session_index.ts) can
 * cover them: a torn or unterminated last line is never covered, it is read again next time.
 */
export interface LazyScanExtent {
  /** Offset just past the last `\n` read (or where the read started, when there was none). */
  coveredBytes: number;
  /** Line number of the last complete line (counting lines before the start). */
  lines: number;
  /** How many of the entries, warnings come from complete lines (all but a last unterminated one). */
  coveredEntries: number;
  coveredWarnings: number;
  /** True when the complete lines held no non-blank line. */
  coveredBlank: boolean;
  /** The line number of each entry. */
  entryLines: number[];
}

/** Reads deferred values from a file, refusing when it was replaced or cut since the scan. */
export class FileSource implements DeferredSource {
  readonly #path: string;
  readonly #ino: number | null;
  readonly #decoder = new TextDecoder();
  #file: Deno.FsFile | undefined;
  /** The size of the open file when last asked. */
  #size = 0;

  constructor(path: string, ino: number | null) {
    this.#path = path;
    this.#ino = ino;
  }

  load(offset: number, length: number, line: number): unknown {
    const changed = () =>
      new Error(
        `Session file ${this.#path} changed on disk since it was loaded (line ${line} is no longer where it was); reopen the session.`,
      );
    const file = this.#open(line);
    // The file only grows: a size seen once need not be asked again for bytes below it.
    if (this.#size < offset + length) {
      this.#size = file.statSync().size;
      if (this.#size < offset + length) throw changed();
    }
    file.seekSync(offset, Deno.SeekMode.Start);
    const buf = new Uint8Array(length);
    let at = 0;
    while (at < length) {
      const n = file.readSync(buf.subarray(at));
      if (n === null || n === 0) throw changed();
      at += n;
    }
    try {
      return JSON.parse(this.#decoder.decode(buf));
    } catch (error) {
      throw new Error(`${this.#path}:${line}: malformed JSON: ${(error as Error).message}`);
    }
  }

  /**
   * The open file, checked to be the one scanned. It stays open while reads come in a burst (a
   * context being built reads hundreds of values) and is closed right after, so a session left
   * alone holds no descriptor.
   */
  #open(line: number): Deno.FsFile {
    if (this.#file) return this.#file;
    let file: Deno.FsFile;
    try {
      file = Deno.openSync(this.#path, { read: true });
    } catch (error) {
      throw new Error(`Cannot read ${this.#path} (line ${line}): ${(error as Error).message}`);
    }
    if (this.#ino !== null && file.statSync().ino !== this.#ino) {
      file.close();
      throw new Error(
        `Session file ${this.#path} was replaced since it was loaded (line ${line} cannot be read); reopen the session.`,
      );
    }
    this.#file = file;
    this.#size = 0;
    // Closed once the current synchronous work is done (a context build reads all it needs in
    // one go); a microtask, not a timer, so no timer machinery is loaded for it.
    queueMicrotask(() => {
      this.#file = undefined;
      file.close();
    });
    return file;
  }
}

/** A buffer twice as long holding `buf`'s bytes (a line longer than the read buffer). */
export function doubled(buf: Uint8Array): Uint8Array<ArrayBuffer> {
  const bigger = new Uint8Array(buf.length * 2);
  bigger.set(buf);
  return bigger;
}

function isBlank(b: Uint8Array): boolean {
  for (let i = 0; i < b.length; i++) {
    const c = b[i];
    if (c !== 0x20 && c !== 0x09 && c !== 0x0d && c !== 0x0a && c !== 0x0b && c !== 0x0c) return false;
  }
  return true;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Thresholds of a lazy read; tests set both to 0 so every line and value takes the lazy path. */
export interface LazyReadOptions {
  /** Lines up to this many bytes are parsed in full (default {@link EAGER_LINE_BYTES}). */
  eagerLineBytes?: number;
  /** Values up to this many bytes inside a lazy line are parsed at once (default 1024). */
  inlineValueBytes?: number;
}

/** Where a lazy read starts: after the part of the file a session index already covers. */
export interface LazyScanStart {
  /** Byte offset of the first line to read (just after a `\n`). */
  from: number;
  /** Number of lines before `from`. */
  linesBefore: number;
  /** Reads deferred values (shared with the entries the index gave). */
  source: DeferredSource;
  /**
   * When given, every line is parsed in full and what the session keeps of it is made by
   * `stubs` (see entry_stubs.ts): the reads behind the session index.
   */
  stubs?: StubFile;
  /** With `stubs`: stub every entry that can be, also those normally kept whole (tests). */
  stubAll?: boolean;
}

/**
 * Reads `path` lazily. Same results as a full read (readSessionFile), including the warning
 * texts; `blank` is judged like `line.trim()` there (any whitespace-only line is blank).
 */
export function readSessionFileLazily(path: string, options: LazyReadOptions = {}): LazyLoadedFile {
  const { extent: _, ...loaded } = scanSessionFileLazily(path, options);
  return loaded;
}

/**
 * {@link readSessionFileLazily} from `start` on (default: the whole file), also telling where
 * its complete lines end and on which line each entry is.
 */
export function scanSessionFileLazily(
  path: string,
  options: LazyReadOptions = {},
  start?: LazyScanStart,
): LazyLoadedFile & { extent: LazyScanExtent } {
  const eagerLineBytes = options.eagerLineBytes ?? EAGER_LINE_BYTES;
  const inlineBytes = options.inlineValueBytes;
  const file = Deno.openSync(path, { read: true });
  const entries: FileEntry[] = [];
  const warnings: string[] = [];
  const decoder = new TextDecoder();
  const entryLines: number[] = [];
  let blank = true;
  let lastByte = NEWLINE;
  const extent: LazyScanExtent = {
    coveredBytes: start?.from ?? 0,
    lines: start?.linesBefore ?? 0,
    coveredEntries: 0,
    coveredWarnings: 0,
    coveredBlank: true,
    entryLines,
  };
  try {
    const source = start?.source ?? new FileSource(path, file.statSync().ino);
    const stubs = start?.stubs;
    let buf = new Uint8Array(CHUNK_SIZE);
    let filled = 0;
    /** File offset of buf[0]. */
    let base = start?.from ?? 0;
    if (base > 0) file.seekSync(base, Deno.SeekMode.Start);
    let lineNumber = start?.linesBefore ?? 0;
    const takeLine = (bytes: Uint8Array, offset: number, terminated: boolean) => {
      lineNumber++;
      takeLineInner(bytes, offset, terminated);
      if (terminated) {
        extent.coveredBytes = offset + bytes.length + 1;
        extent.lines = lineNumber;
        extent.coveredEntries = entries.length;
        extent.coveredWarnings = warnings.length;
        extent.coveredBlank = blank;
      }
    };
    const takeLineInner = (bytes: Uint8Array, offset: number, terminated: boolean) => {
      if (bytes.length === 0 || (bytes.length < 64 && isBlank(bytes))) return;
      let value: unknown = null;
      if (bytes.length > eagerLineBytes && !stubs) {
        value = scanLazyLine(bytes, {
          offset,
          line: lineNumber,
          source,
          inlineBytes,
        });
      }
      if (value === null) {
        const text = decoder.decode(bytes);
        if (!text.trim()) return;
        try {
          value = JSON.parse(text);
        } catch {
          blank = false;
          warnings.push(
            terminated
              ? `${path}:${lineNumber}: skipped malformed line`
              : `${path}:${lineNumber}: ignored incomplete last line (${text.length} chars, interrupted write?)`,
          );
          return;
        }
      }
      blank = false;
      if (!isObject(value)) {
        warnings.push(`${path}:${lineNumber}: skipped line that is not a JSON object`);
        return;
      }
      entries.push(
        stubs
          ? stubs.take(value, offset, bytes.length, lineNumber, !start?.stubAll)
          : value as unknown as FileEntry,
      );
      entryLines.push(lineNumber);
    };
    for (;;) {
      // One line fills the buffer: grow it (the longest line bounds the memory).
      if (filled === buf.length) buf = doubled(buf);
      const n = file.readSync(buf.subarray(filled));
      if (n === null || n === 0) break;
      lastByte = buf[filled + n - 1];
      const end = filled + n;
      let start = 0;
      let searchFrom = filled;
      for (;;) {
        const nl = buf.indexOf(NEWLINE, searchFrom);
        if (nl < 0 || nl >= end) break;
        takeLine(buf.subarray(start, nl), base + start, true);
        start = nl + 1;
        searchFrom = start;
      }
      // Keep the unfinished line at the front of the buffer.
      buf.copyWithin(0, start, end);
      filled = end - start;
      base += start;
    }
    if (filled > 0) takeLine(buf.subarray(0, filled), base, false);
  } finally {
    file.close();
  }
  return { entries, warnings, endsWithNewline: lastByte === NEWLINE, blank, extent };
}
