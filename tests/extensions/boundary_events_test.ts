/**
 * The actionable run boundaries of pi 1.6.0 (issue 16): `turn_end` and `agent_before_settle`
 * handlers propose session entries and one more request, each seeing the proposal so far. The
 * real CLI in JSON mode against the fake provider must append the same entries, send the same
 * requests and print the same records as 1.6.0 run the same way.
 */
import { assertEquals } from "../support/assert.ts";
import { useReferenceFixtures } from "../support/spawn_pi.ts";
import { type ExtensionCase, fixture, MODEL, runExtensionCase } from "../e2e/extensions_harness.ts";

function entryTypes(session: unknown[]): string[] {
  return session.map((line) => {
    const entry = line as { type: string; customType?: string; message?: { role: string } };
    return entry.customType
      ? `${entry.type}:${entry.customType}`
      : entry.message
      ? `message:${entry.message.role}`
      : entry.type;
  });
}

Deno.test("EXT-EVT-03 turn_end and agent_before_settle append entries and continue the run, chained, as 1.6.0 (JSON mode)", async () => {
  assertEquals(useReferenceFixtures(), false, "this test compares with the live reference 1.6.0");
  const c: ExtensionCase = {
    args: ["--mode", "json", ...MODEL, "-e", fixture("ours/boundaries.ts"), "hello"],
    turns: [
      { content: [{ type: "text", text: "First answer." }] },
      { content: [{ type: "text", text: "Second answer." }] },
      { content: [{ type: "text", text: "Final answer." }] },
    ],
  };
  const ours = await runExtensionCase(c);
  assertEquals(ours.code, 0, ours.stderr.join("\n"));
  assertEquals(ours.requests, [
    ["user: hello"],
    ["user: hello", "user: Say it again, briefly."],
    ["user: hello", "user: Say it again, briefly.", "user: Review before you finish."],
  ]);
  assertEquals(ours.stderr, [
    "turn_end 0 completed: [custom,custom_message] continue=true canContinue=true tools=0",
    "turn_end 1 completed: [] continue=false canContinue=false tools=0",
    "before_settle completed: continue=false canContinue=false",
    "before_settle second: [custom_message] continue=true",
    "turn_end 0 completed: [] continue=false canContinue=false tools=0",
    "before_settle completed: continue=false canContinue=false",
    "before_settle second: [] continue=false",
  ]);
  assertEquals(entryTypes(ours.session), [
    "model_change",
    "thinking_level_change",
    "message:system",
    "message:user",
    "message:assistant",
    "custom:audit",
    "custom_message:nudge",
    "message:assistant",
    "custom_message:reminder",
    "message:assistant",
  ]);
  const ref = await runExtensionCase(c, true);
  assertEquals(ours.stderr, ref.stderr);
  assertEquals(ours.requests, ref.requests);
  assertEquals(ours.session, ref.session);
  assertEquals(ours.json, ref.json);
});

Deno.test("EXT-EVT-05 an invalid boundary proposal is dropped and reported, a throwing handler is reported, a continuation without runnable context is refused, as 1.6.0", async () => {
  assertEquals(useReferenceFixtures(), false, "this test compares with the live reference 1.6.0");
  const c: ExtensionCase = {
    args: ["--mode", "json", ...MODEL, "-e", fixture("ours/boundary-errors.ts"), "hello"],
    turns: [{ content: [{ type: "text", text: "Only answer." }] }],
  };
  const ours = await runExtensionCase(c);
  const ext = "Extension error ($PI_PACKAGE/tests/fixtures/extensions/ours/boundary-errors.ts)";
  assertEquals(ours.stderr, [
    `${ext}: Invalid boundary entries: Entry no-such-entry not found`,
    `${ext}: turn_end handler failed`,
    `${ext}: Invalid boundary entries: Entry no-such-entry not found`,
    "third turn_end handler sees 2 entries",
    `${ext}: Invalid boundary entries: Entry no-such-entry not found`,
    "Extension error (<boundary>): agent_before_settle requested continuation without runnable model context",
  ]);
  assertEquals(ours.requests, [["user: hello"]]);
  assertEquals(entryTypes(ours.session), [
    "model_change",
    "thinking_level_change",
    "message:system",
    "message:user",
    "message:assistant",
  ]);
  const ref = await runExtensionCase(c, true);
  assertEquals(ours.stderr, ref.stderr);
  assertEquals(ours.session, ref.session);
  assertEquals(ours.json, ref.json);
});
