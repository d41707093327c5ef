/**
 * Prompting commands: `prompt` (answered once the prompt is accepted, not when the run ends),
 * `steer`, `follow_up`, `abort` and `clear_queue`. The answers to the first three say what became
 * of the text (`data.disposition`): a run `started` or it was `queued` into the running one.
 * `handled` means an extension command or `input` handler consumed the text.
 *
 * @module
 */
import type { RpcPromptDisposition, RpcResponse } from "../rpc_types.ts";
import { errorText, fail, ok, type RpcHandlerTable } from "./context.ts";
import { runBuiltinCommand } from "../../builtin_commands.ts";

/** Handlers of prompt, steer, follow_up, abort, clear_queue. */
export const promptingHandlers: RpcHandlerTable = {
  prompt(command, ctx) {
    const { id } = command;
    // A built-in extension's command (`/llama`) runs at once, even during a run, as 1.6.0's do.
    if (runBuiltinCommand(ctx.session, command.message, ctx.notify)) {
      return ok(id, "prompt", { disposition: "handled" });
    }
    // prompt() decides synchronously whether the text queues into a running run.
    const disposition: RpcPromptDisposition = ctx.session.isStreaming ? "queued" : "started";
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
          if (accepted) {
            answer(ok(id, "prompt", { disposition: accepted === "handled" ? "handled" : disposition }));
          }
        },
      }).then(
        // Accepted without a preflight report (nothing to run): still one answer.
        () => answer(ok(id, "prompt", { disposition })),
        (error) => answer(fail(id, "prompt", errorText(error))),
      );
      ctx.track(run);
    });
  },

  async steer(command, ctx) {
    await ctx.session.steer(command.message, command.images);
    return ok(command.id, "steer", { disposition: "queued" });
  },

  async follow_up(command, ctx) {
    await ctx.session.followUp(command.message, command.images);
    return ok(command.id, "follow_up", { disposition: "queued" });
  },

  async abort(command, ctx) {
    await ctx.session.abort();
    return ok(command.id, "abort");
  },

  clear_queue(command, ctx) {
    return ok(command.id, "clear_queue", ctx.session.clearQueue());
  },
};
