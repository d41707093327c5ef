/**
 * @file processing and the initial message, against the reference's processFileArguments output
 * (tests/fixtures/cli/units_reference.json from capture_units.mjs, same files and names).
 */
import { join } from "node:path";
import { assertEquals, assertRejects } from "../support/assert.ts";
import { processFileArguments } from "../../src/cli/file_processor.ts";
import { buildInitialMessage } from "../../src/cli/initial_message.ts";
import { CliExit } from "../../src/cli/cli_error.ts";

const units = JSON.parse(
  Deno.readTextFileSync(new URL("../fixtures/cli/units_reference.json", import.meta.url)),
) as { files: { args: string[]; autoResizeImages?: boolean; text: string; images: unknown[] }[] };

const DOT_PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

async function withFiles(fn: (tmp: string, files: string) => Promise<void>): Promise<void> {
  const tmp = await Deno.makeTempDir();
  const files = join(tmp, "files");
  try {
    await Deno.mkdir(files);
    await Deno.writeTextFile(join(files, "a.txt"), "hello\nworld");
    await Deno.writeTextFile(join(files, "empty.txt"), "");
    await Deno.writeTextFile(join(files, "trailing.md"), "line\n");
    await Deno.writeFile(join(files, "dot.png"), Uint8Array.from(atob(DOT_PNG), (c) => c.charCodeAt(0)));
    await fn(tmp, files);
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
}

for (const c of units.files) {
  Deno.test(`CLI-18 @file ${c.args.join(" ")}${c.autoResizeImages === false ? " (no resize)" : ""} equals the reference`, async () => {
    await withFiles(async (tmp, files) => {
      const args = c.args.map((a) => a.replace("<TMP>/files/", `${files}/`));
      const ours = await processFileArguments(args, { cwd: files, autoResizeImages: c.autoResizeImages });
      assertEquals({ text: ours.text.replaceAll(tmp, "<TMP>"), images: ours.images }, {
        text: c.text,
        images: c.images,
      });
    });
  });
}

Deno.test("CLI-18 a missing @file stops with 'Error: File not found: ABS' and exit 1", async () => {
  await withFiles(async (_tmp, files) => {
    const error = await assertRejects(() => processFileArguments(["nope.txt"], { cwd: files }));
    assertEquals(error instanceof CliExit && error.exitCode, 1);
    assertEquals(error.message, `Error: File not found: ${join(files, "nope.txt")}`);
  });
});

Deno.test("CLI-18 a directory is reported as unreadable instead of crashing", async () => {
  await withFiles(async (tmp) => {
    const error = await assertRejects(() => processFileArguments(["files"], { cwd: tmp }));
    assertEquals(error.message.startsWith(`Error: Could not read file ${join(tmp, "files")}: `), true);
  });
});

Deno.test("CLI-19 G2 initial message joins stdin, @file text and the first message with no separator", () => {
  const messages = ["first", "second"];
  const result = buildInitialMessage({
    messages,
    stdinContent: "piped",
    fileText: "<file>x</file>\n",
    fileImages: [{ type: "image", mimeType: "image/png", data: "AA==" }],
  });
  assertEquals(result, {
    initialMessage: "piped<file>x</file>\nfirst",
    initialImages: [{ type: "image", mimeType: "image/png", data: "AA==" }],
  });
  assertEquals(messages, ["second"]);
  assertEquals(buildInitialMessage({ messages: [], fileImages: [] }), {
    initialMessage: undefined,
    initialImages: undefined,
  });
});
