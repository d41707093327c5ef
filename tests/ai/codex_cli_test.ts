/**
 * PROV-02 end to end for OpenAI Codex Responses: our `pi` and pi 1.6.0's CLI with the same
 * models.json (a provider of Codex models at the fake ChatGPT backend, a fake account token as
 * its key) and `transport: "sse"` run the write/read/edit scenario in JSON mode; the requests
 * (URL, token, account id, originator, session headers, zstd, body) and the JSON records must be
 * equal once normalised.
 */
import { assertEquals } from "../support/assert.ts";
import type { RecordedRequest } from "../support/fake_provider/mod.ts";
import { runWireCli } from "../support/fake_provider/wire_cli.ts";
import { requireReferenceCli } from "../support/spawn_pi.ts";
import { writeReadEditTurns } from "../e2e/scenario.ts";
import { CODEX_ACCOUNT_ID, CODEX_TOKEN, GPT6_COMPAT } from "./codex_support.ts";
import { listModelsBoth } from "./list_models_compare.ts";

/** A ChatGPT login as 1.6.0 stores it, valid until 2100. */
const CODEX_LOGIN = {
  type: "oauth",
  access: CODEX_TOKEN,
  refresh: "fake-refresh-token",
  expires: 4102444800000,
  accountId: CODEX_ACCOUNT_ID,
};

function codexView(r: RecordedRequest) {
  return {
    method: r.method,
    url: r.url,
    authorization: r.headers.authorization,
    account: r.headers["chatgpt-account-id"],
    originator: r.headers.originator,
    encoding: r.headers["content-encoding"],
    session: [r.headers["session-id"], r.headers["x-client-request-id"]].map((v) => v && "<session>"),
    body: r.body,
  };
}

function run(reference: boolean) {
  return runWireCli({
    reference,
    turns: writeReadEditTurns(),
    settings: { transport: "sse" },
    models: (url) => ({
      providers: {
        "codex-fake": {
          baseUrl: `${url}/backend-api`,
          api: "openai-codex-responses",
          apiKey: CODEX_TOKEN,
          models: [{
            id: "gpt-6-sol",
            name: "GPT-6 Sol (fake)",
            reasoning: true,
            input: ["text", "image"],
            contextWindow: 400000,
            maxTokens: 128000,
            cost: { input: 1.25, output: 10, cacheRead: 0.125, cacheWrite: 0 },
            thinkingLevelMap: { off: "none", minimal: "low" },
            compat: GPT6_COMPAT,
          }],
        },
      },
    }),
    args: ["--model", "codex-fake/gpt-6-sol", "--thinking", "high"],
    env: {},
    view: codexView,
  });
}

Deno.test("PROV-02 OpenAI Codex Responses via the CLI: requests and JSON records equal pi 1.6.0's", async () => {
  requireReferenceCli();
  const [ours, theirs] = await Promise.all([run(false), run(true)]);
  assertEquals(theirs.code, 0, theirs.stderr);
  assertEquals(ours.requests.length, 4);
  assertEquals(ours.requests, theirs.requests);
  assertEquals(ours.jsonLines, theirs.jsonLines);
  assertEquals([ours.code, ours.stderr], [theirs.code, theirs.stderr]);
});

Deno.test("CLI-17 --list-models codex with a ChatGPT login in auth.json equals pi 1.6.0's", async () => {
  const [ours, theirs] = await listModelsBoth(["--list-models", "codex"], {}, {
    "openai-codex": CODEX_LOGIN,
  });
  assertEquals(ours, theirs);
  assertEquals(ours.stdout.split("\n")[1].split(/\s+/).slice(0, 2), ["openai-codex", "gpt-5.6-luna"]);
});

for (const transport of ["sse", "auto"] as const) {
  Deno.test(`PROV-02 openai-codex/gpt-6-sol with a ChatGPT login in auth.json via the CLI (transport ${transport}) equals pi 1.6.0's`, async () => {
    requireReferenceCli();
    const runLogin = (reference: boolean) =>
      runWireCli({
        reference,
        turns: writeReadEditTurns(),
        settings: { transport },
        auth: { "openai-codex": CODEX_LOGIN },
        models: (url) => ({ providers: { "openai-codex": { baseUrl: `${url}/backend-api` } } }),
        args: ["--model", "openai-codex/gpt-6-sol"],
        env: {},
        view: codexView,
      });
    const [ours, theirs] = await Promise.all([runLogin(false), runLogin(true)]);
    assertEquals(theirs.code, 0, theirs.stderr);
    assertEquals(ours.requests.length, 4);
    assertEquals(ours.requests, theirs.requests);
    assertEquals(ours.jsonLines, theirs.jsonLines);
    assertEquals([ours.code, ours.stderr], [theirs.code, theirs.stderr]);
    if (transport === "auto") {
      // One kept socket: the later requests send only the new items after the previous answer.
      const bodies = ours.requests.map((r) => (r as { body: Record<string, unknown> }).body);
      assertEquals(bodies.map((b) => [b.type, typeof b.previous_response_id]), [
        ["response.create", "undefined"],
        ["response.create", "string"],
        ["response.create", "string"],
        ["response.create", "string"],
      ]);
    }
  });
}
