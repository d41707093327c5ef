/**
 * Abort handling shared by the file tools: a tool call settles as soon as its signal aborts,
 * with the reference's "Operation aborted", while the work re-checks the signal between steps
 * so nothing is written after an abort.
 *
 * @module
 */

/** The error an aborted file operation reports. */
export function abortError(): Error {
  return new Error("Operation aborted");
}

/** Runs `work`, rejecting with {@link abortError} as soon as `signal` aborts. */
export function abortable<T>(signal: AbortSignal | undefined, work: () => Promise<T>): Promise<T> {
  if (signal?.aborted) return Promise.reject(abortError());
  if (!signal) return work();
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortError());
    signal.addEventListener("abort", onAbort, { once: true });
    work().then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}
