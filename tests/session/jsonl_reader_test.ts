/** The chunked line reader: lines across chunk edges, multi-byte text, torn tails. */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { join } from "node:path";
import { readLines, readLinesSync } from "../../src/session/jsonl_reader.ts";

Deno.test("SES-08 lines longer than a chunk and multi-byte characters split correctly", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const file = join(dir, "x.jsonl");
    const long = "é€😀".repeat(400_000); // ~3.6 MB, crosses several 1 MiB chunks mid-character
    Deno.writeTextFileSync(file, `a\n${long}\n\nlast`);
    const seen: [string, number, boolean][] = [];
    const scan = readLinesSync(file, (l, n, t) => {
      seen.push([l.length > 10 ? `long:${l === long}` : l, n, t]);
    });
    assertEquals(seen, [["a", 1, true], ["long:true", 2, true], ["", 3, true], ["last", 4, false]]);
    assertEquals(scan.endsWithNewline, false);
    const async: string[] = [];
    await readLines(file, (l) => {
      async.push(l.length > 10 ? "long" : l);
      if (l === "") return false;
    });
    assertEquals(async, ["a", "long", ""]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
