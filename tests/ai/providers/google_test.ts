/**
 * Contract tests of the google-generative-ai provider against the fake Gemini server. Expected
 * event sequences, error texts and request bodies were captured from the reference
 * (`@mariozechner/pi-ai` streamGoogle driving `@google/genai`) against the same fake server.
 */
import { assert, assertEquals, assertMatch } from "../../support/assert.ts";
import type { AssistantMessageEventStream } from "../../../src/ai/event_stream.ts";
import { type GoogleOptions, streamGoogle, streamSimpleGoogle } from "../../../src/ai/providers/google.ts";
import type { AssistantMessage, AssistantMessageEvent, Context, Model } from "../../../src/ai/types.ts";
import { requestedRetryDelayMs } from "../../../src/ai/retryable.ts";
import { type FakeProvider, type ScriptedTurn, startFakeProvider } from "../../support/fake_provider/mod.ts";

/** gemini-2.5-flash as the catalog has it, served from the fake server. */
function model(server: { url: string }, extra: Partial<Model> = {}): Model {
  return {
    id: "gemini-2.5-flash",
    name: "Gemini 2.5 Flash",
    api: "google-generative-ai",
    provider: "google",
    baseUrl: `${server.url}/v1beta`,
    reasoning: true,
    input: ["text", "image"],
    cost: { input: 0.3, output: 2.5, cacheRead: 0.03, cacheWrite: 0 },
    contextWindow: 1048576,
    maxTokens: 65536,
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
  messages: [{ role: "user", content: "hi", timestamp: 1 }],
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
  options: GoogleOptions = {},
  m?: Partial<Model>,
) {
  return collect(streamGoogle(model(server, m), context, { apiKey: "test-key", ...options }));
}

function body(server: FakeProvider, n = 0): Record<string, unknown> {
  return server.requests[n].body as Record<string, unknown>;
}

const text = "Hello there, friend.";
const TEXT_SEQ: Seen[] = [["start"], ["text_start", 0], ["text_delta", 0], ["text_delta", 0], [
  "text_delta",
  0,
]];

Deno.test("PROV-02 google: thinking then text — events, final message, usage and cost, request", async () => {
  await withServer([{
    content: [
      { type: "thinking", thinking: "Think hard.", signature: "c2lnbmF0dXJl" },
      { type: "text", text },
    ],
    usage: { input: 100, output: 40, cacheRead: 20 },
  }], async (server) => {
    const { seq, final, events } = await run(server, { ...hello, tools: [readTool] }, {
      temperature: 0.5,
      maxTokens: 1000,
      thinking: { enabled: true, budgetTokens: 1024 },
      toolChoice: "auto",
      headers: { "x-extra": "1" },
    });
    assertEquals(seq, [
      ["start"],
      ["thinking_start", 0],
      ["thinking_delta", 0],
      ["thinking_delta", 0],
      ["thinking_end", 0],
      ["text_start", 1],
      ["text_delta", 1],
      ["text_delta", 1],
      ["text_delta", 1],
      ["text_end", 1],
      ["done"],
    ]);
    assertEquals(events.filter((e) => e.type === "text_delta").map((e) => "delta" in e && e.delta), [
      "Hello th",
      "ere, fri",
      "end.",
    ]);
    assertEquals(final.content, [
      { type: "thinking", thinking: "Think hard.", thinkingSignature: "c2lnbmF0dXJl" },
      { type: "text", text },
    ]);
    assertEquals(final.stopReason, "stop");
    assertEquals(final.api, "google-generative-ai");
    assertMatch(final.responseId ?? "", /^fakeResp\d+$/);
    // Input excludes the cached tokens; output adds thought tokens to the answer's.
    assertEquals(final.usage, {
      input: 100,
      output: 40,
      cacheRead: 20,
      cacheWrite: 0,
      reasoning: 20,
      totalTokens: 160,
      cost: {
        input: 0.3 / 1e6 * 100,
        output: 2.5 / 1e6 * 40,
        cacheRead: 0.03 / 1e6 * 20,
        cacheWrite: 0,
        total: 0.3 / 1e6 * 100 + 2.5 / 1e6 * 40 + 0.03 / 1e6 * 20,
        totalFromProvider: false,
      },
    });

    const req = server.requests[0];
    assertEquals(req.url, "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse");
    assertEquals(req.headers["x-goog-api-key"], "test-key");
    assertEquals(req.headers["content-type"], "application/json");
    assertEquals(req.headers["x-extra"], "1");
    assertEquals(
      JSON.stringify(req.body),
      JSON.stringify({
        contents: [{ parts: [{ text: "hi" }], role: "user" }],
        systemInstruction: { parts: [{ text: "You are helpful." }], role: "user" },
        tools: [{
          functionDeclarations: [
            { name: "read", description: "Read a file", parametersJsonSchema: readTool.parameters },
          ],
        }],
        toolConfig: { functionCallingConfig: { mode: "AUTO" } },
        generationConfig: {
          temperature: 0.5,
          maxOutputTokens: 1000,
          thinkingConfig: { includeThoughts: true, thinkingBudget: 1024 },
        },
      }),
    );
  });
});

Deno.test("PROV-02 google: two parallel tool calls — ids generated when missing, stopReason toolUse", async () => {
  await withServer([{
    content: [
      { type: "text", text: "Reading." },
      { type: "toolCall", name: "read", arguments: { path: "a.txt" } },
      { type: "toolCall", id: "given_1", name: "read", arguments: { path: "b.txt" } },
    ],
    usage: { input: 50, output: 10 },
  }], async (server) => {
    const { seq, final, events } = await run(server, { ...hello, tools: [readTool] });
    assertEquals(seq, [
      ["start"],
      ["text_start", 0],
      ["text_delta", 0],
      ["text_end", 0],
      ["toolcall_start", 1],
      ["toolcall_delta", 1],
      ["toolcall_end", 1],
      ["toolcall_start", 2],
      ["toolcall_delta", 2],
      ["toolcall_end", 2],
      ["done"],
    ]);
    assertEquals(events.filter((e) => e.type === "toolcall_delta").map((e) => "delta" in e && e.delta), [
      '{"path":"a.txt"}',
      '{"path":"b.txt"}',
    ]);
    assertEquals(final.stopReason, "toolUse");
    const [, first, second] = final.content;
    assert(first.type === "toolCall" && second.type === "toolCall");
    assertMatch(first.id, /^read_\d+_\d+$/);
    assertEquals(first.arguments, { path: "a.txt" });
    assertEquals(second, { type: "toolCall", id: "given_1", name: "read", arguments: { path: "b.txt" } });
    // No tool choice given: no toolConfig; generationConfig is sent even when empty.
    assertEquals(body(server).toolConfig, undefined);
    assertEquals(body(server).generationConfig, {});
  });
});

Deno.test("PROV-02 google: a repeated tool-call id is replaced by a generated one", async () => {
  await withServer([{
    content: [
      { type: "toolCall", id: "dup", name: "read", arguments: { path: "a" } },
      { type: "toolCall", id: "dup", name: "read", arguments: { path: "b" } },
    ],
  }], async (server) => {
    const { final } = await run(server);
    const ids = final.content.map((b) => b.type === "toolCall" ? b.id : "");
    assertEquals(ids[0], "dup");
    assertMatch(ids[1], /^read_\d+_\d+$/);
  });
});

const usageZero = {
  input: 0,
  output: 0,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: 0,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};

for (
  const [status, message, expected] of [
    [400, "Bad thing", '{"error":{"code":400,"message":"Bad thing","status":"INVALID_ARGUMENT"}}'],
    [
      401,
      "API key not valid",
      '{"error":{"code":401,"message":"API key not valid","status":"UNAUTHENTICATED"}}',
    ],
    [429, "Quota", '{"error":{"code":429,"message":"Quota","status":"RESOURCE_EXHAUSTED"}}'],
    [500, "Internal", '{"error":{"code":500,"message":"Internal","status":"INTERNAL"}}'],
    [529, "Overloaded", '{"error":{"code":529,"message":"Overloaded","status":"UNKNOWN"}}'],
  ] as const
) {
  Deno.test(`PROV-02 google: HTTP ${status} ends in an error event with the SDK's text, no client retry`, async () => {
    const fault = { kind: "http" as const, status, message, ...(status === 429 ? { retryAfter: 1 } : {}) };
    await withServer([{ fault }, { content: [{ type: "text", text: "unused" }] }], async (server) => {
      const { seq, final } = await run(server);
      assertEquals(seq, [["error"]]);
      assertEquals(final.stopReason, "error");
      assertEquals(final.errorMessage, expected);
      assertEquals(final.content, []);
      assertEquals(final.usage, usageZero);
      assertEquals(server.requests.length, 1);
    });
  });
}

Deno.test("PROV-02 google: an error reported mid-stream keeps the partial text", async () => {
  await withServer([{
    content: [{ type: "text", text }],
    fault: { kind: "error_event", message: "Boom", afterChunks: 1 },
  }], async (server) => {
    const { seq, final } = await run(server);
    assertEquals(seq, [["start"], ["text_start", 0], ["text_delta", 0], ["error"]]);
    assertEquals(final.stopReason, "error");
    assertEquals(
      final.errorMessage,
      'got status: INTERNAL. {"error":{"code":500,"message":"Boom","status":"INTERNAL"}}',
    );
    assertEquals(final.content, [{ type: "text", text: "Hello th" }]);
    // Usage of the chunks that did arrive (the prompt count) is kept.
    assertEquals(final.usage.input, 10);
  });
});

Deno.test("PROV-02 google: a dropped connection reads 'terminated'", async () => {
  await withServer(
    [{ content: [{ type: "text", text }], fault: { kind: "drop", afterChunks: 1 } }],
    async (server) => {
      const { seq, final } = await run(server);
      assertEquals(seq, [["start"], ["text_start", 0], ["text_delta", 0], ["error"]]);
      assertEquals(final.stopReason, "error");
      assertEquals(final.errorMessage, "terminated");
      assertEquals(final.content, [{ type: "text", text: "Hello th" }]);
    },
  );
});

Deno.test("PROV-02 google: a clean close without finishReason is an error (the reference calls it a stop)", async () => {
  await withServer(
    [{ content: [{ type: "text", text }], fault: { kind: "close", afterChunks: 2 } }],
    async (server) => {
      const { seq, final } = await run(server);
      assertEquals(seq, [
        ["start"],
        ["text_start", 0],
        ["text_delta", 0],
        ["text_delta", 0],
        ["text_end", 0],
        ["error"],
      ]);
      assertEquals(final.stopReason, "error");
      assertEquals(final.errorMessage, "Google stream ended without a finishReason");
      assertEquals(final.content, [{ type: "text", text: "Hello there, fri" }]);
    },
  );
});

Deno.test("PROV-02 google: abort during a stalled stream ends 'aborted' with the partial text", async () => {
  await withServer(
    [{ content: [{ type: "text", text }], fault: { kind: "stall", afterChunks: 1 } }],
    async (server) => {
      const controller = new AbortController();
      const stream = streamGoogle(model(server), hello, { apiKey: "k", signal: controller.signal });
      const seen: Seen[] = [];
      for await (const event of stream) {
        seen.push("contentIndex" in event ? [event.type, event.contentIndex] : [event.type]);
        if (event.type === "text_delta") controller.abort();
      }
      const final = await stream.result();
      assertEquals(seen, [["start"], ["text_start", 0], ["text_delta", 0], ["error"]]);
      assertEquals(final.stopReason, "aborted");
      assertEquals(final.errorMessage, "This operation was aborted");
      assertEquals(final.content, [{ type: "text", text: "Hello th" }]);
    },
  );
});

Deno.test("PROV-02 google: abort while chunks are still flowing ends 'aborted'", async () => {
  await withServer([{ content: [{ type: "text", text }], chunkDelayMs: 40 }], async (server) => {
    const controller = new AbortController();
    const stream = streamGoogle(model(server), hello, { apiKey: "k", signal: controller.signal });
    const seen: Seen[] = [];
    for await (const event of stream) {
      seen.push("contentIndex" in event ? [event.type, event.contentIndex] : [event.type]);
      if (event.type === "text_delta" && seen.length === 4) controller.abort();
    }
    const final = await stream.result();
    assertEquals(seen, [["start"], ["text_start", 0], ["text_delta", 0], ["text_delta", 0], ["error"]]);
    assertEquals(final.stopReason, "aborted");
    assertEquals(final.errorMessage, "This operation was aborted");
    assertEquals(final.content, [{ type: "text", text: "Hello there, fri" }]);
  });
});

Deno.test("PROV-02 google: an already aborted signal sends nothing", async () => {
  await withServer([{ content: [{ type: "text", text }] }], async (server) => {
    const { seq, final } = await run(server, hello, { signal: AbortSignal.abort() });
    assertEquals(seq, [["error"]]);
    assertEquals(final.stopReason, "aborted");
    assertEquals(final.errorMessage, "Request aborted");
    assertEquals(server.requests.length, 0);
  });
});

Deno.test("PROV-02 google: MAX_TOKENS maps to length; an unreachable server reads 'fetch failed'", async () => {
  await withServer([{ content: [{ type: "text", text }], stopReason: "length" }], async (server) => {
    const { seq, final } = await run(server);
    assertEquals(seq, [...TEXT_SEQ, ["text_end", 0], ["done"]]);
    assertEquals(final.stopReason, "length");
  });
  const server = await startFakeProvider();
  const m = model(server);
  await server.close();
  const { seq, final } = await collect(streamGoogle(m, hello, { apiKey: "k" }));
  assertEquals(seq, [["error"]]);
  assertEquals(final.errorMessage, "fetch failed");
});

const zeroUsage = usageZero;
function assistant(content: AssistantMessage["content"], provider = "google", id = "gemini-2.5-flash") {
  return {
    role: "assistant" as const,
    content,
    api: "google-generative-ai",
    provider,
    model: id,
    usage: zeroUsage,
    stopReason: "toolUse" as const,
    timestamp: 2,
  };
}

const history: Context = {
  messages: [
    {
      role: "user",
      content: [{ type: "text", text: "look" }, { type: "image", data: "aGVsbG8=", mimeType: "image/png" }],
      timestamp: 1,
    },
    assistant([
      { type: "thinking", thinking: "hmm", thinkingSignature: "c2lnbmF0dXJl" },
      { type: "text", text: "ok", textSignature: "dGV4dHNpZw==" },
      {
        type: "toolCall",
        id: "t1",
        name: "read",
        arguments: { path: "x" },
        thoughtSignature: "dG9vbHNpZw==",
      },
    ]),
    {
      role: "toolResult",
      toolCallId: "t1",
      toolName: "read",
      content: [{ type: "text", text: "file body" }, {
        type: "image",
        data: "aGVsbG8=",
        mimeType: "image/png",
      }],
      isError: false,
      timestamp: 3,
    },
    assistant(
      [
        { type: "thinking", thinking: "other model", thinkingSignature: "c2lnbmF0dXJl" },
        {
          type: "toolCall",
          id: "t2",
          name: "bash",
          arguments: { command: "ls" },
          thoughtSignature: "dG9vbHNpZw==",
        },
      ],
      "anthropic",
      "claude",
    ),
    {
      role: "toolResult",
      toolCallId: "t2",
      toolName: "bash",
      content: [{ type: "text", text: "boom" }],
      isError: true,
      timestamp: 5,
    },
    { role: "user", content: "continue", timestamp: 6 },
  ],
};

Deno.test("PROV-02 google: history becomes contents — signatures replayed only for the same model", async () => {
  await withServer([{ content: [{ type: "text", text: "ok" }] }], async (server) => {
    await run(server, history);
    const image = { inlineData: { mimeType: "image/png", data: "aGVsbG8=" } };
    assertEquals(
      JSON.stringify(body(server).contents),
      JSON.stringify([
        { parts: [{ text: "look" }, image], role: "user" },
        {
          parts: [
            { text: "hmm", thought: true, thoughtSignature: "c2lnbmF0dXJl" },
            { text: "ok", thoughtSignature: "dGV4dHNpZw==" },
            { functionCall: { args: { path: "x" }, name: "read" }, thoughtSignature: "dG9vbHNpZw==" },
          ],
          role: "model",
        },
        { parts: [{ functionResponse: { name: "read", response: { output: "file body" } } }], role: "user" },
        // Gemini 2.x cannot take images inside a function response: they follow in their own turn.
        { parts: [{ text: "Tool result image:" }, image], role: "user" },
        {
          // 1.3.0: thinking from another model is dropped, not replayed as text.
          parts: [{ functionCall: { args: { command: "ls" }, name: "bash" } }],
          role: "model",
        },
        { parts: [{ functionResponse: { name: "bash", response: { error: "boom" } } }], role: "user" },
        { parts: [{ text: "continue" }], role: "user" },
      ]),
    );
  });
});

Deno.test("PROV-02 google: Gemini 3 gets tool-result images nested in the function response", async () => {
  await withServer([{ content: [{ type: "text", text: "ok" }] }], async (server) => {
    await run(server, { messages: history.messages.slice(0, 3) }, {}, { id: "gemini-3-flash-preview" });
    const contents = body(server).contents as { parts: unknown[] }[];
    assertEquals(contents.length, 3);
    // Gemini 3 also gets the call's id (pi-ai 1.6.0).
    assertEquals(contents[2].parts, [{
      functionResponse: {
        id: "t1",
        name: "read",
        response: { output: "file body" },
        parts: [{ inlineData: { mimeType: "image/png", data: "aGVsbG8=" } }],
      },
    }]);
  });
});

for (
  const [id, reasoning, expected] of [
    ["gemini-3.1-pro-preview", "medium", { includeThoughts: true, thinkingLevel: "HIGH" }],
    ["gemini-3-flash-preview", undefined, { thinkingLevel: "MINIMAL" }],
    ["gemini-3.1-pro-preview", undefined, { thinkingLevel: "LOW" }],
    ["gemma-4-31b-it", "low", { includeThoughts: true, thinkingLevel: "MINIMAL" }],
    ["gemini-2.5-pro", "high", { includeThoughts: true, thinkingBudget: 32768 }],
    ["gemini-2.5-flash", "minimal", { includeThoughts: true, thinkingBudget: 128 }],
    ["gemini-2.5-flash", undefined, { thinkingBudget: 0 }],
  ] as const
) {
  Deno.test(`LOOP-17 google streamSimple: ${id} reasoning=${reasoning ?? "none"} thinkingConfig`, async () => {
    await withServer([{ content: [{ type: "text", text: "ok" }] }], async (server) => {
      const { final } = await collect(
        streamSimpleGoogle(model(server, { id }), hello, {
          apiKey: "k",
          ...(reasoning ? { reasoning } : {}),
        }),
      );
      assertEquals(final.stopReason, "stop");
      const generation = body(server).generationConfig as Record<string, unknown>;
      assertEquals(generation.thinkingConfig, expected);
      // 1.6.0: the model's own output limit (fitted into the context window), no 32000 cap.
      assertEquals(generation.maxOutputTokens, 65536);
    });
  });
}

Deno.test("LOOP-17 google streamSimple: custom thinking budgets win; a missing key is an error event", async () => {
  await withServer([{ content: [{ type: "text", text: "ok" }] }], async (server) => {
    await collect(streamSimpleGoogle(model(server), hello, {
      apiKey: "k",
      reasoning: "low",
      thinkingBudgets: { low: 5 },
    }));
    assertEquals((body(server).generationConfig as Record<string, unknown>).thinkingConfig, {
      includeThoughts: true,
      thinkingBudget: 5,
    });
  });
  const { seq, final } = await collect(
    streamSimpleGoogle({ ...model({ url: "http://127.0.0.1:9" }), provider: "nokey-test" }, hello),
  );
  assertEquals(seq, [["error"]]);
  assertEquals(final.errorMessage, "No API key for provider: nokey-test");
});

Deno.test("PROV-02 google: onPayload sees SDK-shaped params and its replacement is sent", async () => {
  await withServer([{ content: [{ type: "text", text: "ok" }] }], async (server) => {
    let seen: unknown;
    await run(server, hello, {
      maxTokens: 77,
      onPayload: (payload) => {
        seen = payload;
        const p = payload as { config: Record<string, unknown> };
        return { ...p, config: { ...p.config, topK: 3, safetySettings: [] } };
      },
    });
    assertEquals(seen, {
      model: "gemini-2.5-flash",
      contents: [{ parts: [{ text: "hi" }], role: "user" }],
      config: { maxOutputTokens: 77, systemInstruction: "You are helpful." },
    });
    assertEquals(
      JSON.stringify(body(server)),
      JSON.stringify({
        contents: [{ parts: [{ text: "hi" }], role: "user" }],
        systemInstruction: { parts: [{ text: "You are helpful." }], role: "user" },
        safetySettings: [],
        generationConfig: { topK: 3, maxOutputTokens: 77 },
      }),
    );
  });
});

Deno.test("LOOP-09 google: a 429's retry-after is honoured with maxRetries and kept on the reply without", async () => {
  await withServer([
    { fault: { kind: "http", status: 429, message: "Resource exhausted", retryAfter: 0 } },
    { content: [{ type: "text", text: "ok" }] },
  ], async (server) => {
    const s = streamGoogle(model(server), hello, { apiKey: "k", maxRetries: 1 });
    assertEquals((await collect(s)).final.stopReason, "stop");
    assertEquals(server.requests.length, 2);
  });
  await withServer(
    [{ fault: { kind: "http", status: 503, message: "busy", retryAfter: 42 } }],
    async (server) => {
      const s = streamGoogle(model(server), hello, { apiKey: "k" });
      const { final } = await collect(s);
      assertEquals(final.stopReason, "error");
      assertEquals(requestedRetryDelayMs(final), 42000);
      assertEquals(server.requests.length, 1);
    },
  );
});
