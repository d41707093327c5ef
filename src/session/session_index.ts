/**
 * The session index: a sidecar file `<session>.jsonl.idx` next to a session file that holds what
 * resuming needs of the file's complete lines — each entry's line offset, length and number, its
 * kept values (type, id, parentId, timestamp, a message's role; see entry_stubs.ts) and the few
 * entries kept whole — so resuming a big session reads this instead of the session's bytes,
 * then reads only what was appended since. Message bodies stay in the session file and are read
 * by offset when used.
 *
 * The index is a cache and never required: it checks itself against the session file (the
 * covered size, the bytes at its start and end and at a few points between) and its own
 * checksum, and anything that does not match — a missing, stale, corrupt or foreign index — is
 * ignored and the session is scanned as before, which writes a fresh index. It is written
 * atomically (temp file + rename). The session file format is unchanged; pi 1.6.0 lists and
 * reads only `*.jsonl` files, so it never sees the index.
 *
 * Format: a JSON meta line (padded with spaces to a multiple of 8 bytes), binary columns (see
 * {@link SECTIONS}, little-endian, each padded to 8 bytes), then 8 bytes: an FNV-1a hash of
 * everything before them (taken over 32-bit words) and the magic `PIX2`.
 *
 * @module
 */
import type { FileEntry } from "./entries.ts";
import { type KeptValues, StubFile } from "./entry_stubs.ts";
import { FileSource, type LazyLoadedFile, scanSessionFileLazily } from "./lazy_session_file.ts";
/** The format version in the meta line; an index of another version is ignored. */
const INDEX_VERSION = 2;
/** Bytes compared at the start and end of the covered part, and at each sample point. */
const CHECK_BYTES = 64;
const SAMPLE_POINTS = 8;
/** By default an index is written once a read scanned at least this many bytes of complete lines. */
export const INDEX_MIN_SCAN_BYTES = 1 << 20;
/** `PIX2`, little-endian: the last 4 bytes of an index. */
const MAGIC = 0x32584950;
/** No string (a kept value that is absent), in the string lengths. */
const NONE = 0xffffffff;
/** parentId references: null, not kept; 0 or more is the entry with that id; below -2 a string. */
const PARENT_NULL = -1;
const PARENT_NONE = -2;
const PARENT_STRING = -3;

/**
 * The binary columns in file order, each `count` values per entry: line offset, byte length and
 * number; shape (-1: kept whole); type and role (numbers of `codes` in the meta line, -1 none);
 * parent (see PARENT_*); the UTF-16 lengths of each stub's id and timestamp (NONE when absent)
 * and then of the extra strings; the UTF-8 of all those strings; the entries kept whole as one
 * UTF-8 JSON array.
 */
const SECTIONS = [
  "offsets",
  "lengths",
  "lines",
  "shapes",
  "types",
  "roles",
  "parents",
  "stringLengths",
  "strings",
  "whole",
] as const;

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
  /** The shapes' signatures (entry_stubs.ts), by number. */
  shapes: string[];
  /** Types and roles, by number. */
  codes: string[];
  /** How many extra strings (parentIds naming no entry) follow the stubs' ids and timestamps. */
  extraStrings: number;
  /** Byte length of each section of {@link SECTIONS}, unpadded. */
  sections: number[];
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
 * FNV-1a over the 32-bit words of `bytes` (its length a multiple of 4). Unrolled by four: it runs
 * once per resume over about 1 MB, mostly before V8 has optimised it.
 */
function hashWords(bytes: Uint8Array): number {
  const words = new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.length >>> 2);
  const n = words.length;
  const end4 = n - (n & 3);
  let h = 0x811c9dc5;
  let i = 0;
  while (i < end4) {
    h = Math.imul(h ^ words[i], 0x01000193);
    h = Math.imul(h ^ words[i + 1], 0x01000193);
    h = Math.imul(h ^ words[i + 2], 0x01000193);
    h = Math.imul(h ^ words[i + 3], 0x01000193);
    i += 4;
  }
  for (; i < n; i++) h = Math.imul(h ^ words[i], 0x01000193);
  return h >>> 0;
}

const pad8 = (n: number) => (n + 7) & ~7;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** What a valid index gave: the covered part's entries and where the rest of the file starts. */
interface IndexedPart {
  meta: IndexMeta;
  entries: FileEntry[];
}

function validMeta(value: unknown, size: number): value is IndexMeta {
  if (!isObject(value)) return false;
  const m = value as unknown as IndexMeta;
  return m.piSessionIndex === INDEX_VERSION && Number.isSafeInteger(m.size) && m.size >= 0 &&
    m.size <= size && Number.isSafeInteger(m.lines) && m.lines >= 0 && Number.isSafeInteger(m.entries) &&
    m.entries >= 0 && typeof m.blank === "boolean" && Array.isArray(m.warnings) &&
    m.warnings.every((w) => typeof w === "string") && Array.isArray(m.check) &&
    Array.isArray(m.shapes) && m.shapes.every((x) => typeof x === "string") && Array.isArray(m.codes) &&
    m.codes.every((x) => typeof x === "string") && Number.isSafeInteger(m.extraStrings) &&
    m.extraStrings >= 0 && Array.isArray(m.sections) && m.sections.length === SECTIONS.length &&
    m.sections.every((x) => Number.isSafeInteger(x) && x >= 0);
}

/**
 * Reads the index of `path` when it is valid for the session file as it is now (open as `file`,
 * `size` bytes), making its entries with `stubs`; null when missing, "invalid" when present but
 * unusable (then `stubs` is left as it was).
 */
function readIndex(
  path: string,
  file: Deno.FsFile,
  size: number,
  stubs: StubFile,
): IndexedPart | null | "invalid" {
  const indexPath = sessionIndexPath(path);
  let bytes: Uint8Array;
  try {
    if (!Deno.statSync(indexPath).isFile) return "invalid";
  } catch {
    return null;
  }
  try {
    bytes = Deno.readFileSync(indexPath);
  } catch {
    return "invalid";
  }
  try {
    return decodeIndex(bytes, file, size, stubs) ?? "invalid";
  } catch {
    return "invalid";
  }
}

function decodeIndex(
  bytes: Uint8Array,
  file: Deno.FsFile,
  size: number,
  stubs: StubFile,
): IndexedPart | null {
  const total = bytes.length;
  if (total < 16 || total % 8 !== 0 || bytes.byteOffset % 8 !== 0) return null;
  const tail = new Uint32Array(bytes.buffer, bytes.byteOffset + total - 8, 2);
  if (tail[1] !== MAGIC || tail[0] !== hashWords(bytes.subarray(0, total - 8))) return null;
  const nl = bytes.indexOf(0x0a);
  if (nl < 0 || (nl + 1) % 8 !== 0) return null;
  const meta: unknown = JSON.parse(new TextDecoder().decode(bytes.subarray(0, nl)));
  if (!validMeta(meta, size)) return null;
  const n = meta.entries;
  const expected = [8 * n, 4 * n, 4 * n, 4 * n, 4 * n, 4 * n, 4 * n, 4 * (2 * n + meta.extraStrings)];
  for (let i = 0; i < expected.length; i++) if (meta.sections[i] !== expected[i]) return null;
  let at = nl + 1;
  const section = (i: number) => {
    const start = bytes.byteOffset + at;
    at += pad8(meta.sections[i]);
    return start;
  };
  const offsets = new Float64Array(bytes.buffer, section(0), n);
  const lengths = new Uint32Array(bytes.buffer, section(1), n);
  const lines = new Uint32Array(bytes.buffer, section(2), n);
  const shapeNumbers = new Int32Array(bytes.buffer, section(3), n);
  const types = new Int32Array(bytes.buffer, section(4), n);
  const roles = new Int32Array(bytes.buffer, section(5), n);
  const parents = new Int32Array(bytes.buffer, section(6), n);
  const stringLengths = new Uint32Array(bytes.buffer, section(7), 2 * n + meta.extraStrings);
  const stringsAt = at;
  at += pad8(meta.sections[8]);
  const wholeAt = at;
  at += pad8(meta.sections[9]);
  if (at !== total - 8) return null;
  const check = readCheck(file, meta.size);
  if (!check || check.join() !== meta.check.join()) return null;
  const decoder = new TextDecoder();
  const text = decoder.decode(bytes.subarray(stringsAt, stringsAt + meta.sections[8]));
  const whole: unknown = JSON.parse(decoder.decode(bytes.subarray(wholeAt, wholeAt + meta.sections[9])));
  if (!Array.isArray(whole)) return null;
  const shapes = meta.shapes.map((s) => stubs.shapeFromSignature(s));
  if (shapes.some((s) => s === null)) return null;
  const codes = meta.codes;
  // First the ids (a parent may name a later entry), then the entries.
  const ids: (string | undefined)[] = new Array(n);
  const timestamps: (string | undefined)[] = new Array(n);
  let pos = 0;
  let wholeCount = 0;
  const take = (k: number): string | undefined => {
    const length = stringLengths[k];
    if (length === NONE) return undefined;
    if (pos + length > text.length) throw new Error("strings overrun");
    const out = text.slice(pos, pos + length);
    pos += length;
    return out;
  };
  for (let i = 0; i < n; i++) {
    const offset = offsets[i];
    if (!Number.isSafeInteger(offset) || offset < 0 || offset + lengths[i] > meta.size) return null;
    if (lines[i] < 1 || lines[i] > meta.lines) return null;
    if (shapeNumbers[i] < 0) {
      const entry = whole[wholeCount++];
      if (!isObject(entry)) return null;
      if (typeof entry.id === "string") ids[i] = entry.id;
      if (stringLengths[2 * i] !== NONE || stringLengths[2 * i + 1] !== NONE) return null;
      continue;
    }
    ids[i] = take(2 * i);
    timestamps[i] = take(2 * i + 1);
    if (ids[i] === undefined) return null;
  }
  if (wholeCount !== whole.length) return null;
  const extra: string[] = [];
  for (let k = 0; k < meta.extraStrings; k++) {
    const s = take(2 * n + k);
    if (s === undefined) return null;
    extra.push(s);
  }
  if (pos !== text.length) return null;
  const entries: FileEntry[] = new Array(n);
  wholeCount = 0;
  for (let i = 0; i < n; i++) {
    const shapeNumber = shapeNumbers[i];
    if (shapeNumber < 0) {
      entries[i] = stubs.whole(whole[wholeCount++] as FileEntry, offsets[i], lengths[i], lines[i]);
      continue;
    }
    const shape = shapes[shapeNumber];
    if (!shape) return null;
    const p = parents[i];
    let parentId: string | null | undefined;
    if (p >= 0) {
      parentId = ids[p];
      if (parentId === undefined) return null;
    } else if (p === PARENT_NULL) parentId = null;
    else if (p <= PARENT_STRING) {
      parentId = extra[PARENT_STRING - p];
      if (parentId === undefined) return null;
    }
    const type = codes[types[i]];
    const role = roles[i] < 0 ? undefined : codes[roles[i]];
    if (
      type === undefined || (roles[i] >= 0 && role === undefined) || (shape.message && role === undefined)
    ) {
      return null;
    }
    entries[i] = stubs.stub(
      offsets[i],
      lengths[i],
      lines[i],
      shape,
      type,
      ids[i]!,
      parentId,
      timestamps[i],
      role,
    );
  }
  return { meta, entries };
}

/**
 * Writes the index of `path` for its first `meta.size` bytes: the first `meta.entries` entries
 * (made by `stubs`) and the covered warnings. Atomic; a failure (read-only folder) is ignored —
 * the index is only a cache.
 */
function writeIndex(
  path: string,
  file: Deno.FsFile,
  meta: Pick<IndexMeta, "size" | "lines" | "blank" | "entries" | "warnings">,
  entries: readonly FileEntry[],
  stubs: StubFile,
): boolean {
  const check = readCheck(file, meta.size);
  if (!check) return false;
  const n = meta.entries;
  const offsets = new Float64Array(n);
  const lengths = new Uint32Array(n);
  const lines = new Uint32Array(n);
  const shapeNumbers = new Int32Array(n);
  const types = new Int32Array(n);
  const roles = new Int32Array(n).fill(-1);
  const parents = new Int32Array(n).fill(PARENT_NONE);
  const lengthsOfStrings: number[] = new Array(2 * n);
  const codes: string[] = [];
  const codeNumbers = new Map<string, number>();
  const code = (s: string) => {
    let c = codeNumbers.get(s);
    if (c === undefined) {
      c = codes.length;
      codes.push(s);
      codeNumbers.set(s, c);
    }
    return c;
  };
  const shapeNumbersBySignature = new Map<string, number>();
  const shapeSignatures: string[] = [];
  const firstWithId = new Map<string, number>();
  const kept: (KeptValues | null)[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const shape = stubs.shapes[i];
    const values = shape ? stubs.keptValues(entries[i], i) : null;
    kept[i] = values;
    const id = values ? values.id : (entries[i] as unknown as Record<string, unknown>).id;
    if (typeof id === "string" && !firstWithId.has(id)) firstWithId.set(id, i);
  }
  const extra: string[] = [];
  const extraNumbers = new Map<string, number>();
  let strings = "";
  const whole: FileEntry[] = [];
  for (let i = 0; i < n; i++) {
    offsets[i] = stubs.offsets[i];
    lengths[i] = stubs.lengths[i];
    lines[i] = stubs.lines[i];
    const shape = stubs.shapes[i];
    const values = kept[i];
    if (!shape || !values) {
      shapeNumbers[i] = -1;
      types[i] = -1;
      lengthsOfStrings[2 * i] = NONE;
      lengthsOfStrings[2 * i + 1] = NONE;
      whole.push(entries[i]);
      continue;
    }
    let s = shapeNumbersBySignature.get(shape.signature);
    if (s === undefined) {
      s = shapeSignatures.length;
      shapeSignatures.push(shape.signature);
      shapeNumbersBySignature.set(shape.signature, s);
    }
    shapeNumbers[i] = s;
    types[i] = code(values.type);
    if (values.role !== undefined) roles[i] = code(values.role);
    const parentId = values.parentId;
    if (parentId === null) parents[i] = PARENT_NULL;
    else if (typeof parentId === "string") {
      const target = firstWithId.get(parentId);
      if (target !== undefined) parents[i] = target;
      else {
        let e = extraNumbers.get(parentId);
        if (e === undefined) {
          e = extra.length;
          extra.push(parentId);
          extraNumbers.set(parentId, e);
        }
        parents[i] = PARENT_STRING - e;
      }
    }
    strings += values.id;
    lengthsOfStrings[2 * i] = values.id.length;
    if (values.timestamp === undefined) lengthsOfStrings[2 * i + 1] = NONE;
    else {
      strings += values.timestamp;
      lengthsOfStrings[2 * i + 1] = values.timestamp.length;
    }
  }
  for (const e of extra) {
    strings += e;
    lengthsOfStrings.push(e.length);
  }
  const encoder = new TextEncoder();
  const sections: Uint8Array[] = [
    new Uint8Array(offsets.buffer),
    new Uint8Array(lengths.buffer),
    new Uint8Array(lines.buffer),
    new Uint8Array(shapeNumbers.buffer),
    new Uint8Array(types.buffer),
    new Uint8Array(roles.buffer),
    new Uint8Array(parents.buffer),
    new Uint8Array(Uint32Array.from(lengthsOfStrings).buffer),
    encoder.encode(strings),
    encoder.encode(JSON.stringify(whole)),
  ];
  const fullMeta: IndexMeta = {
    piSessionIndex: INDEX_VERSION,
    ...meta,
    check,
    shapes: shapeSignatures,
    codes,
    extraStrings: extra.length,
    sections: sections.map((b) => b.length),
  };
  let metaText = JSON.stringify(fullMeta);
  metaText += " ".repeat(pad8(encoder.encode(metaText).length + 1) - encoder.encode(metaText).length - 1);
  const metaBytes = encoder.encode(`${metaText}\n`);
  let total = metaBytes.length;
  for (const b of sections) total += pad8(b.length);
  const out = new Uint8Array(total + 8);
  out.set(metaBytes, 0);
  let at = metaBytes.length;
  for (const b of sections) {
    out.set(b, at);
    at += pad8(b.length);
  }
  const tail = new Uint32Array(out.buffer, total, 2);
  tail[0] = hashWords(out.subarray(0, total));
  tail[1] = MAGIC;
  const indexPath = sessionIndexPath(path);
  const tmp = `${indexPath}.${crypto.randomUUID().slice(0, 8)}.tmp`;
  let handle: Deno.FsFile | undefined;
  try {
    handle = Deno.openSync(tmp, { write: true, createNew: true });
    let written = 0;
    while (written < out.length) written += handle.writeSync(out.subarray(written));
    handle.close();
    handle = undefined;
    Deno.renameSync(tmp, indexPath);
    return true;
  } catch {
    try {
      handle?.close();
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

/** How the entries of an indexed read are made. */
export interface IndexedReadOptions {
  /** Stub every entry that can be, also those normally kept whole (tests; see entry_stubs.ts). */
  stubAll?: boolean;
}

/**
 * Reads `path` like readSessionFile (the same entries, warnings and torn-tail state once their
 * values are read), keeping only stubs of the entries (entry_stubs.ts), and using and refreshing
 * its index: entries of the covered part come from a valid index and only the bytes after it
 * are read; when at least `minScanBytes` of complete lines were read, a fresh index is written.
 */
export function readSessionFileIndexed(
  path: string,
  read: IndexedReadOptions = {},
  options: IndexOptions = {},
): LazyLoadedFile & { stats: IndexedReadStats } {
  const file = Deno.openSync(path, { read: true });
  try {
    const stat = file.statSync();
    const source = new FileSource(path, stat.ino);
    let stubs = new StubFile(path, source);
    const indexed = readIndex(path, file, stat.size, stubs);
    const part = typeof indexed === "object" ? indexed : null;
    // A rejected index may have made some stubs before it failed: start over.
    if (!part) stubs = new StubFile(path, source);
    const scan = scanSessionFileLazily(path, {}, {
      from: part?.meta.size ?? 0,
      linesBefore: part?.meta.lines ?? 0,
      source,
      stubs,
      stubAll: read.stubAll,
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
        stubs,
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
