/**
 * What a mode drives: the current AgentSession plus the operations that replace it (new,
 * switch, fork). The CLI passes an AgentSessionRuntime, which has exactly these members; a bare
 * AgentSession can be driven too, with the replacing operations answering an error.
 *
 * @module
 */
import { AgentSession } from "./agent_session.ts";

/** The session-replacing operations a mode needs (AgentSessionRuntime's names and shapes). */
export interface SessionRuntimeHost {
  /** The current session; changes after a successful new/switch/fork. */
  readonly session: AgentSession;
  /**
   * Starts a fresh session; `cancelled` when a hook vetoed it. `setup` may append entries first;
   * `withSession` runs with the new session at the end (an extension command's callback).
   */
  newSession(options?: {
    parentSession?: string;
    setup?: (sessionManager: AgentSession["sessionManager"]) => Promise<void>;
    withSession?: (session: AgentSession) => Promise<void>;
  }): Promise<{ cancelled: boolean }>;
  /**
   * Opens another session file (in `cwdOverride` instead of its stored working folder when
   * given); `cancelled` when a hook vetoed it.
   */
  switchSession(
    sessionPath: string,
    options?: { cwdOverride?: string; withSession?: (session: AgentSession) => Promise<void> },
  ): Promise<{ cancelled: boolean }>;
  /** Continues in a new session branched at `entryId`. */
  fork(
    entryId: string,
    options?: { position?: "before" | "at"; withSession?: (session: AgentSession) => Promise<void> },
  ): Promise<{ cancelled: boolean; selectedText?: string }>;
  /**
   * Copies a JSONL session file into the session folder and resumes it (`/import`); hosts that
   * cannot replace their session leave it out.
   */
  importFromJsonl?(inputPath: string, cwdOverride?: string): Promise<{ cancelled: boolean }>;
  /**
   * Reads settings, resources and extensions again and goes on with the same session (`/reload`);
   * hosts that cannot rebuild their session leave it out.
   */
  reload?(): Promise<void>;
  /** Ends the current session and releases what it holds. */
  dispose(): Promise<void> | void;
}

const NO_RUNTIME = "This command needs a session runtime (RPC mode was started with a single session)";

/** Wraps a lone session; operations that would replace it fail with a clear error. */
export function singleSessionHost(session: AgentSession): SessionRuntimeHost {
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
export function toRuntimeHost(target: AgentSession | SessionRuntimeHost): SessionRuntimeHost {
  return target instanceof AgentSession ? singleSessionHost(target) : target;
}
