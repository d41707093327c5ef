/**
 * 1.6.0 pi-coding-agent's image helpers for extensions: PNG conversion (terminal image protocols
 * such as Kitty's take only PNG) and `resizeImage` with 1.6.0's signature (bytes and MIME type);
 * the decoding and resizing are the read tool's (src/tools/image_resize.ts).
 *
 * @module
 */
import {
  convertImageToPng,
  type ImageResizeOptions,
  type ResizedImage,
  resizeImage as resizeImageData,
} from "../../tools/image_resize.ts";
import { fromBase64, toBase64 } from "../../util/bytes.ts";

/**
 * The image as base64 PNG, upright per its EXIF orientation: a PNG is returned as it is; null when
 * the data cannot be decoded.
 */
export async function convertToPng(
  base64Data: string,
  mimeType: string,
): Promise<{ data: string; mimeType: string } | null> {
  if (mimeType === "image/png") return { data: base64Data, mimeType };
  const png = await convertImageToPng(fromBase64(base64Data));
  return png ? { data: toBase64(png), mimeType: "image/png" } : null;
}

/**
 * The image fitted within `options`' dimensions and encoded size (1.6.0's `resizeImage(bytes,
 * mimeType, options)`; the read tool's own takes base64): as it is when it fits, else scaled down
 * and re-encoded; null when it cannot be decoded.
 */
export function resizeImage(
  inputBytes: Uint8Array,
  mimeType: string,
  options?: ImageResizeOptions,
): Promise<ResizedImage | null> {
  return resizeImageData({ data: toBase64(inputBytes), mimeType }, options);
}
