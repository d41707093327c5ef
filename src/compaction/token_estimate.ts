/**
 * Token accounting for compaction decisions. Exact counts come from provider usage; anything
 * newer than the last usable assistant reply is estimated with a deliberately pessimistic
 * chars/4 heuristic, so compaction triggers a little early rather than too late.
 *
 * @module
 */
import type { AssistantMessage, Usage } from "../ai/types.ts";
import type { SessionEntry, SessionProjection } from "../session/entries.ts";
import type { AgentMessage } from "../session/messages.ts";
import { getCurrentSystemMessage } from "../session/system_message.ts";

/** Compaction knobs with every default resolved (see `DEFAULT_COMPACTION_SETTINGS`). */
export interface CompactionSettings {
  /** Whether automatic compaction runs. */
  enabled: boolean;
  /** Tokens left free for the reply; compaction triggers when the context eats into them. */
  reserveTokens: number;
  /** Roughly how many of the newest tokens stay verbatim after compaction. */
  keepRecentTokens: number;
}

/** The reference's defaults, used when settings.json says nothing. */
export const DEFAULT_COMPACTION_SETTINGS: CompactionSettings = {
  enabled: true,
  reserveTokens: 16384,
  keepRecentTokens: 20000,
};

/** How `estimateContextTokens` arrived at its total, for the context-usage display. */
export interface ContextUsageEstimate {
  /** Estimated context size: `usageTokens + trailingTokens`. */
  tokens: number;
  /** Part of `tokens` reported by the provider on the last usable assistant reply. */
  usageTokens: number;
  /** Part of `tokens` estimated for messages after that reply. */
  trailingTokens: number;
  /** Index of that reply in the message list, or null when none had usage. */
  lastUsageIndex: number | null;
}

/** Characters an image is assumed to cost (about 1200 tokens). */
const IMAGE_CHARS = 4800;

/**
 * Context size implied by one usage record. Some providers leave totalTokens at 0, so the
 * parts are summed as a fallback.
 */
export function calculateContextTokens(usage: Usage): number {
  return usage.totalTokens || usage.input + usage.output + usage.cacheRead + usage.cacheWrite;
}

/**
 * Usage of an assistant reply, unless it was aborted or failed or reports nothing (a truncated
 * response can carry all-zero usage): such figures are not trustworthy.
 */
function usableUsage(message: AgentMessage): Usage | undefined {
  if (message.role !== "assistant") return undefined;
  const assistant = message as AssistantMessage;
  if (assistant.stopReason === "aborted" || assistant.stopReason === "error") return undefined;
  if (!assistant.usage || calculateContextTokens(assistant.usage) <= 0) return undefined;
  return assistant.usage;
}

/** Usage of the newest assistant reply on `entries` that completed normally. */
export function getLastAssistantUsage(entries: SessionEntry[]): Usage | undefined {
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i];
    if (entry.type !== "message") continue;
    const usage = usableUsage(entry.message);
    if (usage) return usage;
  }
  return undefined;
}

/**
 * Context size of `messages`: the provider-reported size at the last usable assistant reply
 * plus an estimate for everything after it (or an estimate of all, if no reply has usage).
 */
export function estimateContextTokens(messages: AgentMessage[]): ContextUsageEstimate {
  let lastIndex = -1;
  let usage: Usage | undefined;
  for (let i = messages.length - 1; i >= 0; i--) {
    usage = usableUsage(messages[i]);
    if (usage) {
      lastIndex = i;
      break;
    }
  }
  if (!usage) {
    let estimated = 0;
    for (const m of messages) estimated += estimateTokens(m);
    return { tokens: estimated, usageTokens: 0, trailingTokens: estimated, lastUsageIndex: null };
  }
  const usageTokens = calculateContextTokens(usage);
  let trailingTokens = 0;
  for (let i = lastIndex + 1; i < messages.length; i++) trailingTokens += estimateTokens(messages[i]);
  return { tokens: usageTokens + trailingTokens, usageTokens, trailingTokens, lastUsageIndex: lastIndex };
}

/**
 * Context size of a projection. Provider usage is trusted only when it was reported after the
 * latest context edit or compaction on `branchEntries` (earlier figures describe a context that
 * no longer exists); otherwise everything is estimated, the system prompt counted once.
 */
export function estimateProjectedContextTokens(
  projection: SessionProjection,
  branchEntries: SessionEntry[],
): ContextUsageEstimate {
  const estimate = estimateContextTokens(projection.messages);
  if (estimate.lastUsageIndex !== null) {
    let first = 0;
    let usageEntryId: string | undefined;
    for (const entry of projection.entries) {
      const next = first + entry.messages.length;
      if (estimate.lastUsageIndex < next) {
        usageEntryId = entry.sourceEntry.id;
        break;
      }
      first = next;
    }
    const usageIndex = usageEntryId ? branchEntries.findIndex((e) => e.id === usageEntryId) : -1;
    let invalidatedAt = -1;
    for (let i = branchEntries.length - 1; i >= 0; i--) {
      const type = branchEntries[i].type;
      if (type === "context_edit" || type === "compaction") {
        invalidatedAt = i;
        break;
      }
    }
    if (usageIndex > invalidatedAt) return estimate;
  }
  const system = getCurrentSystemMessage(projection.messages);
  let tokens = system ? estimateTokens(system as AgentMessage) : 0;
  for (const message of projection.messages) if (message.role !== "system") tokens += estimateTokens(message);
  return { tokens, usageTokens: 0, trailingTokens: tokens, lastUsageIndex: null };
}

/** True when auto-compaction is on and the context has grown into the reserved reply space. */
export function shouldCompact(
  contextTokens: number,
  contextWindow: number,
  settings: CompactionSettings,
): boolean {
  if (!settings.enabled) return false;
  return contextTokens > contextWindow - settings.reserveTokens;
}

/** Text (and image) characters of a content field shared by user, custom and tool-result messages. */
function contentChars(content: unknown): number {
  if (typeof content === "string") return content.length;
  if (!Array.isArray(content)) return 0;
  let chars = 0;
  for (const block of content as { type: string; text?: string }[]) {
    if (block.type === "text" && block.text) chars += block.text.length;
    if (block.type === "image") chars += IMAGE_CHARS;
  }
  return chars;
}

/**
 * Rough token count of one message (chars/4, rounded up). Overestimates on purpose. Images
 * count 4800 chars each; a system message counts its content, sections and added tools.
 */
export function estimateTokens(message: AgentMessage): number {
  let chars = 0;
  switch (message.role) {
    case "system": {
      const system = message as AgentMessage & {
        content: unknown;
        sections?: Record<string, string | null | undefined>;
        toolsAdded?: unknown[];
      };
      chars = contentChars(system.content);
      for (const section of Object.values(system.sections ?? {})) if (section) chars += section.length;
      if (system.toolsAdded) chars += JSON.stringify(system.toolsAdded).length;
      break;
    }
    case "user":
      chars = contentChars(message.content);
      break;
    case "assistant":
      for (const block of message.content) {
        if (block.type === "text") chars += block.text.length;
        else if (block.type === "thinking") chars += block.thinking.length;
        else if (block.type === "toolCall") {
          chars += block.name.length + JSON.stringify(block.arguments).length;
        }
      }
      break;
    case "custom":
    case "toolResult":
      chars = contentChars(message.content);
      break;
    case "bashExecution":
      chars = message.command.length + message.output.length;
      break;
    case "branchSummary":
    case "compactionSummary":
      chars = message.summary.length;
      break;
    default:
      return 0;
  }
  return Math.ceil(chars / 4);
}
