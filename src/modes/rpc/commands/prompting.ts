/**
 * Prompting commands: `prompt` (answered once the prompt is accepted, not when the run ends),
 * `steer`, `follow_up` and `abort`.
 *
 * @module
 */
import type { RpcResponse } from "../rpc_types.ts";
import { errorText, fail, ok, type RpcHandlerTable } from "./context.ts";

/** Handlers of prompt, steer, follow_up, abort. */
export const promptingHandlers: RpcHandlerTable = {
  prompt(command, ctx) {
    const { id } = command;
    return new Promise((resolve) => {
      let answered = false;
      // Written from inside the preflight callback, so it precedes the run's first event.
      const answer = (response: RpcResponse) => {
        if (answered) return;
        answered = true;
        ctx.respond(response);
        resolve({ answered: true });
      };
      const run = ctx.session.prompt(command.message, {
        images: command.images,
        streamingBehavior: command.streamingBehavior,
        source: "rpc",
        preflightResult: (accepted) => {
          if (accepted) answer(ok(id, "prompt"));
        },
      }).then(
        // Accepted without a preflight report (nothing to run): still one answer.
        () => answer(ok(id, "prompt")),
        (error) => answer(fail(id, "prompt", errorText(error))),
      );
      ctx.track(run);
    });
  },

  async steer(command, ctx) {
    await ctx.session.steer(command.message, command.images);
    return ok(command.id, "steer");
  },

  async follow_up(command, ctx) {
    await ctx.session.followUp(command.message, command.images);
    return ok(command.id, "follow_up");
  },

  async abort(command, ctx) {
    await ctx.session.abort();
    return ok(command.id, "abort");
  },
};
