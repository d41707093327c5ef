import { getOverflowPatterns, isContextOverflow } from "../../src/ai/overflow.ts";
import { isRetryableError } from "../../src/ai/retryable.ts";
import { type AssistantMessage, emptyUsage, type StopReason } from "../../src/ai/types.ts";
import { assert, assertEquals } from "../support/assert.ts";

function reply(
  stopReason: StopReason,
  errorMessage?: string,
  usage: Partial<AssistantMessage["usage"]> = {},
) {
  const message: AssistantMessage = {
    role: "assistant",
    content: [],
    api: "anthropic-messages",
    provider: "anthropic",
    model: "m",
    usage: { ...emptyUsage(), ...usage },
    stopReason,
    timestamp: 0,
  };
  if (errorMessage !== undefined) message.errorMessage = errorMessage;
  return message;
}

const OVERFLOW_TEXTS = [
  "prompt is too long: 213462 tokens > 200000 maximum",
  '413 {"error":{"type":"request_too_large","message":"Request exceeds the maximum size"}}',
  "Input is too long for requested model.",
  "Your input exceeds the context window of this model",
  "The input token count (1196265) exceeds the maximum number of tokens allowed (1048575)",
  "This model's maximum prompt length is 131072 but the request contains 537812 tokens",
  "Please reduce the length of the messages or completion",
  "This endpoint's maximum context length is 8192 tokens. However, you requested about 9000 tokens",
  "prompt token count of 150000 exceeds the limit of 128000",
  "the request exceeds the available context size, try increasing it",
  "tokens to keep from the initial prompt is greater than the context length",
  "invalid params, context window exceeds limit",
  "Your request exceeded model token limit: 262144 (requested: 300000)",
  "Prompt contains 140000 tokens and 0 draft tokens, too large for model with 131072 maximum context length",
  "model_context_window_exceeded",
  "prompt too long; exceeded max context length by 123 tokens",
  "context_length_exceeded",
  "Too many tokens in request",
  "token limit exceeded",
  "400 status code (no body)",
  "413 (no body)",
];

Deno.test("LOOP-12 every provider's overflow error text is recognised", () => {
  assertEquals(getOverflowPatterns().length, 20);
  for (const text of OVERFLOW_TEXTS) assert(isContextOverflow(reply("error", text)), text);
});

Deno.test("LOOP-12 rate limits and throttling are not overflow even when they mention tokens", () => {
  // Without a recognised non-overflow prefix the generic pattern still matches, as in the reference.
  assert(isContextOverflow(reply("error", "ThrottlingException: Too many tokens, please wait")));
  assert(
    !isContextOverflow(reply("error", "Throttling error: Too many tokens, please wait before trying again.")),
  );
  assert(!isContextOverflow(reply("error", "429 rate limit: too many tokens per minute")));
  assert(!isContextOverflow(reply("error", "Too many requests: token limit exceeded")));
  assert(!isContextOverflow(reply("error", "500 Internal server error")));
  // Only errors count as error-text overflow.
  assert(!isContextOverflow(reply("stop", "prompt is too long")));
});

Deno.test("LOOP-12 silent overflow: success whose input exceeds the window (given the window)", () => {
  const big = reply("stop", undefined, { input: 150000, cacheRead: 60000 });
  assert(isContextOverflow(big, 200000));
  assert(!isContextOverflow(big, 250000));
  assert(!isContextOverflow(big));
});

Deno.test("LOOP-12 truncating providers: length stop with no output after filling 99% of the window", () => {
  assert(isContextOverflow(reply("length", undefined, { input: 99000, output: 0 }), 100000));
  assert(!isContextOverflow(reply("length", undefined, { input: 98000, output: 0 }), 100000));
  assert(!isContextOverflow(reply("length", undefined, { input: 99500, output: 12 }), 100000));
});

Deno.test("LOOP-07 transient failures are retryable", () => {
  for (
    const text of [
      '529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}',
      "429 Rate limit reached for gpt-4o",
      "Provider returned error",
      "502 Bad Gateway",
      "503 Service Unavailable",
      "fetch failed",
      "terminated",
      "socket hang up",
      "Connection error.",
      "Request timed out.",
      "WebSocket closed 1006",
      "upstream connect error or disconnect/reset before headers",
      "other side closed",
      "Anthropic stream ended without sending chunks",
    ]
  ) {
    assert(isRetryableError(reply("error", text)), text);
  }
});

Deno.test("LOOP-07 permanent failures, overflow and non-errors are not retryable", () => {
  assert(!isRetryableError(reply("error", '401 {"type":"error","error":{"message":"invalid x-api-key"}}')));
  assert(!isRetryableError(reply("error", "No API key for provider: anthropic")));
  assert(!isRetryableError(reply("error", "prompt is too long: 213462 tokens > 200000 maximum")));
  // Matches the retry pattern (500) but is an overflow, which compaction handles.
  assert(!isRetryableError(reply("error", "500 context_length_exceeded")));
  assert(!isRetryableError(reply("aborted", "Request was aborted")));
  assert(!isRetryableError(reply("stop")));
  assert(!isRetryableError(reply("error")));
});

Deno.test("LOOP-07 1.6.0 retries dropped connections, bare socket codes and streams that end early", () => {
  for (
    const text of [
      '{"type":"error","error":{"type":"api_error","message":"Connection closed."}}',
      "read ECONNRESET",
      "write EPIPE",
      "connect ETIMEDOUT 10.0.0.1:443",
      "Stream ended without finish_reason",
      "OpenAI Responses stream ended before a terminal response event",
      "Anthropic stream ended before message_stop",
      "Server requested 600s retry delay (max: 60s). 429 Rate limit reached",
      "The service is temporarily unavailable",
    ]
  ) {
    assert(isRetryableError(reply("error", text)), text);
  }
});

Deno.test("LOOP-07 1.6.0 does not retry quota, billing and plan limits, nor digits inside ids", () => {
  for (
    const text of [
      "429 You exceeded your current quota: insufficient_quota",
      "429 GoUsageLimitError: Monthly usage limit reached",
      '429 {"error":{"code":"1308","message":"plan limit"}}',
      "400 bad request (request id req_5004299)",
      "ECONNRESETX is not a code",
    ]
  ) {
    assert(!isRetryableError(reply("error", text)), text);
  }
});
