/**
 * Polling with a deadline: a test that waits for something to happen fails with a clear message
 * when it never does, instead of hanging the suite.
 *
 * @module
 */

/** Waits until `condition()` holds, polling every `intervalMs` (20 ms); throws after `timeoutMs`. */
export async function waitFor(
  condition: () => boolean,
  timeoutMs = 30_000,
  what = "condition",
  intervalMs = 20,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
