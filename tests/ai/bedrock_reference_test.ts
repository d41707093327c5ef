/**
 * PROV-02 for Amazon Bedrock (bedrock-converse-stream): our fetch-native implementation against
 * pi-ai 1.6.0 (AWS SDK inside) on the same fake bedrock-runtime, which speaks the binary event
 * stream and verifies every SigV4 signature. Per case the request (path, body, credential scope,
 * session token, bearer token), the events and the final message must be equal, times
 * normalised. The signatures themselves differ (the SDK signs more headers, e.g. its invocation
 * id) and are checked by the server instead: a wrong one gets 403. Needs the reference installed.
 */
import { assertEquals } from "../support/assert.ts";
import {
  bedrockRequestView,
  FAKE_AWS_CREDENTIALS,
  FAKE_BEDROCK_TOKEN,
} from "../support/fake_provider/bedrock.ts";
import {
  normaliseWire,
  PNG_1PX,
  READ_TOOL,
  runOursWire,
  runReferenceWire,
  SIMPLE_CONTEXT,
  type WireCase,
  type WireOutcome,
} from "../support/fake_provider/wire_reference.ts";
import type { Context, Model } from "../../src/ai/types.ts";

const KEYS = {
  AWS_ACCESS_KEY_ID: FAKE_AWS_CREDENTIALS.accessKeyId,
  AWS_SECRET_ACCESS_KEY: FAKE_AWS_CREDENTIALS.secretAccessKey,
  AWS_REGION: "us-west-2",
  // The SDK defaults to HTTP/2, which a plain http:// test server does not speak.
  AWS_BEDROCK_FORCE_HTTP1: "1",
  // A named profile or token from the machine running the test must not leak in.
  AWS_PROFILE: "",
  AWS_BEARER_TOKEN_BEDROCK: "",
  AWS_SESSION_TOKEN: "",
};

function claude(id: string, name: string, extra: Partial<Model> = {}): (url: string) => Model {
  return (url) => ({
    id,
    name,
    api: "bedrock-converse-stream",
    provider: "amazon-bedrock",
    baseUrl: url,
    reasoning: true,
    input: ["text", "image"],
    cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
    contextWindow: 200000,
    maxTokens: 64000,
    ...extra,
  });
}

const SONNET_45 = claude("anthropic.claude-sonnet-4-5-20250929-v1:0", "Claude Sonnet 4.5");
const OPUS_46 = claude("us.anthropic.claude-opus-4-6-v1", "Claude Opus 4.6");
const OPUS_47 = claude("global.anthropic.claude-opus-4-7", "Claude Opus 4.7");
const GPT_OSS = claude("openai.gpt-oss-120b-1:0", "gpt-oss-120b", { maxTokens: 8192, contextWindow: 128000 });
const NOVA = claude("amazon.nova-pro-v1:0", "Nova Pro", { reasoning: false, maxTokens: 5000 });

const HISTORY: Context = {
  systemPrompt: "You are terse.",
  messages: [
    {
      role: "user",
      content: [{ type: "text", text: "Look at this" }, {
        type: "image",
        mimeType: "image/png",
        data: PNG_1PX,
      }],
      timestamp: 1,
    },
    {
      role: "assistant",
      content: [
        { type: "thinking", thinking: "I should read both.", thinkingSignature: "sig-abc" },
        { type: "text", text: "Reading." },
        { type: "toolCall", id: "tooluse_1", name: "read", arguments: { path: "a.txt" } },
        { type: "toolCall", id: "call|odd.id", name: "read", arguments: { path: "b.txt" } },
      ],
      api: "bedrock-converse-stream",
      provider: "amazon-bedrock",
      model: "anthropic.claude-sonnet-4-5-20250929-v1:0",
      usage: {
        input: 1,
        output: 1,
        cacheRead: 0,
        cacheWrite: 0,
        totalTokens: 2,
        cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
      },
      stopReason: "toolUse",
      timestamp: 2,
    },
    {
      role: "toolResult",
      toolCallId: "tooluse_1",
      toolName: "read",
      content: [{ type: "text", text: "alpha" }],
      isError: false,
      timestamp: 3,
    },
    {
      role: "toolResult",
      toolCallId: "call|odd.id",
      toolName: "read",
      content: [{ type: "text", text: "failed" }, { type: "image", mimeType: "image/png", data: PNG_1PX }],
      isError: true,
      timestamp: 4,
    },
  ],
  tools: [READ_TOOL],
};

const TEXT_TURN = { content: [{ type: "text" as const, text: "Hello there, friend." }] };

/** The cases, each run on both sides. */
const BEDROCK_CASES: WireCase[] = [
  {
    name: "text with budget thinking (Claude Sonnet 4.5)",
    turn: {
      content: [
        { type: "thinking", thinking: "Greet briefly.", signature: "EqQBCkgIARAB" },
        { type: "text", text: "Hi! How can I help?" },
      ],
      usage: { input: 120, output: 30, cacheRead: 50, cacheWrite: 10 },
    },
    context: SIMPLE_CONTEXT,
    model: SONNET_45,
    options: { reasoning: "medium", env: KEYS },
  },
  {
    name: "parallel tool calls, adaptive thinking (Claude Opus 4.6), session token",
    turn: {
      content: [
        { type: "text", text: "Reading both." },
        { type: "toolCall", id: "tooluse_a", name: "read", arguments: { path: "x.ts" } },
        { type: "toolCall", id: "tooluse_b", name: "read", arguments: { path: "y.ts" } },
      ],
    },
    context: SIMPLE_CONTEXT,
    model: OPUS_46,
    options: { reasoning: "high", env: { ...KEYS, AWS_SESSION_TOKEN: "FwoGZXIvYXdzEFAKE//session" } },
  },
  {
    name: "history with images, tool results and an error image (Claude Opus 4.7, xhigh, long cache)",
    turn: TEXT_TURN,
    context: HISTORY,
    model: OPUS_47,
    options: { reasoning: "xhigh", cacheRetention: "long", env: KEYS },
  },
  {
    name: "gpt-oss reasoning, history replayed without signatures",
    turn: { content: [{ type: "thinking", thinking: "ok" }, { type: "text", text: "Done." }] },
    context: HISTORY,
    model: GPT_OSS,
    options: { reasoning: "xhigh", env: KEYS },
  },
  {
    name: "Nova, no reasoning, no cache points, temperature, max tokens stop",
    turn: { ...TEXT_TURN, stopReason: "length" },
    context: SIMPLE_CONTEXT,
    model: NOVA,
    options: { temperature: 0.3, maxTokens: 100, env: KEYS },
  },
  {
    name: "encrypted reasoning (redactedContent) from an OpenAI model, replayed on the next turn",
    turn: {
      content: [
        {
          type: "thinking",
          thinking: "",
          redacted: true,
          signature: btoa("opaque-reasoning-bytes-0123456789"),
        },
        { type: "text", text: "Done." },
      ],
    },
    context: {
      ...SIMPLE_CONTEXT,
      messages: [
        ...SIMPLE_CONTEXT.messages,
        {
          role: "assistant",
          content: [
            {
              type: "thinking",
              thinking: "[Reasoning redacted]",
              thinkingSignature: btoa("earlier-bytes"),
              redacted: true,
            },
            { type: "text", text: "Hi." },
          ],
          api: "bedrock-converse-stream",
          provider: "amazon-bedrock",
          model: "openai.gpt-5.6-v1:0",
          usage: {
            input: 1,
            output: 1,
            cacheRead: 0,
            cacheWrite: 0,
            totalTokens: 2,
            cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
          },
          stopReason: "stop",
          timestamp: 2,
        },
        { role: "user", content: "Again", timestamp: 3 },
      ],
    },
    model: claude("openai.gpt-5.6-v1:0", "GPT-5.6", { maxTokens: 32000 }),
    options: { reasoning: "medium", env: KEYS },
  },
  {
    name: "stream options: forced tool, request metadata, omitted thinking, no interleaving",
    turn: { content: [{ type: "toolCall", id: "tooluse_f", name: "read", arguments: { path: "z" } }] },
    context: SIMPLE_CONTEXT,
    model: SONNET_45,
    simple: false,
    options: {
      env: KEYS,
      maxTokens: 3000,
      reasoning: "low",
      thinkingBudgets: { low: 1500 },
      thinkingDisplay: "omitted",
      interleavedThinking: false,
      toolChoice: { type: "tool", name: "read" },
      requestMetadata: { team: "pi", purpose: "test" },
    },
  },
  {
    name: "GovCloud region: no thinking display or block binding",
    turn: TEXT_TURN,
    context: SIMPLE_CONTEXT,
    model: OPUS_47,
    options: { reasoning: "high", env: { ...KEYS, AWS_REGION: "us-gov-west-1" } },
  },
  {
    name: "application inference profile ARN: region from the ARN, name decides Claude",
    turn: TEXT_TURN,
    context: SIMPLE_CONTEXT,
    model: claude(
      "arn:aws:bedrock:eu-west-1:123456789012:application-inference-profile/a1b2c3",
      "Claude Sonnet 4.5 via profile",
    ),
    options: { reasoning: "minimal", env: KEYS },
  },
  {
    name: "bearer token (AWS_BEARER_TOKEN_BEDROCK)",
    turn: TEXT_TURN,
    context: SIMPLE_CONTEXT,
    model: SONNET_45,
    options: { env: { ...KEYS, AWS_BEARER_TOKEN_BEDROCK: FAKE_BEDROCK_TOKEN } },
  },
  {
    name: "HTTP 400 overflow",
    turn: {
      fault: { kind: "http", status: 400, message: "Input is too long for requested model." },
    },
    context: SIMPLE_CONTEXT,
    model: SONNET_45,
    options: { env: KEYS },
  },
  {
    name: "HTTP 429 throttling",
    turn: {
      fault: { kind: "http", status: 429, message: "Too many tokens, please wait before trying again." },
    },
    // The AWS SDK tries three times; so do we.
    moreTurns: [
      { fault: { kind: "http", status: 429, message: "Too many tokens, please wait before trying again." } },
      { fault: { kind: "http", status: 429, message: "Too many tokens, please wait before trying again." } },
    ],
    context: SIMPLE_CONTEXT,
    model: SONNET_45,
    options: { env: KEYS },
  },
  {
    name: "HTTP 500",
    turn: { fault: { kind: "http", status: 500, message: "The system encountered an unexpected error." } },
    // The AWS SDK tries three times; so do we.
    moreTurns: [
      { fault: { kind: "http", status: 500, message: "The system encountered an unexpected error." } },
      { fault: { kind: "http", status: 500, message: "The system encountered an unexpected error." } },
    ],
    context: SIMPLE_CONTEXT,
    model: SONNET_45,
    options: { env: KEYS },
  },
  {
    name: "HTTP 503",
    turn: { fault: { kind: "http", status: 503, message: "Bedrock is unable to process your request." } },
    // The AWS SDK tries three times; so do we.
    moreTurns: [
      { fault: { kind: "http", status: 503, message: "Bedrock is unable to process your request." } },
      { fault: { kind: "http", status: 503, message: "Bedrock is unable to process your request." } },
    ],
    context: SIMPLE_CONTEXT,
    model: SONNET_45,
    options: { env: KEYS },
  },
  {
    name: "throttling exception mid-stream",
    turn: {
      ...TEXT_TURN,
      fault: {
        kind: "error_event",
        message: "throttlingException: Too many requests, please wait.",
        afterChunks: 3,
      },
    },
    context: SIMPLE_CONTEXT,
    model: SONNET_45,
    options: { env: KEYS },
  },
  {
    name: "connection dropped mid-stream",
    turn: { ...TEXT_TURN, fault: { kind: "drop", afterChunks: 3 } },
    context: SIMPLE_CONTEXT,
    model: SONNET_45,
    options: { env: KEYS },
  },
  {
    name: "body ends before messageStop",
    turn: { ...TEXT_TURN, fault: { kind: "close", afterChunks: 3 } },
    context: SIMPLE_CONTEXT,
    model: SONNET_45,
    options: { env: KEYS },
  },
  {
    name: "abort mid-stream",
    // Nothing is buffered past the third event, so both sides stop at the same text.
    turn: { ...TEXT_TURN, fault: { kind: "stall", afterChunks: 2 } },
    context: SIMPLE_CONTEXT,
    model: SONNET_45,
    options: { env: KEYS },
    abortAfterEvents: 3,
  },
  {
    name: "corrupt frame (bad message CRC)",
    turn: { ...TEXT_TURN, fault: { kind: "garbage", data: "zzz", afterChunks: 2 } },
    context: SIMPLE_CONTEXT,
    model: SONNET_45,
    options: { env: KEYS },
  },
  {
    name: "corrupt frame (bad prelude CRC)",
    turn: { ...TEXT_TURN, fault: { kind: "garbage", data: "zzz", event: "prelude", afterChunks: 2 } },
    context: SIMPLE_CONTEXT,
    model: SONNET_45,
    options: { env: KEYS },
  },
  {
    name: "wrong secret key: the signature is refused",
    turn: TEXT_TURN,
    context: SIMPLE_CONTEXT,
    model: SONNET_45,
    options: { env: { ...KEYS, AWS_SECRET_ACCESS_KEY: "not-the-right-secret-key" } },
  },
  {
    name: "unknown access key",
    turn: TEXT_TURN,
    context: SIMPLE_CONTEXT,
    model: SONNET_45,
    options: { env: { ...KEYS, AWS_ACCESS_KEY_ID: "AKIDUNKNOWN" } },
  },
];

/**
 * Our deliberate departures, applied to the reference's side: a connection that drops mid-stream
 * reads "terminated" (retryable), where 1.6.0 reports Node's bare "aborted", which its own
 * auto-retry does not recognise; a user's abort reads "Request was aborted" as with every other
 * API, not "aborted"; a corrupt frame names the stream and both checksums in hex, where the AWS
 * SDK's text swaps "specified" and "expected" (docs/differences.md).
 */
function withDeliberateDifferences(name: string, outcome: WireOutcome): WireOutcome {
  const replacements: Record<string, [RegExp, string]> = {
    "connection dropped mid-stream": [/^aborted$/, "terminated"],
    "abort mid-stream": [/^aborted$/, "Request was aborted"],
    "corrupt frame (bad message CRC)": [
      /^The message checksum \(\d+\) did not match the expected value of \d+$/,
      "Bedrock event stream: corrupt frame (message checksum 0xba6309c1, computed 0xba6309c0)",
    ],
    "corrupt frame (bad prelude CRC)": [
      /^The prelude checksum specified in the message \(\d+\) does not match the calculated CRC32 checksum \(\d+\)$/,
      "Bedrock event stream: corrupt frame (prelude checksum 0x88cbb35e, computed 0x89cbb35e)",
    ],
  };
  const replacement = replacements[name];
  if (!replacement) return outcome;
  const [theirs, ours] = replacement;
  const fix = (m: Record<string, unknown>) =>
    theirs.test(String(m.errorMessage)) ? { ...m, errorMessage: ours } : m;
  const events = outcome.events.map((e) =>
    e.type === "error" ? { ...e, error: fix(e.error as Record<string, unknown>) } : e
  );
  return { ...outcome, events, final: fix(outcome.final) };
}

Deno.test("PROV-02 Bedrock ConverseStream: requests, events and errors equal pi-ai 1.6.0's", async () => {
  const reference = await runReferenceWire(BEDROCK_CASES);
  if (!reference) throw new Error("the reference pi 1.6.0 is not installed (scripts/reference/locate.ts)");
  for (let i = 0; i < BEDROCK_CASES.length; i++) {
    const c = BEDROCK_CASES[i];
    const ours = await runOursWire(c);
    const theirs: WireOutcome = withDeliberateDifferences(c.name, reference[i]);
    assertEquals(
      normaliseWire(bedrockRequestView(ours.requests[0])),
      normaliseWire(bedrockRequestView(theirs.requests[0])),
      `${c.name}: request`,
    );
    assertEquals(ours.requests.length, theirs.requests.length, `${c.name}: number of attempts`);
    assertEquals(normaliseWire(ours.events), normaliseWire(theirs.events), `${c.name}: events`);
    assertEquals(normaliseWire(ours.final), normaliseWire(theirs.final), `${c.name}: final message`);
  }
});
