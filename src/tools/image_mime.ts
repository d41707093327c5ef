/**
 * Recognises the image formats the read tool can attach (PNG, JPEG, GIF, WebP) by their
 * leading bytes, never by file extension. Decisions follow the `file-type` package the
 * reference uses, including its quirks: an animated PNG (acTL before IDAT) is not an
 * attachable image, and leading UTF-8 BOMs are skipped.
 *
 * @module
 */
import { nodeError } from "../util/fs.ts";

/** MIME types the read tool sends as image attachments. */
export type SupportedImageMimeType = "image/png" | "image/jpeg" | "image/gif" | "image/webp" | "image/bmp";

/** How many leading bytes are inspected (as file-type does). */
const SNIFF_BYTES = 4100;
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const MAX_PNG_CHUNKS = 512;
const MAX_BOM_SKIPS = 256;

function startsWith(bytes: Uint8Array, at: number, expected: number[]): boolean {
  if (at + expected.length > bytes.length) return false;
  return expected.every((b, i) => bytes[at + i] === b);
}

function ascii(bytes: Uint8Array, at: number, length: number): string {
  return String.fromCharCode(...bytes.subarray(at, at + length));
}

/** Walks PNG chunks up to the first IDAT; returns null for APNG or a malformed header. */
function sniffPng(bytes: Uint8Array, start: number): SupportedImageMimeType | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let pos = start + 8;
  let sawHeader = false;
  let chunks = 0;
  do {
    if (++chunks > MAX_PNG_CHUNKS) break;
    if (pos + 8 > bytes.length) return null;
    const length = view.getInt32(pos);
    const type = ascii(bytes, pos + 4, 4);
    if (length < 0) return null;
    if (type === "IHDR") {
      if (length !== 13) return null;
      sawHeader = true;
    }
    if (type === "IDAT") return "image/png";
    if (type === "acTL") return null;
    if (!sawHeader && type !== "CgBI") return null;
    const next = pos + 8 + length + 4;
    if (next > bytes.length) return "image/png";
    pos = next;
  } while (pos + 8 < bytes.length);
  return "image/png";
}

/** Identifies a supported image from its first bytes; null for anything else. */
export function detectSupportedImageMimeType(bytes: Uint8Array): SupportedImageMimeType | null {
  let start = 0;
  for (let skips = 0; skips < MAX_BOM_SKIPS && startsWith(bytes, start, [0xef, 0xbb, 0xbf]); skips++) {
    start += 3;
  }
  if (startsWith(bytes, start, [0x47, 0x49, 0x46])) return "image/gif";
  if (startsWith(bytes, start, [0xff, 0xd8, 0xff])) {
    return bytes[start + 3] === 0xf7 ? null : "image/jpeg";
  }
  if (startsWith(bytes, start, PNG_SIGNATURE)) return sniffPng(bytes, start);
  if (startsWith(bytes, start, [0x52, 0x49, 0x46, 0x46]) && bytes.length >= start + 12) {
    return ascii(bytes, start + 8, 4) === "WEBP" ? "image/webp" : null;
  }
  if (start === 0 && ascii(bytes, 0, 2) === "BM" && isBmp(bytes)) return "image/bmp";
  return null;
}

/** A plausible Windows bitmap header: sizes and offsets that agree, 1 plane, a known depth. */
function isBmp(b: Uint8Array): boolean {
  if (b.length < 26) return false;
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const fileSize = view.getUint32(2, true);
  const pixelOffset = view.getUint32(10, true);
  const dibSize = view.getUint32(14, true);
  if (fileSize !== 0 && fileSize < 26) return false;
  if (pixelOffset < 14 + dibSize) return false;
  if (fileSize !== 0 && pixelOffset >= fileSize) return false;
  let planes: number;
  let bits: number;
  if (dibSize === 12) {
    planes = view.getUint16(22, true);
    bits = view.getUint16(24, true);
  } else if (dibSize >= 40 && dibSize <= 124) {
    if (b.length < 30) return false;
    planes = view.getUint16(26, true);
    bits = view.getUint16(28, true);
  } else {
    return false;
  }
  return planes === 1 && [1, 4, 8, 16, 24, 32].includes(bits);
}

/** Reads the first bytes of a file and identifies a supported image; null for other files. */
export async function detectSupportedImageMimeTypeFromFile(
  filePath: string,
): Promise<SupportedImageMimeType | null> {
  let file: Deno.FsFile;
  try {
    file = await Deno.open(filePath, { read: true });
  } catch (error) {
    throw nodeError(error, "open", filePath);
  }
  try {
    const buffer = new Uint8Array(SNIFF_BYTES);
    let bytesRead: number | null;
    try {
      // One read, as Node's handle.read does; a folder fails here with EISDIR.
      bytesRead = await file.read(buffer);
    } catch (error) {
      throw nodeError(error, "read");
    }
    if (!bytesRead) return null;
    return detectSupportedImageMimeType(buffer.subarray(0, bytesRead));
  } finally {
    file.close();
  }
}
