/**
 * Turning image bytes into what a model takes inline, for the read tool and `@file` arguments:
 * PNG, JPEG, GIF and WebP pass through; other types (BMP) are converted to PNG; then, unless
 * turned off, images are scaled down to the inline limits. Hints say what was done.
 *
 * @module
 */
import { toBase64 } from "../util/bytes.ts";

/** A processed image, or why it was left out. */
export type ProcessedImage =
  | { ok: true; data: string; mimeType: string; hints: string[] }
  | { ok: false; message: string };

const INLINE_TYPES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);

/**
 * Makes `bytes` (of `mimeType`) inline-ready: converted when the type is not one models take,
 * resized when `autoResizeImages` (default true). Loads the image codecs on first use.
 */
export async function processImage(
  bytes: Uint8Array,
  mimeType: string,
  options: { autoResizeImages?: boolean } = {},
): Promise<ProcessedImage> {
  const { convertImageToPng, formatDimensionNote, resizeImage } = await import("./image_resize.ts");
  let inlineBytes = bytes;
  let inlineMime = mimeType;
  if (!INLINE_TYPES.has(mimeType)) {
    const png = await convertImageToPng(bytes);
    if (!png) {
      return {
        ok: false,
        message: "[Image omitted: could not be converted to a supported inline image format.]",
      };
    }
    inlineBytes = png;
    inlineMime = "image/png";
  }
  const converted = (to: string) =>
    inlineMime !== mimeType ? [`[Image converted from ${mimeType} to ${to}.]`] : [];
  if (options.autoResizeImages === false) {
    return { ok: true, data: toBase64(inlineBytes), mimeType: inlineMime, hints: converted(inlineMime) };
  }
  const resized = await resizeImage({ data: toBase64(inlineBytes), mimeType: inlineMime });
  if (!resized) {
    return { ok: false, message: "[Image omitted: could not be resized below the inline image size limit.]" };
  }
  const hints = converted(resized.mimeType);
  const note = formatDimensionNote(resized);
  if (note) hints.push(note);
  return { ok: true, data: resized.data, mimeType: resized.mimeType, hints };
}
