/**
 * PROV-02 for Google Vertex AI (google-vertex): ours against pi-ai 1.6.0 (which drives
 * @google/genai) on the same fake Vertex endpoint, in express mode: a model base URL pointing at
 * the fake and an API key. Per case the request (URL, x-goog-api-key, body), the events and the
 * final message must be equal, times and the fake's ids normalised. Application Default
 * Credentials cannot be compared this way: google-auth-library always posts to
 * oauth2.googleapis.com (google_vertex_test.ts covers them). Needs the reference.
 */
import { assertEquals } from "../support/assert.ts";
import type { RecordedRequest } from "../support/fake_provider/mod.ts";
import {
  PNG_1PX,
  rewriteReferenceErrors,
  runOursWire,
  runReferenceWire,
  SIMPLE_CONTEXT,
  type WireCase,
} from "../support/fake_provider/wire_reference.ts";
import { getModel } from "../../src/ai/models.ts";
import type { Context, Model } from "../../src/ai/types.ts";
import { normalise } from "./stream_reference.ts";

function vertex(id: string): (url: string) => Model {
  return (url) => ({ ...getModel("google-vertex", id)!, baseUrl: url });
}

const PRO = vertex("gemini-2.5-pro");
const FLASH3 = vertex("gemini-3-flash-preview");
const KEY = "vertex-express-key-0001";
const TEXT_TURN = { content: [{ type: "text" as const, text: "Hello there, friend." }] };

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
        { type: "toolCall", id: "call_1", name: "read", arguments: { path: "a.txt" } },
      ],
      api: "google-vertex",
      provider: "google-vertex",
      model: "gemini-2.5-pro",
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
      toolCallId: "call_1",
      toolName: "read",
      content: [{ type: "text", text: "alpha" }],
      isError: false,
      timestamp: 3,
    },
  ],
  tools: SIMPLE_CONTEXT.tools,
};

const CASES: WireCase[] = [
  {
    name: "text with usage and cached tokens, thinking off",
    turn: { ...TEXT_TURN, usage: { input: 80, output: 12, cacheRead: 20 } },
    context: SIMPLE_CONTEXT,
    model: PRO,
    options: { apiKey: KEY },
  },
  {
    name: "thinking budget (2.5 Pro), temperature and max tokens",
    turn: { content: [{ type: "thinking", thinking: "Consider it." }, { type: "text", text: "Done." }] },
    context: SIMPLE_CONTEXT,
    model: PRO,
    options: { apiKey: KEY, reasoning: "medium", temperature: 0.2, maxTokens: 900 },
  },
  {
    name: "thinking level (Gemini 3), parallel tool calls, history with an image",
    turn: {
      content: [
        { type: "toolCall", id: "t1", name: "read", arguments: { path: "x.ts" } },
        { type: "toolCall", id: "t2", name: "read", arguments: { path: "y.ts" } },
      ],
    },
    context: HISTORY,
    model: FLASH3,
    options: { apiKey: KEY, reasoning: "high" },
  },
  {
    name: "length stop",
    turn: { ...TEXT_TURN, stopReason: "length" },
    context: SIMPLE_CONTEXT,
    model: PRO,
    options: { apiKey: KEY },
  },
  ...[400, 401, 429, 500].map((status): WireCase => ({
    name: `HTTP ${status}`,
    turn: { fault: { kind: "http", status, message: `failure ${status}` } },
    context: SIMPLE_CONTEXT,
    model: PRO,
    options: { apiKey: KEY },
  })),
  {
    name: "body ends without a finish reason",
    turn: { ...TEXT_TURN, fault: { kind: "close", afterChunks: 2 } },
    context: SIMPLE_CONTEXT,
    model: PRO,
    options: { apiKey: KEY },
  },
  {
    name: "abort mid-stream",
    // Everything after the first text delta is held back, so the abort lands at the same point.
    turn: { ...TEXT_TURN, fault: { kind: "stall", afterChunkContaining: "Hello th" } },
    context: SIMPLE_CONTEXT,
    model: PRO,
    options: { apiKey: KEY },
    abortAfterEvents: 3,
  },
];

function requestView(request: RecordedRequest | undefined): Record<string, unknown> | null {
  if (!request) return null;
  return {
    method: request.method,
    url: request.url,
    apiKey: request.headers["x-goog-api-key"],
    authorization: request.headers.authorization,
    body: request.body,
  };
}

Deno.test("PROV-02 Google Vertex: requests, events and errors equal pi-ai 1.6.0's", async () => {
  const reference = await runReferenceWire(CASES);
  if (!reference) throw new Error("the reference pi 1.6.0 is not installed (scripts/reference/locate.ts)");
  for (let i = 0; i < CASES.length; i++) {
    const c = CASES[i];
    const ours = await runOursWire(c);
    const theirs = rewriteReferenceErrors(reference[i], (m) => m);
    assertEquals(
      normalise(requestView(ours.requests[0])),
      normalise(requestView(theirs.requests[0])),
      `${c.name}: request`,
    );
    assertEquals(ours.requests.length, theirs.requests.length, `${c.name}: attempts`);
    assertEquals(normalise(ours.events), normalise(theirs.events), `${c.name}: events`);
    assertEquals(normalise(ours.final), normalise(theirs.final), `${c.name}: final message`);
  }
});
