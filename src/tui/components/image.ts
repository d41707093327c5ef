/**
 * The Image component, pi-tui 1.6.0's `components/image.js`: draws base64 image data inline with the
 * kitty or iTerm2 protocol when the terminal has one, else a one-line text stand-in
 * (`[Image: [image/png] 800x600]`).
 *
 * Kitty accepts only PNG; other formats are converted by a transcoder the application registers
 * (`setImageTranscoder`), or shown as text.
 *
 * @module
 */
import {
  allocateImageId,
  getCapabilities,
  getCellDimensions,
  getImageDimensions,
  getPngDimensions,
  type ImageDimensions,
  imageFallback,
  renderImage,
} from "../terminal_image.ts";
import type { Component } from "../tui_component.ts";
import { truncateToWidth } from "../utils_text.ts";

/**
 * Converts base64 image data to base64 PNG data, or returns null if it cannot.
 * Called synchronously during rendering.
 */
export type ImageTranscoder = (base64Data: string, mimeType: string) => string | null;

let transcoder: ImageTranscoder | undefined;
// Conversions by source data, least recently used first: a backstop for callers that build a new
// Image for the same data on every render.
const pngCache = new Map<string, string | null>();
const PNG_CACHE_SIZE = 32;

/**
 * Register the converter used for non-PNG images on Kitty-protocol terminals, which only accept PNG.
 * Without one, such images render as text fallbacks.
 */
export function setImageTranscoder(next: ImageTranscoder | undefined): void {
  transcoder = next;
  pngCache.clear();
}

function toPng(base64Data: string, mimeType: string): string | null {
  if (!transcoder) return null;
  const cached = pngCache.get(base64Data);
  const png = cached === undefined ? transcoder(base64Data, mimeType) : cached;
  pngCache.delete(base64Data);
  pngCache.set(base64Data, png);
  if (pngCache.size > PNG_CACHE_SIZE) pngCache.delete(pngCache.keys().next().value!);
  return png;
}

/** How the text stand-in is coloured. */
export interface ImageTheme {
  /** Styles the text stand-in. */
  fallbackColor: (str: string) => string;
}

/** Size limits, the file name shown in the stand-in, and a fixed kitty image id. */
export interface ImageOptions {
  /** The widest the image may be, in cells (default 60, and never wider than the width less 2). */
  maxWidthCells?: number;
  /** The tallest the image may be, in cells (default: a square of the width). */
  maxHeightCells?: number;
  /** Shown in the text stand-in (`~/…` under home, linked when the terminal has hyperlinks). */
  filename?: string;
  /** Kitty image ID. If provided, reuses this ID (for animations/updates). */
  imageId?: number;
}

/** An inline image (or its text stand-in), as many lines tall as the image is rows. */
export class Image implements Component {
  private base64Data: string;
  private mimeType: string;
  private dimensions: ImageDimensions;
  private theme: ImageTheme;
  private options: ImageOptions;
  private imageId?: number;
  /** Converted PNG data for Kitty. Failures are not stored so a later transcoder can retry. */
  private pngData?: string;
  private cachedLines?: string[];
  private cachedWidth?: number;

  /** `dimensions` default to the header's, else 800×600. */
  constructor(
    base64Data: string,
    mimeType: string,
    theme: ImageTheme,
    options: ImageOptions = {},
    dimensions?: ImageDimensions,
  ) {
    this.base64Data = base64Data;
    this.mimeType = mimeType;
    this.theme = theme;
    this.options = options;
    this.dimensions = dimensions || getImageDimensions(base64Data, mimeType) ||
      { widthPx: 800, heightPx: 600 };
    this.imageId = options.imageId;
  }

  /** Get the Kitty image ID used by this image (if any). */
  getImageId(): number | undefined {
    return this.imageId;
  }

  /** Drops the cached lines; the next render draws again. */
  invalidate(): void {
    this.cachedLines = undefined;
    this.cachedWidth = undefined;
  }

  /** The image's lines at `width`: the image sequence plus blank lines for its rows, or the stand-in. */
  render(width: number): readonly string[] {
    if (this.cachedLines && this.cachedWidth === width) return this.cachedLines;
    const lines = this.draw(width);
    this.cachedLines = lines;
    this.cachedWidth = width;
    return lines;
  }

  /** The lines for `width`, uncached. */
  private draw(width: number): string[] {
    const maxWidth = Math.max(1, Math.min(width - 2, this.options.maxWidthCells ?? 60));
    const cell = getCellDimensions();
    // By default no taller than a square of the width.
    const maxHeight = this.options.maxHeightCells ??
      Math.max(1, Math.ceil((maxWidth * cell.widthPx) / cell.heightPx));
    const caps = getCapabilities();
    let data: string | null = this.base64Data;
    let dimensions = this.dimensions;
    if (caps.images === "kitty" && this.mimeType !== "image/png") {
      this.pngData ??= toPng(this.base64Data, this.mimeType) ?? undefined;
      data = this.pngData ?? null;
      // The conversion may apply EXIF rotation: the PNG's own size counts.
      if (data) dimensions = getPngDimensions(data) ?? dimensions;
    }
    if (!caps.images || !data) return [this.fallback(width)];
    if (caps.images === "kitty" && this.imageId === undefined) this.imageId = allocateImageId();
    const result = renderImage(data, dimensions, {
      maxWidthCells: maxWidth,
      maxHeightCells: maxHeight,
      imageId: this.imageId,
      moveCursor: false,
    });
    if (!result) return [this.fallback(width)];
    if (result.imageId) this.imageId = result.imageId;
    const blank = Array.from({ length: Math.max(0, result.rows - 1) }, () => "");
    if (caps.images === "kitty") {
      // Kitty draws downward from the line (C=1: the cursor stays); the blank lines reserve the rows.
      return [result.sequence, ...blank];
    }
    // iTerm2 draws from the cursor: after the reserved rows, move up to the first, draw, and let the
    // cursor end below, inside the area the TUI accounts for.
    const up = result.rows - 1 > 0 ? `\x1b[${result.rows - 1}A` : "";
    return [...blank, up + result.sequence];
  }

  /** The coloured text stand-in, cut to `width`. */
  private fallback(width: number): string {
    const text = imageFallback(this.mimeType, this.dimensions, this.options.filename);
    return truncateToWidth(this.theme.fallbackColor(text), width);
  }
}
