/**
 * PROV-02 for Azure OpenAI Responses (azure-openai-responses): ours against pi-ai 1.6.0 (the
 * `AzureOpenAI` client inside) on the same fake server. Per case the request (path with
 * `api-version`, the `api-key` header, the body with the deployment as model), the events and
 * the final message must be equal, times and the fake's ids normalised. Needs the reference.
 */
import { assertEquals } from "../support/assert.ts";
import { type RecordedRequest, startFakeProvider } from "../support/fake_provider/mod.ts";
import {
  PNG_1PX,
  READ_TOOL,
  runOursWire,
  runReferenceWire,
  SIMPLE_CONTEXT,
  type WireCase,
  type WireOutcome,
} from "../support/fake_provider/wire_reference.ts";
import { complete } from "../../src/ai/stream.ts";
import type { Context, Model } from "../../src/ai/types.ts";
import { normalise } from "./stream_reference.ts";

function azure(id: string, extra: Partial<Model> = {}, path = "/openai/v1"): (url: string) => Model {
  return (url) => ({
    id,
    name: id,
    api: "azure-openai-responses",
    provider: "azure",
    baseUrl: `${url}${path}`,
    reasoning: true,
    input: ["text", "image"],
    cost: { input: 1.25, output: 10, cacheRead: 0.125, cacheWrite: 0 },
    contextWindow: 400000,
    maxTokens: 128000,
    ...extra,
  });
}

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
        { type: "toolCall", id: "call_1|fc_1", name: "read", arguments: { path: "a.txt" } },
      ],
      api: "azure-openai-responses",
      provider: "azure",
      model: "gpt-5.4",
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
      toolCallId: "call_1|fc_1",
      toolName: "read",
      content: [{ type: "text", text: "alpha" }],
      isError: false,
      timestamp: 3,
    },
  ],
  tools: [READ_TOOL],
};
const KEY = "azure-test-key-0001";
const TEXT_TURN = { content: [{ type: "text" as const, text: "Hello there, friend." }] };

const AZURE_CASES: WireCase[] = [
  {
    name: "text with reasoning, deployment map, long session id",
    turn: {
      content: [
        { type: "thinking", thinking: "Greet.", signature: "enc-reasoning-1" },
        { type: "text", text: "Hi! How can I help?" },
      ],
      usage: { input: 100, output: 20, cacheRead: 40 },
    },
    context: SIMPLE_CONTEXT,
    model: azure("gpt-5.4"),
    options: {
      apiKey: KEY,
      reasoning: "high",
      sessionId: "s".repeat(80),
      env: {
        AZURE_OPENAI_DEPLOYMENT_NAME_MAP: "other=x, gpt-5.4 = my-gpt54-deploy",
        AZURE_OPENAI_BASE_URL: "",
      },
    },
  },
  {
    name: "parallel tool calls, strict tools, history with an image, api-version from the environment",
    turn: {
      content: [
        { type: "toolCall", id: "call_a|fc_a", name: "read", arguments: { path: "x.ts" } },
        { type: "toolCall", id: "call_b|fc_b", name: "read", arguments: { path: "y.ts" } },
      ],
    },
    context: HISTORY,
    model: azure("gpt-5.4"),
    options: {
      apiKey: KEY,
      env: { AZURE_OPENAI_API_VERSION: "2025-04-01-preview", AZURE_OPENAI_BASE_URL: "" },
    },
  },
  {
    name: "non-reasoning model, temperature, tiny max tokens raised to 16",
    turn: { ...TEXT_TURN, stopReason: "length" },
    context: SIMPLE_CONTEXT,
    model: azure("gpt-4.1", { reasoning: false }),
    options: { apiKey: KEY, temperature: 0.2, maxTokens: 5, env: { AZURE_OPENAI_BASE_URL: "" } },
  },
  {
    name: "HTTP 401",
    turn: { fault: { kind: "http", status: 401, message: "Access denied due to invalid subscription key." } },
    context: SIMPLE_CONTEXT,
    model: azure("gpt-5.4"),
    options: { apiKey: KEY, env: { AZURE_OPENAI_BASE_URL: "" } },
  },
  {
    name: "HTTP 429",
    turn: { fault: { kind: "http", status: 429, message: "Rate limit is exceeded." } },
    context: SIMPLE_CONTEXT,
    model: azure("gpt-5.4"),
    options: { apiKey: KEY, env: { AZURE_OPENAI_BASE_URL: "" } },
  },
  {
    name: "HTTP 400 overflow",
    turn: {
      fault: {
        kind: "http",
        status: 400,
        message:
          "Your input exceeds the context window of this model. Please adjust your input and try again.",
      },
    },
    context: SIMPLE_CONTEXT,
    model: azure("gpt-5.4"),
    options: { apiKey: KEY, env: { AZURE_OPENAI_BASE_URL: "" } },
  },
  {
    name: "HTTP 500",
    turn: { fault: { kind: "http", status: 500, message: "The server had an error." } },
    context: SIMPLE_CONTEXT,
    model: azure("gpt-5.4"),
    options: { apiKey: KEY, env: { AZURE_OPENAI_BASE_URL: "" } },
  },
  {
    name: "error event mid-stream",
    turn: {
      ...TEXT_TURN,
      fault: { kind: "error_event", message: "The model produced invalid content.", afterChunks: 5 },
    },
    context: SIMPLE_CONTEXT,
    model: azure("gpt-5.4"),
    options: { apiKey: KEY, env: { AZURE_OPENAI_BASE_URL: "" } },
  },
  {
    name: "connection dropped mid-stream",
    turn: { ...TEXT_TURN, fault: { kind: "drop", afterChunks: 5 } },
    context: SIMPLE_CONTEXT,
    model: azure("gpt-5.4"),
    options: { apiKey: KEY, env: { AZURE_OPENAI_BASE_URL: "" } },
  },
  {
    name: "abort mid-stream",
    turn: { ...TEXT_TURN, fault: { kind: "stall", afterChunkContaining: "output_text.delta" } },
    context: SIMPLE_CONTEXT,
    model: azure("gpt-5.4"),
    options: { apiKey: KEY, env: { AZURE_OPENAI_BASE_URL: "" } },
    abortAfterEvents: 3,
  },
];

function requestView(request: RecordedRequest | undefined): Record<string, unknown> | null {
  if (!request) return null;
  return {
    url: request.url,
    apiKey: request.headers["api-key"],
    authorization: request.headers.authorization,
    body: request.body,
  };
}

/**
 * Our deliberate departures, applied to the reference's side: a dropped connection reads
 * "terminated" as with our other OpenAI-style APIs (Node's undici appends its socket detail,
 * "terminated: other side closed (UND_ERR_SOCKET)"); an abort mid-stream reads "Request was
 * aborted", as on OpenAI Responses (1.6.0: "OpenAI Responses stream ended before a terminal
 * response event").
 */
function withDeliberateDifferences(outcome: WireOutcome): WireOutcome {
  const fix = (m: Record<string, unknown>) =>
    typeof m.errorMessage === "string" && m.errorMessage.startsWith("terminated: ")
      ? { ...m, errorMessage: "terminated" }
      : m.stopReason === "aborted"
      ? { ...m, errorMessage: "Request was aborted" }
      : m;
  const events = outcome.events.map((e) =>
    e.type === "error" ? { ...e, error: fix(e.error as Record<string, unknown>) } : e
  );
  return { ...outcome, events, final: fix(outcome.final) };
}

Deno.test("PROV-02 Azure OpenAI Responses: requests, events and errors equal pi-ai 1.6.0's", async () => {
  const reference = await runReferenceWire(AZURE_CASES);
  if (!reference) throw new Error("the reference pi 1.6.0 is not installed (scripts/reference/locate.ts)");
  for (let i = 0; i < AZURE_CASES.length; i++) {
    const c = AZURE_CASES[i];
    const ours = await runOursWire(c);
    const theirs: WireOutcome = withDeliberateDifferences(reference[i]);
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

Deno.test("Azure OpenAI Responses: endpoint from AZURE_OPENAI_BASE_URL, missing endpoint and key are clear errors", async () => {
  // The model's own base URL is never contacted: AZURE_OPENAI_BASE_URL wins.
  const server = await startFakeProvider([TEXT_TURN]);
  try {
    const viaEnv = await complete(azure("gpt-5.4")("https://ignored.example"), SIMPLE_CONTEXT, {
      apiKey: KEY,
      env: { AZURE_OPENAI_BASE_URL: `${server.url}/openai/v1/` },
    });
    assertEquals([viaEnv.stopReason, viaEnv.errorMessage], ["stop", undefined]);
    assertEquals(server.requests[0].url, "/openai/v1/responses?api-version=v1");
    assertEquals(server.requests[0].headers["api-key"], KEY);
  } finally {
    await server.close();
  }
  const noEndpoint = await complete({ ...azure("gpt-5.4")(""), baseUrl: "" }, SIMPLE_CONTEXT, {
    apiKey: KEY,
    env: { AZURE_OPENAI_BASE_URL: "", AZURE_OPENAI_RESOURCE_NAME: "" },
  });
  assertEquals(
    noEndpoint.errorMessage,
    "Azure OpenAI base URL is required. Set AZURE_OPENAI_BASE_URL or AZURE_OPENAI_RESOURCE_NAME, or pass azureBaseUrl, azureResourceName, or model.baseUrl.",
  );
  const noKey = await complete(azure("gpt-5.4")("http://127.0.0.1:9"), SIMPLE_CONTEXT, {
    env: { AZURE_OPENAI_API_KEY: "" },
  });
  assertEquals(noKey.errorMessage, "No API key for provider: azure");
});
