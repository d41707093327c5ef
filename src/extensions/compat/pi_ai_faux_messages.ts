/**
 * 1.6.0 pi-ai's builders of scripted replies for tests (its "faux" provider's message helpers):
 * text, thinking and tool-call blocks and a whole assistant message attributed to the faux model.
 * The faux provider that streams them is pi_ai_faux_provider.ts.
 *
 * @module
 */
import type { AssistantMessage, StopReason, TextContent, ThinkingContent, ToolCall } from "../../ai/types.ts";
import { emptyUsage } from "../../ai/types.ts";

/** A content block of a scripted reply. */
export type FauxContentBlock = TextContent | ThinkingContent | ToolCall;

/** A text block. */
export function fauxText(text: string): TextContent {
  return { type: "text", text };
}

/** A thinking block. */
export function fauxThinking(thinking: string): ThinkingContent {
  return { type: "thinking", thinking };
}

/** A tool call; without `options.id` it gets a unique `tool:<time>:<random>` id. */
export function fauxToolCall(
  name: string,
  arguments_: ToolCall["arguments"],
  options: { id?: string } = {},
): ToolCall {
  return {
    type: "toolCall",
    id: options.id ?? `tool:${Date.now()}:${Math.random().toString(36).slice(2)}`,
    name,
    arguments: arguments_,
  };
}

/** Options of {@link fauxAssistantMessage}. */
export interface FauxAssistantMessageOptions {
  /** Default "stop". */
  stopReason?: StopReason;
  /** Error text. */
  errorMessage?: string;
  /** Provider response id. */
  responseId?: string;
  /** Default now. */
  timestamp?: number;
  /** A deferred-response handle. */
  deferred?: unknown;
}

/** An assistant message from the faux model (api and provider "faux", model "faux-1", no usage). */
export function fauxAssistantMessage(
  content: string | FauxContentBlock | FauxContentBlock[],
  options: FauxAssistantMessageOptions = {},
): AssistantMessage {
  return {
    role: "assistant",
    content: typeof content === "string" ? [fauxText(content)] : Array.isArray(content) ? content : [content],
    api: "faux",
    provider: "faux",
    model: "faux-1",
    usage: emptyUsage(),
    stopReason: options.stopReason ?? "stop",
    ...(options.deferred === undefined ? {} : { deferred: options.deferred }),
    ...(options.errorMessage === undefined ? {} : { errorMessage: options.errorMessage }),
    ...(options.responseId === undefined ? {} : { responseId: options.responseId }),
    timestamp: options.timestamp ?? Date.now(),
  } as AssistantMessage;
}
