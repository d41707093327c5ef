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

const CHUNK_SIZE = 256 * 1024;
/** Bytes of a line's start that are enough to classify it. */
const HEAD_BYTES = 320;
/** Lines up to this size are parsed whole; longer ones by the lazy scanner. */
const PARSE_WHOLE_BYTES = 64 * 1024;
const NEWLINE = 0x0a;
const CLOSE_OBJECT = 0x7d;

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
}

/**
 * Summarises `path` from `prior` (default: from the start; `prior` is not modified). Reading
 * stops at the end of the file, or after a first line that is no session header.
 */
export async function summarizeSessionFile(path: string, prior?: SessionSummary): Promise<SummaryResult> {
  const s: SessionSummary = prior ? { ...prior } : { scanned: 0, messageCount: 0, firstMessage: "" };
  const file = await Deno.open(path, { read: true });
  try {
    const source = new FileSource(path, (await file.stat()).ino);
    if (s.scanned > 0) await file.seek(s.scanned, Deno.SeekMode.Start);
    let buf = new Uint8Array(CHUNK_SIZE);
    let filled = 0;
    let base = s.scanned;
    /** Set while the rest of a line is skipped unread: its kind and its last non-blank byte. */
    let skipping: { kind: Kind; last: number } | null = null;
    const finishLine = (t: SessionSummary, bytes: Uint8Array, offset: number, terminated: boolean) => {
      if (bytes.length === 0) return;
      if (t.header === undefined) {
        // As a full read: the first line that parses decides (a malformed one is skipped).
        let value: unknown;
        try {
          value = JSON.parse(utf8.decode(bytes));
        } catch {
          return;
        }
        const v = value as Loose | null;
        t.header = v && typeof v === "object" && v.type === "session" ? v : null;
        return;
      }
      const kind = classify(bytes.subarray(0, HEAD_BYTES), true);
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
    };
    for (;;) {
      if (s.header === null) break;
      if (filled === buf.length) {
        const bigger = new Uint8Array(buf.length * 2);
        bigger.set(buf);
        buf = bigger;
      }
      const n = await file.read(buf.subarray(filled));
      if (n === null || n === 0) break;
      const end = filled + n;
      let start = 0;
      if (skipping) {
        const nl = buf.indexOf(NEWLINE);
        if (nl < 0 || nl >= end) {
          const last = lastNonSpace(buf.subarray(0, end));
          if (last >= 0) skipping.last = last;
          base += end;
          filled = 0;
          continue;
        }
        const last = lastNonSpace(buf.subarray(0, nl));
        if (last >= 0) skipping.last = last;
        if (skipping.kind === "count" && skipping.last === CLOSE_OBJECT) s.messageCount++;
        skipping = null;
        start = nl + 1;
        s.scanned = base + start;
      }
      let from = Math.max(start, filled);
      for (;;) {
        const nl = buf.indexOf(NEWLINE, from);
        if (nl < 0 || nl >= end) break;
        finishLine(s, buf.subarray(start, nl), base + start, true);
        start = nl + 1;
        from = start;
        s.scanned = base + start;
        if (s.header === null) break;
      }
      if (s.header === null) break;
      // An unfinished line: once its start shows a listing skips it, its bytes are dropped.
      const rest = buf.subarray(start, end);
      const kind = rest.length >= HEAD_BYTES && s.header !== undefined
        ? classify(rest.subarray(0, HEAD_BYTES), true)
        : "parse";
      if (kind !== "parse") {
        skipping = { kind, last: lastNonSpace(rest) };
        base += end;
        filled = 0;
        continue;
      }
      buf.copyWithin(0, start, end);
      filled = end - start;
      base += start;
    }
    // The unterminated last line (a torn write, or one being written) shows as a full read
    // would judge it, but stays outside `scanned` so a resumed summary reads it again.
    const shown = { ...s };
    if (s.header !== null) {
      if (skipping?.kind === "count") {
        const tail = await readRange(file, s.scanned);
        if (scanLazyLine(tail, { offset: s.scanned, line: 0, source })) shown.messageCount++;
      } else if (!skipping && filled > 0) {
        finishLine(shown, buf.subarray(0, filled), base, false);
      }
    }
    return { shown, resumable: s };
  } finally {
    file.close();
  }
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
