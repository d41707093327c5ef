/**
 * What every command handler gets, and how it answers. A handler resolves once its effect is
 * applied — the dispatcher does not start the next state-changing command before that. Long
 * work that must not hold the line (a prompt's run, a shell command) resolves `later` instead.
 *
 * @module
 */
import type { AgentSession } from "../../../core/agent_session.ts";
import type { SessionRuntimeHost } from "../../../core/runtime_host.ts";
import type {
  RpcBashExecutionUpdate,
  RpcCommand,
  RpcCommandType,
  RpcErrorResponse,
  RpcResponse,
  RpcResponseData,
} from "../rpc_types.ts";

/** The environment of a command. */
export interface RpcCommandContext {
  readonly host: SessionRuntimeHost;
  /** The current session (re-read after every replacement). */
  readonly session: AgentSession;
  /** Re-subscribes to the host's current session after it was replaced. */
  rebind(): void;
  /** Work that continues after the response (a prompt's run); EOF waits for it. */
  track(work: Promise<unknown>): void;
  /** Writes a response at once, for answers that must precede the events they set off. */
  respond(response: RpcResponse): void;
  /** Writes an RPC-only event record. */
  event(record: RpcBashExecutionUpdate): void;
  /** Shows a notice on the client (an `extension_ui_request` of method `notify`). */
  notify(message: string, notifyType: "info" | "warning" | "error"): void;
}

/**
 * A handler's outcome: a response now, a promise of one (the next command may start meanwhile),
 * or `answered` when the handler wrote it itself through {@link RpcCommandContext.respond}.
 */
export type RpcHandlerResult = RpcResponse | { later: Promise<RpcResponse> } | { answered: true };

/** A command handler. */
export type RpcHandler<C extends RpcCommand = RpcCommand> = (
  command: C,
  ctx: RpcCommandContext,
) => Promise<RpcHandlerResult> | RpcHandlerResult;

/** Handlers by command type. */
export type RpcHandlerTable = { [T in RpcCommandType]?: RpcHandler<Extract<RpcCommand, { type: T }>> };

/** A success response; without `data` when it is undefined (no `data` key at all). */
export function ok<C extends RpcCommandType>(
  id: string | undefined,
  command: C,
  data?: RpcResponseData[C],
): RpcResponse {
  return data === undefined
    ? { id, type: "response", command, success: true }
    : { id, type: "response", command, success: true, data };
}

/** An error response. */
export function fail(id: string | undefined, command: string, error: string): RpcErrorResponse {
  return { id, type: "response", command, success: false, error };
}

/** The message of anything thrown. */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
