/**
 * Drawing images: fitting an image into terminal cells, the iTerm2 inline-image sequence,
 * `renderImage` (kitty or iTerm2 by the terminal's capabilities), OSC 8 hyperlinks and the text
 * shown where no image can be drawn. Mirrors pi-tui 1.6.0's `terminal-image.js`.
 *
 * @module
 */
import { toBase64 } from "../util/bytes.ts";
import { homeDir, isWindows } from "../util/os.ts";
import { isAbsolute, resolve } from "../util/path.ts";
import { type CellDimensions, getCapabilities, getCellDimensions } from "./terminal_image_capabilities.ts";
import type { ImageDimensions } from "./terminal_image_dimensions.ts";
import { encodeKitty, type ImageCellSize, registerKittyImageMetadata } from "./terminal_image_kitty.ts";

/** How `renderImage` sizes and places an image. */
export interface ImageRenderOptions {
  /** The widest the image may be, in cells (default 80). */
  maxWidthCells?: number;
  /** The tallest the image may be, in cells (default: as tall as the width allows). */
  maxHeightCells?: number;
  /** iTerm2 only: `false` lets the terminal stretch the image to the cells (default true). */
  preserveAspectRatio?: boolean;
  /** Kitty image ID. If provided, reuses/replaces existing image with this ID. */
  imageId?: number;
  /** Whether Kitty should apply its default cursor movement after placement. */
  moveCursor?: boolean;
}

/** The byte count Node's `Buffer.byteLength(text, "base64")` gives: length-based, padding dropped. */
function base64ByteLength(text: string): number {
  let length = text.length;
  if (text.charCodeAt(length - 1) === 0x3d) length--;
  if (length > 1 && text.charCodeAt(length - 1) === 0x3d) length--;
  return (length * 3) >>> 2;
}

/** The iTerm2 inline-image sequence (OSC 1337 File=) for base64 data. */
export function encodeITerm2(
  base64Data: string,
  options: {
    width?: number | string;
    height?: number | string;
    name?: string;
    preserveAspectRatio?: boolean;
    inline?: boolean;
  } = {},
): string {
  const params = [`inline=${options.inline !== false ? 1 : 0}`, `size=${base64ByteLength(base64Data)}`];
  if (options.width !== undefined) params.push(`width=${options.width}`);
  if (options.height !== undefined) params.push(`height=${options.height}`);
  if (options.name) params.push(`name=${toBase64(new TextEncoder().encode(options.name))}`);
  if (options.preserveAspectRatio === false) params.push("preserveAspectRatio=0");
  return `\x1b]1337;File=${params.join(";")}:${base64Data}\x07`;
}

/** Of `upper` and `upper - 1` cells, the count whose ratio to the ideal (fractional) count is closer to 1. */
function lessDistorted(upper: number, ideal: number): number {
  if (upper <= 1) return upper;
  const lower = upper - 1;
  const upperDistortion = Math.max(upper / ideal, ideal / upper);
  const lowerDistortion = Math.max(lower / ideal, ideal / lower);
  return lowerDistortion < upperDistortion ? lower : upper;
}

/**
 * The cells an image takes when scaled to fit `maxWidthCells` (and `maxHeightCells`), keeping its
 * aspect ratio; with `optimizeAspectRatio`, the rounded-up side may drop a cell when that distorts less.
 */
export function calculateImageCellSize(
  imageDimensions: ImageDimensions,
  maxWidthCells: number,
  maxHeightCells?: number,
  cellDimensions: CellDimensions = { widthPx: 9, heightPx: 18 },
  optimizeAspectRatio = false,
): ImageCellSize {
  const maxWidth = Math.max(1, Math.floor(maxWidthCells));
  const maxHeight = maxHeightCells === undefined ? undefined : Math.max(1, Math.floor(maxHeightCells));
  const imageWidth = Math.max(1, imageDimensions.widthPx);
  const imageHeight = Math.max(1, imageDimensions.heightPx);
  const widthScale = (maxWidth * cellDimensions.widthPx) / imageWidth;
  const heightScale = maxHeight === undefined
    ? widthScale
    : (maxHeight * cellDimensions.heightPx) / imageHeight;
  const scale = Math.min(widthScale, heightScale);
  let columns = Math.max(1, Math.min(maxWidth, Math.ceil((imageWidth * scale) / cellDimensions.widthPx)));
  let rows = Math.max(1, Math.ceil((imageHeight * scale) / cellDimensions.heightPx));
  if (maxHeight !== undefined) rows = Math.min(maxHeight, rows);
  if (!optimizeAspectRatio) return { columns, rows };
  if (widthScale <= heightScale) {
    // Width-bound: the row count was rounded up.
    const idealRows = (columns * cellDimensions.widthPx * imageHeight) /
      (imageWidth * cellDimensions.heightPx);
    rows = lessDistorted(rows, idealRows);
  } else {
    const idealColumns = (rows * cellDimensions.heightPx * imageWidth) /
      (imageHeight * cellDimensions.widthPx);
    columns = lessDistorted(columns, idealColumns);
  }
  return { columns, rows };
}

/** The rows an image takes when scaled to `targetWidthCells` columns. */
export function calculateImageRows(
  imageDimensions: ImageDimensions,
  targetWidthCells: number,
  cellDimensions: CellDimensions = { widthPx: 9, heightPx: 18 },
): number {
  return calculateImageCellSize(imageDimensions, targetWidthCells, undefined, cellDimensions).rows;
}

/**
 * The sequence that draws the image in the terminal's protocol and the cells it covers; null when
 * the terminal shows no images. Kitty images given an `imageId` are registered for repaints.
 */
export function renderImage(
  base64Data: string,
  imageDimensions: ImageDimensions,
  options: ImageRenderOptions = {},
): { sequence: string; columns: number; rows: number; imageId?: number } | null {
  const caps = getCapabilities();
  if (!caps.images) return null;
  const kitty = caps.images === "kitty";
  // Kitty scales to whole cells, so trim the rounding distortion there; iTerm2 keeps its reservation.
  const size = calculateImageCellSize(
    imageDimensions,
    options.maxWidthCells ?? 80,
    options.maxHeightCells,
    getCellDimensions(),
    kitty,
  );
  if (kitty) {
    if (options.imageId !== undefined) {
      registerKittyImageMetadata({
        imageId: options.imageId,
        columns: size.columns,
        rows: size.rows,
        widthPx: imageDimensions.widthPx,
        heightPx: imageDimensions.heightPx,
      });
    }
    const sequence = encodeKitty(base64Data, {
      columns: size.columns,
      rows: size.rows,
      imageId: options.imageId,
      moveCursor: options.moveCursor,
    });
    return { sequence, columns: size.columns, rows: size.rows, imageId: options.imageId };
  }
  if (caps.images === "iterm2") {
    const sequence = encodeITerm2(base64Data, {
      width: size.columns,
      height: "auto",
      preserveAspectRatio: options.preserveAspectRatio ?? true,
    });
    return { sequence, columns: size.columns, rows: size.rows };
  }
  return null;
}

/**
 * Wrap text in an OSC 8 hyperlink sequence.
 * The text is rendered as a clickable hyperlink in terminals that support OSC 8
 * (Ghostty, Kitty, WezTerm, iTerm2, VSCode, and others).
 * In terminals that do not support OSC 8, the escape sequences are ignored
 * and only the plain text is displayed.
 *
 * @param text - The visible text to display
 * @param url - The URL to link to
 */
export function hyperlink(text: string, url: string): string {
  return `\x1b]8;;${url}\x1b\\${text}\x1b]8;;\x1b\\`;
}

/** `~/…` for paths under the home folder, which is what a reader recognises. */
function shortenHomePath(filename: string): string {
  const home = homeDir();
  if (home && (filename === home || filename.startsWith(`${home}/`) || filename.startsWith(`${home}\\`))) {
    return `~${filename.slice(home.length)}`;
  }
  return filename;
}

/** A `file:` URL for an absolute path, encoded as Node's `pathToFileURL` encodes it. */
function fileUrl(path: string): string {
  let resolved = resolve(path);
  const last = path[path.length - 1];
  const sep = isWindows() ? "\\" : "/";
  if ((last === "/" || (isWindows() && last === "\\")) && !resolved.endsWith(sep)) resolved += "/";
  resolved = resolved.replace(/%/g, "%25");
  if (isWindows()) {
    resolved = "/" + resolved.replace(/\\/g, "/");
  } else {
    resolved = resolved.replace(/\\/g, "%5C");
  }
  resolved = resolved.replace(/\n/g, "%0A").replace(/\r/g, "%0D").replace(/\t/g, "%09");
  resolved = resolved.replace(/\?/g, "%3F").replace(/#/g, "%23");
  return new URL(`file://${resolved}`).href;
}

/**
 * Text fallback when the terminal cannot render inline images.
 * Absolute paths are shown shortened (~/...) and, when OSC 8 hyperlinks are
 * available, linked to file:// so the full path remains openable.
 */
export function imageFallback(mimeType: string, dimensions?: ImageDimensions, filename?: string): string {
  const parts: string[] = [];
  if (filename) {
    const display = shortenHomePath(filename);
    parts.push(
      getCapabilities().hyperlinks && isAbsolute(filename) ? hyperlink(display, fileUrl(filename)) : display,
    );
  }
  parts.push(`[${mimeType}]`);
  if (dimensions) parts.push(`${dimensions.widthPx}x${dimensions.heightPx}`);
  return `[Image: ${parts.join(" ")}]`;
}
