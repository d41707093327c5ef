/**
 * Pixel dimensions from the headers of base64 PNG, JPEG, GIF and WebP data, read like pi-tui 1.6.0's
 * `terminal-image.js` reads them (same checks, same answers for odd data).
 *
 * Base64 is decoded the way Node's `Buffer.from(text, "base64")` decodes it (lenient, stopping at the
 * first `=`), but only as far as the header needs: an image of megabytes is not decoded to read 24
 * bytes.
 *
 * @module
 */
import { fromBase64 } from "../util/bytes.ts";

/** An image's size in pixels. */
export interface ImageDimensions {
  /** Width in pixels. */
  widthPx: number;
  /** Height in pixels. */
  heightPx: number;
}

const BASE64_CHAR = /[A-Za-z0-9+/\-_]/;

/** The first bytes of the decoded data: at least `count` of them when the data has that many. */
function decodePrefix(base64: string, count: number): Uint8Array {
  const wanted = Math.ceil(count / 3) * 4;
  let seen = 0;
  let end = 0;
  while (end < base64.length && seen < wanted) {
    const char = base64[end];
    if (char === "=") break;
    if (BASE64_CHAR.test(char)) seen++;
    end++;
  }
  return fromBase64(base64.slice(0, end));
}

function u16be(bytes: Uint8Array, at: number): number {
  return (bytes[at] << 8) | bytes[at + 1];
}

function u16le(bytes: Uint8Array, at: number): number {
  return bytes[at] | (bytes[at + 1] << 8);
}

/** Node's `ascii` decoding: each byte with its high bit cleared. */
function ascii(bytes: Uint8Array, start: number, end: number): string {
  let text = "";
  for (let i = start; i < end; i++) text += String.fromCharCode(bytes[i] & 0x7f);
  return text;
}

/** Width and height of the IHDR chunk; null when the data does not start with PNG's signature. */
export function getPngDimensions(base64Data: string): ImageDimensions | null {
  const bytes = decodePrefix(base64Data, 24);
  if (bytes.length < 24) return null;
  if (bytes[0] !== 0x89 || bytes[1] !== 0x50 || bytes[2] !== 0x4e || bytes[3] !== 0x47) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { widthPx: view.getUint32(16), heightPx: view.getUint32(20) };
}

/** Walks the JPEG segments to the first SOF0-SOF2 frame header. */
function scanJpeg(bytes: Uint8Array): ImageDimensions | null {
  if (bytes.length < 2 || bytes[0] !== 0xff || bytes[1] !== 0xd8) return null;
  let offset = 2;
  while (offset < bytes.length - 9) {
    if (bytes[offset] !== 0xff) {
      offset++;
      continue;
    }
    const marker = bytes[offset + 1];
    if (marker >= 0xc0 && marker <= 0xc2) {
      return { widthPx: u16be(bytes, offset + 7), heightPx: u16be(bytes, offset + 5) };
    }
    const length = u16be(bytes, offset + 2);
    if (length < 2) return null;
    offset += 2 + length;
  }
  return null;
}

/** Size from the first SOF0-SOF2 frame header; null when there is none or the data is not JPEG. */
export function getJpegDimensions(base64Data: string): ImageDimensions | null {
  // The frame header usually follows within the first kilobytes (EXIF can push it to ~64 KiB).
  const head = decodePrefix(base64Data, 96 * 1024);
  const found = scanJpeg(head);
  if (found || head.length < 96 * 1024) return found;
  return scanJpeg(fromBase64(base64Data));
}

/** Logical screen size of a GIF87a/GIF89a. */
export function getGifDimensions(base64Data: string): ImageDimensions | null {
  const bytes = decodePrefix(base64Data, 10);
  if (bytes.length < 10) return null;
  const signature = ascii(bytes, 0, 6);
  if (signature !== "GIF87a" && signature !== "GIF89a") return null;
  return { widthPx: u16le(bytes, 6), heightPx: u16le(bytes, 8) };
}

/** Size from a WebP's VP8 (lossy), VP8L (lossless) or VP8X (extended) header. */
export function getWebpDimensions(base64Data: string): ImageDimensions | null {
  const bytes = decodePrefix(base64Data, 30);
  if (bytes.length < 30) return null;
  if (ascii(bytes, 0, 4) !== "RIFF" || ascii(bytes, 8, 12) !== "WEBP") return null;
  switch (ascii(bytes, 12, 16)) {
    case "VP8 ":
      return { widthPx: u16le(bytes, 26) & 0x3fff, heightPx: u16le(bytes, 28) & 0x3fff };
    case "VP8L": {
      const bits = bytes[21] | (bytes[22] << 8) | (bytes[23] << 16) | (bytes[24] << 24);
      return { widthPx: (bits & 0x3fff) + 1, heightPx: ((bits >> 14) & 0x3fff) + 1 };
    }
    case "VP8X":
      return {
        widthPx: (bytes[24] | (bytes[25] << 8) | (bytes[26] << 16)) + 1,
        heightPx: (bytes[27] | (bytes[28] << 8) | (bytes[29] << 16)) + 1,
      };
    default:
      return null;
  }
}

/** Dimensions for `image/png`, `image/jpeg`, `image/gif` and `image/webp`; null for other types. */
export function getImageDimensions(base64Data: string, mimeType: string): ImageDimensions | null {
  switch (mimeType) {
    case "image/png":
      return getPngDimensions(base64Data);
    case "image/jpeg":
      return getJpegDimensions(base64Data);
    case "image/gif":
      return getGifDimensions(base64Data);
    case "image/webp":
      return getWebpDimensions(base64Data);
    default:
      return null;
  }
}
