/**
 * Helpers of the main-screen renderer: chunked output (a full redraw of a long transcript must not
 * become one giant string) and the Kitty image headers it reads to keep image rows intact.
 *
 * @module
 */
import { deleteKittyImage, isImageLine } from "./terminal_image.ts";
import { visibleWidth } from "./utils_text.ts";

const MAX_RENDER_WRITE_CHARS = 1024 * 1024;
const KITTY_SEQUENCE_PREFIX = "\x1b_G";

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/**
 * Collects terminal output and writes it in chunks of at most 1 MiB characters, split between
 * surrogate pairs never inside one. Callers append the synchronized-output begin and end themselves
 * and call `flush()` after the last append.
 */
export class BoundedTerminalWriter {
  private buffer = "";
  private writtenChars = 0;

  constructor(private readonly write: (data: string) => void) {}

  /** Appends output, writing full chunks as they fill. */
  append(value: string): void {
    let offset = 0;
    while (offset < value.length) {
      const capacity = MAX_RENDER_WRITE_CHARS - this.buffer.length;
      if (capacity === 0) {
        this.flush();
        continue;
      }
      let end = Math.min(value.length, offset + capacity);
      if (
        end < value.length && isHighSurrogate(value.charCodeAt(end - 1)) &&
        isLowSurrogate(value.charCodeAt(end))
      ) {
        end--;
      }
      if (end === offset) {
        this.flush();
        continue;
      }
      this.buffer += value.slice(offset, end);
      offset = end;
      if (this.buffer.length === MAX_RENDER_WRITE_CHARS) this.flush();
    }
  }

  /** Writes what is buffered. */
  flush(): void {
    if (!this.buffer) return;
    this.write(this.buffer);
    this.writtenChars += this.buffer.length;
    this.buffer = "";
  }

  /** Characters appended so far. */
  get length(): number {
    return this.writtenChars + this.buffer.length;
  }
}

/** The image ids (`i=`) and reserved rows (`r=`) of a line's Kitty graphics sequence. */
function parseKittyImageHeader(line: string): { ids: number[]; rows: number } | undefined {
  const start = line.indexOf(KITTY_SEQUENCE_PREFIX);
  if (start === -1) return undefined;
  const paramsStart = start + KITTY_SEQUENCE_PREFIX.length;
  const paramsEnd = line.indexOf(";", paramsStart);
  if (paramsEnd === -1) return undefined;
  const ids: number[] = [];
  let rows = 1;
  for (const param of line.slice(paramsStart, paramsEnd).split(",")) {
    const [key, value] = param.split("=", 2);
    if (value === undefined) continue;
    const n = Number(value);
    if (!Number.isInteger(n) || n <= 0 || n > 0xffffffff) continue;
    if (key === "i") ids.push(n);
    else if (key === "r") rows = n;
  }
  return { ids, rows };
}

/** The Kitty image ids placed by a line. */
export function extractKittyImageIds(line: string): number[] {
  return parseKittyImageHeader(line)?.ids ?? [];
}

/** Every Kitty image id placed by the lines. */
export function collectKittyImageIds(lines: readonly string[]): Set<number> {
  const ids = new Set<number>();
  for (const line of lines) {
    for (const id of extractKittyImageIds(line)) ids.add(id);
  }
  return ids;
}

/** The escape sequences deleting these Kitty images. */
export function deleteKittyImages(ids: Iterable<number>): string {
  let out = "";
  for (const id of ids) out += deleteKittyImage(id);
  return out;
}

/**
 * How many rows the image on line `index` occupies: its `r=` rows, cut at the first following line
 * that has content of its own (or at `maxIndex`).
 */
export function getKittyImageReservedRows(
  lines: readonly string[],
  index: number,
  maxIndex = lines.length - 1,
): number {
  const rows = parseKittyImageHeader(lines[index] ?? "")?.rows ?? 1;
  if (rows <= 1) return 1;
  const maxRows = Math.min(rows, maxIndex - index + 1, lines.length - index);
  let reserved = 1;
  while (reserved < maxRows) {
    const line = lines[index + reserved] ?? "";
    if (isImageLine(line) || visibleWidth(line) > 0) break;
    reserved++;
  }
  return reserved;
}

/**
 * Widens a changed line range to whole Kitty image blocks that overlap it, in the old or the new
 * lines: an image is deleted and drawn again as one piece.
 */
export function expandRangeForKittyImages(
  frames: readonly (readonly string[])[],
  firstChanged: number,
  lastChanged: number,
): { firstChanged: number; lastChanged: number } {
  let first = firstChanged;
  let last = lastChanged;
  for (const lines of frames) {
    for (let i = 0; i < lines.length; i++) {
      if (extractKittyImageIds(lines[i]).length === 0) continue;
      const blockEnd = i + getKittyImageReservedRows(lines, i) - 1;
      if (i >= firstChanged || (i <= lastChanged && blockEnd >= firstChanged)) {
        first = Math.min(first, i);
        last = Math.max(last, blockEnd);
      }
    }
  }
  return { firstChanged: first, lastChanged: last };
}

/** Deletes the Kitty images placed by the old lines of a changed range. */
export function deleteKittyImagesInRange(
  previous: readonly string[],
  firstChanged: number,
  lastChanged: number,
): string {
  if (firstChanged < 0 || lastChanged < firstChanged) return "";
  const ids = new Set<number>();
  const last = Math.min(lastChanged, previous.length - 1);
  for (let i = firstChanged; i <= last; i++) {
    for (const id of extractKittyImageIds(previous[i] ?? "")) ids.add(id);
  }
  return deleteKittyImages(ids);
}
