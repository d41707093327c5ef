/**
 * PROV-02 for the Radius gateway (pi-messages): ours against pi-ai 1.6.0 on the same fake
 * gateway. Per case the request (URL, authorization, accept, body), the events and the final
 * message must be equal, times, the fake's ids and error stacks normalised. Needs the reference.
 */
import { assertEquals } from "../support/assert.ts";
import { type RecordedRequest, startFakeProvider } from "../support/fake_provider/mod.ts";
import { isContextOverflow } from "../../src/ai/overflow.ts";
import { isRetryableError } from "../../src/ai/retryable.ts";
import {
  PNG_1PX,
  READ_TOOL,
  rewriteReferenceErrors,
  runOursWire,
  runReferenceWire,
  SIMPLE_CONTEXT,
  type WireCase,
} from "../support/fake_provider/wire_reference.ts";
import { complete } from "../../src/ai/stream.ts";
import type { Context, Model } from "../../src/ai/types.ts";
import { normalise } from "./stream_reference.ts";

function radius(id: string, extra: Partial<Model> = {}): (url: string) => Model {
  return (url) => ({
    id,
    name: id,
    api: "pi-messages",
    provider: "radius",
    baseUrl: `${url}/radius/v1/`,
    reasoning: true,
    input: ["text", "image"],
    cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 0 },
    contextWindow: 1048576,
    maxTokens: 262144,
    ...extra,
  });
}

const BALANCED = radius("balanced");
const KEY = "radius-access-token-0001";
const TEXT_TURN = { content: [{ type: "text" as const, text: "Hello there, friend." }] };

const HISTORY: Context = {
  systemPrompt: "You are terse.",
  messages: [
    { role: "user", content: "Read a.txt", timestamp: 1 },
    {
      role: "assistant",
      content: [
        { type: "thinking", thinking: "Read it.", thinkingSignature: "sig" },
        { type: "toolCall", id: "call_1", name: "read", arguments: { path: "a.txt" } },
      ],
      api: "pi-messages",
      provider: "radius",
      model: "balanced",
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
      toolCallId: "call_1",
      toolName: "read",
      content: [{ type: "text", text: "alpha" }],
      isError: false,
      timestamp: 3,
    },
  ],
  tools: [READ_TOOL],
};

const CASES: WireCase[] = [
  {
    name: "text with priced usage, session id and cache retention from the env",
    turn: { ...TEXT_TURN, usage: { input: 80, output: 12, cacheRead: 20 }, model: "kimi-k2" },
    context: SIMPLE_CONTEXT,
    model: BALANCED,
    options: { apiKey: KEY, sessionId: "session-42", env: { PI_CACHE_RETENTION: "long" } },
  },
  {
    name: "thinking with a signature, reasoning level and limits passed as is",
    turn: {
      content: [{ type: "thinking", thinking: "Consider the file.", signature: "sig-1" }, {
        type: "text",
        text: "It says alpha.",
      }],
    },
    context: HISTORY,
    model: BALANCED,
    options: { apiKey: KEY, reasoning: "xhigh", temperature: 0.2, maxTokens: 900, cacheRetention: "short" },
  },
  {
    name: "tool calls streamed in pieces",
    turn: {
      content: [
        { type: "text", text: "Reading both." },
        { type: "toolCall", id: "call_a", name: "read", arguments: { path: "x.ts" } },
        { type: "toolCall", id: "call_b", name: "read", arguments: { path: "y.ts" } },
      ],
    },
    context: HISTORY,
    model: radius("balanced", { headers: { "x-extra": "from-model", "x-model-only": "m" } }),
    options: { apiKey: KEY, headers: { "x-extra": "1" } },
  },
  {
    name: "debug asks for ?debug=1, length stop",
    turn: { ...TEXT_TURN, stopReason: "length" },
    context: SIMPLE_CONTEXT,
    model: BALANCED,
    options: { apiKey: KEY, debug: true },
  },
  {
    name: "an image in the user message",
    turn: TEXT_TURN,
    context: {
      systemPrompt: "You are terse.",
      messages: [{
        role: "user",
        content: [{ type: "text", text: "What is this?" }, {
          type: "image",
          data: PNG_1PX,
          mimeType: "image/png",
        }],
        timestamp: 1,
      }],
    },
    model: BALANCED,
    options: { apiKey: KEY },
  },
  {
    name: "HTTP 400 overflow",
    turn: {
      fault: {
        kind: "http",
        status: 400,
        message: "prompt is too long: 1048577 tokens > 1048576 maximum",
      },
    },
    context: SIMPLE_CONTEXT,
    model: BALANCED,
    options: { apiKey: KEY },
  },
  {
    name: "HTTP 529",
    turn: { fault: { kind: "http", status: 529, message: "Overloaded" } },
    context: SIMPLE_CONTEXT,
    model: BALANCED,
    options: { apiKey: KEY },
  },
  {
    name: "HTTP 401",
    turn: { fault: { kind: "http", status: 401, message: "Unauthorized" } },
    context: SIMPLE_CONTEXT,
    model: BALANCED,
    options: { apiKey: KEY },
  },
  {
    name: "HTTP 429",
    turn: { fault: { kind: "http", status: 429, message: "Too many requests" } },
    context: SIMPLE_CONTEXT,
    model: BALANCED,
    options: { apiKey: KEY },
  },
  {
    name: "HTTP 500",
    turn: { fault: { kind: "http", status: 500, message: "Upstream failed" } },
    context: SIMPLE_CONTEXT,
    model: BALANCED,
    options: { apiKey: KEY },
  },
  {
    name: "error event mid-stream keeps the partial content",
    turn: { ...TEXT_TURN, fault: { kind: "error_event", message: "upstream overloaded", afterChunks: 3 } },
    context: SIMPLE_CONTEXT,
    model: BALANCED,
    options: { apiKey: KEY },
  },
  {
    name: "garbage event",
    turn: { ...TEXT_TURN, fault: { kind: "garbage", data: "{not json", afterChunks: 2 } },
    context: SIMPLE_CONTEXT,
    model: BALANCED,
    options: { apiKey: KEY },
  },
  {
    name: "body ends without a terminal event",
    turn: { ...TEXT_TURN, fault: { kind: "close", afterChunks: 3 } },
    context: SIMPLE_CONTEXT,
    model: BALANCED,
    options: { apiKey: KEY },
  },
  {
    name: "connection dropped mid-stream",
    turn: { ...TEXT_TURN, fault: { kind: "drop", afterChunks: 3 } },
    context: SIMPLE_CONTEXT,
    model: BALANCED,
    options: { apiKey: KEY },
  },
  {
    name: "abort mid-stream",
    turn: { ...TEXT_TURN, fault: { kind: "stall", afterChunks: 3 } },
    context: SIMPLE_CONTEXT,
    model: BALANCED,
    options: { apiKey: KEY },
    abortAfterEvents: 3,
  },
];

function requestView(request: RecordedRequest | undefined): Record<string, unknown> | null {
  if (!request) return null;
  return {
    url: request.url,
    authorization: request.headers.authorization,
    accept: request.headers.accept,
    contentType: request.headers["content-type"],
    extra: request.headers["x-extra"],
    modelOnly: request.headers["x-model-only"],
    body: request.body,
  };
}

/** Error stacks differ by runtime and each side has its own server port; the rest must be equal. */
function withoutStacks<T>(value: T): T {
  return JSON.parse(JSON.stringify(value), (key, v) => {
    if (key === "stack" || key === "timestampMs") return undefined;
    return typeof v === "string" ? v.replace(/127\.0\.0\.1:\d+/g, "127.0.0.1:<port>") : v;
  });
}

Deno.test("PROV-02 Radius (pi-messages): requests, events and errors equal pi-ai 1.6.0's", async () => {
  const reference = await runReferenceWire(CASES);
  if (!reference) throw new Error("the reference pi 1.6.0 is not installed (scripts/reference/locate.ts)");
  for (let i = 0; i < CASES.length; i++) {
    const c = CASES[i];
    const ours = await runOursWire(c);
    // Deliberate: a dropped connection reads "terminated" without undici's socket detail.
    let theirs = rewriteReferenceErrors(
      reference[i],
      (m) => m.startsWith("terminated: ") ? "terminated" : m,
    );
    if (c.name === "HTTP 529") {
      // Deliberate (docs/differences.md): Deno's fetch gives only a status's standard reason phrase, so a
      // code without one (529) has an empty statusText where Node reads the server's ("unknown").
      theirs = JSON.parse(
        JSON.stringify(theirs).replaceAll("529 unknown:", "529 :").replaceAll(
          '"statusText":"unknown"',
          '"statusText":""',
        ),
      );
    }
    assertEquals(
      normalise(requestView(ours.requests[0])),
      normalise(requestView(theirs.requests[0])),
      `${c.name}: request`,
    );
    assertEquals(ours.requests.length, theirs.requests.length, `${c.name}: attempts`);
    assertEquals(
      withoutStacks(normalise(ours.events)),
      withoutStacks(normalise(theirs.events)),
      `${c.name}: events`,
    );
    assertEquals(
      withoutStacks(normalise(ours.final)),
      withoutStacks(normalise(theirs.final)),
      `${c.name}: final`,
    );
    if (c.name === "HTTP 400 overflow") {
      assertEquals(isContextOverflow(ours.final as never, 1048576), true, "overflow detected");
    }
  }
});

Deno.test("Radius: no login is a clear error and nothing is sent; the token never shows in an error", async () => {
  const server = await startFakeProvider([{
    fault: { kind: "http", status: 401, message: `bad token ${KEY}` },
  }]);
  try {
    const noKey = await complete(BALANCED(server.url), SIMPLE_CONTEXT, { env: { RADIUS_API_KEY: "" } });
    assertEquals(noKey.errorMessage, 'No API key provided for provider "radius"');
    assertEquals(server.requests.length, 0);
    const reply = await complete(BALANCED(server.url), SIMPLE_CONTEXT, { apiKey: KEY });
    assertEquals(reply.errorMessage, "401 Unauthorized: bad token *** (unauthorized)");
    assertEquals(JSON.stringify(reply).includes(KEY), false);
  } finally {
    await server.close();
  }
});

Deno.test("Radius errors classify as 1.6.0's: 429/5xx, error events and drops retry, 401 does not", async () => {
  const cases = [
    {
      turn: { fault: { kind: "http" as const, status: 429, message: "Too many requests" } },
      retryable: true,
    },
    { turn: { fault: { kind: "http" as const, status: 500, message: "Upstream failed" } }, retryable: true },
    { turn: { fault: { kind: "http" as const, status: 401, message: "Unauthorized" } }, retryable: false },
    { turn: { ...TEXT_TURN, fault: { kind: "drop" as const, afterChunks: 2 } }, retryable: true },
  ];
  for (const c of cases) {
    const server = await startFakeProvider([c.turn]);
    try {
      const reply = await complete(BALANCED(server.url), SIMPLE_CONTEXT, { apiKey: KEY });
      assertEquals(reply.stopReason, "error");
      assertEquals([isContextOverflow(reply, 128000), isRetryableError(reply, 128000)], [false, c.retryable]);
    } finally {
      await server.close();
    }
  }
});
