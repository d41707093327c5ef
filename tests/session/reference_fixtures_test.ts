/**
 * Session files written by the reference 0.73.1 (and hand-written v1/v2 files) load in our
 * SessionManager with the same entries, leaf, tree, labels, name and LLM context as the
 * reference computed (tests/fixtures/sessions/*.expected.json, from
 * scripts/capture/sessions_reference.mjs).
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { join } from "node:path";
import { normalizeIds, ourView } from "./support/view.ts";
import { FIXTURES } from "./support/view.ts";
import { SessionManager } from "../../src/session/session_manager.ts";

const CASES: [string, string][] = [
  ["branched", "SES-10 SES-11 branched tree with branch summary, bash and custom messages"],
  ["compacted", "SES-10 LOOP-15 compacted twice: latest compaction, kept entries, later entries"],
  ["labels", "SES-12 labels replaced and cleared, name cleared"],
  ["v1", "SES-09 v1 file migrated: ids, parent chain, firstKeptEntryIndex, hookMessage"],
  ["v2", "SES-09 v2 file migrated: hookMessage becomes custom"],
  ["torn", "SES-08 torn last line is ignored like the reference does"],
];

for (const [name, title] of CASES) {
  Deno.test(`${title} (reference fixture ${name}.jsonl)`, async () => {
    const expected = JSON.parse(await Deno.readTextFile(join(FIXTURES, `${name}.expected.json`)));
    const ours = await ourView(join(FIXTURES, `${name}.jsonl`));
    if (name === "v1") assertEquals(normalizeIds(ours), normalizeIds(expected));
    else assertEquals(ours, expected);
  });
}

Deno.test("SES-16 listing of reference files matches the reference's SessionInfo list", async () => {
  const dir = await Deno.makeTempDir();
  try {
    for (const [name] of CASES) {
      await Deno.copyFile(join(FIXTURES, `${name}.jsonl`), join(dir, `${name}.jsonl`));
    }
    const expected = JSON.parse(await Deno.readTextFile(join(FIXTURES, "list.expected.json")));
    const infos = await SessionManager.list("/unused", dir);
    const ours = JSON.parse(JSON.stringify(infos.map((i) => ({
      ...i,
      path: i.path.slice(dir.length + 1),
      created: i.created.toISOString(),
      modified: i.modified.toISOString(),
    }))));
    // Files with equal `modified` may come in either order; compare as sets keyed by path.
    const byPath = (l: { path: string }[]) => [...l].sort((a, b) => a.path.localeCompare(b.path));
    assertEquals(byPath(ours), byPath(expected));
    assertEquals(
      ours.map((i: { modified: string }) => i.modified),
      expected.map((i: { modified: string }) => i.modified),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
