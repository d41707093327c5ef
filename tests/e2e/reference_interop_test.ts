/**
 * Sessions move between our pi and the reference (SESS format v3, CLI-22): a session one writes
 * is continued by the other with `-c`, both append to the same file, the parent chain stays
 * intact, and each sends the other's messages as history.
 *
 * The live tests need the reference CLI ($PI_REFERENCE_CLI or /work/ref) and fail when it is
 * missing — except under CI=true, where they fall back to captures from capture_reference.ts: a
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
  assertEquals(outcome.loadedMessages, total * 4);
}

async function oursContinuesCapturedReferenceSession(): Promise<void> {
  const text = await Deno.readTextFile(fixturePath("interop/ref_session.jsonl"));
  const outcome = await runChain(["ours"], { text, steps: 1 });
  checkChain(outcome, ["ours"], 2);
  // The reference's lines stay as they were; ours are appended after them.
  assertEquals(outcome.sessionText.startsWith(text), true);
}

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
  // The stored verdict (used under CI without the reference) agrees with the live run.
  storedReferenceVerdict();
});
