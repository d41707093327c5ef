/**
 * Which failed replies are worth retrying automatically (LOOP-07): transient server, rate-limit
 * and network trouble. Context overflow is excluded; compaction handles it.
 *
 * @module
 */
import { isContextOverflow } from "./overflow.ts";
import type { AssistantMessage } from "./types.ts";

/** Error texts of transient failures, as classified by the reference's auto-retry. */
export const RETRYABLE_ERROR_PATTERN =
  /overloaded|provider.?returned.?error|rate.?limit|too many requests|429|500|502|503|504|service.?unavailable|server.?error|internal.?error|network.?error|connection.?error|connection.?refused|connection.?lost|websocket.?closed|websocket.?error|other side closed|fetch failed|upstream.?connect|reset before headers|socket hang up|ended without|http2 request did not get a response|timed? out|timeout|terminated|retry delay/i;

/** True for an errored reply whose error text looks transient and that is not an overflow. */
export function isRetryableError(message: AssistantMessage, contextWindow = 0): boolean {
  if (message.stopReason !== "error" || !message.errorMessage) return false;
  if (isContextOverflow(message, contextWindow)) return false;
  return RETRYABLE_ERROR_PATTERN.test(message.errorMessage);
}
