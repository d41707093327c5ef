/**
 * A quick size estimate of a request, used to keep `max_tokens` inside the context window
 * (pi-ai 1.x). The last successful reply's reported usage counts for everything up to it;
 * later messages, the system prompt and tool definitions are estimated at 3.5 characters per
 * token, images at 4800 characters.
 *
 * @module
 */
import type { AssistantMessage, Context, ImageContent, Message, TextContent, Usage } from "./types.ts";

const CHARS_PER_TOKEN = 3.5;
const ESTIMATED_IMAGE_CHARS = 4800;

function usageTokens(usage: Usage): number {
  return usage.totalTokens || usage.input + usage.output + usage.cacheRead + usage.cacheWrite;
}

function textTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

function contentTokens(content: string | (TextContent | ImageContent)[]): number {
  if (typeof content === "string") return textTokens(content);
  let chars = 0;
  for (const block of content) chars += block.type === "text" ? block.text.length : ESTIMATED_IMAGE_CHARS;
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

function jsonLength(value: unknown): number {
  try {
    return (JSON.stringify(value) ?? "undefined").length;
  } catch {
    return "[unserializable]".length;
  }
}

/** Estimated tokens of one message. */
export function estimateMessageTokens(message: Message): number {
  if (message.role === "user" || message.role === "toolResult") return contentTokens(message.content);
  let chars = 0;
  for (const block of message.content) {
    if (block.type === "text") chars += block.text.length;
    else if (block.type === "thinking") chars += block.thinking.length;
    else chars += block.name.length + jsonLength(block.arguments);
  }
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

/** Estimated tokens of the whole request: system prompt and tools, then the messages. */
export function estimateContextTokens(context: Context): number {
  const messages = context.messages;
  // The newest usable reply whose usage still describes everything before it.
  let lastIndex = -1;
  let latestPrefix = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i];
    if (message.role === "assistant") {
      const reply = message as AssistantMessage;
      const applies = reply.timestamp >= latestPrefix;
      if (
        applies && reply.stopReason !== "aborted" && reply.stopReason !== "error" &&
        usageTokens(reply.usage) > 0
      ) {
        lastIndex = i;
      }
    }
    latestPrefix = Math.max(latestPrefix, message.timestamp);
  }
  if (lastIndex >= 0) {
    let tokens = usageTokens((messages[lastIndex] as AssistantMessage).usage);
    for (let i = lastIndex + 1; i < messages.length; i++) tokens += estimateMessageTokens(messages[i]);
    return tokens;
  }
  // pi-ai folds the prompt and tools into a leading system message; estimate it the same way.
  let tokens = 0;
  if (context.systemPrompt !== undefined || (context.tools && context.tools.length > 0)) {
    tokens += textTokens(context.systemPrompt ?? "");
    if (context.tools && context.tools.length > 0) {
      tokens += Math.ceil(jsonLength(context.tools) / CHARS_PER_TOKEN);
    }
  }
  for (const message of messages) tokens += estimateMessageTokens(message);
  return tokens;
}
