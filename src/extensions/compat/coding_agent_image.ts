/**
 * 1.6.0 pi-coding-agent's PNG conversion of an image for extensions (terminal image protocols
 * such as Kitty's take only PNG); the decoding is the read tool's (src/tools/image_resize.ts).
 *
 * @module
 */
import { convertImageToPng } from "../../tools/image_resize.ts";
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
