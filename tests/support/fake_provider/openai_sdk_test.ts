/**
 * Fidelity of the fake server's OpenAI streams: the official `openai` client must parse them
 * as it parses OpenAI's own, so provider tests against the fake server mean something.
 */
import assert, { deepStrictEqual as assertEquals } from "node:assert/strict";
import OpenAI, { APIError } from "openai";
import { startFakeProvider } from "./server.ts";
import type { ScriptedTurn } from "./script.ts";

const turn: ScriptedTurn = {
  content: [
    { type: "thinking", thinking: "Let me think about both files." },
    { type: "text", text: "Reading two files now." },
    { type: "toolCall", id: "call_a", name: "read", arguments: { path: "a.txt" } },
    { type: "toolCall", id: "call_b", name: "read", arguments: { path: "b.txt", offset: 2 } },
  ],
  usage: { input: 100, output: 40, cacheRead: 20 },
};

function client(url: string): OpenAI {
  return new OpenAI({ apiKey: "sk-test", baseURL: `${url}/v1`, maxRetries: 0 });
}

Deno.test("openai SDK parses the fake chat completions stream", async () => {
  const server = await startFakeProvider([turn]);
  try {
    const stream = await client(server.url).chat.completions.create({
      model: "gpt-test",
      messages: [{ role: "user", content: "hi" }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = "";
    let reasoning = "";
    const calls: { id: string; name: string; args: string }[] = [];
    let finish: string | null = null;
    let usage: OpenAI.CompletionUsage | undefined;
    for await (const chunk of stream) {
      if (chunk.usage) usage = chunk.usage;
      const choice = chunk.choices[0];
      if (!choice) continue;
      text += choice.delta.content ?? "";
      reasoning += (choice.delta as { reasoning_content?: string }).reasoning_content ?? "";
      for (const tc of choice.delta.tool_calls ?? []) {
        calls[tc.index] ??= { id: "", name: "", args: "" };
        if (tc.id) calls[tc.index].id = tc.id;
        if (tc.function?.name) calls[tc.index].name = tc.function.name;
        calls[tc.index].args += tc.function?.arguments ?? "";
      }
      if (choice.finish_reason) finish = choice.finish_reason;
    }
    assertEquals(text, "Reading two files now.");
    assertEquals(reasoning, "Let me think about both files.");
    assertEquals(calls, [
      { id: "call_a", name: "read", args: '{"path":"a.txt"}' },
      { id: "call_b", name: "read", args: '{"path":"b.txt","offset":2}' },
    ]);
    assertEquals(finish, "tool_calls");
    assertEquals(usage?.prompt_tokens, 120);
    assertEquals(usage?.completion_tokens, 40);
    assertEquals(usage?.total_tokens, 160);
    assertEquals(usage?.prompt_tokens_details?.cached_tokens, 20);
  } finally {
    await server.close();
  }
});

Deno.test("fake chat completions stream sends usage only when include_usage is requested", async () => {
  const server = await startFakeProvider([turn]);
  try {
    const stream = await client(server.url).chat.completions.create({
      model: "gpt-test",
      messages: [{ role: "user", content: "hi" }],
      stream: true,
    });
    let sawUsage = false;
    for await (const chunk of stream) if (chunk.usage) sawUsage = true;
    assertEquals(sawUsage, false);
  } finally {
    await server.close();
  }
});

Deno.test("openai SDK parses the fake responses stream", async () => {
  const server = await startFakeProvider([{
    ...turn,
    content: [
      { type: "thinking", thinking: "Let me think about both files.", signature: "enc-blob" },
      ...turn.content!.slice(1),
    ],
  }]);
  try {
    const stream = await client(server.url).responses.create({
      model: "gpt-test",
      input: "hi",
      stream: true,
    });
    let text = "";
    let summary = "";
    const types: string[] = [];
    const sequence: number[] = [];
    let final: OpenAI.Responses.Response | undefined;
    for await (const event of stream) {
      types.push(event.type);
      sequence.push(event.sequence_number);
      if (event.type === "response.output_text.delta") text += event.delta;
      if (event.type === "response.reasoning_summary_text.delta") summary += event.delta;
      if (event.type === "response.completed") final = event.response;
    }
    assertEquals(text, "Reading two files now.");
    assertEquals(summary, "Let me think about both files.");
    assertEquals(types[0], "response.created");
    assertEquals(types[1], "response.in_progress");
    assertEquals(types.at(-1), "response.completed");
    assertEquals(sequence, sequence.map((_, i) => i));
    assert(final);
    const message = final.output[1];
    assertEquals(message.type === "message" ? message.content : undefined, [
      { type: "output_text", annotations: [], logprobs: [], text: "Reading two files now." },
    ]);
    const reasoning = final.output[0];
    assertEquals(reasoning.type, "reasoning");
    if (reasoning.type === "reasoning") assertEquals(reasoning.encrypted_content, "enc-blob");
    const calls = final.output.filter((o) => o.type === "function_call");
    assertEquals(calls.map((c) => [c.call_id, c.name, JSON.parse(c.arguments)]), [
      ["call_a", "read", { path: "a.txt" }],
      ["call_b", "read", { path: "b.txt", offset: 2 }],
    ]);
    assertEquals(final.usage?.input_tokens, 120);
    assertEquals(final.usage?.output_tokens, 40);
    assertEquals(final.usage?.input_tokens_details.cached_tokens, 20);
  } finally {
    await server.close();
  }
});

Deno.test("openai SDK stream helper accumulates the fake responses stream", async () => {
  const server = await startFakeProvider([turn]);
  try {
    const runner = client(server.url).responses.stream({ model: "gpt-test", input: "hi" });
    const final = await runner.finalResponse();
    const message = final.output[1];
    assertEquals(message.type === "message" ? message.content[0] : undefined, {
      type: "output_text",
      annotations: [],
      logprobs: [],
      text: "Reading two files now.",
      parsed: null,
    });
    assertEquals(final.output.map((o) => o.type), ["reasoning", "message", "function_call", "function_call"]);
  } finally {
    await server.close();
  }
});

for (
  const [status, name] of [[400, "BadRequestError"], [401, "AuthenticationError"], [
    429,
    "RateLimitError",
  ]] as const
) {
  for (const api of ["chat", "responses"] as const) {
    Deno.test(`openai SDK surfaces fake HTTP ${status} as ${name} (${api})`, async () => {
      const server = await startFakeProvider([{
        fault: { kind: "http", status, message: `fake ${status}` },
      }]);
      try {
        const c = client(server.url);
        let caught: unknown;
        try {
          if (api === "chat") {
            await c.chat.completions.create({
              model: "m",
              messages: [{ role: "user", content: "x" }],
              stream: true,
            });
          } else {
            await c.responses.create({ model: "m", input: "x", stream: true });
          }
        } catch (error) {
          caught = error;
        }
        assert(caught instanceof APIError);
        assertEquals(caught.status, status);
        assertEquals(caught.constructor.name, name);
        assertEquals(caught.message, `${status} fake ${status}`);
      } finally {
        await server.close();
      }
    });
  }
}

Deno.test("openai SDK throws the fake in-stream chat error", async () => {
  const server = await startFakeProvider([{
    ...turn,
    fault: { kind: "error_event", message: "boom", afterChunks: 3 },
  }]);
  try {
    const stream = await client(server.url).chat.completions.create({
      model: "m",
      messages: [{ role: "user", content: "x" }],
      stream: true,
    });
    let caught: unknown;
    try {
      for await (const _ of stream) { /* drain */ }
    } catch (error) {
      caught = error;
    }
    assert(caught instanceof APIError);
    assertEquals(caught.message, "boom");
  } finally {
    await server.close();
  }
});

Deno.test("openai SDK yields the fake responses error event", async () => {
  const server = await startFakeProvider([{
    ...turn,
    fault: { kind: "error_event", message: "boom", afterChunks: 3 },
  }]);
  try {
    const stream = await client(server.url).responses.create({ model: "m", input: "x", stream: true });
    const events: OpenAI.Responses.ResponseStreamEvent[] = [];
    for await (const event of stream) events.push(event);
    const last = events.at(-1);
    assertEquals(last?.type, "error");
    if (last?.type === "error") {
      assertEquals(last.message, "boom");
      assertEquals(last.code, "server_error");
    }
  } finally {
    await server.close();
  }
});
