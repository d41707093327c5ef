/**
 * Sends one Anthropic request with the client-side retries the official SDK performs (the
 * reference streams through that SDK): up to `maxRetries` (default 2) more attempts after
 * connection failures, timeouts and HTTP 408/409/429/5xx, waiting as the server asks
 * (`retry-after-ms`, `retry-after`) or with exponential backoff. One addition the SDK lacks:
 * a server-requested wait longer than `maxRetryDelayMs` (default 60 s, 0 = no cap) is not
 * sat out; the request fails at once so the caller can retry visibly.
 *
 * @module
 */
import { formatHttpError } from "../provider_utils.ts";

/** Retry and timeout settings of one request. */
export interface AnthropicHttpOptions {
  signal?: AbortSignal;
  /** Time allowed until response headers arrive, per attempt (default 600000, as the SDK). */
  timeoutMs?: number;
  maxRetries?: number;
  maxRetryDelayMs?: number;
  /** Values that must not appear in error messages (the API key). */
  secrets?: string[];
}

/** The SDK's default per-attempt timeout. */
export const DEFAULT_TIMEOUT_MS = 600_000;
/** The SDK's default number of retries. */
export const DEFAULT_MAX_RETRIES = 2;
/** Default cap on a server-requested retry delay. */
export const DEFAULT_MAX_RETRY_DELAY_MS = 60_000;

function abortError(): Error {
  const error = new Error("Request was aborted");
  error.name = "AbortError";
  return error;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError());
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** Whether the SDK would retry this response (an explicit `x-should-retry` wins). */
export function shouldRetryStatus(response: Response): boolean {
  const explicit = response.headers.get("x-should-retry");
  if (explicit === "true") return true;
  if (explicit === "false") return false;
  const status = response.status;
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** The wait the server asked for, in ms, if it asked. */
export function serverRetryDelayMs(headers: Headers): number | undefined {
  const ms = parseFloat(headers.get("retry-after-ms") ?? "");
  if (!Number.isNaN(ms) && ms) return ms;
  const after = headers.get("retry-after");
  if (!after) return undefined;
  const seconds = parseFloat(after);
  if (!Number.isNaN(seconds)) return seconds * 1000;
  const date = Date.parse(after);
  return Number.isNaN(date) ? undefined : date - Date.now();
}

/** The SDK's backoff: 0.5 s doubling per retry, at most 8 s, minus up to 25 % jitter. */
export function backoffDelayMs(retryIndex: number): number {
  return Math.min(500 * 2 ** retryIndex, 8000) * (1 - Math.random() * 0.25);
}

type Attempt =
  | { kind: "response"; response: Response }
  | { kind: "failed"; error: Error };

async function attempt(
  url: string,
  init: RequestInit,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<Attempt> {
  const controller = new AbortController();
  let timedOut = false;
  const onAbort = () => controller.abort();
  signal?.addEventListener("abort", onAbort, { once: true });
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  try {
    const response = await fetch(url, { ...init, signal: controller.signal });
    // The caller keeps watching `signal` while it reads the body; this listener stays so an
    // abort also cancels the body on the wire.
    return { kind: "response", response };
  } catch (cause) {
    signal?.removeEventListener("abort", onAbort);
    if (signal?.aborted) throw abortError();
    const error = new Error(timedOut ? "Request timed out." : "Connection error.", { cause });
    return { kind: "failed", error };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * POSTs `body` to `url` and returns the successful response. Throws an Error whose message is
 * what the user sees: the status plus Anthropic's error body, "Connection error.",
 * "Request timed out.", or an AbortError once `signal` fires.
 */
export async function postAnthropic(
  url: string,
  headers: Record<string, string>,
  body: string,
  options: AnthropicHttpOptions = {},
): Promise<Response> {
  const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
  const cap = options.maxRetryDelayMs ?? DEFAULT_MAX_RETRY_DELAY_MS;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  for (let retry = 0;; retry++) {
    if (options.signal?.aborted) throw abortError();
    const result = await attempt(url, { method: "POST", headers, body }, timeoutMs, options.signal);
    const retriesLeft = retry < maxRetries;
    if (result.kind === "failed") {
      if (!retriesLeft) throw result.error;
      await sleep(backoffDelayMs(retry), options.signal);
      continue;
    }
    const response = result.response;
    if (response.ok) return response;
    const retryable = shouldRetryStatus(response);
    const requested = serverRetryDelayMs(response.headers);
    if (retriesLeft && retryable && !(cap > 0 && requested !== undefined && requested > cap)) {
      await response.body?.cancel().catch(() => {});
      await sleep(requested ?? backoffDelayMs(retry), options.signal);
      continue;
    }
    const text = await response.text().catch((err) => String(err));
    let message = formatHttpError(response.status, text, { style: "anthropic", secrets: options.secrets });
    if (retriesLeft && retryable && requested !== undefined) {
      message += ` (server requested retry delay of ${
        Math.ceil(requested / 1000)
      }s exceeds maxRetryDelayMs ${cap}ms)`;
    }
    throw new Error(message);
  }
}
