/**
 * PROV-02 end to end for Mistral: our `pi` and pi 1.6.0's CLI with the same models.json (a
 * Mistral model of the built-in `mistral` provider, its baseUrl at the fake api.mistral.ai) and
 * MISTRAL_API_KEY run the write/read/edit scenario in JSON mode; the requests (URL, bearer key,
 * session affinity, body) and the JSON records must be equal once normalised.
 */
import { assertEquals } from "../support/assert.ts";
import type { RecordedRequest } from "../support/fake_provider/mod.ts";
import { runWireCli } from "../support/fake_provider/wire_cli.ts";
import { requireReferenceCli } from "../support/spawn_pi.ts";
import { writeReadEditTurns } from "../e2e/scenario.ts";

const MODEL_ID = "mistral-large-fake";

function run(reference: boolean) {
  return runWireCli({
    reference,
    turns: writeReadEditTurns(),
    models: (url) => ({
      providers: {
        mistral: {
          baseUrl: `${url}/mistral`,
          models: [{
            id: MODEL_ID,
            name: "Mistral Large (fake)",
            api: "mistral-conversations",
            reasoning: false,
            input: ["text", "image"],
            contextWindow: 128000,
            maxTokens: 16384,
            cost: { input: 0.5, output: 1.5, cacheRead: 0.05, cacheWrite: 0 },
          }],
        },
      },
    }),
    args: ["--model", `mistral/${MODEL_ID}`],
    env: { MISTRAL_API_KEY: "mistral-cli-test-key" },
    view: (r: RecordedRequest) => ({
      url: r.url,
      authorization: r.headers.authorization,
      affinity: r.headers["x-affinity"] === undefined ? undefined : "<session>",
      body: r.body,
    }),
  });
}

Deno.test("PROV-02 Mistral via the CLI: requests and JSON records equal pi 1.6.0's", async () => {
  requireReferenceCli();
  const [ours, theirs] = await Promise.all([run(false), run(true)]);
  assertEquals(theirs.code, 0, theirs.stderr);
  assertEquals(ours.requests.length, 4);
  assertEquals(ours.requests, theirs.requests);
  assertEquals(ours.jsonLines, theirs.jsonLines);
  assertEquals([ours.code, ours.stderr], [theirs.code, theirs.stderr]);
});
