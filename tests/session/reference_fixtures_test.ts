/**
 * Session files written by the reference pi 1.6.0 (and hand-written v1/v2 files) load in our
 * SessionManager with the same entries, leaf, tree, labels, name, projection and LLM context as
 * the reference computed (tests/fixtures/sessions/*.expected.json, from
 * scripts/capture/sessions_reference.mjs). Files written by pi 0.73.1
 * (tests/fixtures/sessions/0.73.1/) still load the way 1.6.0 loads them: users upgrade with old
 * sessions.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { join } from "node:path";
import { normalizeIds, ourView } from "./support/view.ts";
import { FIXTURES } from "./support/view.ts";
import { SessionManager } from "../../src/session/session_manager.ts";

const CASES: [string, string][] = [
  [
    "branched",
    "SES-10 SES-11 branched tree with system prompt patch, branch summary usage, bash and custom messages",
  ],
  [
    "compacted",
    "SES-10 LOOP-15 compacted twice (checkpoint, summary usage, then retain-none), usage entries",
  ],
  ["edits", "SES-10 context_edit omits a failed attempt and replaces content; a branch before the edits"],
  ["labels", "SES-12 labels replaced and cleared, name cleared"],
  ["v1", "SES-09 v1 file migrated: ids, parent chain, firstKeptEntryIndex, hookMessage"],
  ["v2", "SES-09 v2 file migrated: hookMessage becomes custom"],
  ["torn", "SES-08 torn last line is ignored like the reference does"],
];

/** Files pi 0.73.1 wrote, as 1.6.0 loads them. */
const LEGACY: [string, string][] = [
  ["branched", "SES-09 a 0.73.1 branched session (no system messages) loads as in 1.6.0"],
  ["compacted", "SES-09 a 0.73.1 compacted session (no checkpoint) loads as in 1.6.0"],
  ["labels", "SES-09 a 0.73.1 session with labels loads as in 1.6.0"],
  ["torn", "SES-09 SES-08 a torn 0.73.1 session loads as in 1.6.0"],
];

for (const [name, title] of CASES) {
  Deno.test(`${title} (1.6.0 fixture ${name}.jsonl)`, async () => {
    const expected = JSON.parse(await Deno.readTextFile(join(FIXTURES, `${name}.expected.json`)));
    const ours = await ourView(join(FIXTURES, `${name}.jsonl`));
    if (name === "v1") assertEquals(normalizeIds(ours), normalizeIds(expected));
    else assertEquals(ours, expected);
  });
}

for (const [name, title] of LEGACY) {
  Deno.test(`${title} (0.73.1 fixture ${name}.jsonl)`, async () => {
    const expected = JSON.parse(await Deno.readTextFile(join(FIXTURES, "0.73.1", `${name}.expected.json`)));
    assertEquals(await ourView(join(FIXTURES, "0.73.1", `${name}.jsonl`)), expected);
  });
}

Deno.test("SES-16 listing of one folder (listAll(dir)) matches the reference's SessionInfo list", async () => {
  const dir = await Deno.makeTempDir();
  try {
    for (const [name] of CASES) {
      await Deno.copyFile(join(FIXTURES, `${name}.jsonl`), join(dir, `${name}.jsonl`));
    }
    for (const [name] of LEGACY) {
      await Deno.copyFile(join(FIXTURES, "0.73.1", `${name}.jsonl`), join(dir, `0.73.1-${name}.jsonl`));
    }
    const expected = JSON.parse(await Deno.readTextFile(join(FIXTURES, "list.expected.json")));
    const infos = await SessionManager.listAll(dir);
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
