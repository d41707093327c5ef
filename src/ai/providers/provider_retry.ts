/**
 * Client-side retries of one HTTP request, shared by every wire API (pi-ai 1.6.0's
 * `retryProviderRequest`): HTTP 408, 409, 429 and 5xx (an explicit `x-should-retry` wins) and
 * connection failures are retried up to `maxRetries` times (default 0: since pi 0.76 the agent's
 * auto-retry does the retrying, visibly). The wait is what the server asked for
 * (`retry-after-ms`, `retry-after` in seconds or as a date), else exponential backoff from 0.5 s
 * (at most 8 s, up to 25 % jitter). A server-requested wait longer than `maxRetryDelayMs`
 * (default 60 s, 0 = no cap) is not sat out: the request fails at once with
 * `Server requested 600s retry delay (max: 60s). <the provider's error>`.
 *
 * Whatever the outcome, an error answer keeps the delay the server asked for
 * ({@link ProviderHttpError.retryAfterMs}), so the agent's auto-retry can honour it.
 *
 * @module
 */

/** Default cap on a server-requested retry delay. */
export const DEFAULT_MAX_RETRY_DELAY_MS = 60_000;
/** Default number of client-side retries (pi-ai 1.x: none; the agent retries). */
export const DEFAULT_PROVIDER_MAX_RETRIES = 0;

/** An error answer (non-2xx) of a provider, worded for the user, with what retrying needs. */
export class ProviderHttpError extends Error {
  /** The HTTP status. */
  readonly status: number;
  /** The wait the server asked for, in ms, when it sent `retry-after(-ms)`. */
  readonly retryAfterMs?: number;
  /** Whether the status (or `x-should-retry`) makes it worth retrying. */
  readonly retryable: boolean;

  constructor(message: string, status: number, retryable: boolean, retryAfterMs?: number) {
    super(message);
    this.name = "ProviderHttpError";
    this.status = status;
    this.retryable = retryable;
    if (retryAfterMs !== undefined) this.retryAfterMs = retryAfterMs;
  }
}

/** Whether an error answer is worth retrying (an explicit `x-should-retry` wins). */
export function shouldRetryResponse(response: Response): boolean {
  const explicit = response.headers.get("x-should-retry");
  if (explicit === "true") return true;
  if (explicit === "false") return false;
  const status = response.status;
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** The wait the server asked for, in ms; undefined when it did not ask or the value is unreadable. */
export function serverRetryDelayMs(headers: Headers): number | undefined {
  const ms = headers.get("retry-after-ms");
  if (ms) {
    const value = Number.parseFloat(ms);
    if (Number.isFinite(value)) return Math.max(0, value);
  }
  const after = headers.get("retry-after");
  if (after) {
    const seconds = Number.parseFloat(after);
    const value = Number.isNaN(seconds) ? Date.parse(after) - Date.now() : seconds * 1000;
    if (Number.isFinite(value)) return Math.max(0, value);
  }
  return undefined;
}

/** Exponential backoff: 0.5 s doubling per retry, at most 8 s, minus up to 25 % jitter. */
export function backoffDelayMs(retryIndex: number): number {
  return Math.min(500 * 2 ** retryIndex, 8000) * (1 - Math.random() * 0.25);
}

/** The text of a request whose server-requested wait is over the cap (pi-ai 1.6.0's wording). */
export function retryDelayTooLongMessage(delayMs: number, capMs: number, providerMessage: string): string {
  return `Server requested ${Math.ceil(delayMs / 1000)}s retry delay (max: ${
    Math.ceil(capMs / 1000)
  }s). ${providerMessage}`;
}

/** Retry settings of one request. */
export interface RetryOptions {
  signal?: AbortSignal;
  /** Retries after the first attempt (default 0). */
  maxRetries?: number;
  /** Longest server-requested wait to sit out (default 60000; 0 = no cap). */
  maxRetryDelayMs?: number;
  /** The error to throw when the signal fires during a wait. */
  abortError: () => Error;
}

/**
 * Runs `attempt` until it succeeds, its error is not retryable, or the retries are used up.
 * `attempt` throws a {@link ProviderHttpError} for error answers; any other error counts as a
 * connection failure (retryable) unless `isConnectionError` says otherwise.
 */
export async function withProviderRetries<T>(
  attempt: () => Promise<T>,
  options: RetryOptions,
  isConnectionError: (error: unknown) => boolean = () => true,
): Promise<T> {
  const maxRetries = options.maxRetries ?? DEFAULT_PROVIDER_MAX_RETRIES;
  const cap = options.maxRetryDelayMs ?? DEFAULT_MAX_RETRY_DELAY_MS;
  for (let retry = 0;; retry++) {
    if (options.signal?.aborted) throw options.abortError();
    try {
      return await attempt();
    } catch (error) {
      if (options.signal?.aborted) throw options.abortError();
      const http = error instanceof ProviderHttpError ? error : undefined;
      const retryable = http ? http.retryable : isConnectionError(error);
      if (retry >= maxRetries || !retryable) throw error;
      const requested = http?.retryAfterMs;
      if (requested !== undefined && cap > 0 && requested > cap) {
        throw new ProviderHttpError(
          retryDelayTooLongMessage(requested, cap, http!.message),
          http!.status,
          true,
          requested,
        );
      }
      await sleep(requested ?? backoffDelayMs(retry), options.signal, options.abortError);
    }
  }
}

function sleep(ms: number, signal: AbortSignal | undefined, abortError: () => Error): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError());
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, Math.max(0, ms));
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
