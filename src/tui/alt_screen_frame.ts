/**
 * Writing a fullscreen frame: which rows changed since the last one, the bytes that redraw them
 * (absolute cursor moves, erase line, text) inside one synchronized-output block, and the Kitty
 * images the terminal already holds, so a scrolled image is placed again instead of re-sent.
 *
 * @module
 */
import {
  deleteAllKittyImages,
  deleteAllKittyPlacements,
  deleteKittyImage,
  getKittyImagePlacement,
  getKittyImagePlacementRows,
  type ImageProtocol,
  isImageLine,
} from "./terminal_image.ts";

/** Start and end of a synchronized update (the terminal shows the frame at once). */
export const BEGIN_SYNCHRONIZED_OUTPUT = "\x1b[?2026h";
/** End of a synchronized update. */
export const END_SYNCHRONIZED_OUTPUT = "\x1b[?2026l";

const MAX_CACHED_OFFSCREEN_KITTY_IMAGES = 16;
const MAX_CACHED_OFFSCREEN_KITTY_TRANSMISSION_BYTES = 32 * 1024 * 1024;
const MAX_CACHED_OFFSCREEN_KITTY_DECODED_BYTES = 64 * 1024 * 1024;

interface UploadedKittyImage {
  transmissionGeneration: number;
  transmissionBytes: number;
  estimatedDecodedBytes: number;
}

/**
 * The Kitty images uploaded to the terminal, least recently shown first. A visible image already
 * uploaded in the same generation is placed by id; images off screen are kept up to a budget, then
 * deleted oldest first.
 */
export class KittyUploads {
  private readonly uploaded = new Map<number, UploadedKittyImage>();

  /** Whether any image is on the terminal. */
  get size(): number {
    return this.uploaded.size;
  }

  /** Forgets every upload (the terminal dropped them, or will). */
  clear(): void {
    this.uploaded.clear();
  }

  /** The rows to write (re-placements for known images) and the deletions of evicted ones. */
  prepare(screen: readonly string[]): { lines: string[]; evictedImageDeletion: string } {
    const visible = new Set<number>();
    const lines = screen.map((line) => {
      const placement = getKittyImagePlacement(line);
      if (!placement) return line;
      visible.add(placement.imageId);
      const known = this.uploaded.get(placement.imageId);
      // Re-inserted to move it to the most recently shown end.
      if (known) this.uploaded.delete(placement.imageId);
      this.uploaded.set(placement.imageId, {
        transmissionGeneration: placement.transmissionGeneration,
        transmissionBytes: placement.transmissionBytes,
        estimatedDecodedBytes: placement.estimatedDecodedBytes,
      });
      return known?.transmissionGeneration === placement.transmissionGeneration
        ? placement.replacementLine
        : line;
    });
    let count = 0;
    let transmissionBytes = 0;
    let decodedBytes = 0;
    for (const [id, image] of this.uploaded) {
      if (visible.has(id)) continue;
      count += 1;
      transmissionBytes += image.transmissionBytes;
      decodedBytes += image.estimatedDecodedBytes;
    }
    let evictedImageDeletion = "";
    for (const [id, image] of this.uploaded) {
      if (
        count <= MAX_CACHED_OFFSCREEN_KITTY_IMAGES &&
        transmissionBytes <= MAX_CACHED_OFFSCREEN_KITTY_TRANSMISSION_BYTES &&
        decodedBytes <= MAX_CACHED_OFFSCREEN_KITTY_DECODED_BYTES
      ) {
        break;
      }
      if (visible.has(id)) continue;
      evictedImageDeletion += deleteKittyImage(id);
      this.uploaded.delete(id);
      count -= 1;
      transmissionBytes -= image.transmissionBytes;
      decodedBytes -= image.estimatedDecodedBytes;
    }
    return { lines, evictedImageDeletion };
  }
}

/** What one frame write needs to know. */
export interface FrameInput {
  /** The rows to show, one per terminal row. */
  screen: string[];
  /** The rows shown now (empty after a reset). */
  previousScreen: readonly string[];
  /** Whether every row is rewritten (first frame, new size). */
  fullRedraw: boolean;
  /** Terminal rows. */
  height: number;
  /** Terminal columns. */
  width: number;
  /** The terminal's image protocol, if any. */
  imageProtocol: ImageProtocol | null;
  /** The Kitty images on the terminal. */
  kittyUploads: KittyUploads;
  /** Where to put the hardware cursor, if anywhere. */
  cursor: { row: number; col: number } | null;
  /** Whether the hardware cursor is shown there. */
  showHardwareCursor: boolean;
}

/** The bytes that turn the previous frame into `input.screen`. */
export function buildFrameOutput(input: FrameInput): string {
  const { screen, previousScreen, fullRedraw, height, imageProtocol } = input;
  const changedRows = screen.map((line, row) => line !== previousScreen[row]);
  const imageAnchorsChanged = screen.some((line, row) =>
    changedRows[row] && (isImageLine(line) || isImageLine(previousScreen[row] ?? ""))
  );
  // A Kitty image covers the rows below its anchor; text changing there must redraw it too.
  const imageCellsChanged = !imageAnchorsChanged && imageProtocol === "kitty" && changedRows.some(Boolean) &&
    screen.some((line, row) => {
      const rows = getKittyImagePlacementRows(line);
      if (rows === undefined) return false;
      for (let covered = row; covered < row + rows; covered++) if (changedRows[covered]) return true;
      return false;
    });
  const imagesNeedRedraw = imageAnchorsChanged || imageCellsChanged;
  const redrawImages = fullRedraw || imagesNeedRedraw;
  const hadUploads = input.kittyUploads.size > 0;
  const prepared = redrawImages && imageProtocol === "kitty"
    ? input.kittyUploads.prepare(screen)
    : { lines: screen, evictedImageDeletion: "" };
  const deleteImages = () => imageProtocol === "kitty" ? deleteAllKittyImages() : "";

  let buffer = BEGIN_SYNCHRONIZED_OUTPUT;
  if (fullRedraw) {
    // Kitty frees image data that has no placement on ED 2, which would defeat re-placing by id.
    // Every row is erased with EL 2 below anyway, so keep the uploads and skip the screen clear.
    buffer += imageProtocol === "kitty" && hadUploads
      ? deleteAllKittyPlacements()
      : `${deleteImages()}\x1b[2J`;
  } else if (imagesNeedRedraw) {
    if (imageProtocol === "iterm2") buffer += "\x1b[2J";
    else if (imageProtocol === "kitty") buffer += deleteAllKittyPlacements();
  }
  buffer += prepared.evictedImageDeletion;
  const rewrite = (row: number) => fullRedraw || imagesNeedRedraw || screen[row] !== previousScreen[row];
  // Some terminals keep Kitty images in the cells they cover (WezTerm, xterm.js's image addon), so
  // erasing or writing a covered row erases that part of the image: place images after all text.
  if (redrawImages && imageProtocol === "kitty" && screen.some(isImageLine)) {
    for (let row = 0; row < height; row++) if (rewrite(row)) buffer += `\x1b[${row + 1};1H\x1b[2K`;
    for (let row = 0; row < height; row++) {
      if (rewrite(row) && !isImageLine(prepared.lines[row] ?? "")) {
        buffer += `\x1b[${row + 1};1H${prepared.lines[row] ?? ""}`;
      }
    }
    for (let row = 0; row < height; row++) {
      if (rewrite(row) && isImageLine(prepared.lines[row] ?? "")) {
        buffer += `\x1b[${row + 1};1H${prepared.lines[row] ?? ""}`;
      }
    }
  } else {
    for (let row = 0; row < height; row++) {
      if (rewrite(row)) buffer += `\x1b[${row + 1};1H\x1b[2K${prepared.lines[row] ?? ""}`;
    }
  }
  if (input.cursor) {
    buffer += `\x1b[${input.cursor.row + 1};${Math.min(input.width, input.cursor.col) + 1}H`;
    buffer += input.showHardwareCursor ? "\x1b[?25h" : "\x1b[?25l";
  } else {
    buffer += "\x1b[?25l";
  }
  return buffer + END_SYNCHRONIZED_OUTPUT;
}
