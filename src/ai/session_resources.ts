/**
 * Resources a provider keeps for a session beyond one request (Codex's kept WebSocket), and
 * the one call that releases them when the session ends. Providers register their cleanup
 * when they load; the agent session calls {@link cleanupSessionResources} when it is disposed,
 * so a program using the SDK is not kept alive by an idle socket.
 *
 * @module
 */

/** Releases what a provider keeps for `sessionId` (or for every session when omitted). */
export type SessionResourceCleanup = (sessionId?: string) => void;

const cleanups = new Set<SessionResourceCleanup>();

/** Registers a cleanup; the returned function unregisters it. */
export function registerSessionResourceCleanup(cleanup: SessionResourceCleanup): () => void {
  cleanups.add(cleanup);
  return () => void cleanups.delete(cleanup);
}

/** Runs every registered cleanup for `sessionId`; failures are collected and thrown together after all ran. */
export function cleanupSessionResources(sessionId?: string): void {
  const errors: unknown[] = [];
  for (const cleanup of cleanups) {
    try {
      cleanup(sessionId);
    } catch (error) {
      errors.push(error);
    }
  }
  if (errors.length > 0) throw new AggregateError(errors, "Failed to clean up session resources");
}
