/**
 * Which failed replies are worth retrying automatically (LOOP-07): transient server, rate-limit
 * and network trouble, as pi-ai 1.6.0 classifies them. Context overflow is excluded (compaction
 * handles it), and so are quota, budget and billing limits, which do not clear in seconds.
 *
 * Also the wait a server asked for (`retry-after`) on a failed reply, for the agent's retry.
 *
 * @module
 */
import { isContextOverflow } from "./overflow.ts";
import type { AssistantMessage } from "./types.ts";

/** Subscription, quota and billing limits: answered with 429 but not transient. */
export const NON_RETRYABLE_ERROR_PATTERN = new RegExp(
  [
    "GoUsageLimitError",
    "FreeUsageLimitError",
    "Monthly usage limit reached",
    "available balance",
    "insufficient_quota",
    "out of budget",
    "quota exceeded",
    "billing",
    "subscription_sharing_usage_limit_exceeded",
    "subscription_sharing_workplace_individual_usage_limit_exceeded",
    // Z.ai plan limit (code 1308), sent as HTTP 429; it resets after hours.
    '"code"\\s*:\\s*"?1308(?![0-9])',
  ].join("|"),
  "i",
);

/** Error texts of transient failures (pi-ai 1.6.0's list). */
export const RETRYABLE_ERROR_PATTERN = new RegExp(
  [
    "overloaded",
    "server_busy",
    "servers are currently busy",
    "currently experiencing high demand",
    "model is at capacity",
    "rate.?limit",
    "too many requests",
    // A status code, not digits inside a request id or byte count.
    "(?<![a-z0-9])(?:429|500|502|503|504|520|524)(?![a-z0-9])",
    "service.?(?:is.?)?(?:temporarily.?)?unavailable",
    "server.?error",
    "internal.?error",
    "provider.?returned.?(?:an.?)?error",
    "exceeded request buffer limit while retrying upstream",
    "unable to forward upstream",
    "upstream.?request.?failed",
    "upstream_stream_read_error",
    "stream was interrupted",
    "http/?2 stream failed",
    "network.?error",
    "connection.?error",
    "connection.?refused",
    "connection.?lost",
    // e.g. a gateway's {"type":"api_error","message":"Connection closed."} mid-stream (1.6.0).
    "connection.?closed",
    "other side closed",
    "fetch failed",
    "request to \\S+ failed, reason:",
    "getaddrinfo",
    // Bare socket error codes, e.g. "read ECONNRESET" or "write EPIPE" (1.6.0).
    "(?<![a-z0-9_])(?:ECONNRESET|ECONNABORTED|ECONNREFUSED|ETIMEDOUT|EPIPE)(?![a-z0-9_])",
    "connection reset by peer",
    "ENOTFOUND",
    "EAI_AGAIN",
    "upstream.?connect",
    "reset before headers",
    "socket hang up",
    "socket connection was closed",
    "timed? out",
    "timeout",
    "terminated",
    "websocket.?closed",
    "websocket.?error",
    "websocket.?connection.?limit.?reached",
    // Streams that end early: "Stream ended without finish_reason", "… ended before message_stop".
    "ended without",
    "stream ended before message_stop",
    "stream ended before a terminal response event",
    "http2 request did not get a response",
    "stream disconnected before completion",
    "cut short after the reply had begun",
    "pending stream has been canceled",
    // "Server requested 600s retry delay (max: 60s)": the agent decides whether to wait.
    "retry delay",
    "you can retry your request",
    "try your request again",
    "please retry your request",
    "ResourceExhausted",
    "subscription_sharing_usage_unavailable",
    "subscription_sharing_user_unavailable",
  ].join("|"),
  "i",
);

/** True for an errored reply whose error text looks transient and that is not an overflow. */
export function isRetryableError(message: AssistantMessage, contextWindow = 0): boolean {
  if (message.stopReason !== "error" || !message.errorMessage) return false;
  if (isContextOverflow(message, contextWindow)) return false;
  if (NON_RETRYABLE_ERROR_PATTERN.test(message.errorMessage)) return false;
  return RETRYABLE_ERROR_PATTERN.test(message.errorMessage);
}

// Kept beside the message instead of on it, so it never reaches a session file or the wire.
const requestedDelays = new WeakMap<AssistantMessage, number>();

/** Records the wait (ms) the server asked for when it answered `message` with an error. */
export function noteRequestedRetryDelay(message: AssistantMessage, delayMs: number): void {
  if (Number.isFinite(delayMs) && delayMs >= 0) requestedDelays.set(message, delayMs);
}

const TOO_LONG = /Server requested (\d+)s retry delay/;

/**
 * The wait in ms the server asked for (`retry-after-ms` / `retry-after`) when it failed this
 * reply, or undefined. Works on the message object the provider produced; for a message read
 * back from a session it falls back to the "Server requested Ns retry delay" text.
 */
export function requestedRetryDelayMs(message: AssistantMessage): number | undefined {
  const noted = requestedDelays.get(message);
  if (noted !== undefined) return noted;
  const match = message.errorMessage?.match(TOO_LONG);
  return match ? Number(match[1]) * 1000 : undefined;
}
