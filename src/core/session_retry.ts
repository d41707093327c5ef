/**
 * Automatic retry of transient provider failures (LOOP-07…09): exponential backoff from
 * settings, `auto_retry_start`/`auto_retry_end` events, and the failed reply kept in the session
 * file but taken out of the model's context before the retry.
 *
 * @module
 */
import type { AgentMessage } from "../agent/types.ts";
import { isRetryableError } from "../ai/retryable.ts";
import type { AssistantMessage } from "../ai/types.ts";
import type { SessionHost } from "./session_host.ts";

/** Retries for one AgentSession. */
export class SessionRetrier {
  #session: SessionHost;
  #attempt = 0;
  #promise?: Promise<void>;
  #resolve?: () => void;
  #abort?: AbortController;

  constructor(session: SessionHost) {
    this.#session = session;
  }

  /** The attempt in progress (0 when not retrying). */
  get attempt(): number {
    return this.#attempt;
  }

  /** True from a retryable failure until its retries end. */
  get isRetrying(): boolean {
    return this.#promise !== undefined;
  }

  /** Whether `message` failed in a way worth retrying (context overflow is not: compaction handles it). */
  isRetryable(message: AssistantMessage): boolean {
    return isRetryableError(message, this.#session.model?.contextWindow ?? 0);
  }

  /**
   * Called synchronously with each run's messages, so the promise `prompt()` waits on exists
   * before the (queued) event processing reaches the failure.
   */
  expect(messages: AgentMessage[]): void {
    if (this.#promise || !this.#session.settingsManager.getRetrySettings().enabled) return;
    const last = lastAssistantOf(messages);
    if (last && this.isRetryable(last)) this.#promise = new Promise((r) => (this.#resolve = r));
  }

  /**
   * Whether a run that ended with `messages` will be retried automatically (told to clients as
   * `agent_end.willRetry`): retrying is on, attempts are left and the last reply failed in a
   * retryable way.
   */
  willRetry(messages: AgentMessage[]): boolean {
    const settings = this.#session.settingsManager.getRetrySettings();
    if (!settings.enabled || this.#attempt >= settings.maxRetries) return false;
    const last = lastAssistantOf(messages);
    return last !== undefined && this.isRetryable(last);
  }

  /** A good reply ends a retry sequence successfully. */
  noteReply(message: AssistantMessage): void {
    if (message.stopReason !== "error" && this.#attempt > 0) {
      this.#session.emit({ type: "auto_retry_end", success: true, attempt: this.#attempt });
      this.#attempt = 0;
    }
  }

  /** Retries after the backoff; false when retrying is off, used up, or cancelled. */
  async retry(message: AssistantMessage): Promise<boolean> {
    const session = this.#session;
    const settings = session.settingsManager.getRetrySettings();
    if (!settings.enabled) {
      this.settle();
      return false;
    }
    if (!this.#promise) this.#promise = new Promise((r) => (this.#resolve = r));
    this.#attempt++;
    if (this.#attempt > settings.maxRetries) {
      session.emit({
        type: "auto_retry_end",
        success: false,
        attempt: this.#attempt - 1,
        finalError: message.errorMessage,
      });
      this.#attempt = 0;
      this.settle();
      return false;
    }
    const delayMs = settings.baseDelayMs * 2 ** (this.#attempt - 1);
    session.emit({
      type: "auto_retry_start",
      attempt: this.#attempt,
      maxAttempts: settings.maxRetries,
      delayMs,
      errorMessage: message.errorMessage || "Unknown error",
    });
    const messages = session.agent.state.messages;
    if (messages.length > 0 && messages[messages.length - 1].role === "assistant") {
      session.agent.state.messages = messages.slice(0, -1);
    }
    this.#abort = new AbortController();
    try {
      await sleep(delayMs, this.#abort.signal);
    } catch {
      const attempt = this.#attempt;
      this.#attempt = 0;
      this.#abort = undefined;
      session.emit({ type: "auto_retry_end", success: false, attempt, finalError: "Retry cancelled" });
      this.settle();
      return false;
    }
    this.#abort = undefined;
    // After the current run has unwound (this runs inside its agent_end handling).
    setTimeout(() => void session.agent.continue().catch(() => {}), 0);
    return true;
  }

  /** Ends the retry sequence for waiters. */
  settle(): void {
    this.#resolve?.();
    this.#resolve = undefined;
    this.#promise = undefined;
  }

  /** Cancels a retry waiting out its delay. */
  abort(): void {
    this.#abort?.abort();
    this.settle();
  }

  /** Resolves once the retry sequence in progress (if any) has finished. */
  async wait(): Promise<void> {
    if (!this.#promise) return;
    await this.#promise;
    await this.#session.agent.waitForIdle();
  }
}

/** The last assistant message of a list. */
export function lastAssistantOf(messages: AgentMessage[]): AssistantMessage | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i].role === "assistant") return messages[i] as AssistantMessage;
  }
  return undefined;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new Error("aborted"));
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => {
      clearTimeout(timer);
      reject(new Error("aborted"));
    }, { once: true });
  });
}
