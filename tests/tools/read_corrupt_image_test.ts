/**
 * A claim of docs/tools.md, under test: an image whose header is valid and within the limits is attached as
 * it is, without decoding its pixels — so a file with corrupt pixel data is still attached (the reference
 * decodes every image and omits such a file).
 */
import { assertEquals } from "../support/assert.ts";
import { createReadTool } from "../../src/tools/read.ts";

/** A PNG signature and a valid 4×3 RGBA IHDR chunk, followed by bytes that are no image data at all. */
function corruptPng(): Uint8Array {
  const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  const ihdr = [
    0,
    0,
    0,
    13,
    0x49,
    0x48,
    0x44,
    0x52,
    0,
    0,
    0,
    4,
    0,
    0,
    0,
    3,
    8,
    6,
    0,
    0,
    0,
    0x12,
    0x34,
    0x56,
    0x78,
  ];
  const garbage = Array.from({ length: 64 }, (_, i) => (i * 37) & 0xff);
  return new Uint8Array([...signature, ...ihdr, ...garbage]);
}

Deno.test("READ-05 an image with a valid header and corrupt pixels that fits the limits is attached unchanged", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const bytes = corruptPng();
    await Deno.writeFile(`${dir}/broken.png`, bytes);
    const result = await createReadTool(dir).execute("call-1", { path: "broken.png" });
    const image = result.content.find((c) => c.type === "image") as
      | { data: string; mimeType: string }
      | undefined;
    assertEquals(image?.mimeType, "image/png");
    const sent = Uint8Array.from(atob(image!.data), (c) => c.charCodeAt(0));
    assertEquals(sent, bytes);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
