/**
 * PROV-02 for Mistral (mistral-conversations): ours against pi-ai 1.6.0 on the same fake
 * api.mistral.ai. Per case the request (URL, authorization, x-affinity, body), the events and
 * the final message must be equal, times and the fake's ids normalised. Needs the reference.
 */
import { assertEquals } from "../support/assert.ts";
import { type RecordedRequest, type ScriptedTurn, startFakeProvider } from "../support/fake_provider/mod.ts";
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

function mistral(id: string, extra: Partial<Model> = {}): (url: string) => Model {
  return (url) => ({
    id,
    name: id,
    api: "mistral-conversations",
    provider: "mistral",
    baseUrl: `${url}/mistral`,
    reasoning: false,
    input: ["text", "image"],
    cost: { input: 0.5, output: 1.5, cacheRead: 0.05, cacheWrite: 0 },
    contextWindow: 128000,
    maxTokens: 16384,
    ...extra,
  });
}

const LARGE = mistral("mistral-large-latest");
const MAGISTRAL = mistral("magistral-medium-latest", { reasoning: true, input: ["text"] });
const SMALL_EFFORT = mistral("mistral-small-latest", {
  reasoning: true,
  thinkingLevelMap: {
    off: "none",
    minimal: null,
    low: null,
    medium: null,
    high: "high",
    xhigh: null,
    max: null,
  },
});

const HISTORY: Context = {
  systemPrompt: "You are terse.",
  messages: [
    {
      role: "user",
      content: [{ type: "text", text: "Look" }, { type: "image", mimeType: "image/png", data: PNG_1PX }],
      timestamp: 1,
    },
    {
      role: "assistant",
      content: [
        { type: "thinking", thinking: "Read it." },
        { type: "text", text: "Reading." },
        {
          type: "toolCall",
          id: "call_from_another_provider_123",
          name: "read",
          arguments: { path: "a.txt" },
        },
        { type: "toolCall", id: "abcDEF123", name: "read", arguments: { path: "b.txt" } },
      ],
      api: "openai-completions",
      provider: "openai",
      model: "gpt-4o",
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
      toolCallId: "call_from_another_provider_123",
      toolName: "read",
      content: [{ type: "text", text: "alpha" }, { type: "image", mimeType: "image/png", data: PNG_1PX }],
      isError: false,
      timestamp: 3,
    },
    {
      role: "toolResult",
      toolCallId: "abcDEF123",
      toolName: "read",
      content: [],
      isError: true,
      timestamp: 4,
    },
  ],
  tools: [READ_TOOL],
};

const KEY = "mistral-test-key-0001";
const TEXT_TURN = { content: [{ type: "text" as const, text: "Hello there, friend." }] };

const MISTRAL_CASES: WireCase[] = [
  {
    name: "text with usage and cached tokens, session affinity",
    turn: { ...TEXT_TURN, usage: { input: 80, output: 12, cacheRead: 20 } },
    context: SIMPLE_CONTEXT,
    model: LARGE,
    options: { apiKey: KEY, sessionId: "session-42" },
  },
  {
    name: "Magistral: prompt_mode reasoning, thinking chunks, history with images replayed text-only",
    turn: {
      content: [{ type: "thinking", thinking: "Consider the file." }, {
        type: "text",
        text: "It says alpha.",
      }],
    },
    context: HISTORY,
    model: MAGISTRAL,
    options: { apiKey: KEY, reasoning: "medium" },
  },
  {
    name: "effort map: reasoning_effort, parallel tool calls, images in history",
    turn: {
      content: [
        { type: "toolCall", id: "AAAAAAAA1", name: "read", arguments: { path: "x.ts" } },
        { type: "toolCall", id: "BBBBBBBB2", name: "read", arguments: { path: "y.ts" } },
      ],
    },
    context: HISTORY,
    model: SMALL_EFFORT,
    options: {
      apiKey: KEY,
      reasoning: "high",
      temperature: 0.1,
      maxTokens: 500,
      cacheRetention: "none",
      sessionId: "s",
    },
  },
  {
    name: "effort map with reasoning off sends its off entry",
    turn: { ...TEXT_TURN, stopReason: "length" },
    context: SIMPLE_CONTEXT,
    model: SMALL_EFFORT,
    options: { apiKey: KEY },
  },
  {
    name: "HTTP 401",
    turn: { fault: { kind: "http", status: 401, message: "Unauthorized" } },
    context: SIMPLE_CONTEXT,
    model: LARGE,
    options: { apiKey: KEY },
  },
  {
    name: "HTTP 400 overflow",
    turn: {
      fault: {
        kind: "http",
        status: 400,
        message:
          "Prompt contains 140000 tokens and 0 draft tokens, too large for model with 131072 maximum context length",
      },
    },
    context: SIMPLE_CONTEXT,
    model: LARGE,
    options: { apiKey: KEY },
  },
  {
    name: "HTTP 429",
    turn: { fault: { kind: "http", status: 429, message: "Requests rate limit exceeded" } },
    context: SIMPLE_CONTEXT,
    model: LARGE,
    options: { apiKey: KEY },
  },
  {
    name: "HTTP 500",
    turn: { fault: { kind: "http", status: 500, message: "Internal server error" } },
    context: SIMPLE_CONTEXT,
    model: LARGE,
    options: { apiKey: KEY },
  },
  {
    name: "finish reason error mid-stream",
    turn: { ...TEXT_TURN, fault: { kind: "error_event", message: "boom", afterChunks: 2 } },
    context: SIMPLE_CONTEXT,
    model: LARGE,
    options: { apiKey: KEY },
  },
  {
    name: "garbage event",
    turn: { ...TEXT_TURN, fault: { kind: "garbage", data: "{not json", afterChunks: 2 } },
    context: SIMPLE_CONTEXT,
    model: LARGE,
    options: { apiKey: KEY },
  },
  {
    name: "body ends without a finish reason",
    turn: { ...TEXT_TURN, fault: { kind: "close", afterChunks: 2 } },
    context: SIMPLE_CONTEXT,
    model: LARGE,
    options: { apiKey: KEY },
  },
  {
    name: "connection dropped mid-stream",
    turn: { ...TEXT_TURN, fault: { kind: "drop", afterChunks: 2 } },
    context: SIMPLE_CONTEXT,
    model: LARGE,
    options: { apiKey: KEY },
  },
  {
    name: "abort mid-stream",
    turn: { ...TEXT_TURN, fault: { kind: "stall", afterChunks: 2 } },
    context: SIMPLE_CONTEXT,
    model: LARGE,
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
    affinity: request.headers["x-affinity"],
    body: request.body,
  };
}

Deno.test("PROV-02 Mistral: requests, events and errors equal pi-ai 1.6.0's", async () => {
  const reference = await runReferenceWire(MISTRAL_CASES);
  if (!reference) throw new Error("the reference pi 1.6.0 is not installed (scripts/reference/locate.ts)");
  for (let i = 0; i < MISTRAL_CASES.length; i++) {
    const c = MISTRAL_CASES[i];
    const ours = await runOursWire(c);
    // Deliberate: a dropped connection reads "terminated" without undici's socket detail.
    const theirs = rewriteReferenceErrors(
      reference[i],
      (m) => m.startsWith("terminated: ") ? "terminated" : m,
    );
    assertEquals(
      normalise(requestView(ours.requests[0])),
      normalise(requestView(theirs.requests[0])),
      `${c.name}: request`,
    );
    assertEquals(ours.requests.length, theirs.requests.length, `${c.name}: attempts`);
    assertEquals(normalise(ours.events), normalise(theirs.events), `${c.name}: events`);
    assertEquals(normalise(ours.final), normalise(theirs.final), `${c.name}: final message`);
  }
});

Deno.test("Mistral: no key is a clear error and nothing is sent; the key never shows in an error", async () => {
  const server = await startFakeProvider([{
    fault: { kind: "http", status: 401, message: `bad key ${KEY}` },
  }]);
  try {
    const noKey = await complete(LARGE(server.url), SIMPLE_CONTEXT, { env: { MISTRAL_API_KEY: "" } });
    assertEquals(noKey.errorMessage, "No API key for provider: mistral");
    assertEquals(server.requests.length, 0);
    const echoed = await complete(LARGE(server.url), SIMPLE_CONTEXT, { apiKey: KEY });
    assertEquals(
      echoed.errorMessage,
      'Mistral API error (401): {"object":"error","message":"bad key ***","type":"unauthorized","param":null,"code":"401"}',
    );
  } finally {
    await server.close();
  }
});

Deno.test("Mistral and Azure errors classify as 1.6.0's: overflow compacts, 429/5xx and drops retry, 401 does not", async () => {
  const cases: {
    model: (url: string) => Model;
    turn: ScriptedTurn;
    overflow: boolean;
    retryable: boolean;
  }[] = [
    {
      model: LARGE,
      turn: {
        fault: {
          kind: "http",
          status: 400,
          message: "Prompt contains 140000 tokens, too large for model with 131072 maximum context length",
        },
      },
      overflow: true,
      retryable: false,
    },
    {
      model: LARGE,
      turn: { fault: { kind: "http", status: 429, message: "Rate limit" } },
      overflow: false,
      retryable: true,
    },
    {
      model: LARGE,
      turn: { fault: { kind: "http", status: 401, message: "Unauthorized" } },
      overflow: false,
      retryable: false,
    },
    {
      model: LARGE,
      turn: { ...TEXT_TURN, fault: { kind: "error_event", message: "x", afterChunks: 2 } },
      overflow: false,
      retryable: true,
    },
    {
      model: LARGE,
      turn: { ...TEXT_TURN, fault: { kind: "drop", afterChunks: 2 } },
      overflow: false,
      retryable: true,
    },
    {
      model: azureModelAt,
      turn: {
        fault: { kind: "http", status: 400, message: "Your input exceeds the context window of this model." },
      },
      overflow: true,
      retryable: false,
    },
    {
      model: azureModelAt,
      turn: { fault: { kind: "http", status: 500, message: "Server error" } },
      overflow: false,
      retryable: true,
    },
  ];
  for (const c of cases) {
    const server = await startFakeProvider([c.turn]);
    try {
      const reply = await complete(c.model(server.url), SIMPLE_CONTEXT, {
        apiKey: KEY,
        env: { AZURE_OPENAI_BASE_URL: "" },
      });
      assertEquals(reply.stopReason, "error");
      assertEquals(
        [isContextOverflow(reply, 128000), isRetryableError(reply, 128000)],
        [c.overflow, c.retryable],
        reply.errorMessage,
      );
    } finally {
      await server.close();
    }
  }
});

/** An Azure model at the fake server (for the classification test). */
function azureModelAt(url: string): Model {
  return {
    id: "gpt-5.4",
    name: "GPT-5.4",
    api: "azure-openai-responses",
    provider: "azure",
    baseUrl: `${url}/openai/v1`,
    reasoning: false,
    input: ["text"],
    cost: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 },
    contextWindow: 128000,
    maxTokens: 16000,
  };
}
