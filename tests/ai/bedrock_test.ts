/**
 * Amazon Bedrock pieces on their own: the SigV4 signer against AWS's published test suite and
 * against the AWS SDK's signer (@smithy/signature-v4, from the reference install) for a Bedrock
 * request on the same clock; the event-stream decoder on good, corrupt and cut-off frames; the
 * simple credential sources (profile files, credential_process, bearer token; the others are in
 * bedrock_credentials_test.ts) end to end against the
 * fake bedrock-runtime, which verifies each signature; region and endpoint resolution; and
 * errors that never show a secret.
 */
import { assert, assertEquals, assertRejects, assertThrows } from "../support/assert.ts";
import { findReference } from "../../scripts/reference/locate.ts";
import { signingKey, signRequest } from "../../src/ai/providers/bedrock_sigv4.ts";
import { decodeFrame, readEventStream } from "../../src/ai/providers/bedrock_eventstream.ts";
import { resolveBedrockTarget } from "../../src/ai/providers/bedrock.ts";
import { complete } from "../../src/ai/stream.ts";
import type { Context, Model } from "../../src/ai/types.ts";
import {
  encodeFrame,
  exceptionFrame,
  FAKE_AWS_CREDENTIALS,
  FAKE_BEDROCK_TOKEN,
} from "../support/fake_provider/bedrock.ts";
import { type ScriptedTurn, startFakeProvider } from "../support/fake_provider/mod.ts";
import { isContextOverflow } from "../../src/ai/overflow.ts";
import { isRetryableError } from "../../src/ai/retryable.ts";

const EXAMPLE = { accessKeyId: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY" };
const SUITE_DATE = new Date("2015-08-30T12:36:00Z");

/** AWS Signature Version 4 test suite (aws-sig-v4-test-suite): region us-east-1, service "service". */
const SIGV4_SUITE: {
  name: string;
  method: string;
  url: string;
  headers?: Record<string, string>;
  body?: string;
  signature: string;
}[] = [
  {
    name: "get-vanilla",
    method: "GET",
    url: "https://example.amazonaws.com/",
    signature: "5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31",
  },
  {
    name: "get-vanilla-query-order-key-case",
    method: "GET",
    url: "https://example.amazonaws.com/?Param2=value2&Param1=value1",
    signature: "b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500",
  },
  {
    name: "get-vanilla-query-order-key",
    method: "GET",
    url: "https://example.amazonaws.com/?Param1=value2&Param1=Value1",
    signature: "eedbc4e291e521cf13422ffca22be7d2eb8146eecf653089df300a15b2382bd1",
  },
  {
    name: "get-vanilla-query-order-value",
    method: "GET",
    url: "https://example.amazonaws.com/?Param1=value1&Param1=value2",
    signature: "5772eed61e12b33fae39ee5e7012498b51d56abc0abb7c60486157bd471c4694",
  },
  {
    name: "post-vanilla",
    method: "POST",
    url: "https://example.amazonaws.com/",
    signature: "5da7c1a2acd57cee7505fc6676e4e544621c30862966e37dddb68e92efbe5d6b",
  },
  {
    name: "post-x-www-form-urlencoded",
    method: "POST",
    url: "https://example.amazonaws.com/",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: "Param1=value1",
    signature: "ff11897932ad3f4e8b18135d722051e5ac45fc38421b1da7b9d196a0fe09473a",
  },
];

function hex(bytes: ArrayBuffer): string {
  return Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("");
}

Deno.test("Bedrock SigV4: AWS's published test-suite signatures and derived key", async () => {
  assertEquals(
    hex(await signingKey(EXAMPLE.secretAccessKey, "20150830", "us-east-1", "service")),
    "938127b5336810ddb6a5d6af445fcac9e371f9ed418ed386b022aed82901be75",
  );
  for (const v of SIGV4_SUITE) {
    const signed = await signRequest(
      { method: v.method, url: new URL(v.url), headers: v.headers ?? {}, body: v.body },
      EXAMPLE,
      "us-east-1",
      "service",
      SUITE_DATE,
    );
    const signedHeaders = v.headers ? "content-type;host;x-amz-date" : "host;x-amz-date";
    assertEquals(
      signed.authorization,
      `AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, SignedHeaders=${signedHeaders}, Signature=${v.signature}`,
      v.name,
    );
  }
});

const SDK_SIGNER = `
import { createRequire } from "node:module";
import { createHash, createHmac } from "node:crypto";
import { join } from "node:path";
const require = createRequire(join(process.env.PI_REFERENCE_DIR, "node_modules", "x.js"));
const { SignatureV4 } = require("@smithy/signature-v4");
class Sha256 {
  constructor(secret) { this.h = secret ? createHmac("sha256", secret) : createHash("sha256"); }
  update(d) { this.h.update(d); }
  async digest() { return new Uint8Array(this.h.digest()); }
}
const input = JSON.parse(process.argv[1]);
const signer = new SignatureV4({ credentials: input.credentials, region: input.region, service: "bedrock", sha256: Sha256 });
const signed = await signer.sign(input.request, { signingDate: new Date(input.date) });
process.stdout.write(JSON.stringify(signed.headers));
`;

Deno.test("Bedrock SigV4: equal to the AWS SDK's signer for a ConverseStream request on the same clock", async () => {
  const ref = findReference();
  if (!ref) throw new Error("the reference pi 1.6.0 is not installed (scripts/reference/locate.ts)");
  const credentials = { ...EXAMPLE, sessionToken: "FwoGZXIvYXdzEJr//////////wEaDFAKE+token/=" };
  const body = JSON.stringify({ messages: [{ role: "user", content: [{ text: "héllo ✓" }] }] });
  const date = new Date("2026-03-04T05:06:07Z");
  for (
    const modelId of [
      "anthropic.claude-sonnet-4-5-20250929-v1:0",
      "arn:aws:bedrock:eu-west-1:123456789012:application-inference-profile/abc",
    ]
  ) {
    const url = new URL(
      `https://bedrock-runtime.eu-west-1.amazonaws.com/model/${encodeURIComponent(modelId)}/converse-stream`,
    );
    const ours = await signRequest(
      { method: "POST", url, headers: { "content-type": "application/json" }, body },
      credentials,
      "eu-west-1",
      "bedrock",
      date,
      true,
    );
    const input = {
      credentials,
      region: "eu-west-1",
      date: date.toISOString(),
      request: {
        method: "POST",
        protocol: "https:",
        hostname: url.hostname,
        path: url.pathname,
        query: {},
        headers: {
          host: url.hostname,
          "content-type": "application/json",
          "x-amz-content-sha256": ours.headers["x-amz-content-sha256"],
        },
        body,
      },
    };
    const out = await new Deno.Command(ref.node, {
      args: ["--input-type=module", "-e", SDK_SIGNER, JSON.stringify(input)],
      env: { PI_REFERENCE_DIR: ref.nodeModules.replace(/\/node_modules$/, "") },
    }).output();
    assertEquals(out.code, 0, new TextDecoder().decode(out.stderr));
    const sdk = JSON.parse(new TextDecoder().decode(out.stdout)) as Record<string, string>;
    assertEquals(ours.authorization, sdk.authorization, modelId);
    assertEquals(ours.headers["x-amz-security-token"], sdk["x-amz-security-token"]);
    assertEquals(ours.headers["x-amz-date"], sdk["x-amz-date"]);
  }
});

const enc = new TextEncoder();

async function collect(chunks: Uint8Array[]): Promise<unknown[]> {
  async function* source() {
    yield* chunks;
  }
  const out: unknown[] = [];
  for await (const m of readEventStream(source())) {
    out.push({ ...m.headers, payload: new TextDecoder().decode(m.payload) });
  }
  return out;
}

Deno.test("Bedrock event stream: frames split anywhere decode whole; exception frames keep their type", async () => {
  const a = encodeFrame(
    { ":event-type": "messageStart", ":message-type": "event" },
    enc.encode('{"role":"assistant"}'),
  );
  const b = exceptionFrame("throttlingException", "slow down");
  const all = new Uint8Array([...a, ...b]);
  const expected = [
    { ":event-type": "messageStart", ":message-type": "event", payload: '{"role":"assistant"}' },
    {
      ":exception-type": "throttlingException",
      ":content-type": "application/json",
      ":message-type": "exception",
      payload: '{"message":"slow down"}',
    },
  ];
  for (const cut of [1, 5, 12, a.length - 1, a.length, a.length + 3]) {
    assertEquals(await collect([all.subarray(0, cut), all.subarray(cut)]), expected, `cut at ${cut}`);
  }
  assertEquals(await collect(Array.from(all, (byte) => new Uint8Array([byte]))), expected, "byte by byte");
});

Deno.test("Bedrock event stream: a bad prelude or message CRC and a cut-off frame are clear errors", async () => {
  const frame = encodeFrame({ ":event-type": "metadata" }, enc.encode("{}"));
  const badMessage = frame.slice();
  badMessage[badMessage.length - 2] ^= 0x10;
  assertThrows(() => decodeFrame(badMessage), "Bedrock event stream: corrupt frame (message checksum");
  const badPrelude = frame.slice();
  badPrelude[9] ^= 0x01;
  assertThrows(() => decodeFrame(badPrelude), "Bedrock event stream: corrupt frame (prelude checksum");
  // A flipped length byte: the prelude CRC catches it before the length is trusted.
  const badLength = frame.slice();
  badLength[0] ^= 0x40;
  await assertRejects(() => collect([badLength]), "corrupt frame (prelude checksum");
  await assertRejects(
    () => collect([frame.subarray(0, frame.length - 5)]),
    `Bedrock event stream ended inside a frame (${frame.length - 5} bytes of an incomplete message)`,
  );
});

function model(url: string, extra: Partial<Model> = {}): Model {
  return {
    id: "anthropic.claude-sonnet-4-5-20250929-v1:0",
    name: "Claude Sonnet 4.5",
    api: "bedrock-converse-stream",
    provider: "amazon-bedrock",
    baseUrl: url,
    reasoning: true,
    input: ["text", "image"],
    cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
    contextWindow: 200000,
    maxTokens: 64000,
    ...extra,
  };
}

const CONTEXT: Context = { messages: [{ role: "user", content: "hi", timestamp: 1 }] };
const CLEAN_ENV = {
  AWS_ACCESS_KEY_ID: "",
  AWS_SECRET_ACCESS_KEY: "",
  AWS_SESSION_TOKEN: "",
  AWS_PROFILE: "",
  AWS_BEARER_TOKEN_BEDROCK: "",
  AWS_REGION: "us-east-1",
  AWS_DEFAULT_REGION: "",
  AWS_CONFIG_FILE: "",
  AWS_SHARED_CREDENTIALS_FILE: "",
  AWS_CONTAINER_CREDENTIALS_RELATIVE_URI: "",
  AWS_CONTAINER_CREDENTIALS_FULL_URI: "",
  AWS_WEB_IDENTITY_TOKEN_FILE: "",
  // No instance metadata probe: these cases are about the sources above (bedrock_credentials_test.ts covers IMDS).
  AWS_EC2_METADATA_DISABLED: "true",
};

async function withHome(files: Record<string, string>, fn: (home: string) => Promise<void>): Promise<void> {
  const home = await Deno.makeTempDir({ prefix: "pi-bedrock-home-" });
  try {
    await Deno.mkdir(`${home}/.aws`);
    for (const [name, text] of Object.entries(files)) await Deno.writeTextFile(`${home}/.aws/${name}`, text);
    await fn(home);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
}

const OK_TURN = { content: [{ type: "text" as const, text: "hello" }] };

Deno.test("Bedrock credentials: a profile of ~/.aws/credentials, a config profile with credential_process, a bearer token", async () => {
  const server = await startFakeProvider([OK_TURN, OK_TURN, OK_TURN, OK_TURN]);
  try {
    const credentialsFile = `# test profile
[default]
aws_access_key_id = AKIDWRONGDEFAULT
aws_secret_access_key = wrong

[work]
aws_access_key_id = ${FAKE_AWS_CREDENTIALS.accessKeyId}
aws_secret_access_key = ${FAKE_AWS_CREDENTIALS.secretAccessKey}
`;
    const process = JSON.stringify({
      Version: 1,
      AccessKeyId: FAKE_AWS_CREDENTIALS.accessKeyId,
      SecretAccessKey: FAKE_AWS_CREDENTIALS.secretAccessKey,
      SessionToken: "proc-token",
    });
    const configFile = `[profile proc]
region = eu-central-1
credential_process = printf '%s' '${process}'

`;
    await withHome({ credentials: credentialsFile, config: configFile }, async (home) => {
      // AWS_PROFILE scoped to the request wins over access keys (pi-ai 1.6.0, #6957).
      const viaProfile = await complete(model(server.url), CONTEXT, {
        env: {
          ...CLEAN_ENV,
          HOME: home,
          AWS_PROFILE: "work",
          AWS_ACCESS_KEY_ID: "AKIDIGNORED",
          AWS_SECRET_ACCESS_KEY: "x",
        },
      });
      assertEquals([viaProfile.stopReason, viaProfile.errorMessage], ["stop", undefined]);
      assert(
        server.requests[0].headers.authorization.startsWith(
          `AWS4-HMAC-SHA256 Credential=${FAKE_AWS_CREDENTIALS.accessKeyId}/`,
        ),
      );

      const viaProcess = await complete(model(server.url), CONTEXT, {
        env: { ...CLEAN_ENV, HOME: home, AWS_PROFILE: "proc" },
      });
      assertEquals([viaProcess.stopReason, viaProcess.errorMessage], ["stop", undefined]);
      assertEquals(server.requests[1].headers["x-amz-security-token"], "proc-token");

      const missing = await complete(model(server.url), CONTEXT, {
        env: { ...CLEAN_ENV, HOME: home, AWS_PROFILE: "nope" },
      });
      assertEquals(
        missing.errorMessage,
        'AWS profile "nope" was not found in ~/.aws/credentials or ~/.aws/config',
      );
      assertEquals(server.requests.length, 2);
    });
    const viaToken = await complete(model(server.url), CONTEXT, {
      env: { ...CLEAN_ENV, AWS_BEARER_TOKEN_BEDROCK: FAKE_BEDROCK_TOKEN },
    });
    assertEquals([viaToken.stopReason, viaToken.errorMessage], ["stop", undefined]);
    assertEquals(server.requests[2].headers.authorization, `Bearer ${FAKE_BEDROCK_TOKEN}`);
    assertEquals(server.requests[2].headers["x-amz-date"], undefined);
  } finally {
    await server.close();
  }
});

Deno.test("Bedrock credentials: bad keys fail with AWS's message and no secret in it; none at all says what to set", async () => {
  const server = await startFakeProvider([OK_TURN]);
  const secret = "SuperSecretValue/shouldNeverAppear+123";
  try {
    const bad = await complete(model(server.url), CONTEXT, {
      env: {
        ...CLEAN_ENV,
        AWS_ACCESS_KEY_ID: FAKE_AWS_CREDENTIALS.accessKeyId,
        AWS_SECRET_ACCESS_KEY: secret,
      },
    });
    assertEquals(bad.stopReason, "error");
    assertEquals(
      bad.errorMessage,
      "InvalidSignatureException: The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.",
    );
    assert(!JSON.stringify(bad).includes(secret));
    const badToken = await complete(model(server.url), CONTEXT, {
      env: { ...CLEAN_ENV, AWS_BEARER_TOKEN_BEDROCK: "wrong-token-value-1234" },
    });
    assertEquals(
      badToken.errorMessage,
      "UnrecognizedClientException: Invalid API Key format: Must start with pre-defined prefix",
    );
    assert(!JSON.stringify(badToken).includes("wrong-token-value-1234"));
    await withHome({}, async (home) => {
      const none = await complete(model(server.url), CONTEXT, {
        apiKey: "<authenticated>",
        env: { ...CLEAN_ENV, HOME: home },
      });
      assertEquals(
        none.errorMessage,
        "No AWS credentials for Amazon Bedrock: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, AWS_PROFILE, or AWS_BEARER_TOKEN_BEDROCK",
      );
    });
    assertEquals(server.pending(), 1);
  } finally {
    await server.close();
  }
});

Deno.test("Bedrock region and endpoint: ARN first, then the configured region; custom endpoints stay", () => {
  const catalog = model("https://bedrock-runtime.us-east-1.amazonaws.com");
  const env = { AWS_REGION: "", AWS_DEFAULT_REGION: "" };
  assertEquals(resolveBedrockTarget(catalog, { env }), {
    region: "us-east-1",
    endpoint: "https://bedrock-runtime.us-east-1.amazonaws.com",
  });
  assertEquals(resolveBedrockTarget(catalog, { env: { ...env, AWS_REGION: "eu-west-3" } }), {
    region: "eu-west-3",
    endpoint: "https://bedrock-runtime.eu-west-3.amazonaws.com",
  });
  assertEquals(resolveBedrockTarget(catalog, { env: { ...env, AWS_DEFAULT_REGION: "cn-north-1" } }), {
    region: "cn-north-1",
    endpoint: "https://bedrock-runtime.cn-north-1.amazonaws.com.cn",
  });
  assertEquals(
    resolveBedrockTarget(catalog, { region: "ap-south-1", env: { ...env, AWS_REGION: "eu-west-3" } }).region,
    "ap-south-1",
  );
  const arn = model("https://bedrock-runtime.us-east-1.amazonaws.com", {
    id: "arn:aws:bedrock:eu-north-1:123456789012:application-inference-profile/abc",
  });
  assertEquals(resolveBedrockTarget(arn, { env: { ...env, AWS_REGION: "us-west-2" } }), {
    region: "eu-north-1",
    endpoint: "https://bedrock-runtime.eu-north-1.amazonaws.com",
  });
  const proxy = model("https://bedrock.internal.example/");
  assertEquals(resolveBedrockTarget(proxy, { env: { ...env, AWS_REGION: "us-west-2" } }), {
    region: "us-west-2",
    endpoint: "https://bedrock.internal.example",
  });
});

Deno.test("Bedrock errors classify as 1.6.0's: overflow compacts, 5xx and drops retry, throttling and bad keys do not", async () => {
  const env = {
    ...CLEAN_ENV,
    AWS_ACCESS_KEY_ID: FAKE_AWS_CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: FAKE_AWS_CREDENTIALS.secretAccessKey,
  };
  const cases: {
    turns: ScriptedTurn[];
    overflow: boolean;
    retryable: boolean;
    env?: Record<string, string>;
  }[] = [
    {
      turns: [{ fault: { kind: "http", status: 400, message: "Input is too long for requested model." } }],
      overflow: true,
      retryable: false,
    },
    {
      // Bedrock words throttling with "too many tokens", which is not an overflow. As in 1.6.0 the
      // agent does not retry it again: the three attempts of the request were the retries.
      turns: Array(3).fill({
        fault: { kind: "http", status: 429, message: "Too many tokens, please wait." },
      }),
      overflow: false,
      retryable: false,
    },
    {
      turns: Array(3).fill({
        fault: { kind: "http", status: 500, message: "The system encountered an unexpected error." },
      }),
      overflow: false,
      retryable: true,
    },
    {
      turns: Array(3).fill({
        fault: { kind: "http", status: 503, message: "Bedrock is unable to process your request." },
      }),
      overflow: false,
      retryable: true,
    },
    {
      turns: [{ content: [{ type: "text", text: "Hello there" }], fault: { kind: "drop", afterChunks: 2 } }],
      overflow: false,
      retryable: true,
    },
    {
      turns: [OK_TURN],
      overflow: false,
      retryable: false,
      env: { ...env, AWS_SECRET_ACCESS_KEY: "wrong-secret-value" },
    },
  ];
  for (const c of cases) {
    const server = await startFakeProvider(c.turns);
    try {
      const reply = await complete(model(server.url), CONTEXT, { env: c.env ?? env });
      assertEquals(reply.stopReason, "error");
      assertEquals(
        [isContextOverflow(reply, 200000), isRetryableError(reply, 200000)],
        [c.overflow, c.retryable],
        reply.errorMessage,
      );
    } finally {
      await server.close();
    }
  }
});
