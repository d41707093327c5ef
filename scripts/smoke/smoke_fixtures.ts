/**
 * What the release smoke test (`smoke.ts`) puts next to the binary: an extension file and a PNG
 * too wide for the inline limit (so reading it goes through photon's WebAssembly resize).
 *
 * @module
 */
import { crc32, deflateSync } from "node:zlib";

/** File name of the extension, written next to the binary and loaded with `-e ./hello_ext.ts`. */
export const EXTENSION_FILE = "hello_ext.ts";

/** The tool the extension registers. */
export const EXTENSION_TOOL = "smoke_hello";

/** What the extension's tool answers for `name`. */
export function extensionGreeting(name: string): string {
  return `Hello, ${name}! (from ${EXTENSION_FILE} next to the binary)`;
}

/**
 * The extension's source: TypeScript with a type import of pi's package and a value import of
 * `typebox`, so loading it exercises the TypeScript stripping and the host module registry of the
 * binary, not only a plain script.
 */
export const EXTENSION_SOURCE = `import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { Type } from "typebox";

export default function (pi: ExtensionAPI): void {
  pi.registerTool({
    name: ${JSON.stringify(EXTENSION_TOOL)},
    label: "Smoke hello",
    description: "Greets someone; registered by the release smoke test's extension.",
    parameters: Type.Object({ name: Type.String() }),
    execute: async (_toolCallId: string, params: { name: string }) => ({
      content: [{ type: "text", text: \`Hello, \${params.name}! (from ${EXTENSION_FILE} next to the binary)\` }],
      details: {},
    }),
  });
}
`;

/** File name of the image the model asks pi to read. */
export const IMAGE_FILE = "smoke.png";

/** Its size: wider than the 2000-pixel inline limit, so pi must resize it. */
export const IMAGE_SIZE = { width: 2400, height: 16 } as const;

/** A grayscale PNG of `width` × `height` with a gradient (so it is not trivially compressible). */
export function makePng(width: number, height: number): Uint8Array {
  const raw = new Uint8Array((width + 1) * height);
  for (let y = 0; y < height; y++) {
    raw[y * (width + 1)] = 0; // filter: none
    for (let x = 0; x < width; x++) raw[y * (width + 1) + 1 + x] = (x * 7 + y * 31) & 255;
  }
  const ihdr = new Uint8Array(13);
  const view = new DataView(ihdr.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  ihdr.set([8, 0, 0, 0, 0], 8); // 8-bit grayscale, deflate, no interlace
  return concat([
    new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk("IHDR", ihdr),
    chunk("IDAT", new Uint8Array(deflateSync(raw))),
    chunk("IEND", new Uint8Array(0)),
  ]);
}

/**
 * Width and height of a PNG (its IHDR) or a JPEG (its first start-of-frame segment); undefined for
 * anything else. pi sends a resized image as whichever of PNG and JPEG is smaller.
 */
export function imageSize(bytes: Uint8Array): { width: number; height: number } | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const png = [137, 80, 78, 71, 13, 10, 26, 10];
  if (bytes.length >= 24 && png.every((b, i) => bytes[i] === b)) {
    return { width: view.getUint32(16), height: view.getUint32(20) };
  }
  if (bytes[0] !== 0xff || bytes[1] !== 0xd8) return undefined;
  for (let at = 2; at + 9 < bytes.length;) {
    if (bytes[at] !== 0xff) return undefined;
    const marker = bytes[at + 1];
    // SOF0…SOF15 except DHT (C4), JPG (C8) and DAC (CC) carry the frame size.
    if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker)) {
      return { width: view.getUint16(at + 7), height: view.getUint16(at + 5) };
    }
    at += 2 + view.getUint16(at + 2);
  }
  return undefined;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const body = concat([new TextEncoder().encode(type), data]);
  const out = new Uint8Array(4 + body.length + 4);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  out.set(body, 4);
  view.setUint32(4 + body.length, crc32(body) >>> 0);
  return out;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
