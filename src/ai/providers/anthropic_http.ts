/**
 * Sends one Anthropic request: the per-attempt timeout and the error texts of the official SDK
 * (which the reference streams through), with the shared client-side retry policy of
 * {@link withProviderRetries} (pi-ai 1.x: no retries unless `maxRetries` asks; a
 * server-requested wait over `maxRetryDelayMs` fails at once).
 *
 * @module
 */
import { formatHttpError } from "../provider_utils.ts";
import {
  ProviderHttpError,
  serverRetryDelayMs,
  shouldRetryResponse,
  withProviderRetries,
} from "./provider_retry.ts";

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

function abortError(): Error {
  const error = new Error("Request was aborted");
  error.name = "AbortError";
  return error;
}

async function attempt(
  url: string,
  init: RequestInit,
  timeoutMs: number,
  signal: AbortSignal | undefined,
  secrets: string[] | undefined,
): Promise<Response> {
  const controller = new AbortController();
  let timedOut = false;
  const onAbort = () => controller.abort();
  signal?.addEventListener("abort", onAbort, { once: true });
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  let response: Response;
  try {
    // The caller keeps watching `signal` while it reads the body; the listener stays so an
    // abort also cancels the body on the wire.
    response = await fetch(url, { ...init, signal: controller.signal });
  } catch (cause) {
    signal?.removeEventListener("abort", onAbort);
    if (signal?.aborted) throw abortError();
    throw new Error(timedOut ? "Request timed out." : "Connection error.", { cause });
  } finally {
    clearTimeout(timer);
  }
  if (response.ok) return response;
  const text = await response.text().catch((err) => String(err));
  throw new ProviderHttpError(
    formatHttpError(response.status, text, { style: "anthropic", secrets }),
    response.status,
    shouldRetryResponse(response),
    serverRetryDelayMs(response.headers),
  );
}

/**
 * POSTs `body` to `url` and returns the successful response. Throws an Error whose message is
 * what the user sees: the status plus Anthropic's error body (a {@link ProviderHttpError}),
 * "Connection error.", "Request timed out.", or an AbortError once `signal` fires.
 */
export function postAnthropic(
  url: string,
  headers: Record<string, string>,
  body: string,
  options: AnthropicHttpOptions = {},
): Promise<Response> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  return withProviderRetries(
    () => attempt(url, { method: "POST", headers, body }, timeoutMs, options.signal, options.secrets),
    { ...options, abortError },
  );
}
