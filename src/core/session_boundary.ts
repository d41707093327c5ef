/**
 * pi 1.6.0's two actionable run boundaries, `turn_end` (after a turn's messages are saved,
 * before the agent's own `turn_end`) and `agent_before_settle` (when nothing else will continue
 * the run). Extensions propose session entries (`custom`, `custom_message`, `context_edit`,
 * `compaction`) and may ask for one more request; each handler sees the context rebuilt from
 * the proposal so far. The whole proposal is checked on a preview before it is appended, then the
 * agent's transcript is rebuilt from the session, so the next request sees the new entries.
 *
 * @module
 */
import type { AgentMessage } from "../agent/types.ts";
import type { AssistantMessage, ToolResultMessage } from "../ai/types.ts";
import { estimateProjectedContextTokens } from "../compaction/token_estimate.ts";
import type { ActivityOutcome, BoundaryDraft } from "../extensions/event_results.ts";
import { buildSessionProjection } from "../session/context.ts";
import { checkContextEdit } from "../session/context_edit.ts";
import type { ContextEditReplacement, SessionEntry } from "../session/entries.ts";
import { convertToLlm } from "../session/messages.ts";
import { getCurrentSystemMessage } from "../session/system_message.ts";
import type { SessionHost } from "./session_host.ts";
import type { BoundaryContextPreview, BoundaryDispatcher } from "./boundary_types.ts";

type Boundary = "turn_end" | "agent_before_settle";

/** The boundaries of one session. */
export class SessionBoundaries {
  #host: SessionHost;
  #dispatcher: () => BoundaryDispatcher | undefined;
  #outcome: ActivityOutcome = "completed";
  /** Entries were committed: the agent's transcript was rebuilt and the next turn must use it. */
  #refreshed = false;

  constructor(host: SessionHost, dispatcher: () => BoundaryDispatcher | undefined) {
    this.#host = host;
    this.#dispatcher = dispatcher;
  }

  /** True once after a commit: the next turn starts from the rebuilt transcript. */
  takeRefreshed(): boolean {
    const refreshed = this.#refreshed;
    this.#refreshed = false;
    return refreshed;
  }

  /** `turn_end`: whether handlers asked for one more request (and the context allows one). */
  async turnEnd(message: AgentMessage, toolResults: ToolResultMessage[]): Promise<boolean> {
    const stopReason = (message as AssistantMessage).stopReason;
    this.#outcome = stopReason === "aborted" ? "aborted" : stopReason === "error" ? "error" : "completed";
    const dispatcher = this.#dispatcher();
    if (!dispatcher?.has("turn_end")) return false;
    const messageEntryId = this.#entryIdOf(message);
    if (!messageEntryId) {
      dispatcher.reportError("turn_end", "turn_end could not resolve the persisted assistant entry ID");
      return false;
    }
    const toolResultEntryIds = toolResults.flatMap((result) => {
      const id = this.#entryIdOf(result);
      return id ? [id] : [];
    });
    const outcome = await dispatcher.emit(
      { type: "turn_end", message, toolResults, messageEntryId, toolResultEntryIds, outcome: this.#outcome },
      (entries) => this.preview(entries, "turn_end"),
    );
    this.commit(outcome.entries);
    if (outcome.continue && !this.preview([], "turn_end").canContinue) {
      this.#invalidContinuation(dispatcher, "turn_end");
      return false;
    }
    return outcome.continue;
  }

  /**
   * `agent_before_settle`: whether the run goes on (a requested continuation or queued messages).
   * `aborted` is asked after the handlers: an abort meanwhile keeps their entries, not the request.
   */
  async beforeSettle(aborted: () => boolean): Promise<boolean> {
    const dispatcher = this.#dispatcher();
    const agent = this.#host.agent;
    if (!dispatcher?.has("agent_before_settle")) return agent.hasQueuedMessages();
    const outcome = await dispatcher.emit(
      { type: "agent_before_settle", outcome: this.#outcome },
      (entries) => this.preview(entries, "agent_before_settle"),
    );
    this.commit(outcome.entries);
    if (aborted()) return false;
    const proceed = outcome.continue || agent.hasQueuedMessages();
    if (proceed && !this.preview([], "agent_before_settle").canContinue) {
      if (outcome.continue) this.#invalidContinuation(dispatcher, "agent_before_settle");
      return false;
    }
    return proceed;
  }

  /** The context with `drafts` applied, without touching the session; throws on an invalid draft. */
  preview(drafts: BoundaryDraft[], boundary: Boundary): BoundaryContextPreview {
    const manager = this.#host.sessionManager;
    const path = [...manager.getBranch()];
    const ids = new Set(path.map((e) => e.id));
    let counter = 0;
    const nextId = () => {
      let id: string;
      do id = `preview-${++counter}`; while (ids.has(id));
      ids.add(id);
      return id;
    };
    for (const entry of draftEntries(drafts, path, nextId)) path.push(entry);
    const leafId = path.at(-1)?.id ?? null;
    const projection = buildSessionProjection([], leafId, undefined, path);
    const llmMessages = convertToLlm(projection.messages);
    const finalRole = llmMessages.at(-1)?.role;
    const runnable = llmMessages.some((m) => (m.role as string) !== "system") && finalRole !== "assistant";
    const queued = this.#host.agent.hasQueuedMessages();
    return {
      contextEntries: projection.entries,
      contextMessages: projection.messages,
      llmMessages,
      pendingMessages: [],
      canContinue: runnable || (boundary === "turn_end" ? queued : finalRole === "assistant" && queued),
    };
  }

  /** Appends `drafts` in order, rebuilds the agent's transcript and announces each entry. */
  commit(drafts: BoundaryDraft[]): void {
    if (drafts.length === 0) return;
    const manager = this.#host.sessionManager;
    const appended: SessionEntry[] = [];
    for (const draft of drafts) {
      let id: string | undefined;
      switch (draft.type) {
        case "custom":
          id = manager.appendCustomEntry(draft.customType, draft.data);
          break;
        case "custom_message":
          id = manager.appendCustomMessageEntry(
            draft.customType,
            draft.content,
            draft.display,
            draft.details,
          );
          break;
        case "context_edit":
          id = manager.appendContextEdit(draft.targetId, draft.replacement as ContextEditReplacement | null);
          break;
        case "compaction": {
          const tokensBefore =
            estimateProjectedContextTokens(manager.buildSessionProjection(), manager.getBranch()).tokens;
          id = manager.appendCompaction(
            draft.summary,
            draft.firstKeptEntryId ?? undefined,
            tokensBefore,
            draft.details,
            true,
            draft.usage,
          );
          break;
        }
      }
      const entry = id === undefined ? undefined : manager.getEntry(id);
      if (entry) appended.push(entry);
    }
    this.#host.agent.state.messages = manager.buildSessionProjection().messages;
    this.#refreshed = true;
    for (const entry of appended) this.#host.emit({ type: "entry_appended", entry });
  }

  #entryIdOf(message: AgentMessage): string | undefined {
    const branch = this.#host.sessionManager.getBranch();
    for (let i = branch.length - 1; i >= 0; i--) {
      const entry = branch[i];
      if (entry.type === "message" && entry.message === message) return entry.id;
    }
    return undefined;
  }

  #invalidContinuation(dispatcher: BoundaryDispatcher, event: Boundary): void {
    dispatcher.reportError(event, `${event} requested continuation without runnable model context`);
  }
}

/** Session entries for `drafts` on top of `path` (checked as the session manager would check them). */
function draftEntries(drafts: BoundaryDraft[], path: SessionEntry[], nextId: () => string): SessionEntry[] {
  if (!Array.isArray(drafts)) throw new Error("entries must be an array");
  const out: SessionEntry[] = [];
  const timestamp = new Date(0).toISOString();
  for (const draft of drafts) {
    const parentId = (out.at(-1) ?? path.at(-1))?.id ?? null;
    const base = { id: nextId(), parentId, timestamp };
    switch (draft?.type) {
      case "custom":
        out.push({ ...base, type: "custom", customType: draft.customType, data: draft.data } as SessionEntry);
        break;
      case "custom_message":
        out.push({
          ...base,
          type: "custom_message",
          customType: draft.customType,
          content: draft.content,
          display: draft.display,
          details: draft.details,
        } as SessionEntry);
        break;
      case "context_edit": {
        const all = [...path, ...out];
        const target = all.find((e) => e.id === draft.targetId);
        const replacement = checkContextEdit(
          target,
          draft.targetId,
          all,
          draft.replacement as ContextEditReplacement | null,
        );
        out.push({ ...base, type: "context_edit", targetId: draft.targetId, replacement } as SessionEntry);
        break;
      }
      case "compaction": {
        const all = [...path, ...out];
        const before = buildSessionProjection([], all.at(-1)?.id ?? null, undefined, all);
        const checkpoint = getCurrentSystemMessage(before.messages);
        out.push({
          ...base,
          type: "compaction",
          summary: draft.summary,
          firstKeptEntryId: draft.firstKeptEntryId ?? base.id,
          tokensBefore: 0,
          details: draft.details,
          usage: draft.usage,
          fromHook: true,
          ...(checkpoint ? { systemMessage: checkpoint } : {}),
        } as SessionEntry);
        break;
      }
    }
  }
  return out;
}
