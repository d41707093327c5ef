/**
 * Tree navigation (`/tree`, RPC and SDK `navigateTree`, SES-18): move the session's leaf to another
 * entry of the same file, optionally leaving a summary of the path being abandoned so its
 * findings survive the jump. Unlike a fork nothing new is created on disk except the summary and
 * label entries.
 *
 * @module
 */
import type { AgentMessage } from "../agent/types.ts";
import { contentText } from "../ai/content_text.ts";
import type { Model, Usage } from "../ai/types.ts";
import type { BranchSummaryEntry, SessionEntry } from "../session/entries.ts";
import { formatNoApiKeyFoundMessage } from "./auth_guidance.ts";
import type { SessionHost } from "./session_host.ts";
import { summarizationRetry } from "./session_compaction.ts";

/** What a `session_before_tree` handler sees: the planned navigation. */
export interface TreePreparation {
  /** Entry to move to. */
  targetId: string;
  /** Leaf before moving. */
  oldLeafId: string | null;
  /** Last entry both paths share. */
  commonAncestorId: string | null;
  /** The abandoned path, oldest first (from just after the common ancestor to the old leaf). */
  entriesToSummarize: SessionEntry[];
  /** Whether the user asked for a summary of the branch left. */
  userWantsSummary: boolean;
  /** Extra instructions for the summary. */
  customInstructions?: string;
  /** Whether the instructions replace the default prompt. */
  replaceInstructions?: boolean;
  /** Label for the summary entry. */
  label?: string;
}

/** A `session_before_tree` handler's answer: cancel, supply the summary, or adjust the options. */
export interface BeforeTreeResult {
  /** True to cancel the move. */
  cancel?: boolean;
  /** Used instead of the model's summary (only when `summarize` was asked for). */
  summary?: { summary: string; details?: unknown };
  /** Extra instructions for the summary. */
  customInstructions?: string;
  /** Whether the instructions replace the default prompt. */
  replaceInstructions?: boolean;
  /** Label for the summary entry. */
  label?: string;
}

/** What a `session_tree` handler is told after the leaf moved. */
export interface TreeNavigatedEvent {
  /** Leaf after moving. */
  newLeafId: string | null;
  /** Leaf before moving. */
  oldLeafId: string | null;
  /** The summary written, if any. */
  summaryEntry?: BranchSummaryEntry;
  /** Set only when a summary was written: whether it came from the hook. */
  fromExtension?: boolean;
}

/**
 * Stand-ins for the reference's extension events `session_before_tree` and `session_tree`
 * (extensions are not wired here); hosts that run extensions plug them in through these.
 */
export interface NavigateTreeHooks {
  /** Called before moving; may cancel or change the summary. */
  onBeforeTree?: (preparation: TreePreparation, signal: AbortSignal) => Promise<BeforeTreeResult | undefined>;
  /** Called after moving. */
  onTree?: (event: TreeNavigatedEvent) => Promise<void> | void;
}

/** Options of {@link navigateTree}. */
export interface NavigateTreeOptions {
  /** Summarize the abandoned path with the session's model. */
  summarize?: boolean;
  /** Extra focus for the summarizer. */
  customInstructions?: string;
  /** `customInstructions` replaces the built-in summary prompt instead of extending it. */
  replaceInstructions?: boolean;
  /** Label for the summary entry (or, without a summary, for the target entry). */
  label?: string;
  /** Extension hooks. */
  hooks?: NavigateTreeHooks;
}

/** Outcome of {@link navigateTree}. */
export interface NavigateTreeResult {
  /** The selected user/custom message's text, for the editor (the leaf moved to its parent). */
  editorText?: string;
  /** True when the move was cancelled. */
  cancelled: boolean;
  /** Summarization was aborted ({@link abortBranchSummary}); nothing changed. */
  aborted?: boolean;
  /** The summary written, if any. */
  summaryEntry?: BranchSummaryEntry;
}

const running = new WeakMap<SessionHost, AbortController>();

/** Cancels the branch summary `session` is generating (the navigation then reports `aborted`). */
export function abortBranchSummary(session: SessionHost): void {
  running.get(session)?.abort();
}

/** Whether `session` is inside a navigation (summarizing or waiting on hooks) — part of "is compacting". */
export function isBranchSummaryRunning(session: SessionHost): boolean {
  return running.has(session);
}

/**
 * Moves the leaf of `session` to `targetId`. Selecting a user or custom message puts the leaf on
 * its parent and returns the message text for re-editing; any other entry becomes the leaf.
 * With `summarize`, the path from the old leaf back to the common ancestor is summarized and the
 * `branch_summary` entry is placed at the new position. The agent's messages are rebuilt from the
 * new leaf. Navigating to the current leaf does nothing.
 */
export async function navigateTree(
  session: SessionHost,
  targetId: string,
  options: NavigateTreeOptions = {},
): Promise<NavigateTreeResult> {
  const manager = session.sessionManager;
  const oldLeafId = manager.getLeafId();
  if (targetId === oldLeafId) return { cancelled: false };
  if (options.summarize && !session.model) throw new Error("No model available for summarization");
  const targetEntry = manager.getEntry(targetId);
  if (!targetEntry) throw new Error(`Entry ${targetId} not found`);

  // Counts as compacting from here on, while the summariser loads too.
  const controller = new AbortController();
  running.set(session, controller);
  try {
    // The branch summariser and its prompts load on the first navigation, not at start-up.
    const { collectEntriesForBranchSummary, generateBranchSummary } = await import(
      "../compaction/branch_summarization.ts"
    );
    const { entries, commonAncestorId } = collectEntriesForBranchSummary(manager, oldLeafId, targetId);
    let { customInstructions, replaceInstructions, label } = options;
    const preparation: TreePreparation = {
      targetId,
      oldLeafId,
      commonAncestorId,
      entriesToSummarize: entries,
      userWantsSummary: options.summarize ?? false,
      customInstructions,
      replaceInstructions,
      label,
    };

    let hookSummary: { summary: string; details?: unknown } | undefined;
    const hookResult = await options.hooks?.onBeforeTree?.(preparation, controller.signal);
    if (hookResult) {
      if (hookResult.cancel) return { cancelled: true };
      if (hookResult.summary && options.summarize) hookSummary = hookResult.summary;
      if (hookResult.customInstructions !== undefined) customInstructions = hookResult.customInstructions;
      if (hookResult.replaceInstructions !== undefined) replaceInstructions = hookResult.replaceInstructions;
      if (hookResult.label !== undefined) label = hookResult.label;
    }

    let summaryText: string | undefined;
    let summaryDetails: unknown;
    let summaryUsage: Usage | undefined;
    if (options.summarize && entries.length > 0 && !hookSummary) {
      const model = session.model!;
      const { apiKey, headers } = await requireRequestAuth(session, model);
      const result = await generateBranchSummary(entries, {
        model,
        apiKey,
        headers,
        signal: controller.signal,
        customInstructions,
        replaceInstructions,
        reserveTokens: session.settingsManager.getBranchSummarySettings().reserveTokens,
        // 1.6.0: the session's thinking level, and retries reported as summarization_retry_* events.
        thinkingLevel: session.thinkingLevel,
        // The agent's stream function: the same request settings as a turn (`httpIdleTimeoutMs`).
        streamFn: session.agent.streamFn,
        ...summarizationRetry(session, { source: "branchSummary" }),
      });
      if (result.aborted) return { cancelled: true, aborted: true };
      if (result.error) throw new Error(result.error);
      summaryText = result.summary;
      summaryDetails = { readFiles: result.readFiles || [], modifiedFiles: result.modifiedFiles || [] };
      summaryUsage = result.usage;
    } else if (hookSummary) {
      summaryText = hookSummary.summary;
      summaryDetails = hookSummary.details;
    }

    let newLeafId: string | null;
    let editorText: string | undefined;
    if (targetEntry.type === "message" && targetEntry.message.role === "user") {
      newLeafId = targetEntry.parentId;
      editorText = textOf((targetEntry.message as { content: unknown }).content);
    } else if (targetEntry.type === "custom_message") {
      newLeafId = targetEntry.parentId;
      editorText = textOf(targetEntry.content);
    } else {
      newLeafId = targetId;
    }

    let summaryEntry: BranchSummaryEntry | undefined;
    if (summaryText) {
      const fromHook = hookSummary !== undefined;
      const summaryId = manager.branchWithSummary(
        newLeafId,
        summaryText,
        summaryDetails,
        fromHook,
        summaryUsage,
      );
      summaryEntry = manager.getEntry(summaryId) as BranchSummaryEntry;
      if (label) manager.appendLabelChange(summaryId, label);
    } else if (newLeafId === null) {
      manager.resetLeaf();
    } else {
      manager.branch(newLeafId);
    }
    if (label && !summaryText) manager.appendLabelChange(targetId, label);

    session.agent.state.messages = manager.buildSessionContext().messages as AgentMessage[];
    await options.hooks?.onTree?.({
      newLeafId: manager.getLeafId(),
      oldLeafId,
      summaryEntry,
      fromExtension: summaryText ? hookSummary !== undefined : undefined,
    });
    return { editorText, cancelled: false, summaryEntry };
  } finally {
    if (running.get(session) === controller) running.delete(session);
  }
}

/** The key and headers for a summarization request, with the same errors a prompt would give. */
async function requireRequestAuth(
  session: SessionHost,
  model: Model,
): Promise<{ apiKey: string; headers?: Record<string, string> }> {
  const result = await session.modelRegistry.getApiKeyAndHeaders(model);
  if (!result.ok) {
    if (result.error.startsWith("No API key found")) {
      throw new Error(formatNoApiKeyFoundMessage(model.provider));
    }
    throw new Error(result.error);
  }
  if (result.apiKey) return { apiKey: result.apiKey, headers: result.headers };
  if (session.modelRegistry.isUsingOAuth(model)) {
    throw new Error(
      `Authentication failed for "${model.provider}". Credentials may have expired or network is unavailable. Run '/login ${model.provider}' to re-authenticate.`,
    );
  }
  throw new Error(formatNoApiKeyFoundMessage(model.provider));
}

function textOf(content: unknown): string {
  return typeof content === "string" || Array.isArray(content) ? contentText(content) : "";
}
