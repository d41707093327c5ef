/**
 * Branch summaries for tree navigation: when the user jumps elsewhere in the session tree, the
 * path being left (back to the common ancestor) is summarized so its findings are not lost.
 *
 * @module
 */
import type { Model, Usage } from "../ai/types.ts";
import type { AgentThinkingLevel, StreamFn } from "../agent/types.ts";
import type { SessionEntry } from "../session/entries.ts";
import { type AgentMessage, convertToLlm } from "../session/messages.ts";
import type { ReadonlySessionManager } from "../session/session_manager.ts";
import { branchMessageOf } from "./entry_messages.ts";
import {
  addFileOpsFromDetails,
  computeFileLists,
  createFileOps,
  extractFileOpsFromMessage,
  type FileOperations,
  formatFileOperations,
} from "./file_tracking.ts";
import { BRANCH_SUMMARY_PREAMBLE, BRANCH_SUMMARY_PROMPT } from "./prompts.ts";
import { serializeConversation } from "./serialize.ts";
import {
  getSummarizationFailure,
  requestSummary,
  type SummaryRetryCallbacks,
  type SummaryRetryPolicy,
} from "./summary_request.ts";
import { contentText } from "../ai/content_text.ts";
import { estimateTokens } from "./token_estimate.ts";

/** Outcome of `generateBranchSummary`: a summary with file lists, or `aborted`, or `error`. */
export interface BranchSummaryResult {
  /** The summary, when one was produced. */
  summary?: string;
  /** Files read on the abandoned branch. */
  readFiles?: string[];
  /** Files changed on the abandoned branch. */
  modifiedFiles?: string[];
  /** What the summary request cost; recorded on the branch summary entry (1.6.0). */
  usage?: Usage;
  /** True when the summary was aborted. */
  aborted?: boolean;
  /** Why the summary failed, if it did. */
  error?: string;
}

/** What pi stores in `BranchSummaryEntry.details`. */
export interface BranchSummaryDetails {
  readFiles: string[];
  modifiedFiles: string[];
}

/** Messages chosen for a branch summary within the token budget. */
export interface BranchPreparation {
  /** Chronological. */
  messages: AgentMessage[];
  /** Files touched on the branch. */
  fileOps: FileOperations;
  /** Estimated tokens of `messages`. */
  totalTokens: number;
}

/** The abandoned path and where it leaves the target's path. */
export interface CollectEntriesResult {
  /** Chronological, from just after the common ancestor to the old leaf. */
  entries: SessionEntry[];
  /** Id of the last entry both paths share; null when they share none. */
  commonAncestorId: string | null;
}

/** Options of {@link generateBranchSummary}. */
export interface GenerateBranchSummaryOptions {
  /** Model that writes the summary. */
  model: Model;
  /** API key for the model, when its provider needs one. */
  apiKey?: string;
  /** Extra HTTP headers for the request. */
  headers?: Record<string, string>;
  /** Environment for credential resolution. */
  env?: Record<string, string>;
  /** Aborts the summary. */
  signal: AbortSignal;
  /** The session's thinking level; used when the model reasons (1.6.0). */
  thinkingLevel?: AgentThinkingLevel;
  /** Extra instructions added to the summary prompt. */
  customInstructions?: string;
  /** Use `customInstructions` instead of the built-in prompt rather than in addition to it. */
  replaceInstructions?: boolean;
  /** Tokens of the context window kept back for prompt and reply (default 16384). */
  reserveTokens?: number;
  /** Streams instead of `streamSimple`. */
  streamFn?: StreamFn;
  /** Retry settings for transient failures. */
  retry?: SummaryRetryPolicy;
  /** Retry notifications (`summarization_retry_*`). */
  callbacks?: SummaryRetryCallbacks;
}

/**
 * Entries on the way from `oldLeafId` back to the deepest entry it shares with `targetId`'s
 * path. Compactions on the way are included; their summaries become context.
 */
export function collectEntriesForBranchSummary(
  session: Pick<ReadonlySessionManager, "getBranch" | "getEntry">,
  oldLeafId: string | null,
  targetId: string,
): CollectEntriesResult {
  if (!oldLeafId) return { entries: [], commonAncestorId: null };
  const oldPath = new Set(session.getBranch(oldLeafId).map((e) => e.id));
  const targetPath = session.getBranch(targetId);
  let commonAncestorId: string | null = null;
  for (let i = targetPath.length - 1; i >= 0; i--) {
    if (oldPath.has(targetPath[i].id)) {
      commonAncestorId = targetPath[i].id;
      break;
    }
  }
  const entries: SessionEntry[] = [];
  let current: string | null = oldLeafId;
  while (current && current !== commonAncestorId) {
    const entry = session.getEntry(current);
    if (!entry) break;
    entries.push(entry);
    current = entry.parentId;
  }
  entries.reverse();
  return { entries, commonAncestorId };
}

/**
 * Picks messages newest first until `tokenBudget` (0 = unlimited) would be exceeded; a summary
 * entry that does not fit is still taken while under 90% of the budget. File lists come from
 * every entry, including details of earlier pi branch summaries, even those over budget.
 */
export function prepareBranchEntries(entries: SessionEntry[], tokenBudget = 0): BranchPreparation {
  const messages: AgentMessage[] = [];
  const fileOps = createFileOps();
  let totalTokens = 0;

  for (const entry of entries) {
    if (entry.type === "branch_summary") addFileOpsFromDetails(entry, fileOps);
  }

  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i];
    const message = branchMessageOf(entry);
    if (!message) continue;
    extractFileOpsFromMessage(message, fileOps);
    const tokens = estimateTokens(message);
    if (tokenBudget > 0 && totalTokens + tokens > tokenBudget) {
      const isSummary = entry.type === "compaction" || entry.type === "branch_summary";
      if (isSummary && totalTokens < tokenBudget * 0.9) {
        messages.unshift(message);
        totalTokens += tokens;
      }
      break;
    }
    messages.unshift(message);
    totalTokens += tokens;
  }
  return { messages, fileOps, totalTokens };
}

/**
 * Summarizes abandoned branch entries (budget: context window, default 128000, minus
 * `reserveTokens`), asked as every summary is (see summary_request.ts: the model's output
 * limit, no cache writes, retries). The summary starts with {@link BRANCH_SUMMARY_PREAMBLE} and
 * ends with the touched-file lists. Failures (`Branch summarization failed: …`, a cut-off reply,
 * a tool call) are returned, not thrown.
 */
export async function generateBranchSummary(
  entries: SessionEntry[],
  options: GenerateBranchSummaryOptions,
): Promise<BranchSummaryResult> {
  const { model, customInstructions, replaceInstructions, reserveTokens = 16384 } = options;
  const tokenBudget = (model.contextWindow || 128000) - reserveTokens;
  const { messages, fileOps } = prepareBranchEntries(entries, tokenBudget);
  if (messages.length === 0) return { summary: "No content to summarize" };

  const conversation = serializeConversation(convertToLlm(messages));
  let instructions = BRANCH_SUMMARY_PROMPT;
  if (replaceInstructions && customInstructions) instructions = customInstructions;
  else if (customInstructions) {
    instructions = `${BRANCH_SUMMARY_PROMPT}\n\nAdditional focus: ${customInstructions}`;
  }
  const response = await requestSummary(
    `<conversation>\n${conversation}\n</conversation>\n\n${instructions}`,
    options,
  );
  if (response.stopReason === "aborted") return { aborted: true };
  const failure = getSummarizationFailure(response, "Branch summarization");
  if (failure) return { error: failure };
  if (response.content.some((b) => b.type === "toolCall")) {
    return { error: "Branch summarization attempted to call a tool" };
  }

  const text = contentText(response.content, "\n");
  const { readFiles, modifiedFiles } = computeFileLists(fileOps);
  const summary = BRANCH_SUMMARY_PREAMBLE + text + formatFileOperations(readFiles, modifiedFiles);
  return { summary: summary || "No summary generated", readFiles, modifiedFiles, usage: response.usage };
}
