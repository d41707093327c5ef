/**
 * Automatic retry of transient provider failures (LOOP-07…09), as pi 1.6.0 does it: exponential
 * backoff from settings, capped by `retry.maxAgentDelayMs`, and never shorter than a wait the
 * server asked for (a server asking for more than the cap is not retried: the reply's error says
 * why); `auto_retry_start`/`auto_retry_end` events; the failed reply stays in the session file
 * and a `context_edit` entry with no replacement takes it out of every later request (announced
 * with `entry_appended`).
 *
 * @module
 */
import type { AgentMessage } from "../agent/types.ts";
import { isRetryableError, requestedRetryDelayMs } from "../ai/retryable.ts";
import type { AssistantMessage } from "../ai/types.ts";
import type { SessionHost } from "./session_host.ts";

/** Retries for one AgentSession. */
export class SessionRetrier {
  #session: SessionHost;
  #attempt = 0;
  #promise?: Promise<void>;
  #resolve?: () => void;
  #abort?: AbortController;
  /** The reply the scheduled retry replaces (see {@link takeFailed}). */
  #failed?: AssistantMessage;

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
    return last !== undefined && this.isRetryable(last) && !waitsTooLong(last, settings.maxAgentDelayMs);
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
    if (this.#attempt > settings.maxRetries) return this.#giveUp(message, true);
    // A server asking for a longer wait than the agent may take is not retried: the reply's own
    // error ("Server requested 600s retry delay …") is the run's outcome.
    if (waitsTooLong(message, settings.maxAgentDelayMs)) return this.#giveUp(message, this.#attempt > 1);
    const delayMs = retryDelay(settings, this.#attempt, requestedRetryDelayMs(message));
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
    omitFailedReply(session, message);
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
    this.#failed = message;
    // After the current run has unwound (this runs inside its agent_end handling).
    setTimeout(() => void session.agent.continue().catch(() => {}), 0);
    return true;
  }

  /**
   * The failed reply the scheduled retry replaces, once: a virtual model's router is told about it
   * (`reason: "retry"`, `failed`); undefined when no retry is under way.
   */
  takeFailed(): AssistantMessage | undefined {
    const failed = this.#failed;
    this.#failed = undefined;
    return this.isRetrying ? failed : undefined;
  }

  /** Ends the retries with the failed reply as the outcome (`auto_retry_end` only after a retry). */
  #giveUp(message: AssistantMessage, announce: boolean): false {
    if (announce) {
      this.#session.emit({
        type: "auto_retry_end",
        success: false,
        attempt: this.#attempt - 1,
        finalError: message.errorMessage,
      });
    }
    this.#attempt = 0;
    this.settle();
    return false;
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

/**
 * Keeps a failed reply in the file but out of every later request: a `context_edit` with no
 * replacement for its entry (the newest message entry of the branch), told to listeners as
 * `entry_appended`. Used before an automatic retry and before overflow recovery.
 */
export function omitFailedReply(session: SessionHost, message: AssistantMessage): void {
  const manager = session.sessionManager;
  const branch = manager.getBranch();
  for (let i = branch.length - 1; i >= 0; i--) {
    const entry = branch[i];
    if (entry.type !== "message") continue;
    const found = entry.message as AssistantMessage;
    if (found.role !== "assistant" || found.timestamp !== message.timestamp) return;
    const appended = manager.getEntry(manager.appendContextEdit(entry.id, null));
    if (appended) session.emit({ type: "entry_appended", entry: appended });
    return;
  }
}

/**
 * The wait before retry `attempt` (1-based): exponential backoff, at least what the server asked
 * for, at most `maxAgentDelayMs`.
 */
export function retryDelay(
  settings: { baseDelayMs: number; maxAgentDelayMs: number },
  attempt: number,
  requestedMs?: number,
): number {
  const backoff = settings.baseDelayMs * 2 ** Math.max(0, attempt - 1);
  const wanted = Math.max(
    Number.isSafeInteger(backoff) ? backoff : Number.MAX_SAFE_INTEGER,
    requestedMs ?? 0,
  );
  return Math.min(wanted, settings.maxAgentDelayMs);
}

/** Whether the server asked for a longer wait than the agent may take. */
function waitsTooLong(message: AssistantMessage, maxAgentDelayMs: number): boolean {
  const requested = requestedRetryDelayMs(message);
  return requested !== undefined && requested > maxAgentDelayMs;
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
