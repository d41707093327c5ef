/**
 * How 1.6.0 hands a custom provider's `streamSimple` its request: the context's `systemPrompt` and
 * `tools` travel as a leading system message. Apart from pi-ai's other transcript helpers
 * (compat/pi_ai_transcript.ts, which re-exports these) because `pi.registerProvider` needs it
 * while loading any extension, and the compat modules load only when an extension imports them.
 *
 * @module
 */
import type { Message, Tool } from "../ai/types.ts";
import type { SystemMessage } from "../session/system_message.ts";

/** A message of a transcript: a chat message or a system message. */
export type TranscriptMessage = Message | SystemMessage;

/** A request context whose prompt and tools travel as system messages. */
export interface TranscriptContext {
  /** The messages, a leading system message first when there is a prompt or tools. */
  messages: TranscriptMessage[];
}

/** The leading system message for a prompt and tools; undefined when both are empty. */
export function createInitialSystemMessage(systemPrompt?: string, tools?: Tool[]): SystemMessage | undefined {
  const hasPrompt = systemPrompt !== undefined && systemPrompt.length > 0;
  const hasTools = tools !== undefined && tools.length > 0;
  if (!hasPrompt && !hasTools) return undefined;
  return {
    role: "system",
    content: systemPrompt ?? "",
    ...(hasTools ? { toolsAdded: tools } : {}),
    timestamp: 0,
  };
}

/** A context's `systemPrompt` and `tools` folded into a leading system message. */
export function normalizeContext(
  context: { systemPrompt?: string; tools?: Tool[]; messages: TranscriptMessage[] },
): TranscriptContext {
  const initial = createInitialSystemMessage(context.systemPrompt, context.tools);
  return { messages: initial ? [initial, ...context.messages] : context.messages };
}
