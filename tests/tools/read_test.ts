import { deepStrictEqual as assertEquals, rejects } from "node:assert/strict";
import { createHash } from "node:crypto";
import { cp } from "node:fs/promises";
import { join } from "node:path";
import { createReadTool, type ReadToolInput, type ReadToolOptions } from "../../src/tools/read.ts";
import { formatDimensionNote, resizeImage } from "../../src/tools/image_resize.ts";
import {
  detectSupportedImageMimeType,
  detectSupportedImageMimeTypeFromFile,
} from "../../src/tools/image_mime.ts";

// Expectations were captured from the reference pi 1.6.0 read tool on the same input files by
// scripts/capture/tools_reference.mjs (see tests/fixtures/tools/read/README.md).
const fixtureDir = new URL("../fixtures/tools/read/", import.meta.url).pathname;
interface Case {
  name: string;
  args: ReadToolInput;
  options?: ReadToolOptions;
  content?: unknown[];
  details?: unknown;
  structuredContent?: unknown;
  error?: string;
}
const expected = JSON.parse(await Deno.readTextFile(join(fixtureDir, "expected.json"))) as {
  tool: { name: string; label: string; description: string; parameters: unknown };
  cases: Case[];
};

function summarize(content: { type: string; data?: string; mimeType?: string }[]): unknown[] {
  return content.map((c) =>
    c.type === "image"
      ? {
        type: "image",
        mimeType: c.mimeType,
        dataSha256: createHash("sha256").update(c.data!).digest("hex"),
        dataLength: c.data!.length,
      }
      : c
  );
}

/** Structured results with the image payload as sha256 + length, as the capture stores them. */
function summarizeStructured(value: unknown): unknown {
  if (value && typeof value === "object" && (value as { type?: string }).type === "image") {
    const { data, ...rest } = value as { data: string };
    return { ...rest, dataSha256: createHash("sha256").update(data).digest("hex"), dataLength: data.length };
  }
  return value;
}

Deno.test("READ-01 tool metadata and JSON schema match the reference", () => {
  const tool = createReadTool("/tmp");
  assertEquals(
    { name: tool.name, label: tool.label, description: tool.description, parameters: tool.parameters },
    {
      name: expected.tool.name,
      label: expected.tool.label,
      description: expected.tool.description,
      parameters: expected.tool.parameters,
    },
  );
  assertEquals(JSON.stringify(tool.parameters), JSON.stringify(expected.tool.parameters));
  const meta = expected.tool as unknown as { promptSnippet: string; promptGuidelines: string[] };
  assertEquals(tool.promptSnippet, meta.promptSnippet);
  assertEquals(tool.promptGuidelines, meta.promptGuidelines);
  const declared = expected.tool as unknown as { outputSchema: unknown; constrainedSampling: unknown };
  assertEquals(JSON.stringify(tool.outputSchema ?? null), JSON.stringify(declared.outputSchema));
  assertEquals(tool.constrainedSampling ?? null, declared.constrainedSampling);
});

for (const c of expected.cases) {
  Deno.test(`${c.name} (reference fixture)`, async () => {
    const dir = await Deno.makeTempDir({ prefix: "pi-read-" });
    try {
      await cp(join(fixtureDir, "files"), dir, { recursive: true });
      const tool = createReadTool(dir, c.options);
      if (c.error !== undefined) {
        await rejects(tool.execute("call-1", c.args), (e: Error) => {
          assertEquals(e.message.split(dir).join("<DIR>"), c.error);
          return true;
        });
        return;
      }
      const result = await tool.execute("call-1", c.args);
      assertEquals(summarize(result.content), c.content);
      assertEquals(JSON.parse(JSON.stringify(result.details ?? null)), c.details);
      assertEquals(summarizeStructured(result.structuredContent), c.structuredContent);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
}

Deno.test("READ-02 resize falls back to smaller JPEG encodings under a tight byte budget", async () => {
  const png = await Deno.readFile(join(fixtureDir, "files/wide.png"));
  const base64 = encodeBase64(png);
  const result = await resizeImage({ data: base64, mimeType: "image/png" }, { maxBytes: 40_000 });
  if (!result) throw new Error("expected a resized image");
  assertEquals(result.mimeType, "image/jpeg");
  assertEquals([result.originalWidth, result.originalHeight, result.width, result.height], [
    2400,
    30,
    2000,
    25,
  ]);
  assertEquals(result.data.length < 40_000, true);
  assertEquals(
    formatDimensionNote(result),
    "[Image: original 2400x30, displayed at 2000x25. Multiply coordinates by 1.20 to map to original image.]",
  );
  assertEquals(await resizeImage({ data: base64, mimeType: "image/png" }, { maxBytes: 10 }), null);
});

Deno.test("READ-02 image sniffing follows 1.6.0's rules", () => {
  // Expected values printed by the reference's utils/mime.js (1.6.0) on the same bytes.
  const enc = (text: string) => [...new TextEncoder().encode(text)];
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  const cases: [number[], string | null][] = [
    [[0xff, 0xd8, 0xff, 0xe0], "image/jpeg"],
    [[0xff, 0xd8, 0xff, 0xf7], null],
    [enc("GIF89a"), "image/gif"],
    [enc("GIF is a format"), null],
    [enc("RIFF\0\0\0\0WEBPVP8 "), "image/webp"],
    [enc("RIFF\0\0\0\0WAVEfmt "), null],
    [png, null],
    [[...png, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, ...new Array(17).fill(0)], "image/png"],
    [[0xef, 0xbb, 0xbf, ...enc("GIF89a")], null],
    [enc("plain text"), null],
    [enc("BM"), null],
  ];
  for (const [bytes, expected] of cases) {
    assertEquals(detectSupportedImageMimeType(new Uint8Array(bytes)), expected, JSON.stringify(bytes));
  }
});

Deno.test("READ-05 aborted signal rejects with the reference message", async () => {
  const controller = new AbortController();
  controller.abort();
  await rejects(
    createReadTool(fixtureDir).execute("c", { path: "files/small.txt" }, controller.signal),
    { message: "Operation aborted" },
  );
});

function encodeBase64(bytes: Uint8Array): string {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

/** Reads a file in pieces of `size` bytes, so lines and UTF-8 characters straddle chunks. */
async function* chunked(path: string, size: number): AsyncGenerator<Uint8Array> {
  const bytes = await Deno.readFile(path);
  for (let i = 0; i < bytes.length; i += size) yield bytes.slice(i, i + size);
}

Deno.test("READ-03 READ-04 whole-file and 7-byte-chunk streaming give the reference's text results", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pi-read-" });
  try {
    await cp(join(fixtureDir, "files"), dir, { recursive: true });
    const base = {
      readFile: (p: string) => Deno.readFile(p),
      access: async (p: string) => void await Deno.stat(p),
      detectImageMimeType: detectSupportedImageMimeTypeFromFile,
    };
    const variants = {
      whole: base,
      chunks: { ...base, createReadStream: (p: string) => chunked(p, 7) },
    };
    for (const [name, operations] of Object.entries(variants)) {
      for (const c of expected.cases) {
        if (c.options || c.error !== undefined || c.name.startsWith("READ-02")) continue;
        const result = await createReadTool(dir, { operations }).execute("call-1", c.args);
        assertEquals(result.content, c.content, `${name}: ${c.name}`);
        assertEquals(JSON.parse(JSON.stringify(result.details ?? null)), c.details, `${name}: ${c.name}`);
      }
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
