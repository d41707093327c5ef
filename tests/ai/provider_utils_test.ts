import { AssistantMessageEventStream } from "../../src/ai/event_stream.ts";
import {
  createOutputMessage,
  errorToMessage,
  finishWithError,
  formatHttpError,
  redactSecrets,
} from "../../src/ai/provider_utils.ts";
import type { AssistantMessageEvent, Model } from "../../src/ai/types.ts";
import { assert, assertEquals } from "../support/assert.ts";

const MODEL: Model = {
  id: "gpt-x",
  name: "GPT X",
  api: "openai-completions",
  provider: "openai",
  baseUrl: "http://localhost",
  reasoning: false,
  input: ["text"],
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  contextWindow: 1000,
  maxTokens: 100,
};

async function drain(stream: AssistantMessageEventStream): Promise<AssistantMessageEvent[]> {
  const events: AssistantMessageEvent[] = [];
  for await (const e of stream) events.push(e);
  return events;
}

Deno.test("createOutputMessage starts empty with zero usage and stopReason pending (1.6.0)", () => {
  const before = Date.now();
  const msg = createOutputMessage(MODEL);
  assertEquals({ ...msg, timestamp: 0 }, {
    role: "assistant",
    content: [],
    api: "openai-completions",
    provider: "openai",
    model: "gpt-x",
    usage: {
      input: 0,
      output: 0,
      cacheRead: 0,
      cacheWrite: 0,
      totalTokens: 0,
      cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
    },
    stopReason: "pending",
    timestamp: 0,
  });
  assert(msg.timestamp >= before);
});

Deno.test("finishWithError ends with one error event, keeps partial content, strips scratch fields", async () => {
  const stream = new AssistantMessageEventStream();
  const output = createOutputMessage(MODEL);
  output.content.push({ type: "text", text: "partial" });
  Object.assign(output.content[0], { index: 3, partialJson: "{" });
  finishWithError(stream, output, new Error("socket hang up"));
  const events = await drain(stream);
  assertEquals(events.map((e) => e.type), ["error"]);
  const final = await stream.result();
  assertEquals(final.stopReason, "error");
  assertEquals(final.errorMessage, "socket hang up");
  assertEquals(final.content, [{ type: "text", text: "partial" }]);
});

Deno.test("finishWithError reports aborted when the signal fired", async () => {
  const controller = new AbortController();
  controller.abort();
  const stream = new AssistantMessageEventStream();
  finishWithError(
    stream,
    createOutputMessage(MODEL),
    new DOMException("The signal has been aborted", "AbortError"),
    controller.signal,
  );
  const [event] = await drain(stream);
  assertEquals(event.type === "error" && [event.reason, event.error.stopReason, event.error.errorMessage], [
    "aborted",
    "aborted",
    "Request was aborted",
  ]);
});

Deno.test("errorToMessage uses Error.message, else JSON", () => {
  assertEquals(errorToMessage(new Error("x")), "x");
  assertEquals(errorToMessage({ code: 1 }), '{"code":1}');
  assertEquals(errorToMessage("plain"), '"plain"');
});

// Expected texts captured from the vendor SDKs' APIError (Anthropic 0.91, OpenAI 6.26).
Deno.test("PROV-ERR formatHttpError matches the Anthropic SDK: status plus the whole JSON body", () => {
  const body =
    '{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 213462 tokens > 200000 maximum"},"request_id":"req_1"}';
  assertEquals(formatHttpError(400, body, { style: "anthropic" }), `400 ${body}`);
  assertEquals(formatHttpError(502, "Bad Gateway", { style: "anthropic" }), "502 Bad Gateway");
  assertEquals(formatHttpError(413, "", { style: "anthropic" }), "413 status code (no body)");
  // Whitespace in the body is normalised by re-serialising, as the SDK does.
  assertEquals(formatHttpError(529, '{ "type": "error" }', { style: "anthropic" }), '529 {"type":"error"}');
});

Deno.test("PROV-ERR formatHttpError matches the OpenAI SDK: status plus error.message", () => {
  const body =
    '{"error":{"message":"Rate limit reached for gpt-4o","type":"requests","code":"rate_limit_exceeded"}}';
  assertEquals(formatHttpError(429, body), "429 Rate limit reached for gpt-4o");
  assertEquals(formatHttpError(502, "Bad Gateway", { style: "openai" }), "502 Bad Gateway");
  assertEquals(formatHttpError(413, ""), "413 status code (no body)");
  // No `error` field: the SDK falls back to "no body".
  assertEquals(formatHttpError(500, '{"detail":"x"}'), "500 status code (no body)");
  // OpenRouter's upstream detail goes on its own line, as the reference provider appends it.
  const routed =
    '{"error":{"message":"Provider returned error","code":400,"metadata":{"raw":"upstream said no"}}}';
  assertEquals(formatHttpError(400, routed), "400 Provider returned error\nupstream said no");
});

Deno.test("PROV-ERR formatHttpError matches the Google SDK: the JSON body itself", () => {
  const body = '{"error":{"code":400,"message":"API key not valid.","status":"INVALID_ARGUMENT"}}';
  assertEquals(formatHttpError(400, body, { style: "google" }), body);
  assertEquals(
    formatHttpError(503, "overloaded", { style: "google", statusText: "Service Unavailable" }),
    '{"error":{"message":"overloaded","code":503,"status":"Service Unavailable"}}',
  );
});

Deno.test("PROV-ERR secrets never reach the error text", () => {
  const body = '{"error":{"message":"Incorrect API key provided: sk-abc123secret"}}';
  assertEquals(
    formatHttpError(401, body, { secrets: ["sk-abc123secret"] }),
    "401 Incorrect API key provided: ***",
  );
  assertEquals(redactSecrets("a-b-c", [undefined, "", "b"]), "a-b-c");
});
