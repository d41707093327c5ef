/**
 * Files we write load in the reference. Stored verdicts (the reference's view of our output,
 * recorded by scripts/capture/sessions_reference.mjs) are checked always; when the reference is
 * installed at /work/ref, node also loads freshly written output live.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { appendSampleEntries } from "./support/append_fixture.ts";
import { writeSampleSession } from "./support/write_session.ts";
import { FIXTURES, normalizeIds, ourView } from "./support/view.ts";

const NAMES = ["branched", "compacted", "labels", "v1", "v2", "torn"];
const REF = "/work/ref/node_modules/@mariozechner/pi-coding-agent";
const CAPTURE = new URL("../../scripts/capture/sessions_reference.mjs", import.meta.url).pathname;

/** Entry types and key order of a JSONL file, ids and times left out. */
async function shape(file: string): Promise<string[]> {
  const text = await Deno.readTextFile(file);
  return text.split("\n").filter((l) => l.trim()).map((l) => {
    try {
      const v = JSON.parse(l);
      return `${v.type}:${Object.keys(v).join(",")}`;
    } catch {
      return "<malformed>";
    }
  });
}

/** The reference's view of `file`: live via node when installed, else the stored verdict. */
async function referenceView(file: string, stored: string): Promise<unknown> {
  if (!existsSync(REF)) return JSON.parse(await Deno.readTextFile(stored));
  const out = await new Deno.Command("node", {
    args: [CAPTURE, "view", file],
    stdout: "piped",
    stderr: "inherit",
  })
    .output();
  if (!out.success) throw new Error(`reference failed to load ${file}`);
  return JSON.parse(new TextDecoder().decode(out.stdout));
}

for (const name of NAMES) {
  Deno.test(`SES-04 SES-07 stored verdict: the reference loads ${name}.jsonl after our appends exactly as we do`, async () => {
    const file = join(FIXTURES, "ours", `${name}.appended.jsonl`);
    const verdict = JSON.parse(
      await Deno.readTextFile(join(FIXTURES, "ours", `${name}.appended.reference.json`)),
    );
    const ours = await ourView(file);
    assertEquals(normalizeIds(ours), normalizeIds(verdict));
    // Every appended entry made it into the reference's view and the name it resolved is ours.
    assertEquals((verdict as { sessionName: string }).sessionName, "appended by deno");
  });

  Deno.test(`SES-04 appending to ${name}.jsonl today gives the same line shapes, and the reference loads it`, async () => {
    const dir = await Deno.makeTempDir();
    try {
      const file = join(dir, `${name}.jsonl`);
      await Deno.copyFile(join(FIXTURES, `${name}.jsonl`), file);
      const ids = appendSampleEntries(file);
      const stored = join(FIXTURES, "ours", `${name}.appended.jsonl`);
      assertEquals(await shape(file), await shape(stored));
      const ref = await referenceView(file, join(FIXTURES, "ours", `${name}.appended.reference.json`)) as {
        entries: { id: string }[];
      };
      const ours = await ourView(file);
      if (existsSync(REF)) {
        assertEquals(normalizeIds(ours), normalizeIds(ref));
        const refIds = new Set(ref.entries.map((e) => e.id));
        for (const id of ids) assertEquals(refIds.has(id), true, `reference lost entry ${id}`);
      } else {
        assertEquals(normalizeIds(ours), normalizeIds(ref));
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
}

Deno.test("SES-03 SES-04 a session we write from scratch loads in the reference (stored verdict)", async () => {
  const verdict = JSON.parse(await Deno.readTextFile(join(FIXTURES, "ours", "written.reference.json")));
  assertEquals(await ourView(join(FIXTURES, "ours", "written.jsonl")), verdict);
});

Deno.test("SES-03 SES-04 a session we write now loads in the reference (live when installed)", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const file = writeSampleSession(dir);
    assertEquals(await shape(file), await shape(join(FIXTURES, "ours", "written.jsonl")));
    const ref = await referenceView(file, join(FIXTURES, "ours", "written.reference.json"));
    const ours = await ourView(file);
    assertEquals(normalizeIds(ours), normalizeIds(ref));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
