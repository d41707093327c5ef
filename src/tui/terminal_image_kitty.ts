/**
 * Image lines on screen: recognising kitty and iTerm2 image sequences in rendered lines, the kitty
 * graphics commands (transmit-and-place, delete, place-only, crop) and the registry of kitty images
 * the renderer uses to repaint or crop an image without re-sending its data. Mirrors pi-tui 1.6.0's
 * `terminal-image.js`.
 *
 * @module
 */
import { visibleWidth } from "./utils_text.ts";

const KITTY_PREFIX = "\x1b_G";
const ITERM2_PREFIX = "\x1b]1337;File=";

/** Whether a rendered line carries a kitty or iTerm2 image (anywhere: iTerm2 lines start with a cursor-up). */
export function isImageLine(line: string): boolean {
  return line.includes(KITTY_PREFIX) || line.includes(ITERM2_PREFIX);
}

/**
 * Cells covered by the image placement on an image line. Rows are relative to the line; columns are
 * absolute, with `endCol` exclusive and `Infinity` when the image width cannot be read.
 */
export interface ImageLineExtent {
  /** First row covered, relative to the line (negative for iTerm2's cursor-up). */
  firstRow: number;
  /** Last row covered, relative to the line. */
  lastRow: number;
  /** First column covered. */
  startCol: number;
  /** Column after the last covered; Infinity when unknown. */
  endCol: number;
}

/** The control keys of the first kitty command on a line (the text between `ESC _ G` and `;`). */
function kittyControls(line: string): { controls: string; index: number; length: number } | undefined {
  // deno-lint-ignore no-control-regex
  const match = /\x1b_G([^;]*);/.exec(line);
  return match ? { controls: match[1], index: match.index, length: match[0].length } : undefined;
}

function controlValue(controls: string, key: string): string | undefined {
  return new RegExp(`(?:^|,)${key}=(\\d+)(?:,|$)`).exec(controls)?.[1];
}

/**
 * Return the cells an image line draws over. Kitty places the image at the line and extends it
 * downward; iTerm2 lines move the cursor up before drawing, so the image ends at the line.
 */
export function getImageLineExtent(line: string): ImageLineExtent | undefined {
  const kittyStart = line.indexOf(KITTY_PREFIX);
  if (kittyStart !== -1) {
    const controls = kittyControls(line)?.controls ?? "";
    const columnValue = controlValue(controls, "c");
    const columns = columnValue === undefined
      ? registeredFromControls(controls)?.columns
      : Number.parseInt(columnValue, 10);
    const startCol = visibleWidth(line.slice(0, kittyStart));
    const rows = getKittyImagePlacementRows(line) ?? 1;
    return { firstRow: 0, lastRow: rows - 1, startCol, endCol: startCol + (columns ?? Infinity) };
  }
  const iterm2Start = line.indexOf(ITERM2_PREFIX);
  if (iterm2Start === -1) return undefined;
  const before = line.slice(0, iterm2Start);
  // deno-lint-ignore no-control-regex
  const moveUp = /\x1b\[(\d+)A$/.exec(before);
  // Only a plain cell count is a known width; `auto`, pixels and percentages depend on the image.
  const columnValue = /[;=]width=(\d+)[;:]/.exec(line.slice(iterm2Start))?.[1];
  // The cursor-up sequence is not text, so only what precedes it is measured.
  const startCol = visibleWidth(moveUp ? before.slice(0, moveUp.index) : before);
  return {
    firstRow: moveUp ? -Number.parseInt(moveUp[1], 10) : 0,
    lastRow: 0,
    startCol,
    endCol: startCol + (columnValue === undefined ? Infinity : Number.parseInt(columnValue, 10)),
  };
}

// deno-lint-ignore no-control-regex
const KITTY_SEQUENCE = /\x1b_G[^\x1b]*\x1b\\/g;
// deno-lint-ignore no-control-regex
const ITERM2_SEQUENCE = /(?:\x1b\[\d+A)?\x1b\]1337;File=[^\x07]*\x07/g;

/** Remove Kitty and iTerm2 image sequences, including iTerm2's cursor-up prefix, keeping the text. */
export function stripImageSequences(line: string): string {
  return line.replace(KITTY_SEQUENCE, "").replace(ITERM2_SEQUENCE, "");
}

/**
 * Generate a random image ID for Kitty graphics protocol.
 * Uses random IDs to avoid collisions between different module instances
 * (e.g., main app vs extensions).
 */
export function allocateImageId(): number {
  return Math.floor(Math.random() * 0xfffffffe) + 1;
}

/** Kitty's limit for the payload of one command; longer data is sent in chunks (`m=1` … `m=0`). */
const KITTY_CHUNK = 4096;

/**
 * The kitty command that transmits PNG data and places it (`a=T,f=100`, quiet), sized in cells,
 * split into 4096-character chunks when longer.
 */
export function encodeKitty(
  base64Data: string,
  options: {
    columns?: number;
    rows?: number;
    imageId?: number;
    /** Whether Kitty should apply its default cursor movement after placement. Default: true. */
    moveCursor?: boolean;
  } = {},
): string {
  const params = ["a=T", "f=100", "q=2"];
  if (options.moveCursor === false) params.push("C=1");
  if (options.columns) params.push(`c=${options.columns}`);
  if (options.rows) params.push(`r=${options.rows}`);
  if (options.imageId) params.push(`i=${options.imageId}`);
  const head = params.join(",");
  if (base64Data.length <= KITTY_CHUNK) return `\x1b_G${head};${base64Data}\x1b\\`;
  let out = "";
  for (let offset = 0; offset < base64Data.length; offset += KITTY_CHUNK) {
    const chunk = base64Data.slice(offset, offset + KITTY_CHUNK);
    const last = offset + KITTY_CHUNK >= base64Data.length;
    const controls = offset === 0 ? `${head},m=1` : last ? "m=0" : "m=1";
    out += `\x1b_G${controls};${chunk}\x1b\\`;
  }
  return out;
}

/**
 * Delete a Kitty graphics image by ID.
 * Uses uppercase 'I' to also free the image data.
 */
export function deleteKittyImage(imageId: number): string {
  return `\x1b_Ga=d,d=I,i=${imageId},q=2\x1b\\`;
}

/**
 * Delete all visible Kitty graphics images.
 * Uses uppercase 'A' to also free the image data.
 */
export function deleteAllKittyImages(): string {
  return "\x1b_Ga=d,d=A,q=2\x1b\\";
}

/** Delete all visible Kitty placements while retaining their uploaded image data. */
export function deleteAllKittyPlacements(): string {
  return "\x1b_Ga=d,d=a,q=2\x1b\\";
}

/** An image's size in terminal cells. */
export interface ImageCellSize {
  /** Width in cells. */
  columns: number;
  /** Height in cells. */
  rows: number;
}

/** What the renderer remembers of a kitty image it placed. */
export interface KittyImageMetadata extends ImageCellSize {
  /** The kitty image id (`i=`). */
  imageId: number;
  /** The image's width in pixels. */
  widthPx: number;
  /** The image's height in pixels. */
  heightPx: number;
}

/** A place-only command standing in for a line's transmit-and-place command. */
export interface KittyImagePlacement {
  /** The kitty image id. */
  imageId: number;
  /** Which registration of the id's data this is (rises with every transmission). */
  transmissionGeneration: number;
  /** Length of the transmit-and-place command(s) the placement replaces. */
  transmissionBytes: number;
  /** The decoded image's memory in the terminal (width × height × 4). */
  estimatedDecodedBytes: number;
  /** Rows the placement covers. */
  rows: number;
  /** The place-only command (`a=p`). */
  sequence: string;
  /** The line with its transmission swapped for `sequence`. */
  replacementLine: string;
}

interface RegisteredImage extends KittyImageMetadata {
  transmissionGeneration: number;
}

// Most recently registered last, so the oldest is dropped first past 1000 entries.
const registry = new Map<number, RegisteredImage>();
let transmissionGeneration = 0;
// The tallest image registered: no image line further above a viewport than this reaches into it.
let maxRows = 0;

/** Remembers a kitty image the renderer is about to transmit (a new generation of its data). */
export function registerKittyImageMetadata(metadata: KittyImageMetadata): void {
  transmissionGeneration += 1;
  maxRows = Math.max(maxRows, metadata.rows);
  registry.delete(metadata.imageId);
  registry.set(metadata.imageId, { ...metadata, transmissionGeneration });
  if (registry.size > 1000) {
    const oldest = registry.keys().next().value;
    if (oldest !== undefined) registry.delete(oldest);
  }
}

/** Return the row height of the tallest Kitty image registered so far. */
export function getMaxKittyImageRows(): number {
  return maxRows;
}

function registeredFromControls(controls: string): RegisteredImage | undefined {
  const id = controlValue(controls, "i");
  return id === undefined ? undefined : registry.get(Number.parseInt(id, 10));
}

/** The explicit `r=` of a command, when it is a positive row count. */
function explicitRows(controls: string): number | undefined {
  const value = controlValue(controls, "r");
  if (value === undefined) return undefined;
  const rows = Number.parseInt(value, 10);
  return rows > 0 ? rows : undefined;
}

/** The registered metadata of the kitty image on a line (by its `i=`), if any. */
export function getKittyImageMetadata(line: string): KittyImageMetadata | undefined {
  const found = kittyControls(line);
  const image = found && registeredFromControls(found.controls);
  if (!image) return undefined;
  return {
    imageId: image.imageId,
    columns: image.columns,
    rows: image.rows,
    widthPx: image.widthPx,
    heightPx: image.heightPx,
  };
}

// Keys that describe where and how an image is placed (not how its data is sent).
const PLACEMENT_KEYS = new Set([
  "i",
  "p",
  "x",
  "y",
  "w",
  "h",
  "X",
  "Y",
  "c",
  "r",
  "C",
  "U",
  "z",
  "P",
  "Q",
  "H",
  "V",
]);

/** Read the number of rows covered by an image placement without scanning its payload. */
export function getKittyImagePlacementRows(line: string): number | undefined {
  const found = kittyControls(line);
  if (!found) return undefined;
  return explicitRows(found.controls) ?? registeredFromControls(found.controls)?.rows;
}

/** Build a placement-only command for an image line emitted by {@link renderImage}. */
export function getKittyImagePlacement(line: string): KittyImagePlacement | undefined {
  const found = kittyControls(line);
  if (!found) return undefined;
  const image = registeredFromControls(found.controls);
  if (!image) return undefined;
  // Follow the chunks (m=1 … m=0) to the end of the whole transmission.
  let commandStart = found.index;
  let controls = found.controls;
  let end: number;
  while (true) {
    const terminator = line.indexOf("\x1b\\", commandStart + KITTY_PREFIX.length);
    if (terminator === -1) return undefined;
    end = terminator + 2;
    if (!/(?:^|,)m=1(?:,|$)/.test(controls)) break;
    commandStart = end;
    if (!line.startsWith(KITTY_PREFIX, commandStart)) return undefined;
    const controlsEnd = line.indexOf(";", commandStart + KITTY_PREFIX.length);
    if (controlsEnd === -1) return undefined;
    controls = line.slice(commandStart + KITTY_PREFIX.length, controlsEnd);
  }
  const kept = found.controls.split(",").filter((control) =>
    PLACEMENT_KEYS.has(control.split("=", 1)[0] ?? "")
  );
  const sequence = `\x1b_Ga=p,q=2,${kept.join(",")}\x1b\\`;
  return {
    imageId: image.imageId,
    transmissionGeneration: image.transmissionGeneration,
    transmissionBytes: end - found.index,
    estimatedDecodedBytes: image.widthPx * image.heightPx * 4,
    rows: explicitRows(found.controls) ?? image.rows,
    sequence,
    replacementLine: line.slice(0, found.index) + sequence + line.slice(end),
  };
}

/**
 * The image line showing only `visibleRows` rows of the image from row `hiddenRows` on (kitty's
 * source rectangle `y`/`h` and `r`); the line unchanged when nothing is cut or it is no registered
 * kitty image.
 */
export function cropKittyImageLine(line: string, hiddenRows: number, visibleRows: number): string {
  const metadata = getKittyImageMetadata(line);
  const found = kittyControls(line);
  if (!metadata || !found || hiddenRows < 0 || hiddenRows >= metadata.rows || visibleRows <= 0) return line;
  const rows = Math.min(visibleRows, metadata.rows - hiddenRows);
  if (hiddenRows === 0 && rows === metadata.rows) return line;
  const sourceY = Math.floor((metadata.heightPx * hiddenRows) / metadata.rows);
  const sourceEnd = Math.ceil((metadata.heightPx * (hiddenRows + rows)) / metadata.rows);
  const sourceHeight = Math.max(1, Math.min(metadata.heightPx, sourceEnd) - sourceY);
  const controls = found.controls.split(",").filter((control) => !/^[yhr]=/.test(control));
  controls.push(`y=${sourceY}`, `h=${sourceHeight}`, `r=${rows}`);
  return `${line.slice(0, found.index)}\x1b_G${controls.join(",")};${line.slice(found.index + found.length)}`;
}
