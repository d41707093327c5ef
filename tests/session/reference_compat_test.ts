/**
 * Files we write load in the reference pi 1.6.0. When the reference is installed
 * (scripts/reference/locate.ts), its Node loads our freshly written output live and must see
 * exactly what we see. Without it (`useReferenceFixtures()`), the stored verdicts recorded by
 * scripts/capture/sessions_reference.mjs stand in: they are compared with our view of today's
 * output after normalising what legitimately differs from day to day (ids, times).
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { join } from "node:path";
import { appendSampleEntries } from "./support/append_fixture.ts";
import { writeSampleSession } from "./support/write_session.ts";
import { FIXTURES, normalizeIds, ourView } from "./support/view.ts";
import { findReference } from "../../scripts/reference/locate.ts";
import { useReferenceFixtures } from "../support/spawn_pi.ts";

/** Fixture files (under tests/fixtures/sessions/) and the name of their stored verdicts. */
const NAMES: [string, string][] = [
  ...["branched", "compacted", "edits", "labels", "v1", "v2", "torn"].map((n): [string, string] => [
    `${n}.jsonl`,
    n,
  ]),
  ...["branched", "compacted", "labels", "torn"].map((n): [string, string] => [
    `0.73.1/${n}.jsonl`,
    `0.73.1-${n}`,
  ]),
];
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

const TIME_KEYS = new Set(["timestamp", "labelTimestamp", "created", "modified"]);

/**
 * Ids by position, every time field as `<T>`, the header's session id as `<SID>`: what two
 * views of files written on different days may differ in.
 */
function normalizeVolatile(view: unknown): unknown {
  const header = (view as { header?: { id?: string } }).header;
  const sid = header?.id;
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === "object") {
      return Object.fromEntries(
        Object.entries(v).map(([k, x]) => [k, TIME_KEYS.has(k) ? "<T>" : walk(x)]),
      );
    }
    return v === sid ? "<SID>" : v;
  };
  return walk(normalizeIds(view));
}

/** The reference's view of `file`, loaded live by its own Node. */
async function liveReferenceView(file: string): Promise<unknown> {
  const ref = findReference()!;
  const out = await new Deno.Command(ref.node, {
    args: [CAPTURE, "view", file],
    env: { PI_REFERENCE_DIR: ref.nodeModules.replace(/\/node_modules$/, "") },
    stdout: "piped",
    stderr: "inherit",
  }).output();
  if (!out.success) throw new Error(`reference failed to load ${file}`);
  return JSON.parse(new TextDecoder().decode(out.stdout));
}

for (const [file, stored] of NAMES) {
  Deno.test(`SES-04 SES-07 stored verdict: 1.6.0 loads ${file} after our appends exactly as we do`, async () => {
    const appended = join(FIXTURES, "ours", `${stored}.appended.jsonl`);
    const verdict = JSON.parse(
      await Deno.readTextFile(join(FIXTURES, "ours", `${stored}.appended.reference.json`)),
    );
    assertEquals(normalizeIds(await ourView(appended)), normalizeIds(verdict));
    // Every appended entry made it into the reference's view and the name it resolved is ours.
    assertEquals((verdict as { sessionName: string }).sessionName, "appended by deno");
  });

  Deno.test(`SES-04 appending to ${file} today gives the same line shapes, and 1.6.0 loads it as we do`, async () => {
    const dir = await Deno.makeTempDir();
    try {
      const copy = join(dir, "session.jsonl");
      await Deno.copyFile(join(FIXTURES, file), copy);
      const ids = appendSampleEntries(copy);
      assertEquals(await shape(copy), await shape(join(FIXTURES, "ours", `${stored}.appended.jsonl`)));
      const ours = await ourView(copy);
      if (useReferenceFixtures()) {
        const verdict = JSON.parse(
          await Deno.readTextFile(join(FIXTURES, "ours", `${stored}.appended.reference.json`)),
        );
        assertEquals(normalizeVolatile(ours), normalizeVolatile(verdict));
        return;
      }
      const ref = await liveReferenceView(copy) as { entries: { id: string }[] };
      assertEquals(ours, ref);
      const refIds = new Set(ref.entries.map((e) => e.id));
      for (const id of ids) assertEquals(refIds.has(id), true, `reference lost entry ${id}`);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
}

Deno.test("SES-03 SES-04 a session we write from scratch loads in 1.6.0 (stored verdict)", async () => {
  const verdict = JSON.parse(await Deno.readTextFile(join(FIXTURES, "ours", "written.reference.json")));
  assertEquals(await ourView(join(FIXTURES, "ours", "written.jsonl")), verdict);
});

Deno.test("SES-03 SES-04 a session we write now loads in 1.6.0 as we load it (live when installed)", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const file = writeSampleSession(dir);
    assertEquals(await shape(file), await shape(join(FIXTURES, "ours", "written.jsonl")));
    const ours = await ourView(file);
    if (useReferenceFixtures()) {
      const verdict = JSON.parse(await Deno.readTextFile(join(FIXTURES, "ours", "written.reference.json")));
      assertEquals(normalizeVolatile(ours), normalizeVolatile(verdict));
    } else {
      assertEquals(ours, await liveReferenceView(file));
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
