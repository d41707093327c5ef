/**
 * Fidelity check of the fake Gemini encoder: the official `@google/genai` client must parse what
 * the fake server sends exactly as it parses the real service.
 */
import { assert, assertEquals, assertRejects } from "../assert.ts";
import { ApiError, type GenerateContentResponse, GoogleGenAI } from "@google/genai";
import { startFakeProvider } from "./mod.ts";

function client(url: string): GoogleGenAI {
  return new GoogleGenAI({ apiKey: "test-key", httpOptions: { baseUrl: url, apiVersion: "v1beta" } });
}

async function collect(stream: AsyncGenerator<GenerateContentResponse>): Promise<GenerateContentResponse[]> {
  const out: GenerateContentResponse[] = [];
  for await (const chunk of stream) out.push(chunk);
  return out;
}

Deno.test("PROV-02 google fake stream parses with @google/genai: thoughts, text, two calls, usage", async () => {
  const server = await startFakeProvider([{
    content: [
      { type: "thinking", thinking: "Let me think about it.", signature: "c2lnbmF0dXJl" },
      { type: "text", text: "Checking both files." },
      { type: "toolCall", name: "read", arguments: { path: "a.txt" } },
      { type: "toolCall", id: "call_2", name: "read", arguments: { path: "b.txt" } },
    ],
    usage: { input: 100, output: 40, cacheRead: 20 },
    model: "gemini-2.5-flash-001",
  }]);
  try {
    const chunks = await collect(
      await client(server.url).models.generateContentStream({
        model: "gemini-2.5-flash",
        contents: "hello",
      }),
    );
    const parts = chunks.flatMap((c) => c.candidates?.[0]?.content?.parts ?? []);
    const thought = parts.filter((p) => p.thought).map((p) => p.text).join("");
    assertEquals(thought, "Let me think about it.");
    assertEquals(parts.filter((p) => p.thoughtSignature).map((p) => p.thoughtSignature), ["c2lnbmF0dXJl"]);
    const text = parts.filter((p) => !p.thought && p.text !== undefined).map((p) => p.text).join("");
    assertEquals(text, "Checking both files.");

    const last = chunks[chunks.length - 1];
    assertEquals(last.functionCalls, [
      { name: "read", args: { path: "a.txt" } },
      { id: "call_2", name: "read", args: { path: "b.txt" } },
    ]);
    assertEquals(last.candidates?.[0]?.finishReason, "STOP");
    assertEquals(last.usageMetadata?.promptTokenCount, 120);
    assertEquals(last.usageMetadata?.cachedContentTokenCount, 20);
    assertEquals(last.usageMetadata?.candidatesTokenCount, 20);
    assertEquals(last.usageMetadata?.thoughtsTokenCount, 20);
    assertEquals(last.usageMetadata?.totalTokenCount, 160);
    assertEquals(last.modelVersion, "gemini-2.5-flash-001");
    assertEquals(typeof last.responseId, "string");
    // Only the final chunk reports why the answer ended.
    assertEquals(chunks.filter((c) => c.candidates?.[0]?.finishReason).length, 1);

    const req = server.requests[0];
    assertEquals(req.path, "/v1beta/models/gemini-2.5-flash:streamGenerateContent");
    assertEquals(req.url, "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse");
    assertEquals(req.headers["x-goog-api-key"], "test-key");
  } finally {
    await server.close();
  }
});

Deno.test("PROV-02 google fake MAX_TOKENS finish reason parses with @google/genai", async () => {
  const server = await startFakeProvider([{
    content: [{ type: "text", text: "cut" }],
    stopReason: "length",
  }]);
  try {
    const chunks = await collect(
      await client(server.url).models.generateContentStream({ model: "gemini-2.5-pro", contents: "x" }),
    );
    assertEquals(chunks[chunks.length - 1].candidates?.[0]?.finishReason, "MAX_TOKENS");
    assertEquals(chunks[chunks.length - 1].text, "cut");
  } finally {
    await server.close();
  }
});

Deno.test("PROV-02 google fake HTTP error surfaces in @google/genai as ApiError with status and body", async () => {
  const server = await startFakeProvider([{
    fault: { kind: "http", status: 429, message: "Quota exceeded" },
  }]);
  try {
    const err = await assertRejects(
      () => client(server.url).models.generateContentStream({ model: "gemini-2.5-flash", contents: "x" }),
    );
    assert(err instanceof ApiError);
    assertEquals(err.status, 429);
    assertEquals(
      err.message,
      '{"error":{"code":429,"message":"Quota exceeded","status":"RESOURCE_EXHAUSTED"}}',
    );
  } finally {
    await server.close();
  }
});

Deno.test("PROV-02 google fake in-stream error surfaces in @google/genai after the first chunks", async () => {
  const server = await startFakeProvider([{
    content: [{ type: "text", text: "partial answer here" }],
    fault: { kind: "error_event", message: "Internal error", afterChunks: 1 },
    chunkDelayMs: 20,
  }]);
  try {
    const seen: string[] = [];
    const err = await assertRejects(async () => {
      const stream = await client(server.url).models.generateContentStream({
        model: "gemini-2.5-flash",
        contents: "x",
      });
      for await (const chunk of stream) seen.push(chunk.text ?? "");
    });
    assert(err instanceof ApiError);
    assertEquals(seen, ["partial "]);
    assertEquals(err.status, 500);
    assertEquals(
      err.message,
      'got status: INTERNAL. {"error":{"code":500,"message":"Internal error","status":"INTERNAL"}}',
    );
  } finally {
    await server.close();
  }
});
