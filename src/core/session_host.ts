/**
 * The narrow view of an AgentSession that its helpers (bash, compaction, queues, retry, tree
 * navigation) work through. They used to take the whole session, which made each of them and
 * `agent_session.ts` import one another and forced `emit()` to be public; with this interface
 * they depend only on what they use, and only the session can emit.
 *
 * @module
 */
import type { Agent } from "../agent/agent.ts";
import type { AgentThinkingLevel } from "../agent/types.ts";
import type { Model } from "../ai/types.ts";
import type { ModelRegistry } from "../config/model_registry.ts";
import type { SettingsManager } from "../config/settings_manager.ts";
import type { SessionManager } from "../session/session_manager.ts";
import type { AgentSessionEvent } from "./agent_session_types.ts";

/** What a session helper may read and do. One host exists per session (it also keys per-session state). */
export interface SessionHost {
  /** The agent the session runs. */
  readonly agent: Agent;
  /** The session file and its tree. */
  readonly sessionManager: SessionManager;
  /** Settings (compaction, retry, shell). */
  readonly settingsManager: SettingsManager;
  /** Models and the credentials for requests. */
  readonly modelRegistry: ModelRegistry;
  /** The current model; undefined when none is selected. */
  readonly model: Model | undefined;
  /** The current thinking level. */
  readonly thinkingLevel: AgentThinkingLevel;
  /** True while the agent runs. */
  readonly isStreaming: boolean;
  /** Aborts the run (and a pending retry) and waits until the agent is idle. */
  abort(): Promise<void>;
  /** Tells the session's listeners about an event. */
  emit(event: AgentSessionEvent): void;
}

/** The part of a SessionHost the session itself provides; `emit` comes separately (it is private there). */
export type SessionHostSource = Omit<SessionHost, "emit">;

/** A host that reads through to `source` (model and levels stay live) and emits with `emit`. */
export function createSessionHost(
  source: SessionHostSource,
  emit: (event: AgentSessionEvent) => void,
): SessionHost {
  return {
    agent: source.agent,
    sessionManager: source.sessionManager,
    settingsManager: source.settingsManager,
    modelRegistry: source.modelRegistry,
    get model() {
      return source.model;
    },
    get thinkingLevel() {
      return source.thinkingLevel;
    },
    get isStreaming() {
      return source.isStreaming;
    },
    abort: () => source.abort(),
    emit,
  };
}
