/**
 * Selecting the lines a `read` call shows, from a whole file in memory or from a stream of
 * chunks. The streamed form stores only lines the head truncation can show and counts the rest,
 * so memory does not grow with the file (a 1 GB log read with `offset` costs its window).
 * Both give the same result for the same text.
 *
 * @module
 */
import {
  DEFAULT_MAX_BYTES,
  DEFAULT_MAX_LINES,
  truncateHead,
  type TruncationResult,
  utf8ByteLength,
} from "./truncate.ts";

/** The selected window: the file's line count, the head-truncated text, the first line's size. */
export interface SelectedLines {
  /** Lines in the file as `text.split("\n")` counts them (a final newline adds an empty one). */
  totalFileLines: number;
  truncation: TruncationResult;
  /** UTF-8 size of the first selected line (meaningful when it alone exceeds the byte limit). */
  firstLineBytes: number;
}

/** Whether a range can be streamed; other values (fractional, negative limit) use array slicing. */
export function isStreamableRange(offset: number | undefined, limit: number | undefined): boolean {
  return (offset === undefined || Number.isInteger(offset)) &&
    (limit === undefined || (Number.isInteger(limit) && limit >= 0));
}

/** Selects lines `startLine` (0-based) … `startLine + limit` of a whole file. */
export function selectLinesFromBuffer(
  bytes: Uint8Array,
  startLine: number,
  limit: number | undefined,
): SelectedLines {
  const all = new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes).split("\n");
  const endLine = limit === undefined ? undefined : Math.min(startLine + limit, all.length);
  const truncation = truncateHead(all.slice(startLine, endLine).join("\n"));
  const firstLineBytes = truncation.firstLineExceedsLimit ? utf8ByteLength(all[startLine]) : 0;
  return { totalFileLines: all.length, truncation, firstLineBytes };
}

/**
 * Selects the same lines from a file read in chunks, storing only what the head truncation can
 * show. Throws "Operation aborted" between chunks once `signal` aborts.
 */
export async function selectLinesFromStream(
  chunks: AsyncIterable<Uint8Array>,
  startLine: number,
  limit: number | undefined,
  signal?: AbortSignal,
): Promise<SelectedLines> {
  const endLine = limit === undefined ? Number.POSITIVE_INFINITY : startLine + limit;
  // Keeps a byte order mark, as the whole-file decode does.
  const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  const stored: string[] = [];
  let storedBytes = 0;
  let storedPastCaps = false;
  let line = 0;
  let selectedLines = 0;
  let selectedBytes = 0;
  let firstLineBytes = 0;
  let lastLineEmpty = true;
  // The selected line being read: its pieces while it is stored, and its size.
  let pieces: string[] | undefined = [];
  let lineBytes = 0;
  let lineHasText = false;

  const appendToLine = (text: string, start: number, end: number) => {
    lineHasText = true;
    if (!pieces) return;
    const piece = text.slice(start, end);
    // A line over the byte cap is never shown, only measured: never store all of a huge line.
    if (lineBytes <= DEFAULT_MAX_BYTES) pieces.push(piece);
    lineBytes += utf8ByteLength(piece);
  };
  const finishLine = () => {
    if (pieces) {
      if (selectedLines === 0) firstLineBytes = lineBytes;
      // Store one line past the caps: the head truncation must see it to decide as for the whole text.
      if (stored.length > DEFAULT_MAX_LINES || storedBytes > DEFAULT_MAX_BYTES) storedPastCaps = true;
      const text = pieces.join("");
      storedBytes += utf8ByteLength(text) + (stored.length > 0 ? 1 : 0);
      stored.push(text);
    }
    selectedLines++;
    lastLineEmpty = !lineHasText;
    pieces = storedPastCaps ? undefined : [];
    lineBytes = 0;
    lineHasText = false;
  };
  const select = (text: string) => {
    let position = 0;
    // Where the selected text starts in this piece, to measure the joined lines' size.
    let selectionStart = -1;
    while (true) {
      const selected = line >= startLine && line < endLine;
      if (selected && selectionStart === -1) selectionStart = position;
      const newline = text.indexOf("\n", position);
      const end = newline === -1 ? text.length : newline;
      if (selected && end > position) appendToLine(text, position, end);
      if (newline === -1) break;
      if (selected) {
        finishLine();
        if (line + 1 === endLine) {
          selectedBytes += utf8ByteLength(text.slice(selectionStart, newline));
          selectionStart = -1;
        }
      }
      line++;
      position = newline + 1;
    }
    if (selectionStart !== -1) selectedBytes += utf8ByteLength(text.slice(selectionStart));
  };

  for await (const chunk of chunks) {
    if (signal?.aborted) throw new Error("Operation aborted");
    select(decoder.decode(chunk, { stream: true }));
  }
  select(decoder.decode());
  if (line >= startLine && line < endLine) finishLine();
  const truncation: TruncationResult = {
    ...truncateHead(stored.join("\n")),
    // The counts of the joined selected lines, which drop a trailing empty line.
    totalLines: selectedBytes === 0 ? 0 : selectedLines - (lastLineEmpty ? 1 : 0),
    totalBytes: selectedBytes,
  };
  return { totalFileLines: line + 1, truncation, firstLineBytes };
}

/**
 * Streams a local file as `fs.readFile` reads it: a regular file up to its size when opened (so
 * text appended meanwhile does not count and a growing file still ends), anything else to EOF.
 */
export async function* readLocalFileChunks(path: string): AsyncGenerator<Uint8Array> {
  const file = await Deno.open(path, { read: true });
  try {
    const info = await file.stat();
    let remaining = info.isFile && info.size > 0 ? info.size : Number.POSITIVE_INFINITY;
    const buffer = new Uint8Array(64 * 1024);
    while (remaining > 0) {
      const n = await file.read(buffer.subarray(0, Math.min(buffer.length, remaining)));
      if (n === null) break;
      remaining -= n;
      yield buffer.slice(0, n);
    }
  } finally {
    file.close();
  }
}
