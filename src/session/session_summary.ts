/**
 * What a session listing shows of one file (header, first user message, name, message count,
 * last activity), found without parsing the bulk of the file: each line is classified by its
 * first bytes, tool results and other lines a listing ignores are skipped unread (their bytes
 * are not kept or decoded), and only the header, `session_info` lines and user/assistant
 * messages are parsed (big ones by the lazy scanner, which leaves their content on disk).
 *
 * A summary can be resumed: `scanned` is the offset after the last complete line, so a file
 * that grew (sessions are append-only) is summarised by reading only the new bytes.
 *
 * @module
 */
import { scanLazyLine } from "./lazy_json.ts";
import { FileSource } from "./lazy_session_file.ts";
import {
  COUNT,
  isEntryKey,
  type QuickLine,
  quickLine,
  SLOW,
  TIMED,
  TYPE_KEY_LOOKAHEAD,
} from "./listing_line.ts";
import { LineBuffer } from "./newline_scan.ts";

type Loose = Record<string, unknown>;

/** The listing facts of one file, resumable from `scanned`. */
export interface SessionSummary {
  /** Bytes summarised: the offset just after the last complete line. */
  scanned: number;
  /** The header, once the first non-blank line was read; null when that line is no session header. */
  header?: Loose | null;
  messageCount: number;
  /** Text of the first user message with text, "" until one is found. */
  firstMessage: string;
  /** From the latest `session_info` line (undefined when cleared or never set). */
  name?: string;
  /** Newest user/assistant message time (ms). */
  lastActivity?: number;
}

/** Bytes of a line's start that are enough to classify it. */
const HEAD_BYTES = 320;
/** Lines up to this size are parsed whole; longer ones by the lazy scanner. */
const PARSE_WHOLE_BYTES = 64 * 1024;
const CLOSE_OBJECT = 0x7d;
const NEWLINE = 0x0a;

const TYPE_RE = /^\s*\{\s*"type"\s*:\s*"([^"\\]*)"/;
const ROLE_RE = /"message"\s*:\s*\{\s*"role"\s*:\s*"([^"\\]*)"/;
/** Types whose lines carry nothing a listing shows. */
const IGNORED_TYPES = new Set([
  "model_change",
  "thinking_level_change",
  "compaction",
  "branch_summary",
  "custom",
  "custom_message",
  "label",
  "usage",
  "context_edit",
]);

/** How a line is handled, judged from its first bytes. */
type Kind = "ignore" | "count" | "parse";

const latin = new TextDecoder("latin1");
const utf8 = new TextDecoder();

function classify(head: Uint8Array, haveHeader: boolean): Kind {
  if (!haveHeader) return "parse";
  // Only ASCII matters for the patterns; latin1 never fails on a cut multi-byte character.
  const text = latin.decode(head);
  const type = TYPE_RE.exec(text)?.[1];
  if (type === undefined) return "parse";
  if (IGNORED_TYPES.has(type)) return "ignore";
  if (type !== "message") return type === "session_info" ? "parse" : "ignore";
  const role = ROLE_RE.exec(text)?.[1];
  if (role === undefined) return "parse";
  return role === "user" || role === "assistant" ? "parse" : "count";
}

/** Joins the text blocks of a message (images and other blocks are skipped). */
export function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  const parts: string[] = [];
  for (const b of content) {
    if (b && typeof b === "object" && (b as Loose).type === "text") parts.push(String((b as Loose).text));
  }
  return parts.join(" ");
}

function lastNonSpace(b: Uint8Array): number {
  for (let i = b.length - 1; i >= 0; i--) {
    const c = b[i];
    if (c !== 0x20 && c !== 0x09 && c !== 0x0d) return c;
  }
  return -1;
}

/** Applies one parsed entry to the summary (the rules of a full listing read). */
function applyEntry(s: SessionSummary, entry: Loose): void {
  if (s.header === undefined) {
    s.header = entry.type === "session" ? entry : null;
    return;
  }
  if (entry.type === "session_info") {
    const n = typeof entry.name === "string" ? entry.name.trim() : "";
    s.name = n || undefined;
  }
  if (entry.type !== "message") return;
  s.messageCount++;
  const message = entry.message as Loose | undefined;
  if (!message || typeof message.role !== "string" || !("content" in message)) return;
  if (message.role !== "user" && message.role !== "assistant") return;
  let t: number | undefined;
  if (typeof message.timestamp === "number") t = message.timestamp;
  else if (typeof entry.timestamp === "string") {
    const parsed = Date.parse(entry.timestamp);
    if (!Number.isNaN(parsed)) t = parsed;
  }
  if (t !== undefined) s.lastActivity = Math.max(s.lastActivity ?? 0, t);
  if (!s.firstMessage && message.role === "user") s.firstMessage = textOf(message.content);
}

/** Parses a whole line (small ones with JSON.parse, big ones lazily); null when it is not an object. */
function parseLine(bytes: Uint8Array, offset: number, source: FileSource): Loose | null {
  if (bytes.length > PARSE_WHOLE_BYTES) {
    const lazy = scanLazyLine(bytes, { offset, line: 0, source });
    if (lazy) return lazy;
  }
  try {
    const v = JSON.parse(utf8.decode(bytes));
    return typeof v === "object" && v !== null && !Array.isArray(v) ? v : null;
  } catch {
    return null;
  }
}

/** A file's summary as a listing shows it, and the part that a later call can resume from. */
export interface SummaryResult {
  /** Everything read, the unterminated last line included. */
  shown: SessionSummary;
  /** Up to the last complete line (`scanned`): what may be cached and resumed. */
  resumable: SessionSummary;
  /** {@link summaryFingerprint} of the file at `resumable.scanned`. */
  fingerprint: string;
}

/** Bytes hashed at the start and just before `scanned` to check that a grown file is the one summarised. */
const PRINT_HEAD_BYTES = 4096;
const PRINT_TAIL_BYTES = 256;

/** FNV-1a, 32 bits: enough to notice that summarised bytes changed, not a security check. */
function fnv1a(bytes: Uint8Array): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i], 0x01000193);
  return (h >>> 0).toString(16);
}

function readAtSync(file: Deno.FsFile, offset: number, length: number): Uint8Array {
  file.seekSync(offset, Deno.SeekMode.Start);
  const out = new Uint8Array(length);
  let at = 0;
  while (at < length) {
    const n = file.readSync(out.subarray(at));
    if (n === null || n === 0) break;
    at += n;
  }
  return out.subarray(0, at);
}

/**
 * Hashes of the first 4 KiB and of the 256 bytes before `scanned` (within the summarised part),
 * so a listing cache can tell that a grown file still starts with the bytes it summarised. An
 * append leaves both alone; a rewrite (pi's own rewrites replace the file: a new inode) that
 * keeps both and the inode, and only grows the file, would go unnoticed.
 */
export function summaryFingerprint(file: Deno.FsFile, scanned: number): string {
  if (scanned === 0) return "";
  const head = readAtSync(file, 0, Math.min(PRINT_HEAD_BYTES, scanned));
  const from = Math.max(0, scanned - PRINT_TAIL_BYTES);
  const tail = readAtSync(file, from, scanned - from);
  return `${fnv1a(head)}:${fnv1a(tail)}:${tail.length}`;
}

/** Buffers to read into, one per file being summarised at a time (reused). */
const buffers: LineBuffer[] = [];

/**
 * How files are read: the buffer's size (lines longer than it are read in pieces) and whether
 * line ends are searched with WebAssembly. Tests change these to reach every path.
 */
export const summaryOptions = { bufferBytes: 1 << 20, wasm: true };

/** Counts for tests and benchmarks: bytes read, and lines judged by their bytes vs. parsed. */
export const summaryStats = { bytesRead: 0, quickLines: 0, parsedLines: 0 };

/** The options the pooled buffers were made with. */
let poolKey = "";

function borrowBuffer(): LineBuffer {
  const key = `${summaryOptions.bufferBytes}:${summaryOptions.wasm}`;
  if (key !== poolKey) {
    buffers.length = 0;
    poolKey = key;
  }
  return buffers.pop() ?? new LineBuffer(summaryOptions.bufferBytes, summaryOptions.wasm);
}

/**
 * Summarises `path` from `prior` (default: from the start; `prior` is not modified). Reading
 * stops at the end of the file, or after a first line that is no session header.
 */
export async function summarizeSessionFile(path: string, prior?: SessionSummary): Promise<SummaryResult> {
  const s: SessionSummary = prior ? { ...prior } : { scanned: 0, messageCount: 0, firstMessage: "" };
  const file = Deno.openSync(path, { read: true });
  const lines = borrowBuffer();
  const key = poolKey;
  try {
    const source = new FileSource(path, file.statSync().ino);
    if (s.scanned > 0) file.seekSync(s.scanned, Deno.SeekMode.Start);
    const buf = lines.bytes;
    const verdict: QuickLine = { kind: SLOW, time: 0, user: false };
    let filled = 0;
    /** Where the search resumes after the next read (relative to the buffer's start). */
    let resume = 0;
    /** Whether the current line holds a `{"type":"` that starts no content block. */
    let second = false;
    let base = s.scanned;
    /** Set while the rest of a line is skipped unread: its kind and its last non-blank byte. */
    let skipping: { kind: Kind; last: number } | null = null;
    /** The pieces so far of a line to parse that is longer than the buffer. */
    let long: Uint8Array[] | null = null;
    const slowLine = (
      t: SessionSummary,
      bytes: Uint8Array,
      offset: number,
      terminated: boolean,
      strict = false,
    ) => {
      summaryStats.parsedLines++;
      finishLine(t, bytes, offset, terminated, source, strict);
    };
    /**
     * One complete line, buf[a, b), at file offset `offset`; `second` when a `{"type":"` inside it
     * starts no content block (the line may hold the start of a second entry).
     */
    const line = (a: number, b: number, offset: number, second: boolean) => {
      if (s.header === undefined || second) return slowLine(s, buf.subarray(a, b), offset, true, second);
      const v = quickLine(buf, a, b, verdict);
      if (v.kind === SLOW || (v.kind === TIMED && v.user && !s.firstMessage)) {
        return slowLine(s, buf.subarray(a, b), offset, true);
      }
      summaryStats.quickLines++;
      if (v.kind === COUNT) s.messageCount++;
      else if (v.kind === TIMED) {
        s.messageCount++;
        s.lastActivity = Math.max(s.lastActivity ?? 0, v.time);
      }
    };
    for (;;) {
      if (s.header === null) break;
      const n = await file.read(buf.subarray(filled));
      if (n === null || n === 0) break;
      summaryStats.bytesRead += n;
      const end = filled + n;
      let start = 0;
      if (skipping || long) {
        const nl = lines.newline(0, end);
        if (nl < 0) {
          if (skipping) {
            const last = lastNonSpace(buf.subarray(0, end));
            if (last >= 0) skipping.last = last;
          } else long!.push(buf.slice(0, end));
          base += end;
          filled = 0;
          resume = 0;
          continue;
        }
        if (skipping) {
          const last = lastNonSpace(buf.subarray(0, nl));
          if (last >= 0) skipping.last = last;
          if (skipping.kind === "count" && skipping.last === CLOSE_OBJECT) s.messageCount++;
          skipping = null;
        } else {
          long!.push(buf.subarray(0, nl));
          const whole = concat(long!);
          long = null;
          slowLine(s, whole, base - (whole.length - nl), true);
        }
        start = nl + 1;
        s.scanned = base + start;
      }
      let from = Math.max(start, resume);
      second &&= from > start;
      // The stops (line ends and `{"ty`) of this read, found a batch at a time.
      const stops = lines.stops;
      let count = 0;
      let i = 0;
      for (;;) {
        if (i === count) {
          count = lines.scan(from, end);
          i = 0;
          if (count === 0) {
            // A `{"ty` cut by the end of the read is found again after the next one.
            from = Math.max(start, end - 3);
            break;
          }
        }
        const at = stops[i++];
        if (buf[at] !== NEWLINE) {
          if (at + TYPE_KEY_LOOKAHEAD > end) {
            // Judged once more bytes of the line are read.
            from = at;
            break;
          }
          if (at > start && isEntryKey(buf, at, end)) second = true;
          from = at + 1;
          continue;
        }
        if (at > start) line(start, at, base + start, second);
        second = false;
        start = at + 1;
        from = start;
        s.scanned = base + start;
        if (s.header === null) break;
      }
      if (s.header === null) break;
      if (start === 0 && end === buf.length) {
        // A line longer than the buffer: skipped unread when its start shows a listing ignores
        // it, else kept in pieces and parsed whole.
        const kind = s.header !== undefined ? classify(buf.subarray(0, HEAD_BYTES), true) : "parse";
        if (kind !== "parse") skipping = { kind, last: lastNonSpace(buf.subarray(0, end)) };
        else long = [buf.slice(0, end)];
        base += end;
        filled = 0;
        resume = 0;
        second = false;
        continue;
      }
      buf.copyWithin(0, start, end);
      filled = end - start;
      resume = from - start;
      base += start;
    }
    // The unterminated last line (a torn write, or one being written) shows as a full read
    // would judge it, but stays outside `scanned` so a resumed summary reads it again.
    const shown = { ...s };
    if (s.header !== null) {
      if (skipping?.kind === "count") {
        const tail = await readRange(file, s.scanned);
        if (scanLazyLine(tail, { offset: s.scanned, line: 0, source })) shown.messageCount++;
      } else if (long) {
        slowLine(shown, concat([...long, buf.subarray(0, filled)]), s.scanned, false);
      } else if (!skipping && filled > 0) {
        slowLine(shown, buf.subarray(0, filled), base, false);
      }
    }
    return { shown, resumable: s, fingerprint: summaryFingerprint(file, s.scanned) };
  } finally {
    if (key === poolKey) buffers.push(lines);
    file.close();
  }
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** Applies one line by the rules of a full listing read (see {@link summarizeSessionFile}). */
function finishLine(
  t: SessionSummary,
  bytes: Uint8Array,
  offset: number,
  terminated: boolean,
  source: FileSource,
  strict: boolean,
): void {
  if (bytes.length === 0) return;
  if (t.header === undefined) {
    // As a full read: the first line that parses decides (a malformed one is skipped).
    let value: unknown;
    try {
      value = JSON.parse(utf8.decode(bytes));
    } catch {
      return;
    }
    // As 1.6.0: a falsy value (`null`, `0`, `""`) is skipped like a malformed line.
    if (!value) return;
    const v = value as Loose;
    t.header = typeof v === "object" && v.type === "session" ? v : null;
    return;
  }
  // `strict`: a line that may hold two entries is parsed even when its start looks skippable.
  const kind = strict ? "parse" : classify(bytes.subarray(0, HEAD_BYTES), true);
  if (kind === "ignore") return;
  if (kind === "count") {
    // A skipped message line counts when it is complete: a torn write never ends in `}`.
    const ok = terminated
      ? lastNonSpace(bytes) === CLOSE_OBJECT
      : scanLazyLine(bytes, { offset, line: 0, source }) !== null;
    if (ok) t.messageCount++;
    return;
  }
  const entry = parseLine(bytes, offset, source);
  if (entry) applyEntry(t, entry);
}

async function readRange(file: Deno.FsFile, from: number): Promise<Uint8Array> {
  const size = (await file.stat()).size;
  const out = new Uint8Array(Math.max(0, size - from));
  await file.seek(from, Deno.SeekMode.Start);
  let at = 0;
  while (at < out.length) {
    const n = await file.read(out.subarray(at));
    if (n === null || n === 0) break;
    at += n;
  }
  return out.subarray(0, at);
}
