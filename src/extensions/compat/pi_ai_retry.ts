/**
 * 1.6.0 pi-ai's retry of one assistant call for extensions: which failed replies look transient
 * (the same error patterns our agent retries on, src/ai/retryable.ts), the exponential backoff,
 * and a loop that retries a call within a policy.
 *
 * @module
 */
import { NON_RETRYABLE_ERROR_PATTERN, RETRYABLE_ERROR_PATTERN } from "../../ai/retryable.ts";
import type { AssistantMessage } from "../../ai/types.ts";
import { retrySummaryCall, summaryRetryDelayMs } from "../../compaction/summary_request.ts";

/** How a call is retried. */
export interface RetryPolicy {
  /** Off: the first reply is returned as it is. */
  enabled: boolean;
  /** Retries after the first call (0 = none). */
  maxRetries: number;
  /** The first retry's delay in ms; each later one doubles it. */
  baseDelayMs: number;
  /** Cap of a delay in ms (default 60 s). */
  maxAgentDelayMs?: number;
}

/** Callbacks around each retry of {@link retryAssistantCall}. */
export interface RetryCallbacks {
  /** Before the backoff of retry `attempt` (1-based). */
  onRetryScheduled?: (
    attempt: number,
    maxAttempts: number,
    delayMs: number,
    errorMessage: string,
  ) => void | Promise<void>;
  /** After the backoff, right before the retried call. */
  onRetryAttemptStart?: () => void | Promise<void>;
  /** Once at the end when a retry happened: whether a later call succeeded. */
  onRetryFinished?: (success: boolean, attempt: number, finalError?: string) => void | Promise<void>;
}

/** The delay before retry `attempt` (1-based): `baseDelayMs * 2^(attempt-1)`, capped (default 60 s). */
export const retryDelayMs: (
  policy: Pick<RetryPolicy, "baseDelayMs" | "maxAgentDelayMs">,
  attempt: number,
) => number = summaryRetryDelayMs;

/**
 * Whether a failed reply looks like a transient provider or network error. Quota and billing
 * limits are not; context overflow is not checked here (callers handle it first).
 */
export function isRetryableAssistantError(message: AssistantMessage): boolean {
  if (message.stopReason !== "error" || !message.errorMessage) return false;
  if (NON_RETRYABLE_ERROR_PATTERN.test(message.errorMessage)) return false;
  return RETRYABLE_ERROR_PATTERN.test(message.errorMessage);
}

/**
 * Calls `produce` and retries a transient error reply up to the policy's budget with exponential
 * backoff (the loop compaction's summaries use). A success, an abort, a non-transient error or
 * the last error reply is returned; an abort during the backoff returns the last reply marked
 * "aborted" (without its error text).
 */
export function retryAssistantCall(
  produce: () => Promise<AssistantMessage>,
  policy: RetryPolicy | undefined,
  signal: AbortSignal | undefined,
  callbacks?: RetryCallbacks,
): Promise<AssistantMessage> {
  return retrySummaryCall(produce, policy, signal, callbacks, isRetryableAssistantError);
}

/**
 * Whether a "length" stop ended below the output limit the caller wanted (`desiredMaxOutput`,
 * before any context clamping): a sign of context pressure, worth one compact-and-retry.
 */
export function isRecoverableLength(message: AssistantMessage, desiredMaxOutput: number): boolean {
  return message.stopReason === "length" && desiredMaxOutput > 0 && message.usage.output < desiredMaxOutput;
}
