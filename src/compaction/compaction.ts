/**
 * Compaction: decide what to summarize (`prepareCompaction`, pure) and ask the model for the
 * summary (`compact`). The caller stores the result as a compaction entry; building the new
 * context from it is the session layer's job.
 *
 * @module
 */
import { contentText } from "../ai/content_text.ts";
import { completeSimple } from "../ai/stream.ts";
import type { Model, SimpleStreamOptions, UserMessage } from "../ai/types.ts";
import type { AgentThinkingLevel } from "../agent/types.ts";
import { buildSessionContext } from "../session/context.ts";
import type { CompactionEntry, SessionEntry } from "../session/entries.ts";
import { type AgentMessage, convertToLlm } from "../session/messages.ts";
import { findCutPoint } from "./cut_point.ts";
import { compactionMessageOf } from "./entry_messages.ts";
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
  SUMMARIZATION_SYSTEM_PROMPT,
  TURN_PREFIX_SUMMARIZATION_PROMPT,
  UPDATE_SUMMARIZATION_PROMPT,
} from "./prompts.ts";
import { serializeConversation } from "./serialize.ts";
import { type CompactionSettings, estimateContextTokens } from "./token_estimate.ts";

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

/** Joins the history summary and the summary of a split turn's beginning. */
export const SPLIT_TURN_SEPARATOR = "\n\n---\n\n**Turn Context (split turn):**\n\n";

/**
 * Works out what compacting `pathEntries` (root-to-leaf) would summarize and keep. Returns
 * undefined when the path already ends in a compaction or the first kept entry has no id
 * (including an empty path). Only entries after the previous compaction's kept boundary are
 * considered; a session smaller than `keepRecentTokens` keeps everything and summarizes nothing.
 */
export function prepareCompaction(
  pathEntries: SessionEntry[],
  settings: CompactionSettings,
): CompactionPreparation | undefined {
  if (pathEntries.length > 0 && pathEntries[pathEntries.length - 1].type === "compaction") return undefined;

  let prevIndex = -1;
  for (let i = pathEntries.length - 1; i >= 0; i--) {
    if (pathEntries[i].type === "compaction") {
      prevIndex = i;
      break;
    }
  }
  let previous: CompactionEntry | undefined;
  let boundaryStart = 0;
  if (prevIndex >= 0) {
    previous = pathEntries[prevIndex] as CompactionEntry;
    const keptIndex = pathEntries.findIndex((e) => e.id === previous!.firstKeptEntryId);
    boundaryStart = keptIndex >= 0 ? keptIndex : prevIndex + 1;
  }

  const tokensBefore = estimateContextTokens(buildSessionContext(pathEntries).messages).tokens;
  const cut = findCutPoint(pathEntries, boundaryStart, pathEntries.length, settings.keepRecentTokens);
  const firstKept = pathEntries[cut.firstKeptEntryIndex];
  if (!firstKept?.id) return undefined;

  const collect = (from: number, to: number): AgentMessage[] => {
    const out: AgentMessage[] = [];
    for (let i = from; i < to; i++) {
      const m = compactionMessageOf(pathEntries[i]);
      if (m) out.push(m);
    }
    return out;
  };
  const historyEnd = cut.isSplitTurn ? cut.turnStartIndex : cut.firstKeptEntryIndex;
  const messagesToSummarize = collect(boundaryStart, historyEnd);
  const turnPrefixMessages = cut.isSplitTurn ? collect(cut.turnStartIndex, cut.firstKeptEntryIndex) : [];

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

/** Request options of a summarization call; reasoning follows the session's level when the model can. */
function requestOptions(
  model: Model,
  maxTokens: number,
  apiKey: string,
  headers: Record<string, string> | undefined,
  signal: AbortSignal | undefined,
  thinkingLevel: AgentThinkingLevel | undefined,
): SimpleStreamOptions {
  if (model.reasoning && thinkingLevel && thinkingLevel !== "off") {
    return { maxTokens, signal, apiKey, headers, reasoning: thinkingLevel };
  }
  return { maxTokens, signal, apiKey, headers };
}

/** Sends one summarization request and returns its text; `failure` prefixes error messages. */
async function summarize(
  model: Model,
  promptText: string,
  options: SimpleStreamOptions,
  failure: string,
): Promise<string> {
  const request: UserMessage = {
    role: "user",
    content: [{ type: "text", text: promptText }],
    timestamp: Date.now(),
  };
  const response = await completeSimple(
    model,
    { systemPrompt: SUMMARIZATION_SYSTEM_PROMPT, messages: [request] },
    options,
  );
  if (response.stopReason === "error") {
    throw new Error(`${failure}: ${response.errorMessage || "Unknown error"}`);
  }
  return contentText(response.content, "\n");
}

/**
 * Summarizes `currentMessages` (max output `floor(0.8 * reserveTokens)`). With a previous
 * summary the model is asked to update it instead of starting over. Throws
 * `Summarization failed: …` when the request fails.
 */
export function generateSummary(
  currentMessages: AgentMessage[],
  model: Model,
  reserveTokens: number,
  apiKey: string,
  headers?: Record<string, string>,
  signal?: AbortSignal,
  customInstructions?: string,
  previousSummary?: string,
  thinkingLevel?: AgentThinkingLevel,
): Promise<string> {
  const maxTokens = Math.floor(0.8 * reserveTokens);
  let instructions = previousSummary ? UPDATE_SUMMARIZATION_PROMPT : SUMMARIZATION_PROMPT;
  if (customInstructions) instructions = `${instructions}\n\nAdditional focus: ${customInstructions}`;
  const conversation = serializeConversation(convertToLlm(currentMessages));
  let promptText = `<conversation>\n${conversation}\n</conversation>\n\n`;
  if (previousSummary) promptText += `<previous-summary>\n${previousSummary}\n</previous-summary>\n\n`;
  promptText += instructions;
  const options = requestOptions(model, maxTokens, apiKey, headers, signal, thinkingLevel);
  return summarize(model, promptText, options, "Summarization failed");
}

/** Summarizes the discarded beginning of a split turn, with half the reserve as output budget. */
function generateTurnPrefixSummary(
  messages: AgentMessage[],
  model: Model,
  reserveTokens: number,
  apiKey: string,
  headers?: Record<string, string>,
  signal?: AbortSignal,
  thinkingLevel?: AgentThinkingLevel,
): Promise<string> {
  const maxTokens = Math.floor(0.5 * reserveTokens);
  const conversation = serializeConversation(convertToLlm(messages));
  const promptText =
    `<conversation>\n${conversation}\n</conversation>\n\n${TURN_PREFIX_SUMMARIZATION_PROMPT}`;
  const options = requestOptions(model, maxTokens, apiKey, headers, signal, thinkingLevel);
  return summarize(model, promptText, options, "Turn prefix summarization failed");
}

/**
 * Produces the compaction summary for a preparation. A split turn gets two requests in
 * parallel (history, or "No prior history." when there is none, plus the turn prefix) joined by
 * {@link SPLIT_TURN_SEPARATOR}. The touched-file lists are appended and stored in `details`.
 */
export async function compact(
  preparation: CompactionPreparation,
  model: Model,
  apiKey: string,
  headers?: Record<string, string>,
  customInstructions?: string,
  signal?: AbortSignal,
  thinkingLevel?: AgentThinkingLevel,
): Promise<CompactionResult<CompactionDetails>> {
  const { firstKeptEntryId, messagesToSummarize, turnPrefixMessages, isSplitTurn, settings } = preparation;
  const history = () =>
    generateSummary(
      messagesToSummarize,
      model,
      settings.reserveTokens,
      apiKey,
      headers,
      signal,
      customInstructions,
      preparation.previousSummary,
      thinkingLevel,
    );

  let summary: string;
  if (isSplitTurn && turnPrefixMessages.length > 0) {
    const [historySummary, prefixSummary] = await Promise.all([
      messagesToSummarize.length > 0 ? history() : Promise.resolve("No prior history."),
      generateTurnPrefixSummary(
        turnPrefixMessages,
        model,
        settings.reserveTokens,
        apiKey,
        headers,
        signal,
        thinkingLevel,
      ),
    ]);
    summary = historySummary + SPLIT_TURN_SEPARATOR + prefixSummary;
  } else {
    summary = await history();
  }

  const { readFiles, modifiedFiles } = computeFileLists(preparation.fileOps);
  summary += formatFileOperations(readFiles, modifiedFiles);
  if (!firstKeptEntryId) throw new Error("First kept entry has no UUID - session may need migration");
  return {
    summary,
    firstKeptEntryId,
    tokensBefore: preparation.tokensBefore,
    details: { readFiles, modifiedFiles },
  };
}
