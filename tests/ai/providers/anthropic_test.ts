/**
 * The anthropic-messages provider against the fake Anthropic server: event sequences, final
 * messages, recorded requests, and every failure path ending in an `error` event.
 * Expected texts and shapes were captured from the reference pi-ai against the same server.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { streamAnthropic } from "../../../src/ai/providers/anthropic.ts";
import { requestedRetryDelayMs } from "../../../src/ai/retryable.ts";
import { type ScriptedTurn, startFakeProvider } from "../../support/fake_provider/mod.ts";
import { bodyOf, collect, hello, model, readTool, run, type Seen, withServer } from "./anthropic_helpers.ts";

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
    // The SDK's beta client, as pi-ai 1.x sends through.
    assertEquals(req.url, "/v1/messages?beta=true");
    assertEquals(req.headers["x-api-key"], "sk-ant-api-test");
    assertEquals(req.headers["anthropic-version"], "2023-06-01");
    // pi-ai 1.x asks for interleaved thinking only when thinking is on.
    assertEquals(req.headers["anthropic-beta"], undefined);
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
    assertEquals(tokens, {
      input: 100,
      output: 50,
      cacheRead: 20,
      cacheWrite: 10,
      cacheWrite1h: 0,
      totalTokens: 180,
    });
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

Deno.test("LOOP-09 ANTH-06 HTTP 429 is not retried in-client by default; the requested wait stays with the reply", async () => {
  // pi-ai 1.x: no client-side retries unless asked (the agent's auto-retry does it, visibly).
  const turns: ScriptedTurn[] = [
    { fault: { kind: "http", status: 429, message: "slow down", retryAfter: 7 } },
    { content: [{ type: "text", text: "ok" }] },
  ];
  await withServer(turns, async (server) => {
    const { seq, final } = await run(server, hello, { maxRetries: undefined });
    assertEquals(seq, [["error"]]);
    assertEquals(
      final.errorMessage,
      '429 {"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}',
    );
    assertEquals(requestedRetryDelayMs(final), 7000);
    assertEquals(server.requests.length, 1);
  });
});

Deno.test("LOOP-09 ANTH-06 with maxRetries, a 429 is retried after the requested wait (retry-after-ms)", async () => {
  const turns: ScriptedTurn[] = [
    { fault: { kind: "http", status: 429, message: "slow down", retryAfterMs: 900 } },
    { content: [{ type: "text", text: "ok" }] },
  ];
  await withServer(turns, async (server) => {
    const started = performance.now();
    const { seq, final } = await run(server, hello, { maxRetries: 1 });
    const waited = performance.now() - started;
    assertEquals(seq, [["start"], ["text_start", 0], ["text_delta", 0], ["text_end", 0], ["done"]]);
    assertEquals(final.content, [{ type: "text", text: "ok" }]);
    assertEquals(server.requests.length, 2);
    assert(waited >= 850, `waited only ${waited}ms`);
  });
});

Deno.test("LOOP-09 ANTH-07 retry-after beyond maxRetryDelayMs fails at once, naming the delay", async () => {
  const turns: ScriptedTurn[] = [
    { fault: { kind: "http", status: 429, message: "slow down", retryAfter: 600 } },
    { content: [{ type: "text", text: "never" }] },
  ];
  await withServer(turns, async (server) => {
    const started = performance.now();
    const { seq, final } = await run(server, hello, { maxRetries: 2, maxRetryDelayMs: 60000 });
    assert(performance.now() - started < 2000);
    assertEquals(seq, [["error"]]);
    // pi-ai 1.6.0's wording; auto-retry sees "retry delay" and the agent decides.
    assertEquals(
      String(final.errorMessage),
      "Server requested 600s retry delay (max: 60s). " +
        '429 {"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}',
    );
    assertEquals(requestedRetryDelayMs(final), 600000);
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

Deno.test("ANTH-11 clean close before message_stop is an error (1.6.0 text)", async () => {
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

Deno.test("ANTH-12 an empty 200 body (no message_start) is an error, not an empty answer", async () => {
  const turn: ScriptedTurn = {
    content: [{ type: "text", text: "x" }],
    fault: { kind: "close", afterChunks: 0 },
  };
  await withServer([turn], async (server) => {
    const { seq, final } = await run(server);
    assertEquals(seq, [["start"], ["error"]]);
    assertEquals(final.content, []);
    assertEquals(final.stopReason, "error");
    assertEquals(final.errorMessage, "Anthropic stream ended without message_start");
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
    // 1.6.0 reports the fetch's own abort text for an abort mid-body.
    assertEquals(final.errorMessage, "This operation was aborted");
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

Deno.test("LOOP-06 ANTH-23 abort while waiting to retry ends promptly as aborted", async () => {
  const turns: ScriptedTurn[] = [
    { fault: { kind: "http", status: 429, message: "slow down", retryAfter: 5 } },
    { content: [{ type: "text", text: "never" }] },
  ];
  await withServer(turns, async (server) => {
    const started = performance.now();
    const { seq, final } = await run(server, hello, { maxRetries: 2, signal: AbortSignal.timeout(150) });
    assert(performance.now() - started < 2000);
    assertEquals(seq, [["error"]]);
    assertEquals(final.stopReason, "aborted");
    assertEquals(final.errorMessage, "Request was aborted");
    assertEquals(server.requests.length, 1);
  });
});

Deno.test("ANTH-01 text and thinking already in content_block_start are kept (pi-ai 1.x)", async () => {
  const events = [
    ["message_start", { type: "message_start", message: { id: "m1", usage: { input_tokens: 3 } } }],
    ["content_block_start", {
      type: "content_block_start",
      index: 0,
      content_block: { type: "thinking", thinking: "Let me ", signature: "" },
    }],
    ["content_block_delta", {
      type: "content_block_delta",
      index: 0,
      delta: { type: "thinking_delta", thinking: "see" },
    }],
    ["content_block_stop", { type: "content_block_stop", index: 0 }],
    ["content_block_start", {
      type: "content_block_start",
      index: 1,
      content_block: { type: "text", text: "Hi " },
    }],
    ["content_block_delta", {
      type: "content_block_delta",
      index: 1,
      delta: { type: "text_delta", text: "there" },
    }],
    ["content_block_stop", { type: "content_block_stop", index: 1 }],
    ["message_delta", {
      type: "message_delta",
      delta: { stop_reason: "end_turn" },
      usage: { output_tokens: 2 },
    }],
    ["message_stop", { type: "message_stop" }],
  ] as const;
  const raw = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/event-stream" });
    res.end(events.map(([name, data]) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`).join(""));
  });
  await new Promise<void>((resolve) => raw.listen(0, "127.0.0.1", resolve));
  try {
    const url = `http://127.0.0.1:${(raw.address() as AddressInfo).port}`;
    const { final } = await collect(streamAnthropic(model(url), hello, { apiKey: "k", maxRetries: 0 }));
    assertEquals(final.content, [
      { type: "thinking", thinking: "Let me see", thinkingSignature: "" },
      { type: "text", text: "Hi there" },
    ]);
    assertEquals([final.stopReason, final.rawStopReason], ["stop", "end_turn"]);
  } finally {
    await new Promise<void>((resolve) => raw.close(() => resolve()));
  }
});
