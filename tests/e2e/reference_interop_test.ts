/**
 * Sessions move between our pi and the reference pi 1.6.0 (SESS format v3, CLI-22): a session
 * one writes is continued by the other with `-c`, both append to the same file, the parent chain
 * stays intact, and each sends the other's messages as history. pi 1.6.0 also writes its system
 * prompt into the session (a full `system` message, later only patches), right before the user
 * message of a run; the other side must carry those entries along and replay them.
 *
 * The live tests run against the installed reference (scripts/reference/locate.ts). When it is not
 * installed (`useReferenceFixtures()`), they fall back to captures from capture_reference.ts: a
 * reference-written session that ours continues, and the stored verdict of the reference
 * continuing ours. The captured direction also runs on every test run so the fixtures stay valid.
 */
import { assertEquals } from "../support/assert.ts";
import { requireReferenceCli, useReferenceFixtures } from "../support/spawn_pi.ts";
import { type ChainOutcome, expectedKinds, expectedSent, runChain, type Runner } from "./interop.ts";
import { fixturePath } from "./scenario.ts";

/** Checks a chain whose steps start at `firstStep` on top of `firstStep - 1` earlier steps. */
function checkChain(outcome: Omit<ChainOutcome, "sessionText">, runners: Runner[], firstStep = 1): void {
  outcome.steps.forEach((step, i) => {
    const n = firstStep + i;
    assertEquals(step.who, runners[i]);
    assertEquals([step.code, step.stdout, step.stderr], [0, `answer ${n}\n`, ""], `step ${n} (${step.who})`);
    assertEquals(step.sent, expectedSent(n), `step ${n} (${step.who}) sends the whole history`);
  });
  const total = firstStep - 1 + runners.length;
  assertEquals(outcome.fileCount, 1, "every step appends to the one file");
  assertEquals(outcome.kinds, expectedKinds(total));
  assertEquals(outcome.chained, true, "each entry's parentId is the previous entry");
  // A run writes its prompt (whole, or what changed) right before its user message.
  for (const fact of outcome.systemMessages) {
    assertEquals(fact.before, "user", "system message placement");
    // Both sides build the same prompt for the same project; only the documentation paths
    // (each pi names its own install) differ, so a later message patches at most `docs`.
    if (!fact.full) assertEquals(fact.sections.filter((s) => s !== "docs"), [], "patched sections");
  }
  if (runners.includes("ref") || firstStep > 1) {
    // The reference declared a prompt somewhere in the chain: the first one is whole, and
    // replaying all of them ends with this session's cwd.
    assertEquals(outcome.systemMessages[0]?.full, true, "the first system message holds the whole prompt");
    assertEquals(outcome.promptEndsWithCwd, true, "replayed prompt ends with <cwd>");
  }
  // System messages are context messages too (they never reach the wire as chat messages).
  assertEquals(outcome.loadedMessages, total * 4 + outcome.systemMessages.length);
}

async function oursContinuesCapturedReferenceSession(): Promise<void> {
  const text = await Deno.readTextFile(fixturePath("interop/ref_session.jsonl"));
  const outcome = await runChain(["ours"], { text, steps: 1 });
  checkChain(outcome, ["ours"], 2);
  // The reference's lines stay as they were; ours are appended after them.
  assertEquals(outcome.sessionText.startsWith(text), true);
}

Deno.test("SESS interop: the captured 1.6.0 session opens with the whole prompt as a system message", async () => {
  const text = await Deno.readTextFile(fixturePath("interop/ref_session.jsonl"));
  const kinds = text.trim().split("\n").map((l) => JSON.parse(l)).map((e) => e.message?.role ?? e.type);
  assertEquals(kinds.slice(0, 5), ["session", "model_change", "thinking_level_change", "system", "user"]);
  const system = JSON.parse(text.split("\n")[3]).message;
  assertEquals(Object.keys(system), ["role", "content", "sections", "timestamp", "toolsAdded"]);
  assertEquals(Object.keys(system.sections), ["preamble", "tools", "rules", "docs", "cwd"]);
  assertEquals(system.sections.cwd, "<cwd>\n$CWD\n</cwd>");
  assertEquals(system.toolsAdded.map((t: { name: string }) => t.name), ["read", "bash", "edit", "write"]);
});

function storedReferenceVerdict(): void {
  const verdict = JSON.parse(Deno.readTextFileSync(fixturePath("interop/ours_then_ref.json")));
  checkChain(verdict, ["ours", "ref"]);
}

Deno.test("SESS interop e2e: ours continues a captured reference-written session", async () => {
  await oursContinuesCapturedReferenceSession();
});

Deno.test("SESS interop e2e: reference -p, ours -c, reference -c share one session file", async () => {
  if (useReferenceFixtures()) return await oursContinuesCapturedReferenceSession();
  requireReferenceCli();
  const runners: Runner[] = ["ref", "ours", "ref"];
  checkChain(await runChain(runners), runners);
});

Deno.test("SESS interop e2e: ours -p, reference -c, ours -c share one session file", async () => {
  if (useReferenceFixtures()) return storedReferenceVerdict();
  requireReferenceCli();
  const runners: Runner[] = ["ours", "ref", "ours"];
  checkChain(await runChain(runners), runners);
  // The stored verdict (used only when the reference could not be installed) agrees with the live run.
  storedReferenceVerdict();
});
