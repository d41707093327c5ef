/**
 * One summarization request, as pi 1.6.0 sends it for compaction and branch summaries: the
 * summarization system prompt and a single user message, the model's own output limit (no
 * fixed cap), no prompt-cache writes, a routing session id, reasoning at the session's level
 * when the model reasons, and transient failures retried under the `retry` settings with
 * `summarization_retry_*` callbacks.
 *
 * @module
 */
import { contentText } from "../ai/content_text.ts";
import { isRetryableError } from "../ai/retryable.ts";
import { completeSimple } from "../ai/stream.ts";
import type { AssistantMessage, Model, SimpleStreamOptions, Usage } from "../ai/types.ts";
import type { AgentThinkingLevel, StreamFn } from "../agent/types.ts";
import { SUMMARIZATION_SYSTEM_PROMPT } from "./prompts.ts";

/** How failed summary requests are retried: the `retry` settings (LOOP-07). */
export interface SummaryRetryPolicy {
  /** Whether to retry at all. */
  enabled: boolean;
  /** Retries after the first attempt. */
  maxRetries: number;
  /** Delay before the first retry; doubled for each further one. */
  baseDelayMs: number;
  /** Longest single delay (default 60 s). */
  maxAgentDelayMs?: number;
}

/** Told about retries, so a client can show them (`summarization_retry_*` events). */
export interface SummaryRetryCallbacks {
  /** A retry is scheduled after `delayMs`. */
  onRetryScheduled?: (attempt: number, maxAttempts: number, delayMs: number, errorMessage: string) => unknown;
  /** The backoff is over; the retried request starts. */
  onRetryAttemptStart?: () => unknown;
  /** The retries ended (success, exhausted, or aborted during a backoff). */
  onRetryFinished?: (success: boolean, attempt: number, errorMessage?: string) => unknown;
}

const DEFAULT_MAX_DELAY_MS = 60_000;

/** Backoff of retry `attempt` (1-based): base × 2^(attempt−1), at most the policy's cap. */
export function summaryRetryDelayMs(
  policy: Pick<SummaryRetryPolicy, "baseDelayMs" | "maxAgentDelayMs">,
  attempt: number,
): number {
  const delay = policy.baseDelayMs * 2 ** Math.max(0, attempt - 1);
  return Math.min(
    Number.isSafeInteger(delay) ? delay : Number.MAX_SAFE_INTEGER,
    policy.maxAgentDelayMs ?? DEFAULT_MAX_DELAY_MS,
  );
}

/** Resolves after `ms`, false when `signal` aborts first. */
function backoff(ms: number, signal?: AbortSignal): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve(true);
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * Runs `produce` until it gives a reply that is not a transient error, at most
 * `policy.maxRetries` more times. Aborted replies are never retried; an abort during a backoff
 * returns the failed reply marked aborted. `isRetryable` says which error replies are transient
 * (pi-ai's `retryAssistantCall`, which extensions get, does not exclude context overflow).
 */
export async function retrySummaryCall(
  produce: () => Promise<AssistantMessage>,
  policy: SummaryRetryPolicy | undefined,
  signal?: AbortSignal,
  callbacks?: SummaryRetryCallbacks,
  isRetryable: (message: AssistantMessage) => boolean = (message) => isRetryableError(message),
): Promise<AssistantMessage> {
  const maxAttempts = policy?.enabled ? policy.maxRetries : 0;
  let attempt = 0;
  let lastError: string | undefined;
  for (;;) {
    const response = await produce();
    if (response.stopReason === "aborted") {
      if (lastError !== undefined) await callbacks?.onRetryFinished?.(false, attempt);
      return response;
    }
    if (response.stopReason !== "error") {
      if (lastError !== undefined) await callbacks?.onRetryFinished?.(true, attempt);
      return response;
    }
    if (attempt >= maxAttempts || !isRetryable(response)) {
      if (lastError !== undefined) await callbacks?.onRetryFinished?.(false, attempt, response.errorMessage);
      return response;
    }
    attempt++;
    lastError = response.errorMessage || "Unknown error";
    const delayMs = summaryRetryDelayMs(policy!, attempt);
    await callbacks?.onRetryScheduled?.(attempt, maxAttempts, delayMs, lastError);
    if (!(await backoff(delayMs, signal))) {
      await callbacks?.onRetryFinished?.(false, attempt, lastError);
      const { errorMessage: _dropped, ...rest } = response;
      return { ...rest, stopReason: "aborted" };
    }
    await callbacks?.onRetryAttemptStart?.();
  }
}

/** Who asks, and how: everything of a summary request but its prompt. */
export interface SummaryRequestOptions {
  /** Model that writes the summary. */
  model: Model;
  /** API key, when the provider needs one. */
  apiKey?: string;
  /** Extra HTTP headers. */
  headers?: Record<string, string>;
  /** Environment for credential resolution. */
  env?: Record<string, string>;
  /** Cancels the request (and any retry backoff). */
  signal?: AbortSignal;
  /** The session's thinking level; used when the model reasons. */
  thinkingLevel?: AgentThinkingLevel;
  /** Streams instead of `streamSimple` (an SDK caller's proxy, for instance). */
  streamFn?: StreamFn;
  /** Retry settings. */
  retry?: SummaryRetryPolicy;
  /** Retry notifications. */
  callbacks?: SummaryRetryCallbacks;
  /** Routing session id; a fresh one when absent. */
  sessionId?: string;
}

/**
 * Sends `promptText` as a summarization request and returns the reply (errors are replies with
 * `stopReason: "error"`, not exceptions).
 */
export function requestSummary(
  promptText: string,
  options: SummaryRequestOptions,
): Promise<AssistantMessage> {
  const { model, thinkingLevel, signal, streamFn } = options;
  const streamOptions: SimpleStreamOptions = {
    signal,
    apiKey: options.apiKey,
    headers: options.headers,
    env: options.env,
    // A one-off request: writing a prompt cache for it would only cost money.
    cacheRetention: "none",
    sessionId: options.sessionId ?? crypto.randomUUID(),
  };
  if (model.reasoning && thinkingLevel && thinkingLevel !== "off") streamOptions.reasoning = thinkingLevel;
  const context = {
    systemPrompt: SUMMARIZATION_SYSTEM_PROMPT,
    messages: [{
      role: "user" as const,
      content: [{ type: "text" as const, text: promptText }],
      timestamp: Date.now(),
    }],
  };
  const produce = async () =>
    streamFn
      ? (await streamFn(model, context, streamOptions)).result()
      : completeSimple(model, context, streamOptions);
  return retrySummaryCall(produce, options.retry, signal, options.callbacks);
}

/**
 * Why a summary reply must not be stored, or undefined when it may: an error, or a `length`
 * stop (the text is cut off and would become a broken checkpoint). `label` starts the message.
 */
export function getSummarizationFailure(response: AssistantMessage, label: string): string | undefined {
  if (response.stopReason === "error") return `${label} failed: ${response.errorMessage || "Unknown error"}`;
  if (response.stopReason === "length") {
    return `${label} failed: generation hit the token cap and the summary is incomplete`;
  }
  return undefined;
}

/** The reply's text and usage; throws when it failed, was cut off or tried to call a tool. */
export function summaryText(response: AssistantMessage, label: string): { text: string; usage: Usage } {
  const failure = getSummarizationFailure(response, label);
  if (failure) throw new Error(failure);
  if (response.content.some((b) => b.type === "toolCall")) {
    throw new Error(`${label} attempted to call a tool`);
  }
  return { text: contentText(response.content, "\n"), usage: response.usage };
}

/** Usage of two requests added up (a split-turn compaction makes two). */
export function combineUsage(first: Usage, second: Usage): Usage {
  const optional = (key: "cacheWrite1h" | "reasoning") =>
    first[key] !== undefined || second[key] !== undefined
      ? { [key]: (first[key] ?? 0) + (second[key] ?? 0) }
      : {};
  return {
    input: first.input + second.input,
    output: first.output + second.output,
    cacheRead: first.cacheRead + second.cacheRead,
    cacheWrite: first.cacheWrite + second.cacheWrite,
    ...optional("cacheWrite1h"),
    ...optional("reasoning"),
    totalTokens: first.totalTokens + second.totalTokens,
    cost: {
      input: first.cost.input + second.cost.input,
      output: first.cost.output + second.cost.output,
      cacheRead: first.cost.cacheRead + second.cost.cacheRead,
      cacheWrite: first.cost.cacheWrite + second.cost.cacheWrite,
      total: first.cost.total + second.cost.total,
      // A sum is the provider's own figure only when both parts are.
      totalFromProvider: first.cost.totalFromProvider === true && second.cost.totalFromProvider === true,
    },
  };
}
