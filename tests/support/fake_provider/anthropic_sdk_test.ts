/**
 * Fidelity of the fake Anthropic encoder: the official SDK must read its streams and errors
 * exactly as it reads Anthropic's own.
 */
import Anthropic from "@anthropic-ai/sdk";
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { startFakeProvider } from "./mod.ts";

function client(url: string): Anthropic {
  return new Anthropic({ apiKey: "sk-ant-test", baseURL: url, maxRetries: 0 });
}

Deno.test("FAKE-ANTHROPIC-01 SDK reads thinking, signature, text, two tool calls and usage", async () => {
  const server = await startFakeProvider([{
    content: [
      { type: "thinking", thinking: "Let me think about both files.", signature: "sig-abc==" },
      { type: "text", text: "Reading two files now." },
      { type: "toolCall", id: "toolu_1", name: "read", arguments: { path: "a.txt" } },
      { type: "toolCall", id: "toolu_2", name: "read", arguments: { path: "dir/b.txt", limit: 20 } },
    ],
    usage: { input: 120, output: 45, cacheRead: 30, cacheWrite: 7 },
    deltaSize: 5,
  }]);
  try {
    const stream = client(server.url).messages.stream({
      model: "claude-sonnet-4-5",
      max_tokens: 1000,
      messages: [{ role: "user", content: "hi" }],
    });
    const deltaTypes: string[] = [];
    stream.on("streamEvent", (event) => {
      if (event.type === "content_block_delta") deltaTypes.push(event.delta.type);
    });
    const message = await stream.finalMessage();
    assertEquals(message.model, "claude-sonnet-4-5");
    assertEquals(message.stop_reason, "tool_use");
    assertEquals(
      message.content,
      [
        { type: "thinking", thinking: "Let me think about both files.", signature: "sig-abc==" },
        { type: "text", text: "Reading two files now." },
        { type: "tool_use", id: "toolu_1", name: "read", input: { path: "a.txt" } },
        { type: "tool_use", id: "toolu_2", name: "read", input: { path: "dir/b.txt", limit: 20 } },
      ] as unknown as typeof message.content,
    );
    assertEquals(message.usage.input_tokens, 120);
    assertEquals(message.usage.output_tokens, 45);
    assertEquals(message.usage.cache_read_input_tokens, 30);
    assertEquals(message.usage.cache_creation_input_tokens, 7);
    assert(deltaTypes.includes("signature_delta"));
    assert(deltaTypes.filter((t) => t === "input_json_delta").length > 4);
    assertEquals(server.requests[0].path, "/v1/messages");
  } finally {
    await server.close();
  }
});

Deno.test("FAKE-ANTHROPIC-02 SDK reads redacted thinking and max_tokens stop", async () => {
  const server = await startFakeProvider([{
    content: [
      { type: "thinking", thinking: "", signature: "opaque-payload", redacted: true },
      { type: "text", text: "cut" },
    ],
    stopReason: "length",
  }]);
  try {
    const message = await client(server.url).messages.stream({
      model: "claude-x",
      max_tokens: 10,
      messages: [{ role: "user", content: "hi" }],
    }).finalMessage();
    assertEquals(message.stop_reason, "max_tokens");
    assertEquals(message.content[0], { type: "redacted_thinking", data: "opaque-payload" });
    assertEquals(
      message.content[1],
      { type: "text", text: "cut" } as unknown as typeof message.content[1],
    );
  } finally {
    await server.close();
  }
});

for (
  const [status, type] of [[400, "invalid_request_error"], [429, "rate_limit_error"], [
    529,
    "overloaded_error",
  ]] as const
) {
  Deno.test(`FAKE-ANTHROPIC-03 HTTP ${status} surfaces as the SDK's APIError (${type})`, async () => {
    const server = await startFakeProvider([{ fault: { kind: "http", status, message: "nope" } }]);
    try {
      let caught: unknown;
      try {
        await client(server.url).messages.create({
          model: "claude-x",
          max_tokens: 10,
          messages: [{ role: "user", content: "hi" }],
          stream: true,
        });
      } catch (err) {
        caught = err;
      }
      assert(caught instanceof Anthropic.APIError, `expected APIError, got ${caught}`);
      assertEquals(caught.status, status);
      assertEquals(caught.type, type);
      assertEquals(caught.error, { type: "error", error: { type, message: "nope" } });
      assertEquals(server.requests.length, 1);
    } finally {
      await server.close();
    }
  });
}

Deno.test("FAKE-ANTHROPIC-04 SDK raises an in-stream error event as APIError", async () => {
  const server = await startFakeProvider([{
    content: [{ type: "text", text: "partial answer here" }],
    fault: { kind: "error_event", message: "Overloaded", afterChunks: 4 },
  }]);
  try {
    let caught: unknown;
    try {
      const stream = await client(server.url).messages.create({
        model: "claude-x",
        max_tokens: 10,
        messages: [{ role: "user", content: "hi" }],
        stream: true,
      });
      for await (const _ of stream) { /* drain */ }
    } catch (err) {
      caught = err;
    }
    assert(caught instanceof Anthropic.APIError, `expected APIError, got ${caught}`);
    assertEquals(caught.error, { type: "error", error: { type: "overloaded_error", message: "Overloaded" } });
  } finally {
    await server.close();
  }
});
