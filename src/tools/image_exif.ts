/**
 * EXIF orientation of JPEG and WebP files. Phone photos are often stored sideways with an
 * orientation tag; images sent to a model must be upright, and their reported dimensions
 * must be the upright ones.
 *
 * @module
 */

function hasExifHeader(bytes: Uint8Array, at: number): boolean {
  // "Exif\0\0"
  return bytes[at] === 0x45 && bytes[at + 1] === 0x78 && bytes[at + 2] === 0x69 && bytes[at + 3] === 0x66 &&
    bytes[at + 4] === 0 && bytes[at + 5] === 0;
}

function jpegTiffStart(bytes: Uint8Array): number {
  let pos = 2;
  while (pos < bytes.length - 1) {
    if (bytes[pos] !== 0xff) return -1;
    const marker = bytes[pos + 1];
    if (marker === 0xff) {
      pos++;
      continue;
    }
    if (marker === 0xe1) {
      // Only the first APP1 segment is considered; if it is not EXIF there is no orientation.
      const payload = pos + 4;
      if (pos + 4 >= bytes.length || payload + 6 > bytes.length) return -1;
      return hasExifHeader(bytes, payload) ? payload + 6 : -1;
    }
    if (pos + 4 > bytes.length) return -1;
    pos += 2 + ((bytes[pos + 2] << 8) | bytes[pos + 3]);
  }
  return -1;
}

function webpTiffStart(bytes: Uint8Array): number {
  let pos = 12;
  while (pos + 8 <= bytes.length) {
    const id = String.fromCharCode(bytes[pos], bytes[pos + 1], bytes[pos + 2], bytes[pos + 3]);
    const size = bytes[pos + 4] | (bytes[pos + 5] << 8) | (bytes[pos + 6] << 16) | (bytes[pos + 7] << 24);
    const data = pos + 8;
    if (id === "EXIF") {
      if (data + size > bytes.length) return -1;
      return size >= 6 && hasExifHeader(bytes, data) ? data + 6 : data;
    }
    pos = data + size + (size % 2);
  }
  return -1;
}

function orientationFromTiff(bytes: Uint8Array, tiff: number): number {
  if (tiff + 8 > bytes.length) return 1;
  const littleEndian = ((bytes[tiff] << 8) | bytes[tiff + 1]) === 0x4949;
  const u16 = (p: number) => littleEndian ? bytes[p] | (bytes[p + 1] << 8) : (bytes[p] << 8) | bytes[p + 1];
  const u32 = (p: number) =>
    littleEndian
      ? bytes[p] | (bytes[p + 1] << 8) | (bytes[p + 2] << 16) | (bytes[p + 3] << 24)
      : ((bytes[p] << 24) | (bytes[p + 1] << 16) | (bytes[p + 2] << 8) | bytes[p + 3]) >>> 0;
  const ifd = tiff + u32(tiff + 4);
  if (ifd + 2 > bytes.length) return 1;
  const entries = u16(ifd);
  for (let i = 0; i < entries; i++) {
    const entry = ifd + 2 + i * 12;
    if (entry + 12 > bytes.length) return 1;
    if (u16(entry) === 0x0112) {
      const value = u16(entry + 8);
      return value >= 1 && value <= 8 ? value : 1;
    }
  }
  return 1;
}

/** The EXIF orientation (1–8) of a JPEG or WebP file; 1 (upright) when absent or unreadable. */
export function getExifOrientation(bytes: Uint8Array): number {
  let tiff = -1;
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xd8) {
    tiff = jpegTiffStart(bytes);
  } else if (
    bytes.length >= 12 && String.fromCharCode(...bytes.subarray(0, 4)) === "RIFF" &&
    String.fromCharCode(...bytes.subarray(8, 12)) === "WEBP"
  ) {
    tiff = webpTiffStart(bytes);
  }
  return tiff === -1 ? 1 : orientationFromTiff(bytes, tiff);
}

/** Orientations 5–8 involve a quarter turn, so width and height trade places. */
export function orientationSwapsAxes(orientation: number): boolean {
  return orientation >= 5 && orientation <= 8;
}
