/**
 * PROV-02 for OpenAI Codex Responses (openai-codex-responses): ours against pi-ai 1.6.0 on the
 * same fake server, over SSE (1.6.0 is asked for `transport: "sse"`; this build has no WebSocket
 * transport). Per case the request (URL, bearer token, account id from the token's claims,
 * originator, session headers, zstd encoding, the body) and the events and final message must
 * be equal, times and the fake's ids normalised. Needs the reference.
 */
import { assertEquals } from "../support/assert.ts";
import type { RecordedRequest } from "../support/fake_provider/mod.ts";
import {
  PNG_1PX,
  READ_TOOL,
  rewriteReferenceErrors,
  runOursWire,
  runReferenceWire,
  SIMPLE_CONTEXT,
  type WireCase,
  type WireOutcome,
} from "../support/fake_provider/wire_reference.ts";
import { complete } from "../../src/ai/stream.ts";
import { codexHttpErrorMessage } from "../../src/ai/providers/openai_codex_request.ts";
import type { AssistantMessage, Context, Model } from "../../src/ai/types.ts";
import { isContextOverflow } from "../../src/ai/overflow.ts";
import { normalise } from "./stream_reference.ts";
import {
  CODEX_ACCOUNT_ID,
  CODEX_TOKEN,
  codexModel,
  GPT6_COMPAT,
  REASONING_TURN,
  TEXT_TURN,
} from "./codex_support.ts";

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
        { type: "text", text: "Reading." },
        { type: "toolCall", id: "call_1|fc_1", name: "read", arguments: { path: "a.txt" } },
      ],
      api: "openai-codex-responses",
      provider: "openai-codex",
      model: "gpt-6-sol",
      providerThinkingLevel: "low",
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
      toolCallId: "call_1|fc_1",
      toolName: "read",
      content: [{ type: "text", text: "alpha" }],
      isError: false,
      timestamp: 3,
    },
  ],
  tools: [READ_TOOL],
};
const SSE = { apiKey: CODEX_TOKEN, transport: "sse" as const };

const CODEX_CASES: WireCase[] = [
  {
    name: "text with reasoning, long session id, caller headers",
    turn: REASONING_TURN,
    context: SIMPLE_CONTEXT,
    model: codexModel("gpt-5.6-sol"),
    options: { ...SSE, reasoning: "high", sessionId: "s".repeat(80), headers: { "x-extra": "1" } },
  },
  {
    name:
      "catalog compat: tools as additional_tools, effort in configuration_update, parallel tool calls, image history",
    turn: {
      content: [
        { type: "toolCall", id: "call_a|fc_a", name: "read", arguments: { path: "x.ts" } },
        { type: "toolCall", id: "call_b|fc_b", name: "read", arguments: { path: "y.ts" } },
      ],
    },
    context: HISTORY,
    model: codexModel("gpt-6-sol", {
      compat: GPT6_COMPAT as unknown as Model["compat"],
      thinkingLevelMap: {
        off: "none",
        minimal: "low",
        low: "low",
        medium: "medium",
        high: "high",
        xhigh: "xhigh",
      },
    }),
    options: { ...SSE, reasoning: "minimal", sessionId: "session-1" },
  },
  {
    name: "reasoning off on a reasoning model is effort none; no cache key with cacheRetention none",
    turn: TEXT_TURN,
    context: SIMPLE_CONTEXT,
    model: codexModel("gpt-5.6-sol"),
    options: { ...SSE, sessionId: "session-2", cacheRetention: "none" },
  },
  {
    name: "non-reasoning model, temperature, tiny max tokens raised to 16, stops for length",
    turn: { ...TEXT_TURN, stopReason: "length" },
    context: SIMPLE_CONTEXT,
    model: codexModel("codex-mini", { reasoning: false }),
    options: { ...SSE, temperature: 0.2, maxTokens: 5 },
  },
  {
    name: "stream options: priority tier priced double, detailed summary, high verbosity, tool choice none",
    turn: { ...TEXT_TURN, usage: { input: 1000, output: 200, cacheRead: 100 } },
    context: SIMPLE_CONTEXT,
    model: codexModel("gpt-5.6-sol"),
    simple: false,
    options: {
      ...SSE,
      reasoningEffort: "xhigh",
      reasoningSummary: "detailed",
      textVerbosity: "high",
      serviceTier: "priority",
      toolChoice: "none",
      maxTokens: 2000,
    },
  },
  {
    name: "HTTP 400 overflow",
    turn: {
      fault: {
        kind: "http",
        status: 400,
        message:
          "Your input exceeds the context window of this model. Please adjust your input and try again.",
      },
    },
    context: SIMPLE_CONTEXT,
    model: codexModel("gpt-5.6-sol"),
    options: SSE,
  },
  {
    name: "HTTP 401",
    turn: { fault: { kind: "http", status: 401, message: "Your authentication token has expired." } },
    context: SIMPLE_CONTEXT,
    model: codexModel("gpt-5.6-sol"),
    options: SSE,
  },
  {
    name: "HTTP 429 reads as the ChatGPT usage limit",
    turn: { fault: { kind: "http", status: 429, message: "The usage limit has been reached" } },
    context: SIMPLE_CONTEXT,
    model: codexModel("gpt-5.6-sol"),
    options: SSE,
  },
  {
    name: "HTTP 500",
    turn: { fault: { kind: "http", status: 500, message: "The server had an error." } },
    context: SIMPLE_CONTEXT,
    model: codexModel("gpt-5.6-sol"),
    options: SSE,
  },
  {
    name: "HTTP 529",
    turn: { fault: { kind: "http", status: 529, message: "Overloaded" } },
    context: SIMPLE_CONTEXT,
    model: codexModel("gpt-5.6-sol"),
    options: SSE,
  },
  {
    name: "HTTP 500 retried once with maxRetries",
    turn: { fault: { kind: "http", status: 500, message: "The server had an error.", retryAfterMs: 10 } },
    moreTurns: [TEXT_TURN],
    context: SIMPLE_CONTEXT,
    model: codexModel("gpt-5.6-sol"),
    options: { ...SSE, maxRetries: 1 },
  },
  {
    name: "HTTP 429 with a quota message is not retried even with maxRetries",
    turn: { fault: { kind: "http", status: 429, message: "insufficient_quota: out of budget" } },
    moreTurns: [TEXT_TURN],
    context: SIMPLE_CONTEXT,
    model: codexModel("gpt-5.6-sol"),
    options: { ...SSE, maxRetries: 2 },
  },
  {
    name: "HTTP 503 retried after the server's retry-after-ms",
    turn: { fault: { kind: "http", status: 503, message: "Service unavailable", retryAfterMs: 20 } },
    moreTurns: [TEXT_TURN],
    context: SIMPLE_CONTEXT,
    model: codexModel("gpt-5.6-sol"),
    options: { ...SSE, maxRetries: 1 },
  },
  {
    name: "error event mid-stream",
    turn: {
      ...TEXT_TURN,
      fault: { kind: "error_event", message: "The model produced invalid content.", afterChunks: 5 },
    },
    context: SIMPLE_CONTEXT,
    model: codexModel("gpt-5.6-sol"),
    options: SSE,
  },
  {
    name: "connection dropped mid-stream",
    turn: { ...TEXT_TURN, fault: { kind: "drop", afterChunks: 5 } },
    context: SIMPLE_CONTEXT,
    model: codexModel("gpt-5.6-sol"),
    options: SSE,
  },
  {
    name: "abort mid-stream",
    turn: { ...TEXT_TURN, fault: { kind: "stall", afterChunkContaining: "output_text.delta" } },
    context: SIMPLE_CONTEXT,
    model: codexModel("gpt-5.6-sol"),
    options: SSE,
    abortAfterEvents: 3,
  },
];

const HEADERS = [
  "authorization",
  "chatgpt-account-id",
  "originator",
  "openai-beta",
  "accept",
  "content-type",
  "content-encoding",
  "session-id",
  "x-client-request-id",
  "x-extra",
];

function requestView(request: RecordedRequest | undefined): Record<string, unknown> | null {
  if (!request) return null;
  return {
    url: request.url,
    headers: Object.fromEntries(HEADERS.map((h) => [h, request.headers[h]])),
    body: request.body,
  };
}

/**
 * Our deliberate departures, applied to the reference's side: a dropped connection reads
 * "terminated", as on our other OpenAI-style APIs (Node's undici appends its socket detail); an
 * abort mid-stream reads "Request was aborted", as on every other API (1.6.0: undici's "This
 * operation was aborted").
 */
function withDeliberateDifferences(outcome: WireOutcome): WireOutcome {
  return rewriteReferenceErrors(
    outcome,
    (message, stopReason) =>
      message.startsWith("terminated: ")
        ? "terminated"
        : stopReason === "aborted"
        ? "Request was aborted"
        : message,
  );
}

Deno.test("PROV-02 OpenAI Codex Responses: requests, events and errors equal pi-ai 1.6.0's", async () => {
  const reference = await runReferenceWire(CODEX_CASES);
  if (!reference) throw new Error("the reference pi 1.6.0 is not installed (scripts/reference/locate.ts)");
  for (let i = 0; i < CODEX_CASES.length; i++) {
    const c = CODEX_CASES[i];
    const ours = await runOursWire(c);
    const theirs: WireOutcome = withDeliberateDifferences(reference[i]);
    assertEquals(ours.requests.length, theirs.requests.length, `${c.name}: attempts`);
    for (let r = 0; r < ours.requests.length; r++) {
      assertEquals(
        normalise(requestView(ours.requests[r])),
        normalise(requestView(theirs.requests[r])),
        `${c.name}: request ${r + 1}`,
      );
    }
    assertEquals(normalise(ours.events), normalise(theirs.events), `${c.name}: events`);
    assertEquals(normalise(ours.final), normalise(theirs.final), `${c.name}: final message`);
    if (c.name === "HTTP 400 overflow") {
      assertEquals(isContextOverflow(ours.final as unknown as AssistantMessage), true, "overflow detected");
    }
    if (i === 1) {
      // What the equality above covers, spelt out: the catalog models' request shape.
      const request = ours.requests[0];
      const input = (request.body as { input: { type?: string }[] }).input;
      assertEquals(
        [request.url, request.headers["chatgpt-account-id"], request.headers["content-encoding"]],
        ["/backend-api/codex/responses", CODEX_ACCOUNT_ID, "zstd"],
      );
      assertEquals([input[0].type, input.at(-1)?.type], ["additional_tools", "configuration_update"]);
      assertEquals(ours.final.providerThinkingLevel, "low");
    }
  }
});

Deno.test("OpenAI Codex Responses: a token without an account id and a missing token are clear errors", async () => {
  const model: Model = codexModel("gpt-5.6-sol")("http://127.0.0.1:9");
  const notJwt = await complete(model, SIMPLE_CONTEXT, { apiKey: "sk-not-a-jwt" });
  assertEquals([notJwt.stopReason, notJwt.errorMessage], ["error", "Failed to extract accountId from token"]);
  const none = await complete(model, SIMPLE_CONTEXT, {});
  assertEquals(none.errorMessage, "No API key for provider: openai-codex");
});

Deno.test("OpenAI Codex Responses: a usage-limit answer names the plan and when it resets", () => {
  const now = 1_800_000_000_000;
  const body = JSON.stringify({
    error: { code: "usage_limit_reached", message: "limit", plan_type: "PLUS", resets_at: now / 1000 + 600 },
  });
  assertEquals(
    codexHttpErrorMessage(body, "Too Many Requests", 429, now),
    "You have hit your ChatGPT usage limit (plus plan). Try again in ~10 min.",
  );
  assertEquals(codexHttpErrorMessage("upstream connect error", "Bad Gateway", 502), "upstream connect error");
  assertEquals(codexHttpErrorMessage("", "Bad Gateway", 502), "Bad Gateway");
  assertEquals(
    codexHttpErrorMessage(JSON.stringify({ error: { message: "Unsupported model" } }), "Bad Request", 400),
    "Unsupported model",
  );
});
