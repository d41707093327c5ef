/**
 * Compaction: decide what to summarize (`prepareCompaction`, pure) and ask the model for the
 * summary (`compact`). The caller stores the result as a compaction entry; building the new
 * context from it is the session layer's job.
 *
 * @module
 */
import type { Model, Usage } from "../ai/types.ts";
import type { AgentThinkingLevel, StreamFn } from "../agent/types.ts";
import { buildSessionProjection } from "../session/context.ts";
import type { CompactionEntry, ProjectedEntry, SessionEntry } from "../session/entries.ts";
import { type AgentMessage, convertToLlm } from "../session/messages.ts";
import { findProjectedCutPoint } from "./cut_point.ts";
import {
  addFileOpsFromDetails,
  computeFileLists,
  createFileOps,
  extractFileOpsFromMessage,
  type FileOperations,
  formatFileOperations,
} from "./file_tracking.ts";
import {
  SUMMARIZATION_PROMPT,
  TURN_PREFIX_SUMMARIZATION_PROMPT,
  UPDATE_SUMMARIZATION_PROMPT,
} from "./prompts.ts";
import { serializeConversation } from "./serialize.ts";
import {
  combineUsage,
  requestSummary,
  type SummaryRequestOptions,
  type SummaryRetryCallbacks,
  type SummaryRetryPolicy,
  summaryText,
} from "./summary_request.ts";
import { type CompactionSettings, estimateProjectedContextTokens } from "./token_estimate.ts";

/** What pi stores in `CompactionEntry.details`: files touched by the summarized history. */
export interface CompactionDetails {
  /** Files read by the summarized history. */
  readFiles: string[];
  /** Files changed by the summarized history. */
  modifiedFiles: string[];
}

/** Outcome of `compact()`; the session manager adds id, parentId and timestamp when saving. */
export interface CompactionResult<T = unknown> {
  /** The summary that replaces the older messages. */
  summary: string;
  /** Id of the first entry kept verbatim. */
  firstKeptEntryId: string;
  /** Context tokens before compaction. */
  tokensBefore: number;
  /** Estimated context tokens right after compaction (set by the session that stored it). */
  estimatedTokensAfter?: number;
  /** What the summary request(s) cost; recorded on the compaction entry. */
  usage?: Usage;
  /** pi writes {@link CompactionDetails}; extensions may store their own data. */
  details?: T;
}

/** Everything `compact()` needs, computed up front so extensions can inspect or replace it. */
export interface CompactionPreparation {
  /** Id of the first entry that stays verbatim. */
  firstKeptEntryId: string;
  /** Messages replaced by the summary. */
  messagesToSummarize: AgentMessage[];
  /** When a turn is split: its discarded beginning, summarized separately. */
  turnPrefixMessages: AgentMessage[];
  /** Whether the cut falls inside a turn. */
  isSplitTurn: boolean;
  /** Estimated context size before compacting. */
  tokensBefore: number;
  /** Summary of the previous compaction on this path, to be updated rather than restarted. */
  previousSummary?: string;
  /** Files touched by the summarized messages (and by earlier pi compactions). */
  fileOps: FileOperations;
  /** Settings in force. */
  settings: CompactionSettings;
}

/**
 * The messages a projected entry puts into a summary: none for a compaction (its summary is
 * passed as the previous summary) and no system messages (prompt state, not conversation; the
 * compaction entry carries them on).
 */
function summarizedMessages(entry: ProjectedEntry): AgentMessage[] {
  if (entry.sourceEntry.type === "compaction") return [];
  return entry.messages.filter((m) => m.role !== "system");
}

/**
 * Works out what compacting `pathEntries` (root-to-leaf) would summarize and keep, on the
 * session projection (the context as the model sees it: compaction and context edits applied).
 * Only entries after the previous compaction's kept boundary are considered. Returns undefined
 * when the path already ends in a compaction, when the cut has no entry, or when there is
 * nothing to summarize (a session smaller than `keepRecentTokens`, 1.6.0).
 */
export function prepareCompaction(
  pathEntries: SessionEntry[],
  settings: CompactionSettings,
): CompactionPreparation | undefined {
  if (pathEntries.length > 0 && pathEntries[pathEntries.length - 1].type === "compaction") return undefined;

  const projection = buildSessionProjection(pathEntries);
  const entries = projection.entries;
  // The newest compaction leads the projection; older ones inside its kept range contribute nothing.
  const prevIndex = entries.findIndex((e) => e.sourceEntry.type === "compaction" && e.messages.length > 0);
  const previous = prevIndex >= 0 ? entries[prevIndex].sourceEntry as CompactionEntry : undefined;
  const boundaryStart = prevIndex >= 0 ? prevIndex + 1 : 0;

  const tokensBefore = estimateProjectedContextTokens(projection, pathEntries).tokens;
  const cut = findProjectedCutPoint(entries, boundaryStart, entries.length, settings.keepRecentTokens);
  const firstKept = entries[cut.firstKeptEntryIndex]?.sourceEntry;
  if (!firstKept?.id) return undefined;

  const historyEnd = cut.isSplitTurn ? cut.turnStartIndex : cut.firstKeptEntryIndex;
  const messagesToSummarize = entries.slice(boundaryStart, historyEnd).flatMap(summarizedMessages);
  const turnPrefixMessages = cut.isSplitTurn
    ? entries.slice(cut.turnStartIndex, cut.firstKeptEntryIndex).flatMap(summarizedMessages)
    : [];
  if (messagesToSummarize.length === 0 && turnPrefixMessages.length === 0) return undefined;

  const fileOps = createFileOps();
  if (previous) addFileOpsFromDetails(previous, fileOps);
  for (const m of messagesToSummarize) extractFileOpsFromMessage(m, fileOps);
  for (const m of turnPrefixMessages) extractFileOpsFromMessage(m, fileOps);

  return {
    firstKeptEntryId: firstKept.id,
    messagesToSummarize,
    turnPrefixMessages,
    isSplitTurn: cut.isSplitTurn,
    tokensBefore,
    previousSummary: previous?.summary,
    fileOps,
    settings,
  };
}

/** Joins the history summary and the summary of a split turn's beginning. */
export const SPLIT_TURN_SEPARATOR = "\n\n---\n\n**Turn Context (split turn):**\n\n";

/** The prompt of a (first or updating) history summary. */
function historyPrompt(
  messages: AgentMessage[],
  customInstructions?: string,
  previousSummary?: string,
): string {
  let instructions = previousSummary ? UPDATE_SUMMARIZATION_PROMPT : SUMMARIZATION_PROMPT;
  if (customInstructions) instructions = `${instructions}\n\nAdditional focus: ${customInstructions}`;
  let prompt = `<conversation>\n${serializeConversation(convertToLlm(messages))}\n</conversation>\n\n`;
  if (previousSummary) prompt += `<previous-summary>\n${previousSummary}\n</previous-summary>\n\n`;
  return prompt + instructions;
}

/**
 * Summarizes `currentMessages` and returns the text with the request's usage. With a previous
 * summary the model is asked to update it instead of starting over. The request uses the
 * model's output limit (`_reserveTokens` is unused since 1.4.0: it only decides when compaction
 * starts). Throws `Summarization failed: …` when the request fails or is cut off.
 */
export async function generateSummaryWithUsage(
  currentMessages: AgentMessage[],
  model: Model,
  _reserveTokens: number | undefined,
  apiKey: string | undefined,
  headers?: Record<string, string>,
  signal?: AbortSignal,
  customInstructions?: string,
  previousSummary?: string,
  thinkingLevel?: AgentThinkingLevel,
  streamFn?: StreamFn,
  env?: Record<string, string>,
  retry?: SummaryRetryPolicy,
  callbacks?: SummaryRetryCallbacks,
  sessionId?: string,
): Promise<{ text: string; usage: Usage }> {
  const prompt = historyPrompt(currentMessages, customInstructions, previousSummary);
  const options = {
    model,
    apiKey,
    headers,
    signal,
    thinkingLevel,
    streamFn,
    env,
    retry,
    callbacks,
    sessionId,
  };
  return summaryText(await requestSummary(prompt, options), "Summarization");
}

/** {@link generateSummaryWithUsage} without the usage. */
export async function generateSummary(
  ...args: Parameters<typeof generateSummaryWithUsage>
): Promise<string> {
  return (await generateSummaryWithUsage(...args)).text;
}

/**
 * Produces the compaction summary for a preparation. A split turn gets two requests, one after
 * the other (local servers often take one at a time): the history (or, with nothing new before
 * the turn, the previous summary or "No prior history.") and the turn's beginning, joined by
 * {@link SPLIT_TURN_SEPARATOR}; their usage is added up. The touched-file lists are appended
 * and stored in `details`.
 */
export async function compact(
  preparation: CompactionPreparation,
  model: Model,
  apiKey: string | undefined,
  headers?: Record<string, string>,
  customInstructions?: string,
  signal?: AbortSignal,
  thinkingLevel?: AgentThinkingLevel,
  streamFn?: StreamFn,
  env?: Record<string, string>,
  retry?: SummaryRetryPolicy,
  callbacks?: SummaryRetryCallbacks,
  sessionId?: string,
): Promise<CompactionResult<CompactionDetails>> {
  const { firstKeptEntryId, messagesToSummarize, turnPrefixMessages, isSplitTurn, previousSummary } =
    preparation;
  const options: SummaryRequestOptions = {
    model,
    apiKey,
    headers,
    signal,
    thinkingLevel,
    streamFn,
    env,
    retry,
    callbacks,
    sessionId,
  };
  const history = async () =>
    summaryText(
      await requestSummary(historyPrompt(messagesToSummarize, customInstructions, previousSummary), options),
      "Summarization",
    );

  let summary: string;
  let usage: Usage;
  if (isSplitTurn && turnPrefixMessages.length > 0) {
    let historyText = previousSummary ?? "No prior history.";
    let historyUsage: Usage | undefined;
    if (messagesToSummarize.length > 0) ({ text: historyText, usage: historyUsage } = await history());
    let prompt = `# Conversation\n${
      serializeConversation(convertToLlm(turnPrefixMessages))
    }\n\n# Instructions\n${TURN_PREFIX_SUMMARIZATION_PROMPT}`;
    if (customInstructions) prompt = `${prompt}\n\nAdditional focus: ${customInstructions}`;
    const prefix = summaryText(await requestSummary(prompt, options), "Turn prefix summarization");
    summary = historyText + SPLIT_TURN_SEPARATOR + prefix.text;
    usage = historyUsage ? combineUsage(historyUsage, prefix.usage) : prefix.usage;
  } else {
    ({ text: summary, usage } = await history());
  }

  const { readFiles, modifiedFiles } = computeFileLists(preparation.fileOps);
  summary += formatFileOperations(readFiles, modifiedFiles);
  if (!firstKeptEntryId) throw new Error("First kept entry has no UUID - session may need migration");
  return {
    summary,
    firstKeptEntryId,
    tokensBefore: preparation.tokensBefore,
    usage,
    details: { readFiles, modifiedFiles },
  };
}
