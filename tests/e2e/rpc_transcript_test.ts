/**
 * pi 1.6.0's RPC transcript replayed against ours: the same script, fake model answers and
 * settings give the same records once ids, timestamps, paths, live usage figures and bash
 * chunking are normalised (the capture is deterministic under that normalisation). IDs: RPC-02,
 * RPC-04, RPC-07, RPC-10, RPC-11, RPC-12, RPC-18…RPC-24, EVT-01…EVT-04.
 */
import { assertEquals } from "../support/assert.ts";
import { readSessionLines } from "../support/agent_env.ts";
import { loadTranscript } from "../modes/rpc/transcript.ts";
import { assertReplayMatches } from "../compaction/support.ts";

Deno.test("RPC-02 RPC-10 RPC-18 LOOP-13 reference transcript (prompt, state, levels, queue, bash, stats, compact, name, fork messages, clone, fork, entries) matches", async () => {
  await assertReplayMatches(await loadTranscript(), async (steps) => {
    // The original session file holds what the transcript showed (system prompt, two turns, bash).
    const sessionFile = (steps[1].output[0] as { data: { sessionFile: string } }).data.sessionFile;
    const roles = (await readSessionLines(sessionFile)).filter((e) => e.type === "message")
      .map((e) => (e.message as { role: string }).role);
    assertEquals(roles, ["system", "user", "assistant", "bashExecution", "user", "assistant"]);
  });
});
