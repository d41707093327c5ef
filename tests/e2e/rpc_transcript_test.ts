/**
 * The reference's RPC transcript replayed against ours: the same script, fake model answers and
 * settings give the same records once ids, timestamps and paths are normalised. IDs: RPC-02,
 * RPC-04, RPC-07, RPC-10, RPC-11, RPC-12, RPC-18…RPC-24, EVT-01…EVT-04, EVT-07.
 */
import { assertEquals } from "../support/assert.ts";
import { readSessionLines } from "../support/agent_env.ts";
import { startRpc } from "../modes/rpc/support.ts";
import {
  loadTranscript,
  normalise,
  OUR_PACKAGE_DIR,
  REFERENCE_PACKAGE_DIR,
  replay,
} from "../modes/rpc/transcript.ts";

Deno.test("RPC-02 RPC-10 RPC-18 reference transcript (prompt, state, bash, stats, name, fork messages, compact, clone, fork) matches", async () => {
  const fixture = await loadTranscript();
  const f = await startRpc(fixture.turns, { settings: fixture.settings });
  try {
    const steps = await replay(f.client, fixture.script);
    const ours = normalise(steps, f.env.root, f.server.url) as typeof steps;
    const theirs = normalise(fixture.steps, fixture.root, fixture.url) as typeof steps;
    for (const [i, step] of theirs.entries()) {
      assertEquals(ours[i], step, `step ${i}: ${JSON.stringify(step.command)}`);
    }
    assertEquals(ours.length, theirs.length);
    // The compaction landed in the original session file with the answered result.
    const sessionFile = (steps[1].output[0] as { data: { sessionFile: string } }).data.sessionFile;
    const compactResult = (steps[9].output.find((r) =>
      r.type === "response"
    ) as { data: Record<string, unknown> })
      .data;
    const compaction = (await readSessionLines(sessionFile)).find((e) => e.type === "compaction");
    assertEquals(
      {
        summary: compaction?.summary,
        firstKeptEntryId: compaction?.firstKeptEntryId,
        tokensBefore: compaction?.tokensBefore,
      },
      { summary: compactResult.summary, firstKeptEntryId: compactResult.firstKeptEntryId, tokensBefore: 180 },
    );
    // The requests the model saw, including the compaction summary request.
    const ourRequests = f.server.requests.map((r) => ({ method: r.method, path: r.path, body: r.body }));
    assertEquals(
      normalise(ourRequests, f.env.root, f.server.url, OUR_PACKAGE_DIR),
      normalise(fixture.requests, fixture.root, fixture.url, REFERENCE_PACKAGE_DIR),
    );
  } finally {
    await f.close();
  }
});
