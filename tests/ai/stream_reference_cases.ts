/**
 * The requests the LLM layer is compared on with pi-ai 1.6.0: per wire API a text-and-tool
 * reply, thinking at "high" and "max", an abort mid-text, a body cut short, no tools, a history
 * from another model, session ids (OpenAI's and OpenRouter's headers), an image, and an input
 * that nearly fills the window. Request bodies, paths and the headers in `COMPARED_HEADERS` are
 * compared. `stream_reference_test.ts`
 * runs them; `deno run -A tests/ai/stream_reference_cases.ts` re-captures the stored fixture.
 *
 * @module
 */
import { type Context, emptyUsage, type Message } from "../../src/ai/types.ts";
import { normalise, requestView, runReference, type StreamCase, WIRE_APIS } from "./stream_reference.ts";

const READ_TOOL = {
  name: "read",
  description: "Read a file",
  parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
};

const CONTEXT: Context = {
  systemPrompt: "You are terse.",
  messages: [{ role: "user", content: "hi", timestamp: 1 }],
  tools: [READ_TOOL],
};

const NO_USAGE = emptyUsage();

const FOREIGN_HISTORY: Message[] = [
  { role: "user", content: "q1", timestamp: 1 },
  {
    role: "assistant",
    content: [
      { type: "thinking", thinking: "old thoughts", thinkingSignature: "sig" },
      { type: "text", text: "a1" },
      { type: "toolCall", id: "call_9", name: "read", arguments: { path: "x" } },
    ],
    api: "anthropic-messages",
    provider: "anthropic",
    model: "other-model",
    usage: NO_USAGE,
    stopReason: "toolUse",
    timestamp: 2,
  },
  {
    role: "toolResult",
    toolCallId: "call_9",
    toolName: "read",
    content: [{ type: "text", text: "file" }],
    isError: false,
    timestamp: 3,
  },
  { role: "user", content: "q2", timestamp: 4 },
];

/** A reply of the fake model (same API, provider and id) that calls `read`. */
function callOf(api: string, id: string): Message {
  const provider = api === "anthropic-messages"
    ? "anthropic"
    : api === "google-generative-ai"
    ? "google"
    : "openai";
  return {
    role: "assistant",
    content: [{ type: "toolCall", id, name: "read", arguments: { path: "x" } }],
    api,
    provider,
    model: "fake-model",
    usage: NO_USAGE,
    stopReason: "toolUse",
    timestamp: 2,
  };
}

function reasoningModelId(api: string): string {
  if (api === "google-generative-ai") return "gemini-2.5-flash";
  if (api === "anthropic-messages") return "claude-sonnet-4-5";
  return "gpt-5";
}

/** Every case, in a fixed order. */
export const STREAM_CASES: StreamCase[] = WIRE_APIS.flatMap((api): StreamCase[] => [
  {
    name: `${api} text and tool call`,
    api,
    context: CONTEXT,
    turn: {
      content: [
        { type: "text", text: "Hello there, friend" },
        { type: "toolCall", id: "call_1", name: "read", arguments: { path: "a.txt" } },
      ],
      usage: { input: 20, output: 7, cacheRead: 3 },
    },
  },
  {
    name: `${api} abort mid-text`,
    api,
    context: CONTEXT,
    // The server holds back everything after the first text delta, so the abort always lands
    // at the same point, however slow the machine.
    abortAfterEvents: 3,
    turn: {
      content: [{ type: "text", text: "Hello there, friend, a long answer here" }],
      fault: { kind: "stall", afterChunkContaining: "Hello th" },
    },
  },
  {
    name: `${api} body cut short`,
    api,
    context: CONTEXT,
    turn: {
      content: [{ type: "text", text: "Hello there, friend" }],
      fault: { kind: "close", afterChunks: 3 },
    },
  },
  {
    name: `${api} no tools`,
    api,
    context: { ...CONTEXT, tools: [] },
    turn: { content: [{ type: "text", text: "Hi" }] },
  },
  {
    name: `${api} history from another model`,
    api,
    context: { systemPrompt: "S", messages: FOREIGN_HISTORY, tools: [] },
    turn: { content: [{ type: "text", text: "Hi" }] },
  },
  {
    name: `${api} reasoning high`,
    api,
    context: CONTEXT,
    model: { reasoning: true, maxTokens: 64000, contextWindow: 200000, id: reasoningModelId(api) },
    options: { reasoning: "high" },
    turn: { content: [{ type: "thinking", thinking: "hmm" }, { type: "text", text: "Hi" }] },
  },
  {
    name: `${api} reasoning max`,
    api,
    context: CONTEXT,
    model: {
      reasoning: true,
      maxTokens: 64000,
      contextWindow: 200000,
      id: api === "anthropic-messages"
        ? "claude-opus-4-6"
        : api === "google-generative-ai"
        ? "gemini-3-pro-preview"
        : "gpt-5.2",
      thinkingLevelMap: api === "google-generative-ai" ? {} : { max: "max", xhigh: "xhigh" },
      ...(api === "anthropic-messages" ? { compat: { forceAdaptiveThinking: true } } : {}),
    },
    options: { reasoning: "max" },
    turn: { content: [{ type: "text", text: "Hi" }] },
  },
  {
    name: `${api} session id`,
    api,
    context: CONTEXT,
    options: { sessionId: "sess-123", cacheRetention: "long" },
    turn: { content: [{ type: "text", text: "Hi" }] },
  },
  {
    name: `${api} OpenRouter session id`,
    api,
    context: CONTEXT,
    model: { provider: "openrouter", id: "anthropic/claude-sonnet-4.5" },
    options: { sessionId: "sess-123" },
    turn: { content: [{ type: "text", text: "Hi" }] },
  },
  {
    name: `${api} image`,
    api,
    context: {
      ...CONTEXT,
      messages: [{
        role: "user",
        content: [{ type: "text", text: "see" }, { type: "image", data: "aGVsbG8=", mimeType: "image/png" }],
        timestamp: 1,
      }],
    },
    turn: { content: [{ type: "text", text: "Hi" }] },
  },
  {
    name: `${api} empty tool results, image-only prompt, toolChoice none`,
    api,
    context: {
      systemPrompt: "S",
      tools: [READ_TOOL],
      messages: [
        { role: "user", content: [{ type: "image", data: "aGVsbG8=", mimeType: "image/png" }], timestamp: 1 },
        callOf(api, "call_1"),
        {
          role: "toolResult",
          toolCallId: "call_1",
          toolName: "read",
          content: [{ type: "text", text: " " }],
          isError: false,
          timestamp: 3,
        },
        callOf(api, "call_2"),
        {
          role: "toolResult",
          toolCallId: "call_2",
          toolName: "read",
          content: [{ type: "image", data: "aGVsbG8=", mimeType: "image/png" }],
          isError: false,
          timestamp: 4,
        },
        callOf(api, "call_3"),
        {
          role: "toolResult",
          toolCallId: "call_3",
          toolName: "read",
          content: [],
          isError: true,
          timestamp: 5,
        },
        { role: "user", content: "go", timestamp: 6 },
      ],
    },
    options: { toolChoice: "none" },
    turn: { content: [{ type: "text", text: "Hi" }] },
  },
  {
    name: `${api} input near the window`,
    api,
    context: { ...CONTEXT, messages: [{ role: "user", content: "word ".repeat(8000), timestamp: 1 }] },
    model: { contextWindow: 20000, maxTokens: 16000 },
    turn: { content: [{ type: "text", text: "Hi" }] },
  },
]);

/** Where the reference's outcomes are stored for machines without the reference. */
export const STREAM_FIXTURE = new URL("./fixtures/stream_reference.json", import.meta.url);

if (import.meta.main) {
  const outcomes = await runReference(STREAM_CASES);
  if (!outcomes) throw new Error("the reference is not installed: run `deno task reference` first");
  const stored = outcomes.map((o, i) => ({
    name: STREAM_CASES[i].name,
    ...normalise({ events: o.events, final: o.final, request: requestView(o.requests[0]) }),
  }));
  await Deno.writeTextFile(STREAM_FIXTURE, JSON.stringify(stored, null, 2) + "\n");
  console.log(`wrote ${STREAM_FIXTURE.pathname} (${stored.length} cases)`);
}
