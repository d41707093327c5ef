/**
 * The delta-only JSON stream (`pi --mode json --json-deltas`, seed 001's "JSON mode" form): every
 * `message_update` carries only `type` and `assistantMessageEvent` without `partial`, every other
 * record is as in the full form (MODE-02), the deltas rebuild the answer, and the output grows
 * linearly with the number of deltas while the full form grows quadratically.
 */
import { assert, assertEquals } from "../support/assert.ts";
import { createAgentEnv } from "../support/agent_env.ts";
import { startFakeProvider } from "../support/fake_provider/mod.ts";
import { spawnPi } from "../support/spawn_pi.ts";
import { comparableJsonLine, FINAL_TEXT, modelArg, runScenario } from "./scenario.ts";

type Json = Record<string, unknown>;

Deno.test("MODE-02 e2e --json-deltas: updates carry no message/partial, other records unchanged", async () => {
  const full = await runScenario("anthropic-messages", ["--mode", "json"]);
  const deltas = await runScenario("anthropic-messages", ["--mode", "json", "--json-deltas"]);
  assertEquals([deltas.result.code, deltas.result.stderr], [0, ""]);
  const updates = (deltas.jsonLines as Json[]).filter((l) => l.type === "message_update");
  assert(updates.length > 20, `${updates.length} updates`);
  for (const update of updates) {
    assertEquals(Object.keys(update).sort(), ["assistantMessageEvent", "type"]);
    assertEquals("partial" in (update.assistantMessageEvent as Json), false);
  }
  // Apart from the dropped fields the two streams are the same, record for record.
  assertEquals(deltas.jsonLines.map(comparableJsonLine), full.jsonLines.map(comparableJsonLine));
  // The text deltas of the last assistant message rebuild the final answer.
  const lastStart = (deltas.jsonLines as Json[]).findLastIndex((l) =>
    l.type === "message_start" && (l.message as Json).role === "assistant"
  );
  const text = (deltas.jsonLines.slice(lastStart) as Json[])
    .filter((l) => l.type === "message_update")
    .map((l) => l.assistantMessageEvent as Json)
    .filter((e) => e.type === "text_delta" && e.contentIndex === 0)
    .map((e) => e.delta)
    .join("");
  assertEquals(text, FINAL_TEXT);
  assertEquals(deltas.sessionLines, full.sessionLines);
});

/** Bytes of stdout for a one-turn answer streamed as `count` one-character deltas. */
async function streamSize(count: number, extraArgs: string[]): Promise<number> {
  const server = await startFakeProvider([{
    content: [{ type: "text", text: "x".repeat(count) }],
    deltaSize: 1,
  }]);
  const env = await createAgentEnv(server.url);
  env.env.PI_OFFLINE = "1";
  try {
    const r = await spawnPi(
      ["--mode", "json", ...extraArgs, "--model", modelArg("openai-completions"), "go"],
      {
        env: env.env,
        cwd: env.cwd,
      },
    );
    assertEquals([r.code, r.stderr], [0, ""]);
    const updates = r.stdout.split("\n").filter((l) => l.includes('"text_delta"')).length;
    assertEquals(updates, count);
    return new TextEncoder().encode(r.stdout).length;
  } finally {
    await server.close();
    await env.cleanup();
  }
}

Deno.test("MODE-02 e2e --json-deltas: output grows linearly (2000 deltas), the full form quadratically", async () => {
  const delta1k = await streamSize(1000, ["--json-deltas"]);
  const delta2k = await streamSize(2000, ["--json-deltas"]);
  const full1k = await streamSize(1000, []);
  const full2k = await streamSize(2000, []);
  // Doubling the deltas doubles the delta form (plus a fixed head and tail) …
  const deltaGrowth = delta2k / delta1k;
  assert(deltaGrowth > 1.7 && deltaGrowth < 2.1, `delta form grew ${deltaGrowth.toFixed(2)}x`);
  assert(delta2k / 2000 < 250, `${(delta2k / 2000).toFixed(0)} bytes per delta`);
  // … while the full form grows superlinearly (toward 4x; fixed per-record fields damp it) and is far larger.
  const fullGrowth = full2k / full1k;
  assert(fullGrowth > 2.6, `full form grew ${fullGrowth.toFixed(2)}x`);
  assert(full2k > 10 * delta2k, `full ${full2k} B vs delta ${delta2k} B`);
});
