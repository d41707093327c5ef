/**
 * READ-02 image processing shared by the read tool and `@file` arguments: a BMP becomes a PNG
 * with a conversion hint (resized or not), and bytes that do not decode are left out with the
 * reference's note.
 */
import { assertEquals } from "../support/assert.ts";
import { processImage } from "../../src/tools/image_process.ts";
import { fromBase64 } from "../../src/util/bytes.ts";

const bmp = Deno.readFileSync(new URL("../fixtures/tools/read/files/image.bmp", import.meta.url));

Deno.test("READ-02 processImage converts BMP to PNG and says so, with or without resizing", async () => {
  for (const autoResizeImages of [true, false]) {
    const r = await processImage(bmp, "image/bmp", { autoResizeImages });
    if (!r.ok) throw new Error(r.message);
    assertEquals(r.mimeType, "image/png");
    assertEquals(r.hints, ["[Image converted from image/bmp to image/png.]"]);
    assertEquals([...fromBase64(r.data).subarray(1, 4)].map((c) => String.fromCharCode(c)).join(""), "PNG");
  }
});

Deno.test("READ-02 processImage leaves out a BMP that does not decode", async () => {
  const broken = bmp.slice(0, 40);
  assertEquals(await processImage(broken, "image/bmp"), {
    ok: false,
    message: "[Image omitted: could not be converted to a supported inline image format.]",
  });
});
