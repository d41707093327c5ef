/**
 * Output truncation shared by the built-in tools. Two independent limits apply (lines and UTF-8
 * bytes); whichever is reached first decides. Results are whole lines, except for the single
 * tail-truncation case where the last line alone is larger than the byte budget.
 *
 * @module
 */

/** Line budget a tool result may carry before it is cut. */
export const DEFAULT_MAX_LINES = 2000;
/** Byte budget (UTF-8) a tool result may carry before it is cut. */
export const DEFAULT_MAX_BYTES = 50 * 1024;
/** Longest grep match line (in UTF-16 code units) before it is shortened. */
export const GREP_MAX_LINE_LENGTH = 500;

/** Describes what truncation did, so callers can write accurate continuation notices. */
export interface TruncationResult {
  /** The kept text. */
  content: string;
  /** Whether anything was dropped. */
  truncated: boolean;
  /** Which limit was hit first, or null when nothing was dropped. */
  truncatedBy: "lines" | "bytes" | null;
  /** Lines in the original text. */
  totalLines: number;
  /** UTF-8 bytes in the original text. */
  totalBytes: number;
  /** Complete lines kept. */
  outputLines: number;
  /** UTF-8 bytes kept. */
  outputBytes: number;
  /** Tail truncation only: the kept first line is the end of a longer line. */
  lastLinePartial: boolean;
  /** Head truncation only: the first line alone exceeds the byte budget, so nothing was kept. */
  firstLineExceedsLimit: boolean;
  /** The line budget that applied. */
  maxLines: number;
  /** The byte budget that applied. */
  maxBytes: number;
}

/** Overrides for the default budgets. */
export interface TruncationOptions {
  /** Line budget (default 2000). */
  maxLines?: number;
  /** Byte budget (default 50KB). */
  maxBytes?: number;
}

/**
 * UTF-8 length without allocating. Lone surrogates count as 3 bytes, matching how they are
 * encoded (as U+FFFD) when written out.
 */
export function utf8ByteLength(text: string): number {
  let bytes = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < n) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        bytes += 4;
        i++;
      } else {
        bytes += 3;
      }
    } else bytes += 3;
  }
  return bytes;
}

/** Human-readable size as tool notices print it (B, one-decimal KB / MB). */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes}B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)}KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)}MB`;
}

/** The input's size and the limits that apply to it: every result repeats them. */
interface Measured {
  lines: string[];
  totalLines: number;
  totalBytes: number;
  maxLines: number;
  maxBytes: number;
}

function measure(content: string, options: TruncationOptions): Measured {
  const lines = splitLinesForCounting(content);
  return {
    lines,
    totalLines: lines.length,
    totalBytes: utf8ByteLength(content),
    maxLines: options.maxLines ?? DEFAULT_MAX_LINES,
    maxBytes: options.maxBytes ?? DEFAULT_MAX_BYTES,
  };
}

function fitsWhole(m: Measured): boolean {
  return m.totalLines <= m.maxLines && m.totalBytes <= m.maxBytes;
}

function untouched(content: string, m: Measured): TruncationResult {
  return {
    content,
    truncated: false,
    truncatedBy: null,
    totalLines: m.totalLines,
    totalBytes: m.totalBytes,
    outputLines: m.totalLines,
    outputBytes: m.totalBytes,
    lastLinePartial: false,
    firstLineExceedsLimit: false,
    maxLines: m.maxLines,
    maxBytes: m.maxBytes,
  };
}

/**
 * The result for the `kept` lines (`used` bytes with their newlines). Reaching the line budget
 * within the byte budget means lines decided, whatever the loop stopped on.
 */
function cutResult(
  kept: string[],
  used: number,
  stoppedBy: "lines" | "bytes",
  m: Measured,
  lastLinePartial: boolean,
): TruncationResult {
  const out = kept.join("\n");
  return {
    content: out,
    truncated: true,
    truncatedBy: kept.length >= m.maxLines && used <= m.maxBytes ? "lines" : stoppedBy,
    totalLines: m.totalLines,
    totalBytes: m.totalBytes,
    outputLines: kept.length,
    outputBytes: utf8ByteLength(out),
    lastLinePartial,
    firstLineExceedsLimit: false,
    maxLines: m.maxLines,
    maxBytes: m.maxBytes,
  };
}

/**
 * Keeps the beginning of `content` (file reads want the start). Never returns a partial line;
 * when the first line alone is too big, returns empty content with `firstLineExceedsLimit`.
 */
export function truncateHead(content: string, options: TruncationOptions = {}): TruncationResult {
  const m = measure(content, options);
  if (fitsWhole(m)) return untouched(content, m);
  const { lines, maxLines, maxBytes } = m;
  if (utf8ByteLength(lines[0]) > maxBytes) {
    return {
      ...cutResult([], 0, "bytes", m, false),
      truncatedBy: "bytes",
      outputLines: 0,
      outputBytes: 0,
      firstLineExceedsLimit: true,
    };
  }
  const kept: string[] = [];
  let used = 0;
  let stoppedBy: "lines" | "bytes" = "lines";
  for (let i = 0; i < lines.length && i < maxLines; i++) {
    const cost = utf8ByteLength(lines[i]) + (i > 0 ? 1 : 0);
    if (used + cost > maxBytes) {
      stoppedBy = "bytes";
      break;
    }
    kept.push(lines[i]);
    used += cost;
  }
  return cutResult(kept, used, stoppedBy, m, false);
}

/**
 * Keeps the end of `content` (command output wants the final errors). If the very last line is
 * larger than the byte budget, its tail is kept and `lastLinePartial` is set.
 */
export function truncateTail(content: string, options: TruncationOptions = {}): TruncationResult {
  const m = measure(content, options);
  if (fitsWhole(m)) return untouched(content, m);
  const { lines, maxLines, maxBytes } = m;
  const kept: string[] = [];
  let used = 0;
  let stoppedBy: "lines" | "bytes" = "lines";
  let lastLinePartial = false;
  for (let i = lines.length - 1; i >= 0 && kept.length < maxLines; i--) {
    const line = lines[i];
    const cost = utf8ByteLength(line) + (kept.length > 0 ? 1 : 0);
    if (used + cost > maxBytes) {
      stoppedBy = "bytes";
      if (kept.length === 0) {
        const tail = lastBytesOf(line, maxBytes);
        kept.unshift(tail);
        used = utf8ByteLength(tail);
        lastLinePartial = true;
      }
      break;
    }
    kept.unshift(line);
    used += cost;
  }
  return cutResult(kept, used, stoppedBy, m, lastLinePartial);
}

/** The last `maxBytes` bytes of `text`, moved forward to a character boundary. */
function lastBytesOf(text: string, maxBytes: number): string {
  const buf = new TextEncoder().encode(text);
  if (buf.length <= maxBytes) return text;
  let start = buf.length - maxBytes;
  while (start < buf.length && (buf[start] & 0xc0) === 0x80) start++;
  return new TextDecoder().decode(buf.subarray(start));
}

/** Shortens one line to `maxChars` UTF-16 units with a "... [truncated]" marker (grep matches). */
export function truncateLine(
  line: string,
  maxChars: number = GREP_MAX_LINE_LENGTH,
): { text: string; wasTruncated: boolean } {
  if (line.length <= maxChars) return { text: line, wasTruncated: false };
  return { text: `${sliceHead(line, maxChars)}... [truncated]`, wasTruncated: true };
}

/** The first `maxUnits` UTF-16 units of `text`, never ending on half a surrogate pair. */
export function sliceHead(text: string, maxUnits: number): string {
  const end = Math.max(0, maxUnits);
  const high = text.charCodeAt(end - 1);
  const low = text.charCodeAt(end);
  return high >= 0xd800 && high <= 0xdbff && low >= 0xdc00 && low <= 0xdfff
    ? text.slice(0, end - 1)
    : text.slice(0, end);
}

/** Lines as counted for limits: a final newline ends the last line instead of starting a new one. */
function splitLinesForCounting(content: string): string[] {
  if (content.length === 0) return [];
  const lines = content.split("\n");
  if (content.endsWith("\n")) lines.pop();
  return lines;
}
