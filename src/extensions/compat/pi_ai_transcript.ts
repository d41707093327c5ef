/**
 * 1.6.0 pi-ai's transcript helpers for extensions: building the leading system message from a
 * prompt and tools, collapsing later system messages for APIs that cannot take them mid-
 * conversation, and questions about the tool declarations a transcript carries. The replay of
 * system messages itself is the session's (src/session/system_message.ts).
 *
 * @module
 */
import { contentText } from "../../ai/content_text.ts";
import type { Tool } from "../../ai/types.ts";
import {
  declarationsEqual,
  getCurrentSystemMessage,
  getCurrentTools,
  type SystemMessage,
  type TranscriptMessages,
} from "../../session/system_message.ts";

export {
  createInitialSystemMessage,
  normalizeContext,
  type TranscriptContext,
  type TranscriptMessage,
} from "../transcript_context.ts";
import type { TranscriptContext } from "../transcript_context.ts";

/** How an API takes tool declarations: in place as changes, as additions only, or not at all. */
export type TranscriptToolSupport = "changes" | "additions" | "none";

function isSystem(message: { role: string }): message is SystemMessage {
  return message.role === "system";
}

/** The transcript's leading system message, if it starts with one. */
export function getInitialSystemMessage(messages: TranscriptMessages): SystemMessage | undefined {
  const first = messages[0];
  return first && isSystem(first) ? first : undefined;
}

/** The messages without the leading system message (for APIs carrying the prompt apart). */
export function withoutInitialSystemMessage<T extends { role: string }>(messages: T[]): T[] {
  return getInitialSystemMessage(messages) ? messages.slice(1) : messages;
}

/** The transcript with every system message replayed into one leading system message. */
export function collapseSystemMessages(context: TranscriptContext): TranscriptContext {
  const head = getCurrentSystemMessage(context.messages);
  const messages = context.messages.filter((message) => message.role !== "system");
  return { messages: head ? [head, ...messages] : messages };
}

/** The transcript as it is when the model takes mid-conversation system messages, else collapsed. */
export function resolveTranscript(
  context: TranscriptContext,
  supportsMidConvoSystemMessages: boolean | undefined,
): TranscriptContext {
  return supportsMidConvoSystemMessages ? context : collapseSystemMessages(context);
}

/** Every tool the transcript declares, the last definition of each name, in first-declaration order. */
export function getDeclaredTools(messages: TranscriptMessages): Tool[] {
  const definitions = new Map<string, Tool>();
  for (const message of messages) {
    if (!isSystem(message)) continue;
    for (const tool of message.toolsAdded ?? []) definitions.set(tool.name, tool);
  }
  return [...definitions.values()];
}

/** Whether a tool name was declared twice with different definitions (deprecated in 1.6.0). */
export function hasToolRedefinitions(messages: TranscriptMessages): boolean {
  const declared = new Map<string, Tool>();
  for (const message of messages) {
    if (!isSystem(message)) continue;
    for (const tool of message.toolsAdded ?? []) {
      const previous = declared.get(tool.name);
      if (previous !== undefined && !declarationsEqual(previous, tool)) return true;
      declared.set(tool.name, tool);
    }
  }
  return false;
}

/** Index among `systemMessages` of the last one removing or redeclaring a tool, or -1. */
function lastNonAdditiveChange(systemMessages: readonly SystemMessage[]): number {
  // A name declared before counts as redeclared even after its removal (as 1.6.0).
  const declared = new Set<string>();
  let last = -1;
  systemMessages.forEach((message, index) => {
    if ((message.toolsRemoved?.length ?? 0) > 0) last = index;
    for (const tool of message.toolsAdded ?? []) {
      if (declared.has(tool.name)) last = index;
      declared.add(tool.name);
    }
  });
  return last;
}

/** Whether the tool history removes or redeclares a tool (which an additions-only API cannot replay). */
export function hasNonAdditiveToolChanges(messages: TranscriptMessages): boolean {
  return lastNonAdditiveChange(messages.filter(isSystem)) >= 0;
}

/**
 * Splits the tool declarations between the request's top-level list and in-place changes:
 * "changes" declares all in place; "additions" lists the tools in force after the last removal
 * or redefinition at the top (those system messages are folded into it); "none" lists the
 * current tools.
 */
export function resolveTranscriptTools(
  messages: TranscriptMessages,
  support: TranscriptToolSupport,
): { requestTools: Tool[]; foldedSystemMessages: number } {
  const systemMessages = messages.filter(isSystem);
  if (support === "none") {
    return { requestTools: getCurrentTools(systemMessages), foldedSystemMessages: systemMessages.length };
  }
  if (support === "changes") return { requestTools: [], foldedSystemMessages: 0 };
  const folded = Math.max(
    getInitialSystemMessage(messages) ? 1 : 0,
    lastNonAdditiveChange(systemMessages) + 1,
  );
  return { requestTools: getCurrentTools(systemMessages.slice(0, folded)), foldedSystemMessages: folded };
}

/**
 * A later system message as text for APIs that take system messages mid-conversation: its
 * content, then each changed section framed by name ("Updated …" / "Removed …").
 */
export function renderSystemMessageUpdate(message: Pick<SystemMessage, "content" | "sections">): string {
  const parts: string[] = [];
  const text = contentText(message.content, "\n");
  if (text.length > 0) parts.push(text);
  for (const [name, value] of Object.entries(message.sections ?? {})) {
    parts.push(
      value === null
        ? `Removed system prompt section "${name}".`
        : `Updated system prompt section "${name}":\n\n${value}`,
    );
  }
  return parts.join("\n\n");
}
