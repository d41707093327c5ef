/**
 * PROV-02 end to end for Azure OpenAI Responses: our `pi` and pi 1.6.0's CLI with the same
 * models.json (an Azure model of the built-in `azure` provider) and environment
 * (AZURE_OPENAI_API_KEY, AZURE_OPENAI_BASE_URL pointing at the fake server, a deployment map) run
 * the write/read/edit scenario in JSON mode; the requests (URL with api-version, api-key header,
 * body with the deployment) and the JSON records must be equal once normalised.
 */
import { assertEquals } from "../support/assert.ts";
import type { RecordedRequest } from "../support/fake_provider/mod.ts";
import { runWireCli } from "../support/fake_provider/wire_cli.ts";
import { requireReferenceCli } from "../support/spawn_pi.ts";
import { writeReadEditTurns } from "../e2e/scenario.ts";

const MODEL_ID = "gpt-5.4-fake";

function run(reference: boolean) {
  return runWireCli({
    reference,
    turns: writeReadEditTurns(),
    models: () => ({
      providers: {
        azure: {
          models: [{
            id: MODEL_ID,
            name: "GPT-5.4 (fake)",
            api: "azure-openai-responses",
            reasoning: true,
            input: ["text", "image"],
            contextWindow: 400000,
            maxTokens: 128000,
            cost: { input: 1.25, output: 10, cacheRead: 0.125, cacheWrite: 0 },
          }],
        },
      },
    }),
    args: ["--model", `azure/${MODEL_ID}`, "--thinking", "low"],
    env: (url) => ({
      AZURE_OPENAI_BASE_URL: `${url}/openai/v1`,
      AZURE_OPENAI_API_KEY: "azure-cli-test-key",
      AZURE_OPENAI_DEPLOYMENT_NAME_MAP: `${MODEL_ID}=my-deployment`,
      AZURE_OPENAI_API_VERSION: "2025-04-01-preview",
    }),
    view: (r: RecordedRequest) => ({ url: r.url, apiKey: r.headers["api-key"], body: r.body }),
  });
}

Deno.test("PROV-02 Azure OpenAI Responses via the CLI: requests and JSON records equal pi 1.6.0's", async () => {
  requireReferenceCli();
  const [ours, theirs] = await Promise.all([run(false), run(true)]);
  assertEquals(theirs.code, 0, theirs.stderr);
  assertEquals(ours.requests.length, 4);
  assertEquals(ours.requests, theirs.requests);
  assertEquals(ours.jsonLines, theirs.jsonLines);
  assertEquals([ours.code, ours.stderr], [theirs.code, theirs.stderr]);
});
