/**
 * User shell commands, compaction and retry commands. `bash` answers when the command finishes
 * but does not hold up the commands behind it (so `abort_bash` and `get_state` stay responsive);
 * meanwhile every output chunk goes out as a `bash_execution_update` carrying the command's id,
 * since the final response may hold only the truncated tail.
 *
 * @module
 */
import { errorText, fail, ok, type RpcHandlerTable } from "./context.ts";
import { runUserBash } from "../../../core/user_bash.ts";

/** Handlers of bash, abort_bash, compact, set_auto_compaction, set_auto_retry, abort_retry. */
export const executionHandlers: RpcHandlerTable = {
  bash(command, ctx) {
    const { id } = command;
    const onChunk = (delta: string) => ctx.event({ type: "bash_execution_update", id, delta });
    const options = { excludeFromContext: command.excludeFromContext };
    // Extensions' `user_bash` handlers come first; a failing one blocks the command (its message).
    const later = runUserBash(ctx.session, command.command, onChunk, options).then(
      (result) => ok(command.id, "bash", result),
      (error) => fail(command.id, "bash", errorText(error)),
    );
    return { later };
  },

  abort_bash(command, ctx) {
    ctx.session.abortBash();
    return ok(command.id, "abort_bash");
  },

  async compact(command, ctx) {
    const result = await ctx.session.compact(command.customInstructions);
    return ok(command.id, "compact", result);
  },

  set_auto_compaction(command, ctx) {
    ctx.session.setAutoCompactionEnabled(command.enabled);
    return ok(command.id, "set_auto_compaction");
  },

  set_auto_retry(command, ctx) {
    ctx.session.setAutoRetryEnabled(command.enabled);
    return ok(command.id, "set_auto_retry");
  },

  abort_retry(command, ctx) {
    ctx.session.abortRetry();
    return ok(command.id, "abort_retry");
  },
};
