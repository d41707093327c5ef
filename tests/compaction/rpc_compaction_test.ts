/**
 * Compaction over RPC, ours against pi 1.6.0 (tests/fixtures/compaction/rpc.json, recorded by
 * `scripts/capture/rpc_reference.mjs compaction` against the same fake provider): a summary
 * request that fails with a transient 503 is retried (summarization_retry_scheduled /
 * attempt_start / finished), the compaction entry carries the summary's usage and the system
 * checkpoint, a second compact is refused ("Already compacted"), and a summary cut off by the
 * output limit is reported and not stored, a reply over the threshold is compacted after its run
 * (before agent_settled), and a context overflow is omitted by a context edit, compacted (a split
 * turn: two summary requests) and retried. Request bodies, events, responses and the session's
 * entries are compared after normalising ids, times and paths. IDs: LOOP-10, LOOP-11, LOOP-12,
 * LOOP-13, LOOP-14, EVT-07, RPC-10.
 */
import type { Transcript } from "../modes/rpc/transcript.ts";
import { assertReplayMatches } from "./support.ts";

Deno.test("LOOP-13 LOOP-14 EVT-07 LOOP-10 LOOP-11 compaction over RPC as pi 1.6.0: retried summary, refusal, cut-off summary, threshold, overflow recovery, entries", async () => {
  const url = new URL("../fixtures/compaction/rpc.json", import.meta.url);
  const fixture: Transcript = JSON.parse(await Deno.readTextFile(url));
  await assertReplayMatches(fixture);
});
