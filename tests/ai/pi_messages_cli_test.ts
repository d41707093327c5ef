/**
 * PROV-02 end to end for Radius (pi-messages): our `pi` and pi 1.6.0's CLI with the same
 * Radius login in auth.json (an unexpired OAuth access token) and models.json pointing the
 * built-in `radius` provider at the fake gateway run the write/read/edit scenario in JSON mode;
 * the requests (URL, bearer token, body) and the JSON records must be equal once normalised.
 *
 * One known difference (docs/differences.md): 1.6.0's agent hands the provider its system prompt
 * as named `sections` of the leading system message; ours reaches src/ai as one text, sent as the
 * message's `content`. The test renders 1.6.0's sections to text (as the gateway does) and then
 * requires the requests to be equal.
 */
import { assertEquals } from "../support/assert.ts";
import type { RecordedRequest } from "../support/fake_provider/mod.ts";
import { runWireCli } from "../support/fake_provider/wire_cli.ts";
import { requireReferenceCli } from "../support/spawn_pi.ts";
import { writeReadEditTurns } from "../e2e/scenario.ts";
import { getSystemMessageText } from "../../src/session/system_message.ts";

const ACCESS = "radius-cli-access-token";

function run(reference: boolean) {
  return runWireCli({
    reference,
    turns: writeReadEditTurns(),
    models: (url) => ({
      providers: { radius: { baseUrl: `${url}/radius/v1`, headers: { "x-team": "pi-for-deno" } } },
    }),
    auth: {
      // Far in the future, so neither side refreshes (a refresh would go to the real gateway).
      radius: { type: "oauth", access: ACCESS, refresh: "radius-cli-refresh", expires: 4102444800000 },
    },
    args: ["--model", "radius/balanced"],
    env: {},
    view: (r: RecordedRequest) => ({
      url: r.url,
      authorization: r.headers.authorization,
      accept: r.headers.accept,
      team: r.headers["x-team"],
      body: r.body,
    }),
  });
}

Deno.test("PROV-02 Radius via the CLI: the login's token, requests and JSON records equal pi 1.6.0's", async () => {
  requireReferenceCli();
  const [ours, theirs] = await Promise.all([run(false), run(true)]);
  assertEquals(theirs.code, 0, theirs.stderr);
  assertEquals(ours.requests.length, 4);
  assertEquals(
    (ours.requests as { authorization: string; url: string; team?: string }[]).map((r) => [
      r.url,
      r.authorization,
      r.team,
    ]),
    Array(4).fill(["/radius/v1/messages", `Bearer ${ACCESS}`, "pi-for-deno"]),
  );
  assertEquals(ours.requests, theirs.requests.map(renderSections));
  assertEquals(ours.jsonLines, theirs.jsonLines);
  assertEquals([ours.code, ours.stderr], [theirs.code, theirs.stderr]);
});

/** A request body with each system message's `sections` rendered into its `content`. */
function renderSections(request: unknown): unknown {
  const r = request as { body: { context: { messages: Record<string, unknown>[] } } };
  const messages = r.body.context.messages.map((m) => {
    if (m.role !== "system" || m.sections === undefined) return m;
    const { sections, ...rest } = m;
    return {
      ...rest,
      content: getSystemMessageText({
        content: m.content as string,
        sections: sections as Record<string, string>,
      }),
    };
  });
  return { ...r, body: { ...r.body, context: { ...r.body.context, messages } } };
}
