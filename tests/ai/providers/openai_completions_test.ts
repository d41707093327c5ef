/**
 * Contract tests of the openai-completions provider against the fake Chat Completions server.
 * Expected event sequences, messages and request bodies were checked against the reference
 * pi-ai 0.73.1 run on the same fake server.
 */
import assert, { deepStrictEqual as assertEquals } from "node:assert/strict";
import type { AssistantMessageEventStream } from "../../../src/ai/event_stream.ts";
import {
  COMPLETIONS_TRUNCATED,
  detectCompletionsCompat,
  provider,
} from "../../../src/ai/providers/openai_completions.ts";
import type { AssistantMessage, Context, Model, OpenAICompletionsCompat } from "../../../src/ai/types.ts";
import { requestedRetryDelayMs } from "../../../src/ai/retryable.ts";
import { type FakeProvider, type ScriptedTurn, startFakeProvider } from "../../support/fake_provider/mod.ts";

const TOOLS = [{
  name: "read",
  description: "Read a file",
  parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
}];

function makeModel(server: FakeProvider | string, extra: Partial<Model> = {}): Model {
  const url = typeof server === "string" ? server : `${server.url}/v1`;
  return {
    id: "gpt-test",
    name: "GPT Test",
    api: "openai-completions",
    provider: "openai",
    baseUrl: url,
    reasoning: false,
    input: ["text", "image"],
    cost: { input: 2, output: 8, cacheRead: 0.5, cacheWrite: 0 },
    contextWindow: 128000,
    maxTokens: 16384,
    ...extra,
  };
}

const CONTEXT: Context = {
  systemPrompt: "You are terse.",
  messages: [{ role: "user", content: "hi", timestamp: 1 }],
};

async function collect(
  s: AssistantMessageEventStream,
): Promise<{ events: string[]; message: AssistantMessage }> {
  const events: string[] = [];
  for await (const e of s) events.push("contentIndex" in e ? `${e.type}:${e.contentIndex}` : e.type);
  return { events, message: await s.result() };
}

async function withServer(turns: ScriptedTurn[], fn: (server: FakeProvider) => Promise<void>): Promise<void> {
  const server = await startFakeProvider(turns);
  try {
    await fn(server);
  } finally {
    await server.close();
  }
}

type Body = Record<string, unknown> & { messages: Record<string, unknown>[] };
const bodyOf = (server: FakeProvider, i = 0) => server.requests[i].body as Body;

Deno.test("PROV-02 openai-completions streams text with exact events, usage and request body", async () => {
  await withServer([{
    content: [{ type: "text", text: "Hello there, world!" }],
    usage: { input: 12, output: 6 },
  }], async (server) => {
    const { events, message } = await collect(
      provider.stream(makeModel(server), CONTEXT, { apiKey: "sk-test", maxTokens: 500, temperature: 0.2 }),
    );
    assertEquals(events, [
      "start",
      "text_start:0",
      "text_delta:0",
      "text_delta:0",
      "text_delta:0",
      "text_end:0",
      "done",
    ]);
    assertEquals(message.content, [{ type: "text", text: "Hello there, world!" }]);
    assertEquals(message.stopReason, "stop");
    assert(message.responseId?.startsWith("chatcmpl-"));
    assertEquals(message.responseModel, undefined);
    assertEquals(message.usage.input, 12);
    assertEquals(message.usage.output, 6);
    assertEquals(message.usage.totalTokens, 18);
    assertEquals(message.usage.cost.total, (2 / 1000000) * 12 + (8 / 1000000) * 6);
    const req = server.requests[0];
    assertEquals(req.path, "/v1/chat/completions");
    assertEquals(req.headers.authorization, "Bearer sk-test");
    assertEquals(req.body, {
      model: "gpt-test",
      messages: [{ role: "system", content: "You are terse." }, { role: "user", content: "hi" }],
      stream: true,
      stream_options: { include_usage: true },
      store: false,
      max_completion_tokens: 500,
      temperature: 0.2,
    });
  });
});

Deno.test("PROV-02 openai-completions: reasoning, two parallel tool calls, cached usage and cost", async () => {
  const turn: ScriptedTurn = {
    content: [
      { type: "thinking", thinking: "Two files to read." },
      { type: "text", text: "Reading." },
      { type: "toolCall", id: "call_a", name: "read", arguments: { path: "a.txt" } },
      { type: "toolCall", id: "call_b", name: "read", arguments: { path: "b.txt" } },
    ],
    usage: { input: 100, output: 20, cacheRead: 50 },
  };
  await withServer([turn], async (server) => {
    const model = makeModel(server, { reasoning: true, thinkingLevelMap: { high: "high" } });
    const { events, message } = await collect(
      provider.stream(model, { ...CONTEXT, tools: TOOLS }, { apiKey: "k", reasoningEffort: "high" } as never),
    );
    assertEquals(events, [
      "start",
      "thinking_start:0",
      "thinking_delta:0",
      "thinking_delta:0",
      "thinking_delta:0",
      "text_start:1",
      "text_delta:1",
      "toolcall_start:2",
      "toolcall_delta:2",
      "toolcall_delta:2",
      "toolcall_delta:2",
      "toolcall_start:3",
      "toolcall_delta:3",
      "toolcall_delta:3",
      "toolcall_delta:3",
      "thinking_end:0",
      "text_end:1",
      "toolcall_end:2",
      "toolcall_end:3",
      "done",
    ]);
    assertEquals(message.content, [
      { type: "thinking", thinking: "Two files to read.", thinkingSignature: "reasoning_content" },
      { type: "text", text: "Reading." },
      { type: "toolCall", id: "call_a", name: "read", arguments: { path: "a.txt" } },
      { type: "toolCall", id: "call_b", name: "read", arguments: { path: "b.txt" } },
    ]);
    assertEquals(message.stopReason, "toolUse");
    assertEquals(
      [message.usage.input, message.usage.cacheRead, message.usage.output, message.usage.totalTokens],
      [100, 50, 20, 170],
    );
    assertEquals(message.usage.cost.cacheRead, (0.5 / 1000000) * 50);
    const body = bodyOf(server);
    assertEquals(body.messages[0], { role: "developer", content: "You are terse." });
    assertEquals(body.reasoning_effort, "high");
    // 1.6.0 sends `strict` only to servers whose compat says they support it.
    assertEquals(body.tools, [{ type: "function", function: { ...TOOLS[0] } }]);
  });
});

Deno.test("PROV-02 openai-completions: OpenRouter-style reasoning field and request format", async () => {
  const turn: ScriptedTurn = {
    content: [{ type: "thinking", thinking: "hm", signature: "reasoning" }, { type: "text", text: "ok" }],
  };
  await withServer([turn, turn], async (server) => {
    const compat: OpenAICompletionsCompat = { thinkingFormat: "openrouter" };
    const model = makeModel(server, { reasoning: true, compat });
    const first = await collect(
      provider.stream(model, CONTEXT, { apiKey: "k", reasoningEffort: "low" } as never),
    );
    assertEquals(first.message.content[0], {
      type: "thinking",
      thinking: "hm",
      thinkingSignature: "reasoning",
    });
    assertEquals(bodyOf(server, 0).reasoning, { effort: "low" });
    assertEquals(bodyOf(server, 0).reasoning_effort, undefined);
    await collect(provider.stream(model, CONTEXT, { apiKey: "k" }));
    assertEquals(bodyOf(server, 1).reasoning, { effort: "none" });
  });
});

Deno.test("PROV-02 openai-completions converts history: tool ids, tool results, reasoning replay, images", async () => {
  await withServer([{ content: [{ type: "text", text: "done" }] }], async (server) => {
    const model = makeModel(server, { reasoning: true });
    const context: Context = {
      messages: [
        {
          role: "user",
          content: [{ type: "text", text: "look" }, { type: "image", data: "AAA", mimeType: "image/png" }],
          timestamp: 1,
        },
        {
          role: "assistant",
          content: [
            { type: "thinking", thinking: "plan", thinkingSignature: "reasoning_content" },
            { type: "text", text: "Reading" },
            { type: "toolCall", id: "call_x", name: "read", arguments: { path: "a" } },
          ],
          api: "openai-completions",
          provider: "openai",
          model: "gpt-test",
          usage: {
            input: 0,
            output: 0,
            cacheRead: 0,
            cacheWrite: 0,
            totalTokens: 0,
            cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
          },
          stopReason: "toolUse",
          timestamp: 2,
        },
        {
          role: "toolResult",
          toolCallId: "call_x",
          toolName: "read",
          content: [{ type: "text", text: "file body" }, {
            type: "image",
            data: "BBB",
            mimeType: "image/jpeg",
          }],
          isError: false,
          timestamp: 3,
        },
      ],
    };
    await collect(provider.stream(model, context, { apiKey: "k" }));
    assertEquals(bodyOf(server).messages, [
      {
        role: "user",
        content: [{ type: "text", text: "look" }, {
          type: "image_url",
          image_url: { url: "data:image/png;base64,AAA" },
        }],
      },
      {
        role: "assistant",
        content: "Reading",
        reasoning_content: "plan",
        tool_calls: [{
          id: "call_x",
          type: "function",
          function: { name: "read", arguments: '{"path":"a"}' },
        }],
      },
      { role: "tool", content: "file body", tool_call_id: "call_x" },
      {
        role: "user",
        content: [
          { type: "text", text: "Attached image(s) from tool result:" },
          { type: "image_url", image_url: { url: "data:image/jpeg;base64,BBB" } },
        ],
      },
    ]);
    // 1.5.1: no `tools: []` unless compat.requiresToolsWithToolHistory.
    assertEquals(bodyOf(server).tools, undefined);
  });
});

Deno.test("PROV-02 openai-completions normalises another model's Responses-style tool-call ids", async () => {
  await withServer([{ content: [{ type: "text", text: "done" }] }], async (server) => {
    const longId = `call_${"x".repeat(50)}|fc_item+/=`;
    const context: Context = {
      messages: [
        { role: "user", content: "go", timestamp: 1 },
        {
          role: "assistant",
          content: [{ type: "toolCall", id: longId, name: "read", arguments: { path: "a" } }],
          api: "openai-responses",
          provider: "openai",
          model: "gpt-other",
          usage: {
            input: 0,
            output: 0,
            cacheRead: 0,
            cacheWrite: 0,
            totalTokens: 0,
            cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
          },
          stopReason: "toolUse",
          timestamp: 2,
        },
        {
          role: "toolResult",
          toolCallId: longId,
          toolName: "read",
          content: [{ type: "text", text: "body" }],
          isError: false,
          timestamp: 3,
        },
      ],
    };
    await collect(provider.stream(makeModel(server), context, { apiKey: "k" }));
    const messages = bodyOf(server).messages;
    const expectedId = `call_${"x".repeat(35)}`;
    assertEquals((messages[1].tool_calls as { id: string }[])[0].id, expectedId);
    assertEquals(messages[2], { role: "tool", content: "body", tool_call_id: expectedId });
  });
});

Deno.test("PROV-02 openai-completions compat detection from provider and base URL", () => {
  const base = makeModel("https://api.openai.com/v1");
  const openai = detectCompletionsCompat(base);
  assertEquals([openai.supportsStore, openai.supportsDeveloperRole, openai.maxTokensField], [
    true,
    true,
    "max_completion_tokens",
  ]);
  const deepseek = detectCompletionsCompat({
    ...base,
    provider: "deepseek",
    baseUrl: "https://api.deepseek.com",
  });
  assertEquals(
    [deepseek.thinkingFormat, deepseek.supportsStore, deepseek.requiresReasoningContentOnAssistantMessages],
    ["deepseek", false, true],
  );
  const xai = detectCompletionsCompat({ ...base, provider: "xai", baseUrl: "https://api.x.ai/v1" });
  assertEquals([xai.supportsReasoningEffort, xai.supportsDeveloperRole], [false, false]);
  const moonshot = detectCompletionsCompat({
    ...base,
    provider: "moonshotai",
    baseUrl: "https://api.moonshot.ai/v1",
  });
  assertEquals([moonshot.maxTokensField, moonshot.supportsStrictMode], ["max_tokens", false]);
  const router = detectCompletionsCompat({
    ...base,
    id: "anthropic/claude-x",
    provider: "openrouter",
    baseUrl: "https://openrouter.ai/api/v1",
  });
  assertEquals([router.thinkingFormat, router.cacheControlFormat], ["openrouter", "anthropic"]);
  const zai = detectCompletionsCompat({
    ...base,
    provider: "zai",
    baseUrl: "https://api.z.ai/api/coding/paas/v4",
  });
  assertEquals([zai.thinkingFormat, zai.supportsReasoningEffort], ["zai", false]);
});

Deno.test("PROV-02 openai-completions: prompt cache key for api.openai.com, long retention, session headers", async () => {
  await withServer([{ content: [{ type: "text", text: "x" }] }], async (server) => {
    const model = makeModel(server, {
      compat: { supportsLongCacheRetention: true, sendSessionAffinityHeaders: true },
    });
    await collect(provider.stream(model, CONTEXT, { apiKey: "k", sessionId: "s-1", cacheRetention: "long" }));
    const req = server.requests[0];
    assertEquals((req.body as Body).prompt_cache_key, "s-1");
    assertEquals((req.body as Body).prompt_cache_retention, "24h");
    assertEquals([
      req.headers.session_id,
      req.headers["x-client-request-id"],
      req.headers["x-session-affinity"],
    ], ["s-1", "s-1", "s-1"]);
  });
});

Deno.test("PROV-02 openai-completions: onPayload replaces the body, onResponse sees status and headers", async () => {
  await withServer([{ content: [{ type: "text", text: "x" }] }], async (server) => {
    let seen: { status: number; headers: Record<string, string> } | undefined;
    await collect(provider.stream(makeModel(server), CONTEXT, {
      apiKey: "k",
      headers: { "X-Custom": "1" },
      onPayload: (p) => ({ ...(p as object), custom_field: true }),
      onResponse: (r) => void (seen = r),
    }));
    assertEquals(bodyOf(server).custom_field, true);
    assertEquals(server.requests[0].headers["x-custom"], "1");
    assertEquals(seen?.status, 200);
    assertEquals(seen?.headers["content-type"], "text/event-stream");
  });
});

Deno.test("PROV-02 openai-completions streamSimple clamps reasoning and fits max tokens into the window", async () => {
  await withServer([{ content: [{ type: "text", text: "x" }] }], async (server) => {
    const model = makeModel(server, { reasoning: true, maxTokens: 100000, contextWindow: 64000 });
    await collect(provider.streamSimple(model, CONTEXT, { apiKey: "k", reasoning: "xhigh" }));
    assertEquals(bodyOf(server).reasoning_effort, "high");
    // 1.6.0: the model's limit fitted into the window: 64000 − 5 estimated input tokens
    // ("You are terse." and "hi" at 3.5 characters a token) − the 4096 margin.
    assertEquals(bodyOf(server).max_completion_tokens, 59899);
  });
});

// pi-ai 1.6.0 quotes the body's error object after the status, not the SDK's "<status> <message>".
for (
  const [status, message, error] of [
    [400, "Invalid 'messages'", '"type":"invalid_request_error","param":null,"code":null'],
    [
      401,
      "Incorrect API key provided",
      '"type":"invalid_request_error","param":null,"code":"invalid_api_key"',
    ],
  ] as const
) {
  Deno.test(`LOOP-09 openai-completions: HTTP ${status} is not retried and ends in an error event`, async () => {
    await withServer([{ fault: { kind: "http", status, message } }], async (server) => {
      const { events, message: out } = await collect(
        provider.stream(makeModel(server), CONTEXT, { apiKey: "sk-secret-key" }),
      );
      assertEquals(events, ["error"]);
      assertEquals(out.stopReason, "error");
      assertEquals(out.errorMessage, `${status}: {"message":"${message}",${error}}`);
      assertEquals(server.requests.length, 1);
    });
  });
}

Deno.test("LOOP-09 openai-completions: no in-client retry by default; a 429's retry-after stays with the reply", async () => {
  await withServer([
    { fault: { kind: "http", status: 429, message: "Rate limit reached", retryAfter: 600 } },
    { content: [{ type: "text", text: "ok" }] },
  ], async (server) => {
    const started = Date.now();
    const { message } = await collect(provider.stream(makeModel(server), CONTEXT, { apiKey: "k" }));
    assert(Date.now() - started < 2000);
    assertEquals([message.stopReason, message.errorMessage], [
      "error",
      '429: {"message":"Rate limit reached","type":"requests","param":null,"code":"rate_limit_exceeded"}',
    ]);
    assertEquals(requestedRetryDelayMs(message), 600000);
    assertEquals(server.requests.length, 1);
  });
});

Deno.test("LOOP-09 openai-completions retries 429 after retry-after when maxRetries asks, then succeeds", async () => {
  await withServer([
    { fault: { kind: "http", status: 429, message: "Rate limit reached", retryAfter: 0 } },
    { content: [{ type: "text", text: "ok" }] },
  ], async (server) => {
    const { message } = await collect(
      provider.stream(makeModel(server), CONTEXT, { apiKey: "k", maxRetries: 2 }),
    );
    assertEquals(message.stopReason, "stop");
    assertEquals(server.requests.length, 2);
  });
});

Deno.test("LOOP-09 openai-completions gives up after maxRetries of 500/529 and reports the last error", async () => {
  await withServer([
    { fault: { kind: "http", status: 500, message: "server broke", retryAfter: 0 } },
    { fault: { kind: "http", status: 529, message: "overloaded", retryAfter: 0 } },
    { fault: { kind: "http", status: 529, message: "still overloaded", retryAfter: 0 } },
  ], async (server) => {
    const { message } = await collect(
      provider.stream(makeModel(server), CONTEXT, { apiKey: "k", maxRetries: 2 }),
    );
    assertEquals(
      message.errorMessage,
      '529: {"message":"still overloaded","type":"server_error","param":null,"code":"overloaded"}',
    );
    assertEquals(server.requests.length, 3);
  });
});

Deno.test("LOOP-09 openai-completions does not wait for a retry-after beyond maxRetryDelayMs", async () => {
  await withServer(
    [{ fault: { kind: "http", status: 429, message: "slow down", retryAfter: 600 } }],
    async (server) => {
      const started = Date.now();
      const { message } = await collect(
        provider.stream(makeModel(server), CONTEXT, { apiKey: "k", maxRetries: 2 }),
      );
      assertEquals(message.errorMessage, "Server requested 600s retry delay (max: 60s). 429 slow down");
      assertEquals(requestedRetryDelayMs(message), 600000);
      assertEquals(server.requests.length, 1);
      assert(Date.now() - started < 2000);
    },
  );
});

Deno.test("PROV-02 openai-completions: in-stream error chunk ends the stream with its message", async () => {
  await withServer([{
    content: [{ type: "text", text: "Hello world!" }],
    fault: { kind: "error_event", message: "boom mid", afterChunks: 2 },
  }], async (server) => {
    const { events, message } = await collect(provider.stream(makeModel(server), CONTEXT, { apiKey: "k" }));
    assertEquals(events, ["start", "text_start:0", "text_delta:0", "error"]);
    assertEquals(message.content, [{ type: "text", text: "Hello wo" }]);
    assertEquals([message.stopReason, message.errorMessage], ["error", "boom mid"]);
  });
});

Deno.test("PROV-02 openai-completions: dropped connection is 'terminated'", async () => {
  await withServer([{
    content: [{ type: "text", text: "Hello world!" }],
    fault: { kind: "drop", afterChunks: 2 },
  }], async (server) => {
    const { events, message } = await collect(provider.stream(makeModel(server), CONTEXT, { apiKey: "k" }));
    assertEquals(events, ["start", "text_start:0", "text_delta:0", "error"]);
    assertEquals([message.stopReason, message.errorMessage], ["error", "terminated"]);
  });
});

Deno.test("PROV-02 openai-completions: a body closed without finish reason or [DONE] is an error", async () => {
  await withServer([{
    content: [{ type: "text", text: "Hello world!" }],
    fault: { kind: "close", afterChunks: 2 },
  }], async (server) => {
    const { events, message } = await collect(provider.stream(makeModel(server), CONTEXT, { apiKey: "k" }));
    assertEquals(events, ["start", "text_start:0", "text_delta:0", "text_end:0", "error"]);
    assertEquals([message.stopReason, message.errorMessage], ["error", COMPLETIONS_TRUNCATED]);
    assertEquals(message.content, [{ type: "text", text: "Hello wo" }]);
  });
});

Deno.test("LOOP-06 openai-completions: abort during a stalled stream ends 'aborted'", async () => {
  await withServer([{
    content: [{ type: "text", text: "Hello world!" }],
    fault: { kind: "stall", afterChunks: 2 },
  }], async (server) => {
    const controller = new AbortController();
    const s = provider.stream(makeModel(server), CONTEXT, { apiKey: "k", signal: controller.signal });
    const events: string[] = [];
    for await (const e of s) {
      events.push("contentIndex" in e ? `${e.type}:${e.contentIndex}` : e.type);
      if (e.type === "text_delta") setTimeout(() => controller.abort(), 50);
    }
    const message = await s.result();
    // The open text block is closed before the error, as 0.73.1 and 1.6.0 do.
    assertEquals(events, ["start", "text_start:0", "text_delta:0", "text_end:0", "error"]);
    assertEquals([message.stopReason, message.errorMessage], ["aborted", "Request was aborted"]);
    assertEquals(message.content, [{ type: "text", text: "Hello wo" }]);
  });
});

Deno.test("LOOP-06 openai-completions: abort mid-stream keeps the partial text", async () => {
  await withServer(
    [{ content: [{ type: "text", text: "a".repeat(80) }], chunkDelayMs: 20 }],
    async (server) => {
      const controller = new AbortController();
      const s = provider.stream(makeModel(server), CONTEXT, { apiKey: "k", signal: controller.signal });
      let deltas = 0;
      for await (const e of s) if (e.type === "text_delta" && ++deltas === 2) controller.abort();
      const message = await s.result();
      assertEquals(message.stopReason, "aborted");
      assertEquals((message.content[0] as { text: string }).text, "a".repeat(16));
    },
  );
});

Deno.test("LOOP-06 openai-completions: an already aborted signal sends nothing", async () => {
  await withServer([], async (server) => {
    const { events, message } = await collect(
      provider.stream(makeModel(server), CONTEXT, { apiKey: "k", signal: AbortSignal.abort() }),
    );
    assertEquals(events, ["error"]);
    assertEquals([message.stopReason, message.errorMessage], ["aborted", "Request was aborted."]);
    assertEquals(server.requests.length, 0);
  });
});

Deno.test("PROV-02 openai-completions: unreachable server is 'Connection error.'", async () => {
  const server = await startFakeProvider([]);
  const url = `${server.url}/v1`;
  await server.close();
  const { message } = await collect(provider.stream(makeModel(url), CONTEXT, { apiKey: "k", maxRetries: 0 }));
  assertEquals([message.stopReason, message.errorMessage], ["error", "Connection error."]);
});

Deno.test("PROV-02 openai-completions: missing API key ends in an error event", async () => {
  // An explicit environment without the key; the process environment is not touched.
  const env = { OPENAI_API_KEY: "" };
  const { events, message } = await collect(
    provider.stream(makeModel("http://127.0.0.1:9/v1"), CONTEXT, { env }),
  );
  assertEquals(events, ["error"]);
  assertEquals(
    message.errorMessage,
    "OpenAI API key is required. Set OPENAI_API_KEY environment variable or pass it as an argument.",
  );
});
