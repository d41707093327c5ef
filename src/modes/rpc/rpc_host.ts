/**
 * What RPC mode drives: the current AgentSession plus the operations that replace it (new,
 * switch, fork). The CLI passes an AgentSessionRuntime, which has exactly these members; a bare
 * AgentSession can be driven too, with the replacing commands answering an error.
 *
 * @module
 */
import { AgentSession } from "../../core/agent_session.ts";

/** The session-replacing operations RPC mode needs (AgentSessionRuntime's names and shapes). */
export interface RpcRuntimeHost {
  /** The current session; changes after a successful new/switch/fork. */
  readonly session: AgentSession;
  newSession(options?: { parentSession?: string }): Promise<{ cancelled: boolean }>;
  switchSession(sessionPath: string): Promise<{ cancelled: boolean }>;
  fork(
    entryId: string,
    options?: { position?: "before" | "at" },
  ): Promise<{ cancelled: boolean; selectedText?: string }>;
  dispose(): Promise<void> | void;
}

const NO_RUNTIME = "This command needs a session runtime (RPC mode was started with a single session)";

/** Wraps a lone session; commands that would replace it fail with a clear error. */
export function singleSessionHost(session: AgentSession): RpcRuntimeHost {
  const refuse = () => Promise.reject(new Error(NO_RUNTIME));
  return {
    session,
    newSession: refuse,
    switchSession: refuse,
    fork: refuse,
    dispose: () => session.dispose(),
  };
}

/** Accepts either a runtime or a session. */
export function toRpcHost(target: AgentSession | RpcRuntimeHost): RpcRuntimeHost {
  return target instanceof AgentSession ? singleSessionHost(target) : target;
}
