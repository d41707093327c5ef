/**
 * Case source that builds small images byte by byte inside a conformance case, the same on both
 * sides (tests/support/tui_oracle.ts), so the image tests need no binary fixtures:
 *
 * - `png(w, h)`: a real grayscale PNG (IHDR, stored-deflate IDAT with its Adler-32, CRC-32 on every
 *   chunk); `pngHeader(w, h)`: signature and IHDR only, for sizes too big to fill.
 * - `jpeg(w, h, { sof, pad, badLength })`: SOI, JFIF APP0, optional APP1 padding, DQT, a frame header
 *   (SOF0 by default), DHT, SOS, EOI.
 * - `gif(w, h, version)`: header, logical screen, 2-colour table, one image, trailer.
 * - `webpLossless(w, h)`, `webpExtended(w, h)`, `webpLossy(w, h)`: RIFF headers with VP8L, VP8X, VP8.
 * - `b64(bytes)`: standard base64 of a byte array.
 *
 * @module
 */
export const IMAGE_BYTES = `
const b64 = (bytes) => { let s = ""; for (const b of bytes) s += String.fromCharCode(b); return btoa(s); };
const ascii = (text) => [...text].map((c) => c.charCodeAt(0));
const u32be = (n) => [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
const u32le = (n) => u32be(n).reverse();
const u16le = (n) => [n & 255, (n >>> 8) & 255];
const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (bytes) => {
  let c = 0xffffffff;
  for (const b of bytes) c = crcTable[(c ^ b) & 255] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
const pngChunk = (type, data) => {
  const body = [...ascii(type), ...data];
  return [...u32be(data.length), ...body, ...u32be(crc32(body))];
};
const PNG_SIGNATURE = [137, 80, 78, 71, 13, 10, 26, 10];
const ihdr = (w, h) => pngChunk("IHDR", [...u32be(w), ...u32be(h), 8, 0, 0, 0, 0]);
const pngHeader = (w, h) => b64([...PNG_SIGNATURE, ...ihdr(w, h)]);
const png = (w, h) => {
  const raw = [];
  for (let y = 0; y < h; y++) {
    raw.push(0);
    for (let x = 0; x < w; x++) raw.push((x * 37 + y * 91) & 255);
  }
  let a = 1, b = 0;
  for (const v of raw) { a = (a + v) % 65521; b = (b + a) % 65521; }
  const zlib = [0x78, 0x01, 1, raw.length & 255, raw.length >> 8, ~raw.length & 255, (~raw.length >> 8) & 255,
    ...raw, ...u32be(((b << 16) | a) >>> 0)];
  return b64([...PNG_SIGNATURE, ...ihdr(w, h), ...pngChunk("IDAT", zlib), ...pngChunk("IEND", [])]);
};
const jpeg = (w, h, { sof = 0xc0, pad = 0, badLength = false } = {}) => b64([
  0xff, 0xd8,
  0xff, 0xe0, 0, 16, ...ascii("JFIF"), 0, 1, 1, 0, 0, 1, 0, 1, 0, 0,
  ...(pad ? [0xff, 0xe1, (pad + 2) >> 8, (pad + 2) & 255, ...Array(pad).fill(0x41)] : []),
  ...(badLength ? [0xff, 0xe2, 0, 1] : []),
  0xff, 0xdb, 0, 67, 0, ...Array(64).fill(1),
  0xff, sof, 0, 11, 8, h >> 8, h & 255, w >> 8, w & 255, 1, 1, 0x11, 0,
  0xff, 0xc4, 0, 20, 0, 1, ...Array(15).fill(0), 0,
  0xff, 0xda, 0, 8, 1, 1, 0, 0, 63, 0, 0, 0xff, 0xd9,
]);
const gif = (w, h, version = "89a") => b64([
  ...ascii("GIF" + version), ...u16le(w), ...u16le(h), 0x80, 0, 0, 0, 0, 0, 255, 255, 255,
  0x2c, 0, 0, 0, 0, ...u16le(w), ...u16le(h), 0, 2, 2, 0x44, 0x01, 0, 0x3b,
]);
const riff = (chunk, data) => [...ascii("RIFF"), ...u32le(data.length + 12), ...ascii("WEBP"), ...ascii(chunk),
  ...u32le(data.length), ...data];
const webpLossless = (w, h) => {
  const bits = ((w - 1) & 0x3fff) | (((h - 1) & 0x3fff) << 14) | (1 << 28);
  return b64(riff("VP8L", [0x2f, ...u32le(bits >>> 0), 0, 0, 0, 0, 0, 0]));
};
const webpExtended = (w, h) => b64(riff("VP8X", [0x10, 0, 0, 0, (w - 1) & 255, ((w - 1) >> 8) & 255,
  ((w - 1) >> 16) & 255, (h - 1) & 255, ((h - 1) >> 8) & 255, ((h - 1) >> 16) & 255]));
const webpLossy = (w, h) => b64(riff("VP8 ", [0x50, 0x01, 0, 0x9d, 0x01, 0x2a, ...u16le(w), ...u16le(h), 0, 0]));
`;
