/**
 * Makes a conversation replayable on a (possibly different) model: provider-specific pieces
 * that another model would reject are converted or dropped, and the tool-call/tool-result
 * pairing every API insists on is restored.
 *
 * @module
 */
import type {
  AssistantMessage,
  ImageContent,
  Message,
  Model,
  TextContent,
  ToolCall,
  ToolResultMessage,
} from "./types.ts";

/** Placeholder for user images sent to a text-only model. */
export const USER_IMAGE_OMITTED = "(image omitted: model does not support images)";
/** Placeholder for tool-result images sent to a text-only model. */
export const TOOL_IMAGE_OMITTED = "(tool image omitted: model does not support images)";
/** Text of the synthetic result given to a tool call that never got one. */
export const MISSING_TOOL_RESULT_TEXT = "No result provided";

/** Rewrites a tool-call id into a form the target API accepts. */
export type NormalizeToolCallId = (id: string, model: Model, source: AssistantMessage) => string;

function replaceImages(
  content: (TextContent | ImageContent)[],
  placeholder: string,
): (TextContent | ImageContent)[] {
  const out: (TextContent | ImageContent)[] = [];
  let lastWasPlaceholder = false;
  for (const block of content) {
    if (block.type === "image") {
      // Runs of images collapse into one note.
      if (!lastWasPlaceholder) out.push({ type: "text", text: placeholder });
      lastWasPlaceholder = true;
      continue;
    }
    out.push(block);
    lastWasPlaceholder = block.text === placeholder;
  }
  return out;
}

function dropImagesIfUnsupported(messages: Message[], model: Model): Message[] {
  if (model.input.includes("image")) return messages;
  return messages.map((msg) => {
    if (msg.role === "user" && Array.isArray(msg.content)) {
      return { ...msg, content: replaceImages(msg.content, USER_IMAGE_OMITTED) };
    }
    if (msg.role === "toolResult") {
      return { ...msg, content: replaceImages(msg.content, TOOL_IMAGE_OMITTED) };
    }
    return msg;
  });
}

function transformAssistant(
  msg: AssistantMessage,
  model: Model,
  idMap: Map<string, string>,
  normalizeToolCallId?: NormalizeToolCallId,
): AssistantMessage {
  const sameModel = msg.provider === model.provider && msg.api === model.api && msg.model === model.id;
  const content = msg.content.flatMap((block): AssistantMessage["content"] => {
    if (block.type === "thinking") {
      // pi-ai 1.3.0: thinking from another model is dropped. Signatures only mean something to
      // the model that made them, and readable thinking sent as text reads as part of the reply.
      if (!sameModel) return [];
      // Redacted and signed blocks stay even when empty (encrypted reasoning is replayed).
      if (block.redacted || block.thinkingSignature) return [block];
      if (!block.thinking || block.thinking.trim() === "") return [];
      return [block];
    }
    if (block.type === "text") {
      return sameModel ? [block] : [{ type: "text", text: block.text }];
    }
    let call: ToolCall = block;
    if (!sameModel && call.thoughtSignature) {
      call = { ...call };
      delete call.thoughtSignature;
    }
    if (!sameModel && normalizeToolCallId) {
      const id = normalizeToolCallId(block.id, model, msg);
      if (id !== block.id) {
        idMap.set(block.id, id);
        call = { ...call, id };
      }
    }
    return [call];
  });
  return { ...msg, content };
}

/**
 * Prepares `messages` for `model`: images become a note for text-only models; thinking from
 * another model becomes plain text (empty thinking and foreign redacted thinking are dropped,
 * signatures survive only on the same model); tool-call ids are rewritten with
 * `normalizeToolCallId` for other models' calls, results following along; errored or aborted
 * assistant turns are left out; and tool calls without a result get an error result
 * "No result provided" before the next turn.
 */
export function transformMessages(
  messages: Message[],
  model: Model,
  normalizeToolCallId?: NormalizeToolCallId,
): Message[] {
  const idMap = new Map<string, string>();
  const transformed = dropImagesIfUnsupported(messages, model).map((msg): Message => {
    if (msg.role === "toolResult") {
      const id = idMap.get(msg.toolCallId);
      return id && id !== msg.toolCallId ? { ...msg, toolCallId: id } : msg;
    }
    if (msg.role === "assistant") return transformAssistant(msg, model, idMap, normalizeToolCallId);
    return msg;
  });

  const result: Message[] = [];
  let pending: ToolCall[] = [];
  let answered = new Set<string>();
  const closePendingCalls = () => {
    for (const call of pending) {
      if (answered.has(call.id)) continue;
      const synthetic: ToolResultMessage = {
        role: "toolResult",
        toolCallId: call.id,
        toolName: call.name,
        content: [{ type: "text", text: MISSING_TOOL_RESULT_TEXT }],
        isError: true,
        timestamp: Date.now(),
      };
      result.push(synthetic);
    }
    pending = [];
    answered = new Set();
  };

  for (const msg of transformed) {
    if (msg.role === "assistant") {
      closePendingCalls();
      // Incomplete turns are not replayed; the model continues from the last good state.
      if (msg.stopReason === "error" || msg.stopReason === "aborted") continue;
      const calls = msg.content.filter((b): b is ToolCall => b.type === "toolCall");
      if (calls.length > 0) {
        pending = calls;
        answered = new Set();
      }
      result.push(msg);
    } else if (msg.role === "toolResult") {
      answered.add(msg.toolCallId);
      result.push(msg);
    } else {
      closePendingCalls();
      result.push(msg);
    }
  }
  closePendingCalls();
  return result;
}
