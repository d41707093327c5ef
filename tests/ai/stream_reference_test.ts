/**
 * PROV-02: our four wire APIs against pi-ai 1.6.0 on the same fake-provider scripts: the events
 * (partials left out), the final message and the request (path, chosen headers, body) must be equal, times and ids
 * normalised. With the reference installed the comparison is live; without it, with the
 * stored capture (tests/ai/fixtures/stream_reference.json).
 *
 * Deliberate difference: an abort mid-stream on OpenAI Responses reads "Request was aborted"
 * (1.6.0 reports "OpenAI Responses stream ended before a terminal response event" there).
 */
import { useReferenceFixtures } from "../support/spawn_pi.ts";
import { assertEquals } from "../support/assert.ts";
import { normalise, requestView, runOurs, runReference } from "./stream_reference.ts";
import { STREAM_CASES, STREAM_FIXTURE } from "./stream_reference_cases.ts";

interface Compared {
  name: string;
  events: unknown;
  final: unknown;
  request: unknown;
}

const ABORTED = "Request was aborted";

/** Our deliberate departures, applied to the reference's side. */
function withDeliberateDifferences(c: Compared): Compared {
  if (c.name !== "openai-responses abort mid-text") return c;
  const fix = (m: Record<string, unknown>) => ({ ...m, errorMessage: ABORTED });
  const events = (c.events as Record<string, unknown>[]).map((e) =>
    e.type === "error" ? { ...e, error: fix(e.error as Record<string, unknown>) } : e
  );
  return { ...c, events, final: fix(c.final as Record<string, unknown>) };
}

async function referenceOutcomes(): Promise<Compared[]> {
  if (useReferenceFixtures()) return JSON.parse(await Deno.readTextFile(STREAM_FIXTURE));
  const live = await runReference(STREAM_CASES);
  return live!.map((o, i) => ({
    name: STREAM_CASES[i].name,
    ...normalise({ events: o.events, final: o.final, request: requestView(o.requests[0]) }),
  }));
}

Deno.test("PROV-02 the four wire APIs stream, fail and build requests as pi-ai 1.6.0 does", async () => {
  const [ours, reference] = await Promise.all([runOurs(STREAM_CASES), referenceOutcomes()]);
  assertEquals(reference.map((r) => r.name), STREAM_CASES.map((c) => c.name));
  for (let i = 0; i < STREAM_CASES.length; i++) {
    const mine: Compared = {
      name: STREAM_CASES[i].name,
      ...normalise({
        events: ours[i].events,
        final: ours[i].final,
        request: requestView(ours[i].requests[0]),
      }),
    };
    const theirs = withDeliberateDifferences(reference[i]);
    assertEquals(mine.request, theirs.request, `${mine.name}: request`);
    assertEquals(mine.events, theirs.events, `${mine.name}: events`);
    assertEquals(mine.final, theirs.final, `${mine.name}: final message`);
  }
});
