/**
 * Read-only views over a session's transcript and entries: statistics, the last answer, and the
 * user messages a fork can start from.
 *
 * @module
 */
import type { AgentMessage } from "../agent/types.ts";
import { contentText } from "../ai/content_text.ts";
import type { AssistantMessage, ImageContent, TextContent } from "../ai/types.ts";
import type { SessionEntry } from "../session/entries.ts";
import type { SessionStats } from "./agent_session_types.ts";

/** Counts and token/cost totals (contextUsage and the session ids are filled in by the caller). */
export function computeStats(
  messages: AgentMessage[],
): Omit<SessionStats, "sessionFile" | "sessionId" | "contextUsage"> {
  const tokens = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 };
  let toolCalls = 0;
  let cost = 0;
  for (const m of messages) {
    if (m.role !== "assistant") continue;
    const a = m as AssistantMessage;
    toolCalls += a.content.filter((c) => c.type === "toolCall").length;
    tokens.input += a.usage.input;
    tokens.output += a.usage.output;
    tokens.cacheRead += a.usage.cacheRead;
    tokens.cacheWrite += a.usage.cacheWrite;
    cost += a.usage.cost.total;
  }
  tokens.total = tokens.input + tokens.output + tokens.cacheRead + tokens.cacheWrite;
  return {
    userMessages: messages.filter((m) => m.role === "user").length,
    assistantMessages: messages.filter((m) => m.role === "assistant").length,
    toolCalls,
    toolResults: messages.filter((m) => m.role === "toolResult").length,
    totalMessages: messages.length,
    tokens,
    cost,
  };
}

/** The text of the last assistant reply, skipping aborted empty replies. */
export function lastAssistantText(messages: AgentMessage[]): string | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.role !== "assistant") continue;
    const a = m as AssistantMessage;
    if (a.stopReason === "aborted" && a.content.length === 0) continue;
    const text = contentText(a.content);
    return text.trim() || undefined;
  }
  return undefined;
}

/** The text of a user message ("" for other roles). */
export function userText(message: AgentMessage): string {
  if (message.role !== "user") return "";
  const content = (message as { content: string | (TextContent | ImageContent)[] }).content;
  return contentText(content);
}

/** User messages a fork can start from, in file order. */
export function forkableUserMessages(entries: SessionEntry[]): { entryId: string; text: string }[] {
  const out: { entryId: string; text: string }[] = [];
  for (const entry of entries) {
    if (entry.type !== "message" || entry.message.role !== "user") continue;
    const text = userText(entry.message as AgentMessage);
    if (text) out.push({ entryId: entry.id, text });
  }
  return out;
}
