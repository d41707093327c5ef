/**
 * The usage 1.6.0's faux provider reports for a reply: tokens are characters / 4 (rounded up) of
 * the prompt — each message as `role:text`, joined with blank lines — and of the reply; under a
 * `sessionId` (unless `cacheRetention` is "none") a simulated prompt cache takes every prompt token,
 * as read (the prefix shared with that session's previous prompt) or written (the rest).
 *
 * @module
 */
import type { Context } from "../../ai/types.ts";
import { getSystemMessageText } from "../../session/system_message.ts";

// deno-lint-ignore no-explicit-any -- messages of any role and API pass through unchanged
type Loose = any;

/** Estimated tokens of a text. */
export const tokensOf = (text: string): number => Math.ceil(text.length / 4);

function blocksText(content: Loose): string {
  if (typeof content === "string") return content;
  return content.map((block: Loose) =>
    block.type === "text" ? block.text : `[image:${block.mimeType}:${block.data.length}]`
  ).join("\n");
}

export function replyText(content: Loose[]): string {
  return content.map((block) =>
    block.type === "text"
      ? block.text
      : block.type === "thinking"
      ? block.thinking
      : `${block.name}:${JSON.stringify(block.arguments)}`
  ).join("\n");
}

/** One message as prompt text (how the usage estimate sees it). */
function promptText(message: Loose): string {
  switch (message.role) {
    case "system":
      return [
        getSystemMessageText(message),
        ...(message.toolsRemoved ?? []).map((tool: unknown) => `tool-:${JSON.stringify(tool)}`),
        ...(message.toolsAdded ?? []).map((tool: unknown) => `tool+:${JSON.stringify(tool)}`),
      ].filter((part) => part.length > 0).join("\n");
    case "user":
      return blocksText(message.content);
    case "assistant":
      return replyText(message.content);
    default:
      return [message.toolName, ...message.content.map((block: Loose) => blocksText([block]))].join("\n");
  }
}

/** Length of the first `count` parts joined with blank lines. */
function joinedLength(parts: string[], count = parts.length): number {
  let length = count > 0 ? (count - 1) * 2 : 0;
  for (let i = 0; i < count; i++) length += parts[i].length;
  return length;
}

/** Shared prefix length of two joined prompts; whole equal parts first, then characters. */
function sharedPromptLength(before: string[], now: string[]): number {
  let same = 0;
  while (same < before.length && same < now.length && before[same] === now[same]) same++;
  const tail = (parts: string[]) =>
    same === parts.length ? "" : (same > 0 ? "\n\n" : "") + parts.slice(same).join("\n\n");
  const a = tail(before);
  const b = tail(now);
  let chars = 0;
  while (chars < a.length && chars < b.length && a[chars] === b[chars]) chars++;
  return joinedLength(before, same) + chars;
}

export function estimateUsage(
  message: Loose,
  context: Context,
  options: Loose,
  cache: Map<string, string[]>,
) {
  const prompt = (context.messages as Loose[]).map((m) => `${m.role}:${promptText(m)}`);
  const promptTokens = Math.ceil(joinedLength(prompt) / 4);
  const output = tokensOf(replyText(message.content));
  let input = promptTokens;
  let cacheRead = 0;
  let cacheWrite = promptTokens;
  const sessionId = options?.sessionId;
  if (sessionId && options?.cacheRetention !== "none") {
    const before = cache.get(sessionId);
    if (before) {
      cacheRead = Math.ceil(sharedPromptLength(before, prompt) / 4);
      cacheWrite = Math.max(0, promptTokens - cacheRead);
    }
    // The simulated cache takes every prompt token, read or written.
    input = 0;
    cache.set(sessionId, prompt);
  } else cacheWrite = 0;
  return {
    ...message,
    usage: {
      input,
      output,
      cacheRead,
      cacheWrite,
      totalTokens: input + output + cacheRead + cacheWrite,
      cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
    },
  };
}
