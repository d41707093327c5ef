/**
 * The session index: a sidecar file `<session>.jsonl.idx` next to a session file that holds what
 * a lazy read (lazy_session_file.ts) learnt about the file's complete lines — each entry's small
 * fields and the offsets of its big values — so resuming a big session reads this instead of
 * scanning the session's bytes, then scans only what was appended since.
 *
 * The index is a cache and never required: it checks itself against the session file (the
 * covered size, the bytes at its start and end and at a few points between) and its own
 * checksum, and anything that does not match — a missing, stale, corrupt or foreign index — is
 * ignored and the session is scanned as before, which writes a fresh index. It is written
 * atomically (temp file + rename). The session file format is unchanged; pi 1.6.0 lists and
 * reads only `*.jsonl` files, so it never sees the index.
 *
 * Format (JSONL): a meta line, one line per entry (`[line, 0, json]` for a plain entry, or
 * `[line, 2, pairs]` for a lazy one, see lazy_json.ts's describeLazy), and a last line
 * `{"end":<entries>,"hash":<FNV-1a of every line before it>}`.
 *
 * @module
 */
import type { FileEntry } from "./entries.ts";
import { buildLazy, describeLazy, type LazyPairs } from "./lazy_json.ts";
import {
  doubled,
  FileSource,
  type LazyLoadedFile,
  type LazyReadOptions,
  scanSessionFileLazily,
} from "./lazy_session_file.ts";

/** The format version in the meta line; an index of another version is ignored. */
const INDEX_VERSION = 1;
/** Bytes compared at the start and end of the covered part, and at each sample point. */
const CHECK_BYTES = 64;
const SAMPLE_POINTS = 8;
/** By default an index is written once a read scanned at least this many bytes of complete lines. */
export const INDEX_MIN_SCAN_BYTES = 1 << 20;
const WRITE_CHUNK = 1 << 20;
const READ_CHUNK = 1 << 20;

/** The sidecar path of a session file. */
export function sessionIndexPath(sessionFile: string): string {
  return `${sessionFile}.idx`;
}

/** How a read used the index. */
export interface IndexedReadStats {
  /** "used": entries came from a valid index; "none": no index; "invalid": one was ignored. */
  index: "used" | "none" | "invalid";
  /** Bytes of the session file that were scanned (only the appended part when the index was used). */
  scannedBytes: number;
  /** True when a fresh index was written. */
  wrote: boolean;
}

/** When to read and write the index. */
export interface IndexOptions {
  /** Scanned bytes of complete lines from which an index is written (default {@link INDEX_MIN_SCAN_BYTES}). */
  minScanBytes?: number;
}

interface IndexMeta {
  piSessionIndex: number;
  size: number;
  lines: number;
  blank: boolean;
  entries: number;
  /** Warnings of the covered lines without the leading file path. */
  warnings: string[];
  /** Hex of the bytes checked: start, end, then each sample point. */
  check: string[];
}

function hex(bytes: Uint8Array): string {
  let out = "";
  for (const b of bytes) out += b.toString(16).padStart(2, "0");
  return out;
}

/** Offsets and lengths of the checked ranges of a file's first `size` bytes. */
function checkRanges(size: number): [number, number][] {
  const n = Math.min(CHECK_BYTES, size);
  const ranges: [number, number][] = [[0, n], [size - n, n]];
  if (size > 4 * CHECK_BYTES) {
    for (let k = 1; k <= SAMPLE_POINTS; k++) {
      ranges.push([Math.floor((size - CHECK_BYTES) * k / (SAMPLE_POINTS + 1)), CHECK_BYTES]);
    }
  }
  return ranges;
}

/** The hex of the checked ranges of `file`'s first `size` bytes, or null when it is shorter. */
function readCheck(file: Deno.FsFile, size: number): string[] | null {
  const out: string[] = [];
  for (const [offset, length] of checkRanges(size)) {
    const buf = new Uint8Array(length);
    file.seekSync(offset, Deno.SeekMode.Start);
    let at = 0;
    while (at < length) {
      const n = file.readSync(buf.subarray(at));
      if (n === null || n === 0) return null;
      at += n;
    }
    out.push(hex(buf));
  }
  return out;
}

/**
 * Calls `onLine` with each line of a small-lined text file, decoding a chunk at a time (not a
 * line at a time). False when `onLine` returned false or the last line has no `\n`.
 */
function readTextLines(path: string, onLine: (line: string) => boolean): boolean {
  const file = Deno.openSync(path, { read: true });
  const decoder = new TextDecoder();
  try {
    let buf = new Uint8Array(READ_CHUNK);
    let filled = 0;
    for (;;) {
      if (filled === buf.length) buf = doubled(buf);
      const n = file.readSync(buf.subarray(filled));
      if (n === null || n === 0) return filled === 0;
      const end = filled + n;
      const last = buf.lastIndexOf(0x0a, end - 1);
      if (last < filled) {
        filled = end;
        continue;
      }
      const text = decoder.decode(buf.subarray(0, last));
      let start = 0;
      for (;;) {
        const nl = text.indexOf("\n", start);
        if (!onLine(text.slice(start, nl < 0 ? text.length : nl))) return false;
        if (nl < 0) break;
        start = nl + 1;
      }
      buf.copyWithin(0, last + 1, end);
      filled = end - last - 1;
    }
  } finally {
    file.close();
  }
}

/** FNV-1a over the UTF-16 units of each line, with a separator after each. */
class LineHash {
  #h = 0x811c9dc5;
  add(line: string): void {
    let h = this.#h;
    for (let i = 0; i < line.length; i++) h = Math.imul(h ^ line.charCodeAt(i), 0x01000193);
    this.#h = Math.imul(h ^ 0x0a, 0x01000193);
  }
  get value(): number {
    return this.#h >>> 0;
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** What a valid index gave: the covered part's entries and where the rest of the file starts. */
interface IndexedPart {
  meta: IndexMeta;
  entries: FileEntry[];
  entryLines: number[];
}

/**
 * Reads the index of `path` when it is valid for the session file as it is now (open as `file`,
 * `size` bytes); null when missing, "invalid" when present but unusable.
 */
function readIndex(
  path: string,
  file: Deno.FsFile,
  size: number,
  source: FileSource,
): IndexedPart | null | "invalid" {
  const indexPath = sessionIndexPath(path);
  try {
    if (!Deno.statSync(indexPath).isFile) return "invalid";
  } catch {
    return null;
  }
  let meta: IndexMeta | undefined;
  let end: { end: number; hash: number } | undefined;
  const entries: FileEntry[] = [];
  const entryLines: number[] = [];
  const hash = new LineHash();
  let bad = false;
  let lineNumber = 0;
  const onLine = (line: string): boolean => {
    lineNumber++;
    if (end) return false;
    const value = JSON.parse(line);
    if (lineNumber === 1) {
      meta = value as IndexMeta;
      if (
        !isObject(value) || meta.piSessionIndex !== INDEX_VERSION || !Number.isSafeInteger(meta.size) ||
        meta.size > size || !Number.isSafeInteger(meta.lines) || !Array.isArray(meta.warnings) ||
        !Array.isArray(meta.check) || typeof meta.blank !== "boolean"
      ) return false;
      const check = readCheck(file, meta.size);
      if (!check || check.join() !== meta.check.join()) return false;
    } else if (isObject(value)) {
      end = value as { end: number; hash: number };
      return true;
    } else {
      const [at, kind, body] = value as [number, number, unknown];
      if (!Number.isSafeInteger(at) || at < 1 || at > meta!.lines) return false;
      let entry: unknown;
      if (kind === 0 && isObject(body)) entry = body;
      else if (kind === 2) entry = buildLazy(body as LazyPairs, source, at);
      else return false;
      entries.push(entry as FileEntry);
      entryLines.push(at);
    }
    hash.add(line);
    return true;
  };
  try {
    bad = !readTextLines(indexPath, onLine);
  } catch {
    return "invalid";
  }
  if (bad || !meta || !end || end.end !== entries.length || end.hash !== hash.value) return "invalid";
  if (meta.entries !== entries.length || !meta.warnings.every((w) => typeof w === "string")) return "invalid";
  return { meta, entries, entryLines };
}

/**
 * Writes the index of `path` for its first `extent.coveredBytes` bytes: the first `count`
 * entries (on `entryLines`) and `warnings`. Atomic; a failure (read-only folder) is ignored —
 * the index is only a cache.
 */
function writeIndex(
  path: string,
  file: Deno.FsFile,
  meta: Omit<IndexMeta, "piSessionIndex" | "check">,
  entries: readonly FileEntry[],
  entryLines: readonly number[],
): boolean {
  const check = readCheck(file, meta.size);
  if (!check) return false;
  const indexPath = sessionIndexPath(path);
  const tmp = `${indexPath}.${crypto.randomUUID().slice(0, 8)}.tmp`;
  const encoder = new TextEncoder();
  let out: Deno.FsFile | undefined;
  try {
    out = Deno.openSync(tmp, { write: true, createNew: true });
    const hash = new LineHash();
    let buf = "";
    const flush = () => {
      const bytes = encoder.encode(buf);
      let at = 0;
      while (at < bytes.length) at += out!.writeSync(bytes.subarray(at));
      buf = "";
    };
    const line = (text: string) => {
      hash.add(text);
      buf += `${text}\n`;
      if (buf.length >= WRITE_CHUNK) flush();
    };
    line(JSON.stringify({ piSessionIndex: INDEX_VERSION, ...meta, check }));
    for (let i = 0; i < meta.entries; i++) {
      const entry = entries[i] as unknown as Record<string, unknown>;
      const pairs = describeLazy(entry);
      line(JSON.stringify(pairs ? [entryLines[i], 2, pairs] : [entryLines[i], 0, entry]));
    }
    buf += `${JSON.stringify({ end: meta.entries, hash: hash.value })}\n`;
    flush();
    out.close();
    out = undefined;
    Deno.renameSync(tmp, indexPath);
    return true;
  } catch {
    try {
      out?.close();
    } catch {
      // Already closed.
    }
    try {
      Deno.removeSync(tmp);
    } catch {
      // Never created.
    }
    return false;
  }
}

/** Removes the index of `path` (after the session file was rewritten); a missing one is fine. */
export function removeSessionIndex(path: string): void {
  try {
    Deno.removeSync(sessionIndexPath(path));
  } catch {
    // No index, or not ours to remove: a stale index is ignored on read anyway.
  }
}

/**
 * Reads `path` lazily like readSessionFileLazily, using and refreshing its index: entries of the
 * covered part come from a valid index and only the bytes after it are scanned; when the scan
 * covered at least `minScanBytes` of complete lines, a fresh index is written.
 */
export function readSessionFileIndexed(
  path: string,
  lazy: LazyReadOptions = {},
  options: IndexOptions = {},
): LazyLoadedFile & { stats: IndexedReadStats } {
  const file = Deno.openSync(path, { read: true });
  try {
    const stat = file.statSync();
    const source = new FileSource(path, stat.ino);
    const indexed = readIndex(path, file, stat.size, source);
    const part = typeof indexed === "object" ? indexed : null;
    const scan = scanSessionFileLazily(path, lazy, {
      from: part?.meta.size ?? 0,
      linesBefore: part?.meta.lines ?? 0,
      source,
    });
    const entries = part ? part.entries.concat(scan.entries) : scan.entries;
    const warnings = part
      ? part.meta.warnings.map((w) => `${path}${w}`).concat(scan.warnings)
      : scan.warnings;
    const blank = (part?.meta.blank ?? true) && scan.blank;
    const scannedBytes = scan.extent.coveredBytes - (part?.meta.size ?? 0);
    let wrote = false;
    if (scannedBytes >= (options.minScanBytes ?? INDEX_MIN_SCAN_BYTES) && scan.extent.lines > 0) {
      const coveredEntries = (part?.entries.length ?? 0) + scan.extent.coveredEntries;
      const coveredWarnings = (part?.meta.warnings.length ?? 0) + scan.extent.coveredWarnings;
      wrote = writeIndex(
        path,
        file,
        {
          size: scan.extent.coveredBytes,
          lines: scan.extent.lines,
          blank: (part?.meta.blank ?? true) && scan.extent.coveredBlank,
          entries: coveredEntries,
          warnings: warnings.slice(0, coveredWarnings).map((w) => w.slice(path.length)),
        },
        entries,
        part ? part.entryLines.concat(scan.extent.entryLines) : scan.extent.entryLines,
      );
    }
    return {
      entries,
      warnings,
      endsWithNewline: scan.endsWithNewline,
      blank,
      stats: {
        index: part ? "used" : indexed === null ? "none" : "invalid",
        scannedBytes: stat.size - (part?.meta.size ?? 0),
        wrote,
      },
    };
  } finally {
    file.close();
  }
}
