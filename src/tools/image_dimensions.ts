/**
 * Pixel dimensions read from image headers, so the read tool can tell whether an image needs
 * resizing without loading an image codec. Returns null when a header cannot be understood;
 * callers then fall back to fully decoding the image.
 *
 * @module
 */

/** Width and height in pixels, as stored (before EXIF orientation). */
export interface ImageSize {
  width: number;
  height: number;
}

function u16be(b: Uint8Array, p: number): number {
  return (b[p] << 8) | b[p + 1];
}

function u16le(b: Uint8Array, p: number): number {
  return b[p] | (b[p + 1] << 8);
}

function u24le(b: Uint8Array, p: number): number {
  return b[p] | (b[p + 1] << 8) | (b[p + 2] << 16);
}

function pngSize(b: Uint8Array): ImageSize | null {
  if (b.length < 24) return null;
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

function gifSize(b: Uint8Array): ImageSize | null {
  return b.length < 10 ? null : { width: u16le(b, 6), height: u16le(b, 8) };
}

/** Start-of-frame markers carry the frame size; C4 (DHT), C8 (JPG) and CC (DAC) are not frames. */
function isStartOfFrame(marker: number): boolean {
  return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
}

function jpegSize(b: Uint8Array): ImageSize | null {
  let pos = 2;
  while (pos + 4 <= b.length) {
    if (b[pos] !== 0xff) return null;
    const marker = b[pos + 1];
    if (marker === 0xff) {
      pos++;
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      pos += 2;
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return null;
    if (isStartOfFrame(marker)) {
      if (pos + 9 > b.length) return null;
      return { height: u16be(b, pos + 5), width: u16be(b, pos + 7) };
    }
    pos += 2 + u16be(b, pos + 2);
  }
  return null;
}

function webpSize(b: Uint8Array): ImageSize | null {
  if (b.length < 30) return null;
  const chunk = String.fromCharCode(b[12], b[13], b[14], b[15]);
  if (chunk === "VP8 ") {
    if (b[23] !== 0x9d || b[24] !== 0x01 || b[25] !== 0x2a) return null;
    return { width: u16le(b, 26) & 0x3fff, height: u16le(b, 28) & 0x3fff };
  }
  if (chunk === "VP8L") {
    if (b[20] !== 0x2f) return null;
    const bits = (b[21] | (b[22] << 8) | (b[23] << 16) | (b[24] << 24)) >>> 0;
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === "VP8X") {
    return { width: u24le(b, 24) + 1, height: u24le(b, 27) + 1 };
  }
  return null;
}

/** Reads the stored size of a PNG, GIF, JPEG or WebP image; null if the header is not understood. */
export function readImageSize(bytes: Uint8Array, mimeType: string): ImageSize | null {
  const size = mimeType === "image/png"
    ? pngSize(bytes)
    : mimeType === "image/gif"
    ? gifSize(bytes)
    : mimeType === "image/jpeg"
    ? jpegSize(bytes)
    : mimeType === "image/webp"
    ? webpSize(bytes)
    : null;
  return size && size.width > 0 && size.height > 0 ? size : null;
}
