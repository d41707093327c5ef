/**
 * The shapes shared by the session's run boundaries (src/core/session_boundary.ts) and the
 * extension host that dispatches them: what handlers see as `event.context`, and the dispatcher
 * the host installs among the session's extension hooks.
 *
 * @module
 */
import type { AgentMessage } from "../agent/types.ts";
import type { Message } from "../ai/types.ts";
import type { BoundaryDraft, BoundaryOutcome } from "../extensions/event_results.ts";
import type { ProjectedEntry } from "../session/entries.ts";

export type { ActivityOutcome, BoundaryDraft, BoundaryOutcome } from "../extensions/event_results.ts";

/** What boundary handlers see as `event.context`: the session's model context with the proposal applied. */
export interface BoundaryContextPreview {
  /** The context's entries, each with the messages it contributes. */
  contextEntries: ProjectedEntry[];
  /** The context's messages, as the session holds them. */
  contextMessages: AgentMessage[];
  /** The same, as the model would be sent them. */
  llmMessages: Message[];
  /** Queued messages not yet in the context (always empty in this build). */
  pendingMessages: AgentMessage[];
  /** Whether a request could be made from this context (it does not end with the model's reply). */
  canContinue: boolean;
}

/** The extension side of the boundaries (src/core/extension_host.ts supplies it). */
export interface BoundaryDispatcher {
  /** Whether any handler listens to `type`. */
  has(type: "turn_end" | "agent_before_settle"): boolean;
  /** Runs the handlers with chained proposals (the runner's `emitBoundary`). */
  emit(
    baseEvent: Record<string, unknown> & { type: "turn_end" | "agent_before_settle" },
    buildContext: (entries: BoundaryDraft[]) => BoundaryContextPreview,
  ): Promise<BoundaryOutcome<BoundaryContextPreview>>;
  /** Reports a boundary error as an `extension_error` from `<boundary>`. */
  reportError(event: string, error: string): void;
}
