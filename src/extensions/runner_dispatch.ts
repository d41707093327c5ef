/**
 * The dispatch of the extension events whose results shape a request or a run, with pi 1.6.0's
 * rules: `context` and `context_with_system` (the messages sent), `before_provider_request` and
 * `before_provider_headers` (the payload and headers), `user_bash` (fails closed) and the run
 * boundaries `turn_end` / `agent_before_settle`. {@link ExtensionRunner} calls these with a view
 * of itself ({@link HandlerDispatch}); they live apart so that the runner stays one readable file.
 *
 * @module
 */
import type { AgentMessage } from "../agent/types.ts";
import type { ExtensionContext, ExtensionError, ExtensionHandler, LoadedExtension } from "./types.ts";
import {
  type BoundaryDraft,
  type BoundaryOutcome,
  INVALID_USER_BASH_RESULT,
  isUserBashResult,
  type UserBashResult,
} from "./event_results.ts";

/** What a dispatch function needs of the runner: the context, the handlers, error reporting. */
export interface HandlerDispatch {
  /** The context handed to every handler of this dispatch. */
  readonly context: ExtensionContext;
  /** The handlers for `event` in load order, as they are now. */
  handlers(event: string): { ext: LoadedExtension; handler: ExtensionHandler }[];
  /** Reports a handler's throw or rejection as an `extension_error`. */
  report(ext: LoadedExtension, event: string, error: unknown): void;
  /** Reports an error that is not a throw (an invalid result). */
  emitError(error: ExtensionError): void;
}

/**
 * `context`: handlers see the conversation without `system` messages, on a copy, and return a
 * new list (or edit theirs in place); `system` messages keep their places.
 */
export async function dispatchContext(
  runner: HandlerDispatch,
  messages: AgentMessage[],
): Promise<AgentMessage[]> {
  const ctx = runner.context;
  let current = structuredClone(messages);
  for (const { ext, handler } of runner.handlers("context")) {
    try {
      const visible = current.filter((m) => m.role !== "system");
      const snapshot = visible.slice();
      const returned = await handler({ type: "context", messages: visible }, ctx) as
        | { messages?: AgentMessage[] }
        | undefined;
      const replacement = returned?.messages ??
        (visible.length === snapshot.length && visible.every((m, i) => m === snapshot[i])
          ? undefined
          : visible);
      if (!replacement) continue;
      // The leading system messages stay first; the handler's list replaces the rest.
      const leading: AgentMessage[] = [];
      for (const m of current) {
        if (m.role !== "system") break;
        leading.push(m);
      }
      current = [...leading, ...replacement];
    } catch (error) {
      runner.report(ext, "context", error);
    }
  }
  return contextWithSystem(runner, current, ctx);
}

/**
 * `context_with_system`, after `context`: handlers see the whole transcript, `system` messages
 * included, and what they return is sent as it is. Dropping the leading `system` message (the
 * prompt and tool declarations) is reported but honoured, as 1.6.0 does.
 */
async function contextWithSystem(
  runner: HandlerDispatch,
  messages: AgentMessage[],
  ctx: ExtensionContext,
): Promise<AgentMessage[]> {
  let current = messages;
  for (const { ext, handler } of runner.handlers("context_with_system")) {
    try {
      const hadSystem = current[0]?.role === "system";
      const returned = await handler({ type: "context_with_system", messages: current }, ctx) as
        | { messages?: AgentMessage[] }
        | undefined;
      current = returned?.messages ?? current;
      if (hadSystem && current[0]?.role !== "system") {
        runner.emitError({
          extensionPath: ext.path,
          event: "context_with_system",
          error:
            "Handler removed the leading system message; the request has no prompt or initial tool declarations. Keep it at index 0 or replace a dropped prefix with getCurrentSystemMessage().",
        });
      }
    } catch (error) {
      runner.report(ext, "context_with_system", error);
    }
  }
  return current;
}
/**
 * `before_provider_request`: each handler sees the payload as the previous one left it; a
 * returned value other than undefined replaces it for later handlers and for the request.
 */
export async function dispatchBeforeProviderRequest(
  runner: HandlerDispatch,
  payload: unknown,
): Promise<unknown> {
  const ctx = runner.context;
  let current = payload;
  for (const { ext, handler } of runner.handlers("before_provider_request")) {
    try {
      const returned = await handler({ type: "before_provider_request", payload: current }, ctx);
      if (returned !== undefined) current = returned;
    } catch (error) {
      runner.report(ext, "before_provider_request", error);
    }
  }
  return current;
}

/** `before_provider_headers`: handlers edit `headers` in place (null deletes); results are ignored. */
export async function dispatchBeforeProviderHeaders(
  runner: HandlerDispatch,
  headers: Record<string, string | null>,
): Promise<Record<string, string | null>> {
  const ctx = runner.context;
  for (const { ext, handler } of runner.handlers("before_provider_headers")) {
    try {
      await handler({ type: "before_provider_headers", headers }, ctx);
    } catch (error) {
      runner.report(ext, "before_provider_headers", error);
    }
  }
  return headers;
}

/**
 * `user_bash`: the first handler returning a valid result decides. It fails closed, as 1.6.0
 * does: a throwing handler, or one returning something invalid, is reported and its error
 * thrown, so the command does not run.
 */
export async function dispatchUserBash(
  runner: HandlerDispatch,
  event: { command: string; excludeFromContext: boolean; cwd: string },
): Promise<UserBashResult | undefined> {
  const ctx = runner.context;
  for (const { ext, handler } of runner.handlers("user_bash")) {
    try {
      const returned = await handler({ type: "user_bash", ...event }, ctx);
      if (returned === undefined) continue;
      if (!isUserBashResult(returned)) throw new Error(INVALID_USER_BASH_RESULT);
      return returned;
    } catch (error) {
      runner.report(ext, "user_bash", error);
      throw error;
    }
  }
  return undefined;
}

/**
 * `turn_end` / `agent_before_settle`: each handler sees the entries and continuation proposed
 * so far and the context rebuilt from them; a returned `entries` or `continue` replaces that
 * field. Entries the context cannot be built from make the whole proposal invalid (reported).
 */
export async function dispatchBoundary<C>(
  runner: HandlerDispatch,
  baseEvent: Record<string, unknown> & { type: "turn_end" | "agent_before_settle" },
  buildContext: (entries: BoundaryDraft[]) => C | Promise<C>,
): Promise<BoundaryOutcome<C>> {
  const ctx = runner.context;
  let entries: BoundaryDraft[] = [];
  let proceed = false;
  let context = await buildContext(entries);
  let valid = true;
  for (const { ext, handler } of runner.handlers(baseEvent.type)) {
    try {
      const returned = await handler({ ...baseEvent, entries, continue: proceed, context }, ctx) as
        | { entries?: BoundaryDraft[]; continue?: boolean }
        | undefined;
      if (returned?.entries !== undefined) entries = returned.entries;
      if (returned?.continue !== undefined) proceed = returned.continue;
    } catch (error) {
      runner.report(ext, baseEvent.type, error);
    }
    try {
      context = await buildContext(entries);
      valid = true;
    } catch (error) {
      valid = false;
      runner.emitError({
        extensionPath: ext.path,
        event: baseEvent.type,
        error: `Invalid boundary entries: ${error instanceof Error ? error.message : String(error)}`,
        ...(error instanceof Error && error.stack ? { stack: error.stack } : {}),
      });
    }
  }
  return valid
    ? { entries, continue: proceed, context, valid }
    : { entries: [], continue: false, context, valid };
}
