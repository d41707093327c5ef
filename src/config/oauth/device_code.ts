/**
 * Polling loop for the OAuth 2.0 device authorization grant (RFC 8628), shared by the device-code
 * login flows. The caller does the HTTP; this owns the timing: the interval, `slow_down`, expiry and
 * cancellation, with 1.6.0's rules and messages.
 *
 * @module
 */

/** Message of the error thrown when the signal aborts. */
export const DEVICE_FLOW_CANCELLED = "Login cancelled";
/** Message of the error thrown when the code expires without a `slow_down` reply ever seen. */
export const DEVICE_FLOW_TIMED_OUT = "Device flow timed out";
/** Message of the error thrown when the code expires after at least one `slow_down` reply. */
export const DEVICE_FLOW_TIMED_OUT_SLOW_DOWN =
  "Device flow timed out after one or more slow_down responses. This is often caused by clock drift in WSL or VM environments. Please sync or restart the VM clock and try again.";

/** Floor on the polling interval, whatever the server says. */
const MINIMUM_INTERVAL_MS = 1000;
/** RFC 8628 §3.2: without `interval` the client waits 5 seconds. */
const DEFAULT_INTERVAL_SECONDS = 5;
/** RFC 8628 §3.5: each `slow_down` adds 5 seconds. */
const SLOW_DOWN_STEP_MS = 5000;

/** One poll's outcome. `pending` polls again after the interval; `failed` throws `message`. */
export type DeviceCodePollResult<T> =
  | { status: "pending" }
  | { status: "slow_down"; intervalSeconds?: number }
  | { status: "failed"; message: string }
  | { status: "complete"; value: T };

/** Options of {@link pollDeviceCodeFlow}. */
export interface DeviceCodePollOptions<T> {
  /** Server's `interval` in seconds; default 5, never below 1. */
  intervalSeconds?: number;
  /** Server's `expires_in` in seconds; without it the loop runs until complete, failed or aborted. */
  expiresInSeconds?: number;
  /** Sleep one interval before the first poll (servers that answer an immediate poll with `slow_down`). */
  waitBeforeFirstPoll?: boolean;
  /** One token request; must not throw for "still pending" (return `pending`/`slow_down`). */
  poll: () => Promise<DeviceCodePollResult<T>>;
  /** Aborting rejects with {@link DEVICE_FLOW_CANCELLED}, also while sleeping. */
  signal: AbortSignal;
}

/**
 * Resolves after `ms`, or rejects with `Error(cancelMessage)` as soon as `signal` aborts (at once if it
 * already has). Clears its timer either way, so it never keeps the process alive after an abort.
 */
export function abortableSleep(ms: number, signal: AbortSignal, cancelMessage: string): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(new Error(cancelMessage));
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(new Error(cancelMessage));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * Polls until `poll` returns `complete` (resolves with its value) or `failed` (throws its message), the
 * code expires (throws {@link DEVICE_FLOW_TIMED_OUT}, or {@link DEVICE_FLOW_TIMED_OUT_SLOW_DOWN} after any
 * `slow_down`) or `signal` aborts (throws {@link DEVICE_FLOW_CANCELLED}). Interval: `intervalSeconds`
 * (default 5 s, minimum 1 s); a `slow_down` sets it to the server's new `intervalSeconds` when given,
 * otherwise adds 5 s. The last sleep is cut to the time left before expiry. Errors thrown by `poll`
 * propagate unchanged.
 */
export async function pollDeviceCodeFlow<T>(options: DeviceCodePollOptions<T>): Promise<T> {
  const deadline = typeof options.expiresInSeconds === "number"
    ? Date.now() + options.expiresInSeconds * 1000
    : Number.POSITIVE_INFINITY;
  let intervalMs = Math.max(
    MINIMUM_INTERVAL_MS,
    Math.floor((options.intervalSeconds ?? DEFAULT_INTERVAL_SECONDS) * 1000),
  );
  let slowDowns = 0;
  if (options.waitBeforeFirstPoll) {
    const left = deadline - Date.now();
    if (left > 0) await abortableSleep(Math.min(intervalMs, left), options.signal, DEVICE_FLOW_CANCELLED);
  }
  while (Date.now() < deadline) {
    if (options.signal.aborted) throw new Error(DEVICE_FLOW_CANCELLED);
    const result = await options.poll();
    if (result.status === "complete") return result.value;
    if (result.status === "failed") throw new Error(result.message);
    if (result.status === "slow_down") {
      slowDowns++;
      // Prefer the server's stated interval (GitHub sends the new minimum): a client-side count
      // alone can keep polling too early forever when the VM clock drifts.
      const given = result.intervalSeconds;
      intervalMs = typeof given === "number" && Number.isFinite(given) && given > 0
        ? Math.max(MINIMUM_INTERVAL_MS, Math.floor(given * 1000))
        : Math.max(MINIMUM_INTERVAL_MS, intervalMs + SLOW_DOWN_STEP_MS);
    }
    const left = deadline - Date.now();
    if (left <= 0) break;
    await abortableSleep(Math.min(intervalMs, left), options.signal, DEVICE_FLOW_CANCELLED);
  }
  throw new Error(slowDowns > 0 ? DEVICE_FLOW_TIMED_OUT_SLOW_DOWN : DEVICE_FLOW_TIMED_OUT);
}
