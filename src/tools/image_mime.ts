/**
 * Recognises the image formats the read tool can attach (PNG, JPEG, GIF, WebP, BMP) by their
 * leading bytes, never by file extension, with the reference's (1.6.0) rules: full signatures,
 * a PNG must start with its IHDR chunk, and an animated PNG (acTL before IDAT) is not an
 * attachable image.
 *
 * @module
 */
import { nodeError } from "../util/fs.ts";

/** MIME types the read tool sends as image attachments. */
export type SupportedImageMimeType = "image/png" | "image/jpeg" | "image/gif" | "image/webp" | "image/bmp";

/** How many leading bytes are inspected. */
const SNIFF_BYTES = 4100;
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function startsWith(bytes: Uint8Array, at: number, expected: number[]): boolean {
  if (at + expected.length > bytes.length) return false;
  return expected.every((b, i) => bytes[at + i] === b);
}

function startsWithAscii(bytes: Uint8Array, at: number, text: string): boolean {
  return startsWith(bytes, at, [...text].map((c) => c.charCodeAt(0)));
}

function u32be(b: Uint8Array, at: number): number {
  return (b[at] ?? 0) * 0x1000000 + ((b[at + 1] ?? 0) << 16) + ((b[at + 2] ?? 0) << 8) + (b[at + 3] ?? 0);
}

function u32le(b: Uint8Array, at: number): number {
  return (b[at] ?? 0) + ((b[at + 1] ?? 0) << 8) + ((b[at + 2] ?? 0) << 16) + (b[at + 3] ?? 0) * 0x1000000;
}

function u16le(b: Uint8Array, at: number): number {
  return (b[at] ?? 0) + ((b[at + 1] ?? 0) << 8);
}

/** A PNG whose first chunk is a 13-byte IHDR. */
function isPng(b: Uint8Array): boolean {
  return b.length >= 16 && u32be(b, PNG_SIGNATURE.length) === 13 && startsWithAscii(b, 12, "IHDR");
}

/** An animation control chunk (acTL) before the first image data (IDAT): APNG, not attachable. */
function isAnimatedPng(b: Uint8Array): boolean {
  let offset = PNG_SIGNATURE.length;
  while (offset + 8 <= b.length) {
    const length = u32be(b, offset);
    if (startsWithAscii(b, offset + 4, "acTL")) return true;
    if (startsWithAscii(b, offset + 4, "IDAT")) return false;
    const next = offset + 8 + length + 4;
    if (next <= offset || next > b.length) return false;
    offset = next;
  }
  return false;
}

/** A plausible Windows bitmap header: sizes and offsets that agree, 1 plane, a known depth. */
function isBmp(b: Uint8Array): boolean {
  if (b.length < 26) return false;
  const fileSize = u32le(b, 2);
  const pixelOffset = u32le(b, 10);
  const dibSize = u32le(b, 14);
  if (fileSize !== 0 && fileSize < 26) return false;
  if (pixelOffset < 14 + dibSize) return false;
  if (fileSize !== 0 && pixelOffset >= fileSize) return false;
  let planes: number;
  let bits: number;
  if (dibSize === 12) {
    planes = u16le(b, 22);
    bits = u16le(b, 24);
  } else if (dibSize >= 40 && dibSize <= 124) {
    if (b.length < 30) return false;
    planes = u16le(b, 26);
    bits = u16le(b, 28);
  } else {
    return false;
  }
  return planes === 1 && [1, 4, 8, 16, 24, 32].includes(bits);
}

/** Identifies a supported image from its first bytes; null for anything else. */
export function detectSupportedImageMimeType(bytes: Uint8Array): SupportedImageMimeType | null {
  if (startsWith(bytes, 0, [0xff, 0xd8, 0xff])) return bytes[3] === 0xf7 ? null : "image/jpeg";
  if (startsWith(bytes, 0, PNG_SIGNATURE)) return isPng(bytes) && !isAnimatedPng(bytes) ? "image/png" : null;
  // The whole signature, so a text file that starts with "GIF" stays text.
  if (startsWithAscii(bytes, 0, "GIF87a") || startsWithAscii(bytes, 0, "GIF89a")) return "image/gif";
  if (startsWithAscii(bytes, 0, "RIFF") && startsWithAscii(bytes, 8, "WEBP")) return "image/webp";
  if (startsWithAscii(bytes, 0, "BM") && isBmp(bytes)) return "image/bmp";
  return null;
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
