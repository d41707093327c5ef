/**
 * Flattens a conversation into labelled plain text for summarization. Sending it as one text
 * block (rather than as chat turns) keeps the summarizer from continuing the conversation.
 *
 * @module
 */
import { contentText } from "../ai/content_text.ts";
import type { Message } from "../ai/types.ts";

/** Tool results longer than this are cut in summaries; the full text is not needed there. */
export const TOOL_RESULT_MAX_CHARS = 2000;

/** Keeps the first `maxChars` characters and says how many were dropped. */
export function truncateForSummary(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  return `${text.slice(0, maxChars)}\n\n[... ${text.length - maxChars} more characters truncated]`;
}

/**
 * Renders LLM messages (run `convertToLlm` first) as `[User]:`, `[Assistant thinking]:`,
 * `[Assistant]:`, `[Assistant tool calls]:` and `[Tool result]:` paragraphs separated by blank
 * lines. Empty user and tool-result texts are skipped.
 */
export function serializeConversation(messages: Message[]): string {
  const parts: string[] = [];
  for (const msg of messages) {
    if (msg.role === "user") {
      const text = contentText(msg.content);
      if (text) parts.push(`[User]: ${text}`);
    } else if (msg.role === "assistant") {
      const texts: string[] = [];
      const thoughts: string[] = [];
      const calls: string[] = [];
      for (const block of msg.content) {
        if (block.type === "text") texts.push(block.text);
        else if (block.type === "thinking") thoughts.push(block.thinking);
        else if (block.type === "toolCall") {
          const args = Object.entries(block.arguments).map(([k, v]) => `${k}=${JSON.stringify(v)}`);
          calls.push(`${block.name}(${args.join(", ")})`);
        }
      }
      if (thoughts.length > 0) parts.push(`[Assistant thinking]: ${thoughts.join("\n")}`);
      if (texts.length > 0) parts.push(`[Assistant]: ${texts.join("\n")}`);
      if (calls.length > 0) parts.push(`[Assistant tool calls]: ${calls.join("; ")}`);
    } else if (msg.role === "toolResult") {
      const text = contentText(msg.content);
      if (text) parts.push(`[Tool result]: ${truncateForSummary(text, TOOL_RESULT_MAX_CHARS)}`);
    }
  }
  return parts.join("\n\n");
}
