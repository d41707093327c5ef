/**
 * Byte helpers that replace `Buffer` (base64, hex) without loading `node:buffer`.
 *
 * @module
 */

/** Standard base64 with padding, the same text as `Buffer.from(bytes).toString("base64")`. */
export function toBase64(bytes: Uint8Array): string {
  let binary = "";
  const chunk = 0x8000;
  for (let i = 0; i < bytes.length; i += chunk) {
    binary += String.fromCharCode(...bytes.subarray(i, i + chunk));
  }
  return btoa(binary);
}

/**
 * Decodes base64 like `Buffer.from(text, "base64")`: lenient about URL-safe letters, whitespace,
 * missing padding, and stops at the first padding character.
 */
export function fromBase64(text: string): Uint8Array {
  let clean = text.replace(/[^A-Za-z0-9+/\-_=]/g, "").replace(/-/g, "+").replace(/_/g, "/");
  const pad = clean.indexOf("=");
  if (pad !== -1) clean = clean.slice(0, pad);
  // A lone trailing character carries no whole byte; Buffer drops it.
  if (clean.length % 4 === 1) clean = clean.slice(0, -1);
  clean += "=".repeat((4 - (clean.length % 4)) % 4);
  const binary = atob(clean);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

/** `count` random bytes as lowercase hex, like `randomBytes(count).toString("hex")`. */
export function randomHex(count: number): string {
  const bytes = crypto.getRandomValues(new Uint8Array(count));
  let out = "";
  for (const byte of bytes) out += byte.toString(16).padStart(2, "0");
  return out;
}
