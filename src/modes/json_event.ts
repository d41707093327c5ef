/**
 * The wire form of session events, shared by `--mode json` and RPC mode (pi 1.6.0's
 * `JsonAgentSessionEvent`). Only `message_update` changes: the cumulative `message` and every
 * `assistantMessageEvent.partial` are dropped and the reply's latest `usage` is added, so each
 * record holds one delta and the stream grows linearly with the reply. A `toolcall_start` names
 * the call (`id`, `toolName`), which the dropped partial used to carry.
 *
 * @module
 */
import type { AssistantMessage, AssistantMessageEvent, Usage } from "../ai/types.ts";
import type { AgentSessionEvent } from "../core/agent_session_types.ts";

/** `T` without its cumulative `partial` (distributes over a union). */
export type WithoutPartial<T> = T extends { partial: unknown } ? Omit<T, "partial"> : T;

/**
 * A provider stream event without its cumulative `partial`; a `toolcall_start` names the call
 * (`id`, `toolName`).
 */
export type JsonAssistantMessageEvent = WithoutPartial<AssistantMessageEvent> & {
  id?: string;
  toolName?: string;
};

/** A session event as JSON and RPC mode write it. */
export type JsonAgentSessionEvent =
  | Exclude<AgentSessionEvent, { type: "message_update" }>
  | { type: "message_update"; usage: Usage; assistantMessageEvent: JsonAssistantMessageEvent };

/** The wire form of `event` (unchanged unless it is a `message_update`). */
export function toJsonEvent(event: AgentSessionEvent): JsonAgentSessionEvent {
  if (event.type !== "message_update") return event;
  const message = event.message as AssistantMessage;
  if (message.role !== "assistant") throw new Error("message_update message is not an assistant message");
  return {
    type: "message_update",
    usage: message.usage,
    assistantMessageEvent: toJsonAssistantEvent(event.assistantMessageEvent),
  };
}

function toJsonAssistantEvent(event: AssistantMessageEvent): JsonAssistantMessageEvent {
  // The hot path (one per delta): built directly, without copying and excluding properties.
  if (event.type === "text_delta" || event.type === "thinking_delta" || event.type === "toolcall_delta") {
    return { type: event.type, contentIndex: event.contentIndex, delta: event.delta };
  }
  if (!("partial" in event)) return event;
  const { partial, ...delta } = event;
  if (event.type === "toolcall_start") {
    const block = partial.content[event.contentIndex];
    if (block?.type !== "toolCall") {
      throw new Error(`toolcall_start content at index ${event.contentIndex} is not a tool call`);
    }
    return { ...delta, id: block.id, toolName: block.name };
  }
  return delta;
}

/** One JSON line (with its LF) for an event. */
export function serializeJsonEvent(event: AgentSessionEvent): string {
  if (event.type === "message_update") {
    // Same bytes as stringifying toJsonEvent(event), without building the wrapper object.
    const { usage, assistantMessageEvent } = toJsonEvent(event) as Extract<
      JsonAgentSessionEvent,
      { type: "message_update" }
    >;
    return `{"type":"message_update","usage":${JSON.stringify(usage)},"assistantMessageEvent":${
      JSON.stringify(assistantMessageEvent)
    }}\n`;
  }
  return `${JSON.stringify(event)}\n`;
}
