/**
 * The anthropic-messages provider against the fake Anthropic server: event sequences, final
 * messages, recorded requests, and every failure path ending in an `error` event.
 * Expected texts and shapes were captured from the reference pi-ai against the same server.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { provider, streamAnthropic, streamSimpleAnthropic } from "../../../src/ai/providers/anthropic.ts";
import type { AnthropicOptions } from "../../../src/ai/providers/anthropic.ts";
import type { AssistantMessageEventStream } from "../../../src/ai/event_stream.ts";
import type { AssistantMessage, AssistantMessageEvent, Context, Model } from "../../../src/ai/types.ts";
import { type FakeProvider, type ScriptedTurn, startFakeProvider } from "../../support/fake_provider/mod.ts";

function model(baseUrl: string, extra: Partial<Model> = {}): Model {
  return {
    id: "claude-sonnet-4-5",
    name: "Claude Sonnet 4.5",
    api: "anthropic-messages",
    provider: "anthropic",
    baseUrl,
    reasoning: true,
    input: ["text", "image"],
    cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
    contextWindow: 200000,
    maxTokens: 64000,
    ...extra,
  };
}

const readTool = {
  name: "read",
  description: "Read a file",
  parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
};

const hello: Context = {
  systemPrompt: "You are helpful.",
  messages: [{ role: "user", content: "hello", timestamp: 1 }],
};

type Seen = [string, number?];

async function collect(stream: AssistantMessageEventStream) {
  const events: AssistantMessageEvent[] = [];
  for await (const event of stream) events.push(event);
  const final = await stream.result();
  const seq: Seen[] = events.map((e) => ("contentIndex" in e ? [e.type, e.contentIndex] : [e.type]));
  return { events, seq, final };
}

async function withServer(turns: ScriptedTurn[], fn: (server: FakeProvider) => Promise<void>): Promise<void> {
  const server = await startFakeProvider(turns);
  try {
    await fn(server);
  } finally {
    await server.close();
  }
}

function run(
  server: FakeProvider,
  context: Context = hello,
  options: AnthropicOptions = {},
  m?: Partial<Model>,
) {
  return collect(
    streamAnthropic(model(server.url, m), context, { apiKey: "sk-ant-api-test", maxRetries: 0, ...options }),
  );
}

// deno-lint-ignore no-explicit-any
type Body = Record<string, any>;
const bodyOf = (server: FakeProvider, i = 0) => server.requests[i].body as Body;

Deno.test("PROV-02 ANTH-01 text answer: exact events, final message and request", async () => {
  await withServer([{
    content: [{ type: "text", text: "Hello there friend" }],
    usage: { input: 12, output: 4 },
  }], async (server) => {
    const { seq, events, final } = await run(server);
    assertEquals(seq, [
      ["start"],
      ["text_start", 0],
      ["text_delta", 0],
      ["text_delta", 0],
      ["text_delta", 0],
      ["text_end", 0],
      ["done"],
    ]);
    assertEquals(
      events.flatMap((e) => e.type === "text_delta" ? [e.delta] : []),
      ["Hello th", "ere frie", "nd"],
    );
    const end = events[5];
    assert(end.type === "text_end" && end.content === "Hello there friend");
    assertEquals(final.content, [{ type: "text", text: "Hello there friend" }]);
    assertEquals(final.stopReason, "stop");
    assertEquals(final.api, "anthropic-messages");
    assertEquals(final.provider, "anthropic");
    assertEquals(final.model, "claude-sonnet-4-5");
    assert(final.responseId?.startsWith("msg_"));
    assertEquals(final.errorMessage, undefined);

    const req = server.requests[0];
    assertEquals(req.method, "POST");
    assertEquals(req.path, "/v1/messages");
    assertEquals(req.headers["x-api-key"], "sk-ant-api-test");
    assertEquals(req.headers["anthropic-version"], "2023-06-01");
    assertEquals(req.headers["anthropic-beta"], "interleaved-thinking-2025-05-14");
    assertEquals(req.headers["anthropic-dangerous-direct-browser-access"], "true");
    assertEquals(req.headers["authorization"], undefined);
    assertEquals(req.body, {
      model: "claude-sonnet-4-5",
      messages: [{
        role: "user",
        content: [{ type: "text", text: "hello", cache_control: { type: "ephemeral" } }],
      }],
      max_tokens: 21333,
      stream: true,
      system: [{ type: "text", text: "You are helpful.", cache_control: { type: "ephemeral" } }],
    });
  });
});

Deno.test("ANTH-02 thinking with signature and redacted thinking", async () => {
  const turn: ScriptedTurn = {
    content: [
      { type: "thinking", thinking: "Consider the question.", signature: "sig-1==" },
      { type: "thinking", thinking: "", signature: "opaque-blob", redacted: true },
      { type: "text", text: "Answer." },
    ],
  };
  await withServer([turn], async (server) => {
    const { seq, final } = await run(server);
    assertEquals(seq, [
      ["start"],
      ["thinking_start", 0],
      ["thinking_delta", 0],
      ["thinking_delta", 0],
      ["thinking_delta", 0],
      ["thinking_end", 0],
      ["thinking_start", 1],
      ["thinking_end", 1],
      ["text_start", 2],
      ["text_delta", 2],
      ["text_end", 2],
      ["done"],
    ]);
    assertEquals(final.content, [
      { type: "thinking", thinking: "Consider the question.", thinkingSignature: "sig-1==" },
      {
        type: "thinking",
        thinking: "[Reasoning redacted]",
        thinkingSignature: "opaque-blob",
        redacted: true,
      },
      { type: "text", text: "Answer." },
    ]);
  });
});

Deno.test("ANTH-03 two parallel tool calls: arguments grow while streaming; tools schema sent", async () => {
  const turn: ScriptedTurn = {
    content: [
      { type: "toolCall", id: "toolu_a", name: "read", arguments: { path: "a.txt" } },
      { type: "toolCall", id: "toolu_b", name: "read", arguments: { path: "b.txt" } },
    ],
  };
  await withServer([turn], async (server) => {
    const stream = streamAnthropic(model(server.url), { ...hello, tools: [readTool] }, {
      apiKey: "k",
      maxRetries: 0,
    });
    // `partial` is one live object; snapshot the first call's arguments as each delta is pushed.
    const argsAtPush: unknown[] = [];
    const push = stream.push.bind(stream);
    stream.push = (event) => {
      if (event.type === "toolcall_delta" && event.contentIndex === 0) {
        argsAtPush.push(structuredClone((event.partial.content[0] as { arguments: unknown }).arguments));
      }
      push(event);
    };
    const { seq, events, final } = await collect(stream);
    const call = (i: number): Seen[] => [
      ["toolcall_start", i],
      ["toolcall_delta", i],
      ["toolcall_delta", i],
      ["toolcall_delta", i],
      ["toolcall_end", i],
    ];
    assertEquals(seq, [["start"], ...call(0), ...call(1), ["done"]]);
    const deltas = events.flatMap((e) =>
      e.type === "toolcall_delta" && e.contentIndex === 0 ? [e.delta] : []
    );
    assertEquals(deltas, ["", '{"path":', '"a.txt"}']);
    assertEquals(argsAtPush, [{}, {}, { path: "a.txt" }]);
    const end = events.find((e) => e.type === "toolcall_end" && e.contentIndex === 1);
    assert(end?.type === "toolcall_end");
    assertEquals(end.toolCall, {
      type: "toolCall",
      id: "toolu_b",
      name: "read",
      arguments: { path: "b.txt" },
    });
    assertEquals(final.stopReason, "toolUse");
    assertEquals(final.content, [
      { type: "toolCall", id: "toolu_a", name: "read", arguments: { path: "a.txt" } },
      { type: "toolCall", id: "toolu_b", name: "read", arguments: { path: "b.txt" } },
    ]);
    assertEquals(bodyOf(server).tools, [{
      name: "read",
      description: "Read a file",
      eager_input_streaming: true,
      input_schema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
      cache_control: { type: "ephemeral" },
    }]);
  });
});

Deno.test("ANTH-04 usage excludes cache from input; cost from model prices; max_tokens maps to length", async () => {
  const turn: ScriptedTurn = {
    content: [{ type: "text", text: "x" }],
    usage: { input: 100, output: 50, cacheRead: 20, cacheWrite: 10 },
    stopReason: "length",
  };
  await withServer([turn], async (server) => {
    const { final, seq } = await run(server);
    assertEquals(seq.at(-1), ["done"]);
    assertEquals(final.stopReason, "length");
    const { cost, ...tokens } = final.usage;
    assertEquals(tokens, { input: 100, output: 50, cacheRead: 20, cacheWrite: 10, totalTokens: 180 });
    const close = (a: number, b: number) => assert(Math.abs(a - b) < 1e-12, `${a} != ${b}`);
    close(cost.input, 0.0003);
    close(cost.output, 0.00075);
    close(cost.cacheRead, 0.000006);
    close(cost.cacheWrite, 0.0000375);
    close(cost.total, 0.0010935);
  });
});

const httpCases: [number, string, string][] = [
  [400, "invalid_request_error", "messages: text content blocks must be non-empty"],
  [401, "authentication_error", "invalid x-api-key"],
  [500, "api_error", "Internal server error"],
  [529, "overloaded_error", "Overloaded"],
];
for (const [status, type, message] of httpCases) {
  Deno.test(`ANTH-05 HTTP ${status} ends in one error event with status and Anthropic's body`, async () => {
    await withServer([{ fault: { kind: "http", status, message } }], async (server) => {
      const { seq, final } = await run(server);
      assertEquals(seq, [["error"]]);
      assertEquals(final.stopReason, "error");
      assertEquals(final.content, []);
      assertEquals(
        String(final.errorMessage),
        `${status} {"type":"error","error":{"type":"${type}","message":"${message}"}}`,
      );
      assertEquals(server.requests.length, 1);
    });
  });
}

Deno.test("LOOP-09 ANTH-06 HTTP 429 with retry-after is retried in-client after the requested wait", async () => {
  const turns: ScriptedTurn[] = [
    { fault: { kind: "http", status: 429, message: "slow down", retryAfter: 1 } },
    { content: [{ type: "text", text: "ok" }] },
  ];
  await withServer(turns, async (server) => {
    const started = performance.now();
    const { seq, final } = await run(server, hello, { maxRetries: undefined });
    const waited = performance.now() - started;
    assertEquals(seq, [["start"], ["text_start", 0], ["text_delta", 0], ["text_end", 0], ["done"]]);
    assertEquals(final.content, [{ type: "text", text: "ok" }]);
    assertEquals(server.requests.length, 2);
    assert(waited >= 950, `waited only ${waited}ms`);
  });
});

Deno.test("LOOP-09 ANTH-07 retry-after beyond maxRetryDelayMs fails at once, naming the delay", async () => {
  const turns: ScriptedTurn[] = [
    { fault: { kind: "http", status: 429, message: "slow down", retryAfter: 120 } },
    { content: [{ type: "text", text: "never" }] },
  ];
  await withServer(turns, async (server) => {
    const { seq, final } = await run(server, hello, { maxRetries: 2, maxRetryDelayMs: 60000 });
    assertEquals(seq, [["error"]]);
    assertEquals(
      String(final.errorMessage),
      '429 {"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}' +
        " (server requested retry delay of 120s exceeds maxRetryDelayMs 60000ms)",
    );
    assertEquals(server.requests.length, 1);
  });
});

Deno.test("LOOP-09 ANTH-08 server errors are retried with backoff up to maxRetries; 400 is not", async () => {
  const turns: ScriptedTurn[] = [
    { fault: { kind: "http", status: 529, message: "Overloaded" } },
    { fault: { kind: "http", status: 500, message: "boom" } },
  ];
  await withServer(turns, async (server) => {
    const { final } = await run(server, hello, { maxRetries: 1 });
    assertEquals(final.errorMessage, '500 {"type":"error","error":{"type":"api_error","message":"boom"}}');
    assertEquals(server.requests.length, 2);
  });
  await withServer([{ fault: { kind: "http", status: 400, message: "bad" } }], async (server) => {
    await run(server, hello, { maxRetries: 3 });
    assertEquals(server.requests.length, 1);
  });
});

Deno.test("ANTH-09 error event mid-stream keeps partial content and reports the event data", async () => {
  const turn: ScriptedTurn = {
    content: [{ type: "text", text: "Hello there friend" }],
    fault: { kind: "error_event", message: "Overloaded", afterChunks: 4 },
  };
  await withServer([turn], async (server) => {
    const { seq, final } = await run(server);
    assertEquals(seq, [["start"], ["text_start", 0], ["text_delta", 0], ["error"]]);
    assertEquals(final.stopReason, "error");
    assertEquals(
      String(final.errorMessage),
      '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}',
    );
    assertEquals(final.content, [{ type: "text", text: "Hello th" }]);
    assertEquals(final.usage.input, 10);
  });
});

Deno.test("ANTH-10 dropped connection ends in error 'terminated'", async () => {
  const turn: ScriptedTurn = {
    content: [{ type: "text", text: "Hello there friend" }],
    fault: { kind: "drop", afterChunks: 4 },
  };
  await withServer([turn], async (server) => {
    const { seq, final } = await run(server);
    assertEquals(seq, [["start"], ["text_start", 0], ["text_delta", 0], ["error"]]);
    assertEquals(final.stopReason, "error");
    assertEquals(final.errorMessage, "terminated");
    assertEquals(final.content, [{ type: "text", text: "Hello th" }]);
  });
});

Deno.test("ANTH-11 clean close without message_stop is an error", async () => {
  const turn: ScriptedTurn = {
    content: [{ type: "text", text: "Hello there friend" }],
    fault: { kind: "close" },
  };
  await withServer([turn], async (server) => {
    const { seq, final } = await run(server);
    assert(seq.length >= 2 && seq[0][0] === "start");
    assertEquals(seq.at(-1), ["error"]);
    assertEquals(final.stopReason, "error");
    assertEquals(final.errorMessage, "Anthropic stream ended before message_stop");
  });
});

Deno.test("ANTH-12 an empty 200 body (no message_start) ends as the reference does: done, no content", async () => {
  const turn: ScriptedTurn = {
    content: [{ type: "text", text: "x" }],
    fault: { kind: "close", afterChunks: 0 },
  };
  await withServer([turn], async (server) => {
    const { seq, final } = await run(server);
    assertEquals(seq, [["start"], ["done"]]);
    assertEquals(final.content, []);
    assertEquals(final.stopReason, "stop");
  });
});

Deno.test("LOOP-06 ANTH-13 stalled stream + abort ends with stopReason aborted and partial content", async () => {
  const turn: ScriptedTurn = {
    content: [{ type: "text", text: "Hello there friend" }],
    fault: { kind: "stall", afterChunks: 4 },
  };
  await withServer([turn], async (server) => {
    const controller = new AbortController();
    const stream = streamAnthropic(model(server.url), hello, {
      apiKey: "k",
      maxRetries: 0,
      signal: controller.signal,
    });
    const seen: string[] = [];
    for await (const event of stream) {
      seen.push(event.type);
      if (event.type === "text_delta") controller.abort();
    }
    const final = await stream.result();
    assertEquals(seen, ["start", "text_start", "text_delta", "error"]);
    assertEquals(final.stopReason, "aborted");
    assertEquals(final.errorMessage, "Request was aborted");
    assertEquals(final.content, [{ type: "text", text: "Hello th" }]);
  });
});

Deno.test("LOOP-06 ANTH-14 abort mid-stream (slow chunks) and abort before sending", async () => {
  const turn: ScriptedTurn = {
    content: [{ type: "text", text: "a long answer that trickles in" }],
    chunkDelayMs: 30,
  };
  await withServer([turn], async (server) => {
    const controller = new AbortController();
    const stream = streamAnthropic(model(server.url), hello, {
      apiKey: "k",
      maxRetries: 0,
      signal: controller.signal,
    });
    let deltas = 0;
    const types: string[] = [];
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === "text_delta" && ++deltas === 2) controller.abort();
    }
    const final = await stream.result();
    assertEquals(types, ["start", "text_start", "text_delta", "text_delta", "error"]);
    assertEquals(final.stopReason, "aborted");
    assertEquals(final.content, [{ type: "text", text: "a long answer th" }]);
  });
  await withServer([{ content: [{ type: "text", text: "x" }] }], async (server) => {
    const { seq, final } = await run(server, hello, { signal: AbortSignal.abort() });
    assertEquals(seq, [["error"]]);
    assertEquals(final.stopReason, "aborted");
    assertEquals(final.errorMessage, "Request was aborted");
    assertEquals(server.requests.length, 0);
  });
});

Deno.test("ANTH-15 unreachable server: 'Connection error.' after the configured retries", async () => {
  const server = await startFakeProvider();
  const url = server.url;
  await server.close();
  const { seq, final } = await collect(
    streamAnthropic(model(url), hello, { apiKey: "k", maxRetries: 0 }),
  );
  assertEquals(seq, [["error"]]);
  assertEquals(final.errorMessage, "Connection error.");
});

Deno.test("ANTH-16 malformed event data is an error naming the event", async () => {
  const raw = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/event-stream" });
    res.end(
      'event: message_start\ndata: {"type":"message_start","message":{"id":"m1","usage":{"input_tokens":3}}}\n\n' +
        "event: content_block_start\ndata: {not json\n\n",
    );
  });
  await new Promise<void>((resolve) => raw.listen(0, "127.0.0.1", resolve));
  try {
    const url = `http://127.0.0.1:${(raw.address() as AddressInfo).port}`;
    const { seq, final } = await collect(streamAnthropic(model(url), hello, { apiKey: "k", maxRetries: 0 }));
    assertEquals(seq, [["start"], ["error"]]);
    assert(
      final.errorMessage?.startsWith("Could not parse Anthropic SSE event content_block_start: "),
      String(final.errorMessage),
    );
    assert(final.errorMessage?.includes("; data={not json"), String(final.errorMessage));
  } finally {
    await new Promise<void>((resolve) => raw.close(() => resolve()));
  }
});

function assistant(
  content: AssistantMessage["content"],
  extra: Partial<AssistantMessage> = {},
): AssistantMessage {
  return {
    role: "assistant",
    content,
    api: "anthropic-messages",
    provider: "anthropic",
    model: "claude-sonnet-4-5",
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
    ...extra,
  };
}

const history: Context = {
  systemPrompt: "Sys",
  tools: [readTool, { name: "bash", description: "Bash", parameters: { type: "object", properties: {} } }],
  messages: [
    {
      role: "user",
      content: [{ type: "text", text: "look" }, { type: "image", data: "AAAA", mimeType: "image/png" }, {
        type: "text",
        text: "  ",
      }],
      timestamp: 1,
    },
    assistant([
      { type: "thinking", thinking: "think1", thinkingSignature: "sigA" },
      { type: "thinking", thinking: "", thinkingSignature: "opaque", redacted: true },
      { type: "thinking", thinking: "unsigned thought" },
      { type: "text", text: "ok" },
      { type: "toolCall", id: "toolu_1", name: "read", arguments: { path: "x" } },
      { type: "toolCall", id: "toolu_2", name: "bash", arguments: { command: "ls" } },
    ]),
    {
      role: "toolResult",
      toolCallId: "toolu_1",
      toolName: "read",
      content: [{ type: "text", text: "line1" }, { type: "text", text: "line2" }],
      isError: false,
      timestamp: 3,
    },
    {
      role: "toolResult",
      toolCallId: "toolu_2",
      toolName: "bash",
      content: [{ type: "image", data: "BBBB", mimeType: "image/jpeg" }],
      isError: true,
      timestamp: 4,
    },
    assistant([{ type: "text", text: "failed" }], { stopReason: "error", errorMessage: "x" }),
    { role: "user", content: "next", timestamp: 6 },
  ],
};

Deno.test("ANTH-17 history conversion: images, thinking replay, grouped tool results, long cache markers", async () => {
  await withServer([{ content: [{ type: "text", text: "x" }] }], async (server) => {
    await run(server, history, {
      cacheRetention: "long",
      temperature: 0.2,
      thinkingEnabled: false,
      toolChoice: "auto",
    });
    const body = bodyOf(server);
    const cache = { type: "ephemeral", ttl: "1h" };
    assertEquals(body.messages, [
      {
        role: "user",
        content: [{ type: "text", text: "look" }, {
          type: "image",
          source: { type: "base64", media_type: "image/png", data: "AAAA" },
        }],
      },
      {
        role: "assistant",
        content: [
          { type: "thinking", thinking: "think1", signature: "sigA" },
          { type: "redacted_thinking", data: "opaque" },
          { type: "text", text: "unsigned thought" },
          { type: "text", text: "ok" },
          { type: "tool_use", id: "toolu_1", name: "read", input: { path: "x" } },
          { type: "tool_use", id: "toolu_2", name: "bash", input: { command: "ls" } },
        ],
      },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "toolu_1", content: "line1\nline2", is_error: false },
          {
            type: "tool_result",
            tool_use_id: "toolu_2",
            content: [
              { type: "text", text: "(see attached image)" },
              { type: "image", source: { type: "base64", media_type: "image/jpeg", data: "BBBB" } },
            ],
            is_error: true,
          },
        ],
      },
      { role: "user", content: [{ type: "text", text: "next", cache_control: cache }] },
    ]);
    assertEquals(body.system, [{ type: "text", text: "Sys", cache_control: cache }]);
    assertEquals(body.tools[0].cache_control, undefined);
    assertEquals(body.tools[1].cache_control, cache);
    assertEquals(body.tools[1].input_schema, { type: "object", properties: {}, required: [] });
    assertEquals(body.temperature, 0.2);
    assertEquals(body.thinking, { type: "disabled" });
    assertEquals(body.tool_choice, { type: "auto" });
  });
});

Deno.test("ANTH-18 cacheRetention none: no markers; budget thinking drops temperature; compat betas", async () => {
  await withServer([{ content: [{ type: "text", text: "x" }] }], async (server) => {
    await run(
      server,
      history,
      {
        cacheRetention: "none",
        thinkingEnabled: true,
        thinkingBudgetTokens: 5000,
        temperature: 0.3,
        interleavedThinking: false,
      },
      { compat: { supportsEagerToolInputStreaming: false } },
    );
    const body = bodyOf(server);
    assert(!JSON.stringify(body).includes("cache_control"));
    assertEquals(body.messages.at(-1), { role: "user", content: "next" });
    assertEquals(body.thinking, { type: "enabled", budget_tokens: 5000, display: "summarized" });
    assertEquals(body.temperature, undefined);
    assertEquals(body.tools[0].eager_input_streaming, undefined);
    assertEquals(server.requests[0].headers["anthropic-beta"], "fine-grained-tool-streaming-2025-05-14");
  });
});

Deno.test("PROV-03 ANTH-19 OAuth token: bearer auth, Claude Code identity and tool names mapped both ways", async () => {
  const turn: ScriptedTurn = {
    content: [{ type: "toolCall", id: "toolu_x", name: "Read", arguments: { path: "p" } }],
  };
  await withServer([turn], async (server) => {
    const { final } = await run(server, history, {
      apiKey: "sk-ant-oat01-secret",
      headers: { "X-Extra": "1" },
    }, {
      headers: { "x-model-h": "m" },
    });
    const headers = server.requests[0].headers;
    assertEquals(headers["authorization"], "Bearer sk-ant-oat01-secret");
    assertEquals(headers["x-api-key"], undefined);
    assertEquals(
      headers["anthropic-beta"],
      "claude-code-20250219,oauth-2025-04-20,interleaved-thinking-2025-05-14",
    );
    assertEquals(headers["user-agent"], "claude-cli/2.1.75");
    assertEquals(headers["x-app"], "cli");
    assertEquals(headers["x-extra"], "1");
    assertEquals(headers["x-model-h"], "m");
    const body = bodyOf(server);
    assertEquals(body.system.map((b: Body) => b.text), [
      "You are Claude Code, Anthropic's official CLI for Claude.",
      "Sys",
    ]);
    assertEquals(body.tools.map((t: Body) => t.name), ["Read", "Bash"]);
    assertEquals(body.messages[1].content[4].name, "Read");
    assertEquals(final.content, [{
      type: "toolCall",
      id: "toolu_x",
      name: "read",
      arguments: { path: "p" },
    }]);
  });
});

Deno.test("ANTH-20 headers merge (options over model), onPayload replaces body, onResponse sees status", async () => {
  await withServer([{ content: [{ type: "text", text: "x" }] }], async (server) => {
    const statuses: number[] = [];
    await run(server, hello, {
      headers: { "anthropic-beta": "custom-beta", "X-Trace": "t1" },
      metadata: { user_id: "user-42", other: 1 },
      onPayload: (payload) => ({ ...(payload as Body), max_tokens: 7 }),
      onResponse: (response) => void statuses.push(response.status),
    }, { headers: { "X-Trace": "model", "x-model": "yes" } });
    const req = server.requests[0];
    assertEquals(req.headers["anthropic-beta"], "custom-beta");
    assertEquals(req.headers["x-trace"], "t1");
    assertEquals(req.headers["x-model"], "yes");
    assertEquals(bodyOf(server).max_tokens, 7);
    assertEquals(bodyOf(server).metadata, { user_id: "user-42" });
    assertEquals(statuses, [200]);
  });
});

Deno.test("LOOP-17 ANTH-21 streamSimple: budget thinking, adaptive effort, reasoning off", async () => {
  const turns = [0, 1, 2].map((): ScriptedTurn => ({ content: [{ type: "text", text: "x" }] }));
  await withServer(turns, async (server) => {
    const base = { apiKey: "sk-ant-api", maxRetries: 0, temperature: 0.5 };
    await collect(streamSimpleAnthropic(model(server.url), hello, { ...base, reasoning: "high" }));
    await collect(
      streamSimpleAnthropic(model(server.url, { id: "claude-opus-4-6" }), hello, {
        ...base,
        reasoning: "minimal",
      }),
    );
    await collect(provider.streamSimple(model(server.url), hello, base));
    const [budget, adaptive, off] = [0, 1, 2].map((i) => bodyOf(server, i));
    assertEquals(budget.thinking, { type: "enabled", budget_tokens: 16384, display: "summarized" });
    assertEquals(budget.max_tokens, 48384);
    assertEquals(budget.temperature, undefined);
    assertEquals(adaptive.thinking, { type: "adaptive", display: "summarized" });
    assertEquals(adaptive.output_config, { effort: "low" });
    assertEquals(server.requests[1].headers["anthropic-beta"], undefined);
    assertEquals(off.thinking, { type: "disabled" });
    assertEquals(off.max_tokens, 32000);
    assertEquals(off.temperature, 0.5);
  });
});

Deno.test("ANTH-22 streamSimple without any API key ends in an error event", async () => {
  const { seq, final } = await collect(
    streamSimpleAnthropic(model("http://127.0.0.1:1", { provider: "no-such-provider" }), hello, {}),
  );
  assertEquals(seq, [["error"]]);
  assertEquals(final.errorMessage, "No API key for provider: no-such-provider");
});
