/**
 * Read-only views over a session's transcript and entries: the last answer and the user messages a
 * fork can start from (statistics live in src/session/session_stats.ts).
 *
 * @module
 */
import type { AgentMessage } from "../agent/types.ts";
import { contentText } from "../ai/content_text.ts";
import type { AssistantMessage, ImageContent, TextContent } from "../ai/types.ts";
import type { SessionEntry } from "../session/entries.ts";

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
