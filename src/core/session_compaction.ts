/**
 * Compaction as AgentSession runs it (LOOP-10…14): manual `compact()`, the threshold check after
 * each run and before each prompt, and overflow recovery (compact, then retry once). The
 * algorithms live in `compaction/`; this module decides when to run them and records results.
 *
 * @module
 */
import type { AgentMessage, AgentThinkingLevel } from "../agent/types.ts";
import { isContextOverflow } from "../ai/overflow.ts";
import type { AssistantMessage, Model } from "../ai/types.ts";
import { isVirtualModel } from "../config/virtual_models.ts";
import { getLatestCompactionEntry } from "../session/context.ts";
import type { SessionHost } from "./session_host.ts";
import type { CompactionReason, CompactionResult } from "./agent_session_types.ts";
import { formatNoApiKeyFoundMessage, formatNoModelSelectedMessage } from "./auth_guidance.ts";
import { omitFailedReply } from "./session_retry.ts";
import {
  calculateContextTokens,
  estimateContextTokens,
  estimateTokens,
  shouldCompact,
} from "../compaction/token_estimate.ts";
import type { SummaryRetryCallbacks, SummaryRetryPolicy } from "../compaction/summary_request.ts";
import type { CompactionPreparation } from "../compaction/compaction.ts";

/** The summarisation code loads when a compaction actually runs. */
function loadCompaction(): Promise<typeof import("../compaction/compaction.ts")> {
  return import("../compaction/compaction.ts");
}

const OVERFLOW_GIVE_UP =
  "Context overflow recovery failed after one compact-and-retry attempt. Try reducing context or switching to a larger-context model.";

/**
 * The `retry` settings and the callbacks that report a summary request's retries as
 * `summarization_retry_*` events, for compaction (with its reason) and branch summaries.
 */
export function summarizationRetry(
  session: Pick<SessionHost, "emit" | "settingsManager">,
  source: { source: "compaction"; reason: CompactionReason } | { source: "branchSummary" },
): { retry: SummaryRetryPolicy; callbacks: SummaryRetryCallbacks } {
  return {
    retry: session.settingsManager.getRetrySettings(),
    callbacks: {
      onRetryScheduled: (attempt, maxAttempts, delayMs, errorMessage) =>
        session.emit({ type: "summarization_retry_scheduled", attempt, maxAttempts, delayMs, errorMessage }),
      onRetryAttemptStart: () => session.emit({ type: "summarization_retry_attempt_start", ...source }),
      onRetryFinished: () => session.emit({ type: "summarization_retry_finished" }),
    },
  };
}

/** Runs compactions for one AgentSession. */
export class SessionCompactor {
  #session: SessionHost;
  #manualAbort?: AbortController;
  #autoAbort?: AbortController;
  #overflowRecoveryAttempted = false;
  #continuation?: Promise<void>;

  constructor(session: SessionHost) {
    this.#session = session;
  }

  /** True while a manual or automatic compaction runs. */
  get isCompacting(): boolean {
    return this.#manualAbort !== undefined || this.#autoAbort !== undefined;
  }

  /** Resolves once a run started after a compaction (retry or queued messages) has finished. */
  async waitForContinuation(): Promise<void> {
    while (this.#continuation) {
      const pending = this.#continuation;
      await pending;
      if (this.#continuation === pending) this.#continuation = undefined;
    }
  }

  /** True while a run after a compaction is scheduled or running. */
  get hasContinuation(): boolean {
    return this.#continuation !== undefined;
  }

  #continueSoon(): void {
    const agent = this.#session.agent;
    this.#continuation = new Promise((resolve) => {
      setTimeout(() => void agent.continue().catch(() => {}).finally(resolve), 100);
    });
  }

  /** Cancels a running compaction. */
  abort(): void {
    this.#manualAbort?.abort();
    this.#autoAbort?.abort();
  }

  /** A new user turn or a good reply re-arms overflow recovery. */
  noteMessage(message: AgentMessage): void {
    if (message.role === "user") this.#overflowRecoveryAttempted = false;
    if (message.role === "assistant" && (message as AssistantMessage).stopReason !== "error") {
      this.#overflowRecoveryAttempted = false;
    }
  }

  async #auth(model: Model | undefined): Promise<{ apiKey: string; headers?: Record<string, string> }> {
    if (!model) throw new Error(formatNoModelSelectedMessage());
    const auth = await this.#session.modelRegistry.getApiKeyAndHeaders(model);
    if (!auth.ok) {
      throw new Error(
        auth.error.startsWith("No API key found") ? formatNoApiKeyFoundMessage(model.provider) : auth.error,
      );
    }
    if (!auth.apiKey) throw new Error(formatNoApiKeyFoundMessage(model.provider));
    return { apiKey: auth.apiKey, headers: auth.headers };
  }

  /**
   * The model and thinking level a summary is made with: the session's, or for a virtual model the
   * one its router picks for a `direct` request (1.6.0 routes before sizing the summary).
   */
  async #summaryModel(
    signal: AbortSignal,
  ): Promise<{ model: Model | undefined; thinkingLevel: AgentThinkingLevel }> {
    const session = this.#session;
    const model = session.model;
    if (!model || !isVirtualModel(model)) return { model, thinkingLevel: session.thinkingLevel };
    const messages = await session.agent.convertToLlm(session.agent.state.messages);
    const route = await session.modelRegistry.resolveVirtualModel(model, messages, {
      reason: "direct",
      thinkingLevel: session.thinkingLevel,
      signal,
    });
    return { model: route.model, thinkingLevel: route.thinkingLevel as AgentThinkingLevel };
  }

  /**
   * pi's own summary for `preparation`: credentials are resolved only now (1.6.0 asks for them
   * after deciding there is something to compact), retries reported as events.
   */
  async #summarize(
    preparation: CompactionPreparation,
    customInstructions: string | undefined,
    signal: AbortSignal,
    reason: CompactionReason,
  ): Promise<CompactionResult> {
    const session = this.#session;
    const { model, thinkingLevel } = await this.#summaryModel(signal);
    if (!model) throw new Error(formatNoModelSelectedMessage());
    const { apiKey, headers } = await this.#auth(model);
    const { compact } = await loadCompaction();
    const { retry, callbacks } = summarizationRetry(session, { source: "compaction", reason });
    return compact(
      preparation,
      model,
      apiKey,
      headers,
      customInstructions,
      signal,
      thinkingLevel,
      // The agent's stream function, as 1.6.0 passes it: the summary request gets the same
      // request settings as a turn (`httpIdleTimeoutMs`, `retry.provider`).
      session.agent.streamFn,
      undefined,
      retry,
      callbacks,
    );
  }

  /** Stores `result`, rebuilds the context, and returns the result with the context's new size. */
  #record(result: CompactionResult): CompactionResult {
    const session = this.#session;
    session.sessionManager.appendCompaction(
      result.summary,
      result.firstKeptEntryId,
      result.tokensBefore,
      result.details,
      false,
      result.usage,
    );
    const messages = session.sessionManager.buildSessionContext().messages as AgentMessage[];
    session.agent.state.messages = messages;
    const estimatedTokensAfter = messages.reduce((sum, m) => sum + estimateTokens(m), 0);
    return {
      summary: result.summary,
      firstKeptEntryId: result.firstKeptEntryId,
      tokensBefore: result.tokensBefore,
      estimatedTokensAfter,
      usage: result.usage,
      details: result.details,
    };
  }

  /** Compacts now (aborting any run first); throws with the reference's texts when it cannot. */
  async compactNow(customInstructions?: string): Promise<CompactionResult> {
    const session = this.#session;
    await session.abort();
    this.#manualAbort = new AbortController();
    const signal = this.#manualAbort.signal;
    session.emit({ type: "compaction_start", reason: "manual" });
    try {
      const model = session.model;
      if (!model) throw new Error(formatNoModelSelectedMessage());
      const { prepareCompaction } = await loadCompaction();
      const branch = session.sessionManager.getBranch();
      const preparation = prepareCompaction(branch, session.settingsManager.getCompactionSettings(model));
      if (!preparation) {
        if (branch[branch.length - 1]?.type === "compaction") throw new Error("Already compacted");
        throw new Error("Nothing to compact (session too small)");
      }
      const summarized = await this.#summarize(preparation, customInstructions, signal, "manual");
      if (signal.aborted) throw new Error("Compaction cancelled");
      const result = this.#record(summarized);
      session.emit({ type: "compaction_end", reason: "manual", result, aborted: false, willRetry: false });
      return result;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const aborted = signal.aborted;
      session.emit({
        type: "compaction_end",
        reason: "manual",
        result: undefined,
        aborted,
        willRetry: false,
        errorMessage: aborted ? undefined : `Compaction failed: ${message}`,
      });
      throw error;
    } finally {
      this.#manualAbort = undefined;
    }
  }

  /**
   * Checks whether `message` calls for a compaction and runs it: after a run (aborted replies
   * skipped) and before a prompt (`skipAborted` false).
   */
  async check(message: AssistantMessage, skipAborted = true): Promise<void> {
    const session = this.#session;
    const settings = session.settingsManager.getCompactionSettings(session.model);
    if (!settings.enabled) return;
    if (skipAborted && message.stopReason === "aborted") return;
    const model = this.#limitsModel(message);
    const contextWindow = model?.contextWindow ?? 0;
    const sameModel = !!model && message.provider === model.provider && message.model === model.id;
    const compaction = getLatestCompactionEntry(session.sessionManager.getBranch());
    const compactedAt = compaction ? new Date(compaction.timestamp).getTime() : undefined;
    // A reply from before the latest compaction describes the old context; ignore it.
    if (compactedAt !== undefined && message.timestamp <= compactedAt) return;

    if (sameModel && isContextOverflow(message, contextWindow)) {
      if (this.#overflowRecoveryAttempted) {
        session.emit({
          type: "compaction_end",
          reason: "overflow",
          result: undefined,
          aborted: false,
          willRetry: false,
          errorMessage: OVERFLOW_GIVE_UP,
        });
        return;
      }
      this.#overflowRecoveryAttempted = true;
      dropTrailingAssistant(session);
      // 1.6.0's recovery order: the failed reply is omitted from the context, then compacted.
      omitFailedReply(session, message);
      await this.#auto("overflow", true);
      return;
    }

    let contextTokens: number;
    if (message.stopReason === "error") {
      const messages = session.agent.state.messages;
      const estimate = estimateContextTokens(messages as never);
      if (estimate.lastUsageIndex === null) return;
      const source = messages[estimate.lastUsageIndex] as AssistantMessage;
      if (compactedAt !== undefined && source.role === "assistant" && source.timestamp <= compactedAt) return;
      contextTokens = estimate.tokens;
    } else {
      contextTokens = calculateContextTokens(message.usage);
    }
    // An unknown window (a virtual model before any response) never asks for a compaction.
    if (contextWindow > 0 && shouldCompact(contextTokens, contextWindow, settings)) {
      await this.#auto("threshold", false);
    }
  }

  /**
   * The model whose limits apply after `message`: the session's, or under a virtual selection the
   * physical model that produced the message (1.6.0), else the virtual model's declared limits.
   */
  #limitsModel(message: AssistantMessage): Model | undefined {
    const model = this.#session.model;
    if (!model || !isVirtualModel(model)) return model;
    const routed = this.#session.modelRegistry.find(message.provider, message.model);
    return routed && !isVirtualModel(routed) ? routed : model;
  }

  /**
   * Between two turns of a run (after tool results, before the next request): compacts when the
   * last reply's context crossed the threshold, so a long tool loop does not run into the
   * window (1.6.0). True when it compacted; the caller then continues from the new context.
   */
  async compactBetweenTurns(message: AssistantMessage): Promise<boolean> {
    const session = this.#session;
    const model = session.model;
    const settings = session.settingsManager.getCompactionSettings(model);
    if (!settings.enabled || !model || this.isCompacting) return false;
    if (message.stopReason === "error" || message.stopReason === "aborted") return false;
    const tokens = calculateContextTokens(message.usage);
    const contextWindow = this.#limitsModel(message)?.contextWindow ?? 0;
    if (contextWindow <= 0 || !shouldCompact(tokens, contextWindow, settings)) return false;
    return await this.#auto("threshold", false, true);
  }

  /** `inRun`: called inside a run, which goes on by itself (no continuation is scheduled). */
  async #auto(reason: CompactionReason, willRetry: boolean, inRun = false): Promise<boolean> {
    const session = this.#session;
    const model = session.model;
    if (!model) return false;
    const { prepareCompaction } = await loadCompaction();
    const settings = session.settingsManager.getCompactionSettings(model);
    const preparation = prepareCompaction(session.sessionManager.getBranch(), settings);
    // As 1.6.0: with nothing to summarise no compaction starts, and no events are sent.
    if (!preparation) return false;

    const end = (extra: { aborted?: boolean; errorMessage?: string; result?: CompactionResult } = {}) =>
      session.emit({
        type: "compaction_end",
        reason,
        result: extra.result,
        aborted: extra.aborted ?? false,
        willRetry: extra.result ? willRetry : false,
        ...(extra.errorMessage ? { errorMessage: extra.errorMessage } : {}),
      });
    this.#autoAbort = new AbortController();
    const signal = this.#autoAbort.signal;
    session.emit({ type: "compaction_start", reason });
    try {
      const summarized = await this.#summarize(preparation, undefined, signal, reason);
      if (signal.aborted) return (end({ aborted: true }), false);
      end({ result: this.#record(summarized) });
      if (inRun) return true;
      if (willRetry) {
        const messages = session.agent.state.messages;
        const last = messages[messages.length - 1] as AssistantMessage | undefined;
        if (last?.role === "assistant" && last.stopReason === "error") {
          session.agent.state.messages = messages.slice(0, -1);
        }
        this.#continueSoon();
      } else if (session.agent.hasQueuedMessages()) {
        // Queued messages would otherwise wait for the next prompt.
        this.#continueSoon();
      }
      return true;
    } catch (error) {
      if (signal.aborted) return (end({ aborted: true }), false);
      const text = error instanceof Error ? error.message : "compaction failed";
      end({
        errorMessage: reason === "overflow"
          ? `Context overflow recovery failed: ${text}`
          : `Auto-compaction failed: ${text}`,
      });
      return false;
    } finally {
      this.#autoAbort = undefined;
    }
  }
}

function dropTrailingAssistant(session: SessionHost): void {
  const messages = session.agent.state.messages;
  if (messages.length > 0 && messages[messages.length - 1].role === "assistant") {
    session.agent.state.messages = messages.slice(0, -1);
  }
}
