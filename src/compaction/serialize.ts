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

/**
 * Keeps the first `maxChars` UTF-16 units and says how many were dropped. A surrogate pair at
 * the cut is left out whole: half of one is invalid text that providers reject (1.6.0).
 */
export function truncateForSummary(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const splitsPair = /[\uD800-\uDBFF]/.test(text[maxChars - 1] ?? "") &&
    /[\uDC00-\uDFFF]/.test(text[maxChars] ?? "");
  const head = text.slice(0, splitsPair ? maxChars - 1 : maxChars);
  return `${head}\n\n[... ${text.length - maxChars} more characters truncated]`;
}

/**
 * Renders LLM messages (run `convertToLlm` first) as `[User]:`, `[Assistant]:`,
 * `[Assistant tool calls]:` and `[Tool result]:` paragraphs separated by blank lines. Empty user
 * and tool-result texts are skipped. Thinking is left out (1.2.0): replayed reasoning is often
 * not what the model saw, and it can make the summary request larger than the context it
 * summarizes; text, tool calls and results record what happened.
 */
export function serializeConversation(messages: Message[]): string {
  const parts: string[] = [];
  for (const msg of messages) {
    if (msg.role === "user") {
      const text = contentText(msg.content);
      if (text) parts.push(`[User]: ${text}`);
    } else if (msg.role === "assistant") {
      const calls: string[] = [];
      for (const block of msg.content) {
        if (block.type === "toolCall") {
          const args = Object.entries(block.arguments).map(([k, v]) => `${k}=${JSON.stringify(v)}`);
          calls.push(`${block.name}(${args.join(", ")})`);
        }
      }
      if (msg.content.some((b) => b.type === "text")) {
        parts.push(`[Assistant]: ${contentText(msg.content, "\n")}`);
      }
      if (calls.length > 0) parts.push(`[Assistant tool calls]: ${calls.join("; ")}`);
    } else if (msg.role === "toolResult") {
      const text = contentText(msg.content);
      if (text) parts.push(`[Tool result]: ${truncateForSummary(text, TOOL_RESULT_MAX_CHARS)}`);
    }
  }
  return parts.join("\n\n");
}
