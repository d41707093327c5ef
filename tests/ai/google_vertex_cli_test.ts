/**
 * PROV-02 end to end for Google Vertex AI: our `pi` and pi 1.6.0's CLI with the same
 * models.json (a Gemini model of the built-in `google-vertex` provider, its baseUrl at the fake
 * Vertex endpoint) and GOOGLE_CLOUD_API_KEY (express mode) run the write/read/edit scenario in
 * JSON mode; the requests (URL, API key header, body) and the JSON records must be equal once
 * normalised.
 */
import { assertEquals } from "../support/assert.ts";
import type { RecordedRequest } from "../support/fake_provider/mod.ts";
import { runWireCli } from "../support/fake_provider/wire_cli.ts";
import { requireReferenceCli } from "../support/spawn_pi.ts";
import { writeReadEditTurns } from "../e2e/scenario.ts";

const MODEL_ID = "gemini-2.5-flash-fake";

function run(reference: boolean) {
  return runWireCli({
    reference,
    turns: writeReadEditTurns(),
    models: (url) => ({
      providers: {
        "google-vertex": {
          baseUrl: url,
          models: [{
            id: MODEL_ID,
            name: "Gemini 2.5 Flash (fake)",
            api: "google-vertex",
            reasoning: false,
            input: ["text", "image"],
            contextWindow: 1048576,
            maxTokens: 65536,
            cost: { input: 0.3, output: 2.5, cacheRead: 0.03, cacheWrite: 0 },
          }],
        },
      },
    }),
    args: ["--model", `google-vertex/${MODEL_ID}`],
    env: { GOOGLE_CLOUD_API_KEY: "vertex-cli-test-key" },
    view: (r: RecordedRequest) => ({
      url: r.url,
      apiKey: r.headers["x-goog-api-key"],
      authorization: r.headers.authorization,
      body: r.body,
    }),
  });
}

Deno.test("PROV-02 Google Vertex via the CLI: requests and JSON records equal pi 1.6.0's", async () => {
  requireReferenceCli();
  const [ours, theirs] = await Promise.all([run(false), run(true)]);
  assertEquals(theirs.code, 0, theirs.stderr);
  assertEquals(ours.requests.length, 4);
  assertEquals(ours.requests, theirs.requests);
  assertEquals(ours.jsonLines, theirs.jsonLines);
  assertEquals([ours.code, ours.stderr], [theirs.code, theirs.stderr]);
});
