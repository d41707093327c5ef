/**
 * A user shell command (`!cmd`, `!!cmd`, RPC `bash`) as pi 1.6.0 runs it: extensions' `user_bash`
 * handlers come first and may run it on their own backend (`operations`) or answer it outright
 * (`result`, recorded without running anything). A handler that throws or returns something
 * invalid blocks the command (fails closed): the error is reported to the extension error
 * listeners and thrown to the caller.
 *
 * @module
 */
import type { AgentSession } from "./agent_session.ts";
import type { BashResult } from "./agent_session_types.ts";
import { extensionHostOf } from "./extension_host.ts";
import type { UserBashResult } from "../extensions/event_results.ts";

/**
 * What the `user_bash` handlers decided: undefined runs the command locally. Throws (after the
 * error is reported) when a handler fails, so the command does not run.
 */
export async function decideUserBash(
  session: AgentSession,
  command: string,
  excludeFromContext: boolean,
): Promise<UserBashResult | undefined> {
  const runner = extensionHostOf(session)?.runner;
  if (!runner?.hasHandlers("user_bash")) return undefined;
  return await runner.emitUserBash({ command, excludeFromContext, cwd: session.sessionManager.getCwd() });
}

/** Runs (or lets an extension run) `command` and records it in the session (RPC `bash`). */
export async function runUserBash(
  session: AgentSession,
  command: string,
  onChunk?: (text: string) => void,
  options: { excludeFromContext?: boolean } = {},
): Promise<BashResult> {
  const decided = await decideUserBash(session, command, options.excludeFromContext ?? false);
  if (decided?.result) {
    session.recordBashResult(command, decided.result, options);
    return decided.result;
  }
  return await session.executeBash(command, onChunk, { ...options, operations: decided?.operations });
}
