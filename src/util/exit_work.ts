/**
 * Work a mode waits for before pi exits: what a session started while it ran and must finish
 * after it ended, such as MCP servers being closed (end of stdin, SIGTERM after 2 s, SIGKILL 2 s
 * later, as pi 1.6.0 waits for them in `session_shutdown`). Without this wait `Deno.exit` would
 * leave those servers running behind pi.
 *
 * @module
 */

const pending = new Set<Promise<void>>();

/** Registers `work` for {@link settleExitWork}; its failure is ignored (it is cleanup). */
export function holdExit(work: Promise<unknown>): void {
  const held: Promise<void> = work.then(() => undefined, () => undefined).finally(() => pending.delete(held));
  pending.add(held);
}

/** Resolves once every held work settled, including work registered while waiting. */
export async function settleExitWork(): Promise<void> {
  while (pending.size > 0) await Promise.all(pending);
}
