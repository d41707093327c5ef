/**
 * pi 1.6.0's RPC transcript replayed against ours: the same script, fake model answers and
 * settings give the same records once ids, timestamps, paths, live usage figures and bash
 * chunking are normalised (the capture is deterministic under that normalisation). IDs: RPC-02,
 * RPC-04, RPC-07, RPC-10, RPC-11, RPC-12, RPC-18…RPC-24, EVT-01…EVT-04.
 */
import { assertEquals } from "../support/assert.ts";
import { readSessionLines } from "../support/agent_env.ts";
import { startRpc } from "../modes/rpc/support.ts";
import { loadTranscript, normalise, OUR_PACKAGE_DIR, replay } from "../modes/rpc/transcript.ts";
import { estimateTokens } from "../../src/compaction/token_estimate.ts";
import type { AgentMessage } from "../../src/session/messages.ts";

type Steps = { command: unknown; output: unknown[] }[];

/**
 * `estimatedTokensAfter` of a compaction (result and `compact` response) without the system
 * prompt's share: the prompt names the install and temp folders, whose lengths differ between
 * the two runs; the rest (summary and kept messages) must match exactly.
 */
function withoutSystemEstimate(steps: Steps): Steps {
  const records = steps.flatMap((s) => s.output) as Record<string, unknown>[];
  const system = records.find((r) =>
    r.type === "message_end" && (r.message as { role: string }).role === "system"
  )?.message as AgentMessage;
  const share = estimateTokens(system);
  const fix = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(fix);
    if (v === null || typeof v !== "object") return v;
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      out[k] = k === "estimatedTokensAfter" && typeof x === "number" ? x - share : fix(x);
    }
    return out;
  };
  return fix(steps) as Steps;
}

Deno.test("RPC-02 RPC-10 RPC-18 LOOP-13 reference transcript (prompt, state, levels, queue, bash, stats, compact, name, fork messages, clone, fork, entries) matches", async () => {
  const fixture = await loadTranscript();
  const f = await startRpc(fixture.turns, { settings: fixture.settings });
  try {
    const steps = await replay(f.client, fixture.script);
    const ours = normalise(
      withoutSystemEstimate(steps),
      f.env.root,
      f.server.url,
      OUR_PACKAGE_DIR,
    ) as typeof steps;
    const theirs = normalise(
      withoutSystemEstimate(fixture.steps as Steps),
      fixture.root,
      fixture.url,
      fixture.packageDir,
    ) as typeof steps;
    for (const [i, step] of theirs.entries()) {
      assertEquals(ours[i], step, `step ${i}: ${JSON.stringify(step.command)}`);
    }
    assertEquals(ours.length, theirs.length);
    // The original session file holds what the transcript showed (system prompt, two turns, bash).
    const sessionFile = (steps[1].output[0] as { data: { sessionFile: string } }).data.sessionFile;
    const roles = (await readSessionLines(sessionFile)).filter((e) => e.type === "message")
      .map((e) => (e.message as { role: string }).role);
    assertEquals(roles, ["system", "user", "assistant", "bashExecution", "user", "assistant"]);
    // The requests the model saw.
    const ourRequests = f.server.requests.map((r) => ({ method: r.method, path: r.path, body: r.body }));
    assertEquals(
      normalise(ourRequests, f.env.root, f.server.url, OUR_PACKAGE_DIR),
      normalise(fixture.requests, fixture.root, fixture.url, fixture.packageDir),
    );
  } finally {
    await f.close();
  }
});
