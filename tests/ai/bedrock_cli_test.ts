/**
 * PROV-02 end to end for Amazon Bedrock: our `pi` and pi 1.6.0's CLI, each with the same
 * models.json (a Bedrock model under the built-in `amazon-bedrock` provider, pointed at the fake
 * bedrock-runtime) and the same AWS environment, run the write/read/edit scenario in JSON mode.
 * The requests both send (path, body, credential scope; every signature verified by the fake
 * server) and the JSON records must be equal once paths, dates, ids and times are normalised.
 * A run with a wrong secret fails the same way in both, and its output holds no secret.
 */
import { assert, assertEquals } from "../support/assert.ts";
import { bedrockRequestView, FAKE_AWS_CREDENTIALS } from "../support/fake_provider/bedrock.ts";
import type { ScriptedTurn } from "../support/fake_provider/mod.ts";
import { type CliRun, runWireCli } from "../support/fake_provider/wire_cli.ts";
import { requireReferenceCli } from "../support/spawn_pi.ts";
import { writeReadEditTurns } from "../e2e/scenario.ts";

const MODEL_ID = "anthropic.claude-sonnet-4-5-20250929-v1:0";

const AWS_ENV = {
  AWS_ACCESS_KEY_ID: FAKE_AWS_CREDENTIALS.accessKeyId,
  AWS_SECRET_ACCESS_KEY: FAKE_AWS_CREDENTIALS.secretAccessKey,
  AWS_REGION: "us-west-2",
  // The AWS SDK inside pi 1.6.0 defaults to HTTP/2, which the plain http:// fake does not speak.
  AWS_BEDROCK_FORCE_HTTP1: "1",
};

function runCli(
  reference: boolean,
  turns: ScriptedTurn[],
  extraEnv: Record<string, string> = {},
): Promise<CliRun> {
  return runWireCli({
    reference,
    turns,
    models: (url) => ({
      providers: {
        "amazon-bedrock": {
          baseUrl: url,
          models: [{
            id: MODEL_ID,
            name: "Claude Sonnet 4.5 (fake)",
            api: "bedrock-converse-stream",
            reasoning: true,
            input: ["text", "image"],
            contextWindow: 200000,
            maxTokens: 64000,
            cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
          }],
        },
      },
    }),
    args: ["--model", `amazon-bedrock/${MODEL_ID}`, "--thinking", "low"],
    env: { ...AWS_ENV, ...extraEnv },
    view: bedrockRequestView,
  });
}

Deno.test("PROV-02 Bedrock via the CLI: requests and JSON records equal pi 1.6.0's (write/read/edit scenario)", async () => {
  requireReferenceCli();
  const [ours, theirs] = await Promise.all([
    runCli(false, writeReadEditTurns()),
    runCli(true, writeReadEditTurns()),
  ]);
  assertEquals(theirs.code, 0, theirs.stderr);
  assertEquals(ours.requests.length, 4);
  assertEquals(ours.requests, theirs.requests);
  assertEquals(ours.jsonLines, theirs.jsonLines);
  assertEquals([ours.code, ours.stderr], [theirs.code, theirs.stderr]);
});

Deno.test("PROV-02 Bedrock via the CLI: a wrong secret key fails as in pi 1.6.0, without the secret", async () => {
  requireReferenceCli();
  const secret = "WrongSecretKey/ThatMustNotLeak+0042";
  const turn: ScriptedTurn = { content: [{ type: "text", text: "unused" }] };
  const [ours, theirs] = await Promise.all([
    runCli(false, [turn], { AWS_SECRET_ACCESS_KEY: secret }),
    runCli(true, [turn], { AWS_SECRET_ACCESS_KEY: secret }),
  ]);
  assertEquals(ours.jsonLines, theirs.jsonLines);
  assertEquals([ours.code, ours.stderr], [theirs.code, theirs.stderr]);
  assert(ours.stdout.includes("InvalidSignatureException: The request signature we calculated"), ours.stdout);
  assert(!ours.stdout.includes(secret) && !ours.stderr.includes(secret), "no secret in the output");
});
