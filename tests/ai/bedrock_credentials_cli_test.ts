/**
 * PROV-01 end to end through the CLI with temporary AWS credentials: our `pi` and pi 1.6.0's, each
 * against its own fake bedrock-runtime and fake STS (tests/ai/fake_aws_endpoints.ts), once with a
 * role profile (AWS_PROFILE naming a `role_arn` + `source_profile` in AWS_CONFIG_FILE) and once
 * with web identity (AWS_WEB_IDENTITY_TOKEN_FILE + AWS_ROLE_ARN). Both must send the same STS
 * request (action, role, session name, body, signed scope and headers) and sign the same Bedrock
 * request with the credentials STS handed out, and print the same JSON records.
 */
import { assertEquals } from "../support/assert.ts";
import { bedrockRequestView } from "../support/fake_provider/bedrock.ts";
import type { ScriptedTurn } from "../support/fake_provider/mod.ts";
import { type CliRun, runWireCli } from "../support/fake_provider/wire_cli.ts";
import { requireReferenceCli } from "../support/spawn_pi.ts";
import { type AwsRequest, startFakeAws } from "./fake_aws_endpoints.ts";

const MODEL_ID = "anthropic.claude-sonnet-4-5-20250929-v1:0";
const HELLO: ScriptedTurn = { content: [{ type: "text", text: "hello" }] };
const CONFIG = `[profile base]
aws_access_key_id = AKIDSOURCEPROFILE001
aws_secret_access_key = sourceSecret/abcdEFGH+ijkl0001

[profile role]
role_arn = arn:aws:iam::123456789012:role/pi-cli
source_profile = base
role_session_name = pi-cli-session
`;

/** The STS request as both clients must send it (SDK telemetry headers aside). */
function stsView(request: AwsRequest): Record<string, unknown> {
  const signed = /SignedHeaders=(\S+),/.exec(request.headers.authorization ?? "")?.[1].split(";")
    .filter((h) =>
      !["amz-sdk-invocation-id", "amz-sdk-request", "content-length", "x-amz-user-agent"].includes(h)
    );
  return {
    method: request.method,
    url: request.url,
    body: request.body,
    scope: /Credential=([^,]+),/.exec(request.headers.authorization ?? "")?.[1].replace(
      /\/\d{8}\//,
      "/<day>/",
    ),
    signed,
  };
}

async function runCli(reference: boolean, env: (dir: string, sts: string) => Record<string, string>) {
  const dir = await Deno.makeTempDir({ prefix: "pi-aws-cli-" });
  const aws = startFakeAws();
  try {
    await Deno.writeTextFile(`${dir}/config`, CONFIG);
    await Deno.writeTextFile(`${dir}/token.jwt`, "eyJhbGciOi.cli-web-identity.token");
    const run: CliRun = await runWireCli({
      reference,
      turns: [HELLO],
      models: (url) => ({
        providers: {
          "amazon-bedrock": {
            baseUrl: url,
            models: [{
              id: MODEL_ID,
              name: "Claude Sonnet 4.5 (fake)",
              api: "bedrock-converse-stream",
              reasoning: false,
              input: ["text"],
              contextWindow: 200000,
              maxTokens: 64000,
              cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
            }],
          },
        },
      }),
      args: ["--model", `amazon-bedrock/${MODEL_ID}`],
      env: {
        AWS_REGION: "us-west-2",
        AWS_BEDROCK_FORCE_HTTP1: "1",
        AWS_EC2_METADATA_DISABLED: "true",
        AWS_ENDPOINT_URL_STS: aws.url,
        AWS_CONFIG_FILE: `${dir}/config`,
        AWS_SHARED_CREDENTIALS_FILE: `${dir}/credentials`,
        ...env(dir, aws.url),
      },
      view: bedrockRequestView,
    });
    return { run, sts: aws.requests.map(stsView) };
  } finally {
    await aws.close();
    await Deno.remove(dir, { recursive: true });
  }
}

const CASES: [string, (dir: string) => Record<string, string>][] = [
  ["a role profile (source_profile)", () => ({ AWS_PROFILE: "role" })],
  ["web identity from the environment", (dir) => ({
    AWS_WEB_IDENTITY_TOKEN_FILE: `${dir}/token.jwt`,
    AWS_ROLE_ARN: "arn:aws:iam::123456789012:role/pi-web",
    AWS_ROLE_SESSION_NAME: "pi-web-session",
  })],
];

for (const [name, env] of CASES) {
  Deno.test(`PROV-01 Bedrock via the CLI with ${name}: STS and Bedrock requests and JSON records equal pi 1.6.0's`, async () => {
    requireReferenceCli();
    const [ours, theirs] = await Promise.all([runCli(false, env), runCli(true, env)]);
    assertEquals(theirs.run.code, 0, theirs.run.stderr);
    assertEquals(ours.sts.length, 1);
    assertEquals(ours.sts, theirs.sts);
    assertEquals(ours.run.requests, theirs.run.requests);
    assertEquals((ours.run.requests[0] as { sessionToken?: string }).sessionToken, "sts-session-token");
    assertEquals(ours.run.jsonLines, theirs.run.jsonLines);
    assertEquals([ours.run.code, ours.run.stderr], [theirs.run.code, theirs.run.stderr]);
  });
}
