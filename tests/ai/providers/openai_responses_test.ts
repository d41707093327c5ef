/**
 * Contract tests of the openai-responses provider against the fake Responses server.
 * Expected event sequences, messages and request bodies were checked against the reference
 * pi-ai 0.73.1 run on the same fake server.
 */
import assert, { deepStrictEqual as assertEquals } from "node:assert/strict";
import type { AssistantMessageEventStream } from "../../../src/ai/event_stream.ts";
import { provider } from "../../../src/ai/providers/openai_responses.ts";
import { RESPONSES_TRUNCATED } from "../../../src/ai/providers/openai_responses_events.ts";
import type { AssistantMessage, Context, Model, Usage } from "../../../src/ai/types.ts";
import { type FakeProvider, type ScriptedTurn, startFakeProvider } from "../../support/fake_provider/mod.ts";

const TOOLS = [{
  name: "read",
  description: "Read a file",
  parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
}];

function makeModel(server: FakeProvider, extra: Partial<Model> = {}): Model {
  return {
    id: "gpt-test",
    name: "GPT Test",
    api: "openai-responses",
    provider: "openai",
    baseUrl: `${server.url}/v1`,
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
const ZERO_USAGE: Usage = {
  input: 0,
  output: 0,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: 0,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
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

type Body = Record<string, unknown> & { input: Record<string, unknown>[] };
const bodyOf = (server: FakeProvider, i = 0) => server.requests[i].body as Body;

Deno.test("PROV-02 openai-responses streams text with text signature, usage, body and session headers", async () => {
  await withServer([{
    content: [{ type: "text", text: "Hello world!" }],
    usage: { input: 30, output: 4, cacheRead: 10 },
  }], async (server) => {
    const { events, message } = await collect(
      provider.stream(makeModel(server), CONTEXT, { apiKey: "sk-test", sessionId: "sess-1", maxTokens: 300 }),
    );
    assertEquals(events, ["start", "text_start:0", "text_delta:0", "text_delta:0", "text_end:0", "done"]);
    assertEquals(message.content.length, 1);
    const text = message.content[0] as { text: string; textSignature: string };
    assertEquals(text.text, "Hello world!");
    assertEquals(JSON.parse(text.textSignature).v, 1);
    assert(JSON.parse(text.textSignature).id.startsWith("msg_"));
    assertEquals(message.stopReason, "stop");
    assert(message.responseId?.startsWith("resp_"));
    assertEquals(
      [message.usage.input, message.usage.cacheRead, message.usage.output, message.usage.totalTokens],
      [30, 10, 4, 44],
    );
    assertEquals(message.usage.cost.input, (2 / 1000000) * 30);
    const req = server.requests[0];
    assertEquals(req.path, "/v1/responses");
    assertEquals(req.headers.authorization, "Bearer sk-test");
    // pi-ai 1.x names it `session-id` (0.73 sent `session_id`).
    assertEquals([req.headers["session-id"], req.headers["x-client-request-id"]], ["sess-1", "sess-1"]);
    assertEquals(req.body, {
      model: "gpt-test",
      input: [
        { role: "system", content: "You are terse." },
        { role: "user", content: [{ type: "input_text", text: "hi" }] },
      ],
      stream: true,
      prompt_cache_key: "sess-1",
      store: false,
      max_output_tokens: 300,
    });
  });
});

Deno.test("PROV-02 openai-responses: reasoning summary, encrypted reasoning item, two tool calls", async () => {
  const turn: ScriptedTurn = {
    content: [
      { type: "thinking", thinking: "reason summary", signature: "enc-blob" },
      { type: "text", text: "Reading." },
      { type: "toolCall", id: "call_a", name: "read", arguments: { path: "a.txt" } },
      { type: "toolCall", id: "call_b", name: "read", arguments: { path: "b" } },
    ],
  };
  await withServer([turn], async (server) => {
    const model = makeModel(server, { reasoning: true });
    const { events, message } = await collect(
      provider.stream(model, { ...CONTEXT, tools: TOOLS }, { apiKey: "k", reasoningEffort: "high" } as never),
    );
    assertEquals(events, [
      "start",
      "thinking_start:0",
      "thinking_delta:0",
      "thinking_delta:0",
      "thinking_delta:0",
      "thinking_end:0",
      "text_start:1",
      "text_delta:1",
      "text_end:1",
      "toolcall_start:2",
      "toolcall_delta:2",
      "toolcall_delta:2",
      "toolcall_end:2",
      "toolcall_start:3",
      "toolcall_delta:3",
      "toolcall_delta:3",
      "toolcall_end:3",
      "done",
    ]);
    const [thinking, , call1, call2] = message.content as unknown as Record<string, unknown>[];
    assertEquals(thinking.thinking, "reason summary");
    const item = JSON.parse(thinking.thinkingSignature as string);
    assertEquals([item.type, item.encrypted_content, item.summary], [
      "reasoning",
      "enc-blob",
      [{ type: "summary_text", text: "reason summary" }],
    ]);
    assertEquals([call1.name, call1.arguments], ["read", { path: "a.txt" }]);
    assert((call1.id as string).startsWith("call_a|fc_"));
    assert((call2.id as string).startsWith("call_b|fc_"));
    assertEquals(message.stopReason, "toolUse");
    const body = bodyOf(server);
    assertEquals(body.input[0], { role: "developer", content: "You are terse." });
    assertEquals(body.reasoning, { effort: "high", summary: "auto" });
    assertEquals(body.include, ["reasoning.encrypted_content"]);
    // 1.6.0 sends `strict` only to servers whose compat says they support it.
    assertEquals(body.tools, [{ type: "function", ...TOOLS[0] }]);
  });
});

Deno.test("PROV-02 openai-responses: reasoning model without effort asks for effort none; long cache retention", async () => {
  await withServer([{ content: [{ type: "text", text: "x" }] }], async (server) => {
    await collect(provider.stream(makeModel(server, { reasoning: true }), CONTEXT, {
      apiKey: "k",
      sessionId: "s",
      cacheRetention: "long",
    }));
    assertEquals(bodyOf(server).reasoning, { effort: "none" });
    assertEquals(bodyOf(server).prompt_cache_retention, "24h");
  });
});

Deno.test("PROV-02 openai-responses replays reasoning items, message ids and function calls", async () => {
  await withServer([{ content: [{ type: "text", text: "next" }] }], async (server) => {
    const reasoningItem = { id: "rs_1", type: "reasoning", encrypted_content: "enc", summary: [] };
    const context: Context = {
      messages: [
        { role: "user", content: "go", timestamp: 1 },
        {
          role: "assistant",
          content: [
            { type: "thinking", thinking: "", thinkingSignature: JSON.stringify(reasoningItem) },
            { type: "text", text: "Reading", textSignature: JSON.stringify({ v: 1, id: "msg_abc" }) },
            { type: "toolCall", id: "call_1|fc_1", name: "read", arguments: { path: "a" } },
          ],
          api: "openai-responses",
          provider: "openai",
          model: "gpt-test",
          usage: ZERO_USAGE,
          stopReason: "toolUse",
          timestamp: 2,
        },
        {
          role: "toolResult",
          toolCallId: "call_1|fc_1",
          toolName: "read",
          content: [{ type: "text", text: "contents" }],
          isError: false,
          timestamp: 3,
        },
      ],
    };
    await collect(provider.stream(makeModel(server, { reasoning: true }), context, { apiKey: "k" }));
    assertEquals(bodyOf(server).input, [
      { role: "user", content: [{ type: "input_text", text: "go" }] },
      reasoningItem,
      {
        type: "message",
        role: "assistant",
        content: [{ type: "output_text", text: "Reading", annotations: [] }],
        status: "completed",
        id: "msg_abc",
      },
      { type: "function_call", id: "fc_1", call_id: "call_1", name: "read", arguments: '{"path":"a"}' },
      { type: "function_call_output", call_id: "call_1", output: "contents" },
    ]);
  });
});

Deno.test("PROV-02 openai-responses: response.incomplete maps to stopReason length with usage", async () => {
  await withServer([{
    content: [{ type: "text", text: "cut" }],
    stopReason: "length",
    usage: { input: 5, output: 7 },
  }], async (server) => {
    const { events, message } = await collect(provider.stream(makeModel(server), CONTEXT, { apiKey: "k" }));
    assertEquals(events.at(-1), "done");
    assertEquals(message.stopReason, "length");
    assertEquals([message.usage.input, message.usage.output], [5, 7]);
  });
});

Deno.test("PROV-02 openai-responses: flex service tier halves the cost", async () => {
  await withServer(
    [{ content: [{ type: "text", text: "x" }], usage: { input: 1000, output: 1000 } }],
    async (server) => {
      const { message } = await collect(
        provider.stream(makeModel(server), CONTEXT, { apiKey: "k", serviceTier: "flex" } as never),
      );
      assertEquals(bodyOf(server).service_tier, "flex");
      assertEquals(message.usage.cost.input, ((2 / 1000000) * 1000) * 0.5);
    },
  );
});

// pi-ai 1.6.0 names the provider and quotes the body's error object after the status.
for (
  const [status, text, error] of [
    [400, "Invalid input", '"type":"invalid_request_error","param":null,"code":null'],
    [
      401,
      "Incorrect API key provided",
      '"type":"invalid_request_error","param":null,"code":"invalid_api_key"',
    ],
  ] as const
) {
  Deno.test(`LOOP-09 openai-responses: HTTP ${status} ends in an error event without retry`, async () => {
    await withServer([{ fault: { kind: "http", status, message: text } }], async (server) => {
      const { events, message } = await collect(provider.stream(makeModel(server), CONTEXT, { apiKey: "k" }));
      assertEquals(events, ["error"]);
      assertEquals([message.stopReason, message.errorMessage], [
        "error",
        `OpenAI API error (${status}): {"message":"${text}",${error}}`,
      ]);
      assertEquals(server.requests.length, 1);
    });
  });
}

Deno.test("LOOP-09 openai-responses retries 429 and 500 when maxRetries asks, then succeeds", async () => {
  await withServer([
    { fault: { kind: "http", status: 429, message: "Rate limit reached", retryAfter: 0 } },
    { fault: { kind: "http", status: 500, message: "oops", retryAfter: 0 } },
    { content: [{ type: "text", text: "ok" }] },
  ], async (server) => {
    const { message } = await collect(
      provider.stream(makeModel(server), CONTEXT, { apiKey: "k", maxRetries: 2 }),
    );
    assertEquals(message.stopReason, "stop");
    assertEquals(server.requests.length, 3);
  });
});

Deno.test("LOOP-09 openai-responses: 529 with maxRetries 0 fails at once", async () => {
  await withServer([{ fault: { kind: "http", status: 529, message: "overloaded" } }], async (server) => {
    const { message } = await collect(
      provider.stream(makeModel(server), CONTEXT, { apiKey: "k", maxRetries: 0 }),
    );
    assertEquals(
      message.errorMessage,
      'OpenAI API error (529): {"message":"overloaded","type":"server_error","param":null,"code":"overloaded"}',
    );
    assertEquals(server.requests.length, 1);
  });
});

Deno.test("PROV-02 openai-responses: error event mid-stream", async () => {
  await withServer([{
    content: [{ type: "text", text: "Hello world!" }],
    fault: { kind: "error_event", message: "boom mid", afterChunks: 5 },
  }], async (server) => {
    const { events, message } = await collect(provider.stream(makeModel(server), CONTEXT, { apiKey: "k" }));
    assertEquals(events, ["start", "text_start:0", "text_delta:0", "error"]);
    assertEquals([message.stopReason, message.errorMessage], ["error", "Error Code server_error: boom mid"]);
    assertEquals(message.content, [{ type: "text", text: "Hello wo" }]);
  });
});

Deno.test("PROV-02 openai-responses: dropped connection is 'terminated'", async () => {
  await withServer([{
    content: [{ type: "text", text: "Hello world!" }],
    fault: { kind: "drop", afterChunks: 5 },
  }], async (server) => {
    const { events, message } = await collect(provider.stream(makeModel(server), CONTEXT, { apiKey: "k" }));
    assertEquals(events, ["start", "text_start:0", "text_delta:0", "error"]);
    assertEquals([message.stopReason, message.errorMessage], ["error", "terminated"]);
  });
});

Deno.test("PROV-02 openai-responses: body closed before response.completed is an error", async () => {
  await withServer([{
    content: [{ type: "text", text: "Hello world!" }],
    fault: { kind: "close", afterChunks: 8 },
  }], async (server) => {
    const { events, message } = await collect(provider.stream(makeModel(server), CONTEXT, { apiKey: "k" }));
    // The text block never saw its output_item.done, so it is not closed.
    assertEquals(events, ["start", "text_start:0", "text_delta:0", "text_delta:0", "error"]);
    assertEquals([message.stopReason, message.errorMessage], ["error", RESPONSES_TRUNCATED]);
  });
});

Deno.test("LOOP-06 openai-responses: abort during a stalled stream ends 'aborted'", async () => {
  await withServer([{
    content: [{ type: "text", text: "Hello world!" }],
    fault: { kind: "stall", afterChunks: 5 },
  }], async (server) => {
    const controller = new AbortController();
    const s = provider.stream(makeModel(server), CONTEXT, { apiKey: "k", signal: controller.signal });
    const events: string[] = [];
    for await (const e of s) {
      events.push("contentIndex" in e ? `${e.type}:${e.contentIndex}` : e.type);
      if (e.type === "text_delta") setTimeout(() => controller.abort(), 50);
    }
    const message = await s.result();
    assertEquals(events, ["start", "text_start:0", "text_delta:0", "error"]);
    assertEquals([message.stopReason, message.errorMessage], ["aborted", "Request was aborted"]);
  });
});

Deno.test("LOOP-06 openai-responses: abort mid-stream keeps the partial text", async () => {
  await withServer(
    [{ content: [{ type: "text", text: "b".repeat(80) }], chunkDelayMs: 20 }],
    async (server) => {
      const controller = new AbortController();
      const s = provider.stream(makeModel(server), CONTEXT, { apiKey: "k", signal: controller.signal });
      let deltas = 0;
      for await (const e of s) if (e.type === "text_delta" && ++deltas === 3) controller.abort();
      const message = await s.result();
      assertEquals(message.stopReason, "aborted");
      assertEquals((message.content[0] as { text: string }).text, "b".repeat(24));
    },
  );
});

Deno.test("PROV-02 openai-responses streamSimple maps reasoning to effort with a summary", async () => {
  await withServer([{ content: [{ type: "text", text: "x" }] }], async (server) => {
    const model = makeModel(server, { reasoning: true, thinkingLevelMap: { xhigh: "xhigh" } });
    await collect(provider.streamSimple(model, CONTEXT, { apiKey: "k", reasoning: "xhigh" }));
    assertEquals(bodyOf(server).reasoning, { effort: "xhigh", summary: "auto" });
    assertEquals(bodyOf(server).max_output_tokens, 16384);
  });
});
