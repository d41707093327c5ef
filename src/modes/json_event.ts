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

/** Where {@link writeJsonEvent} writes: text, or text whose UTF-8 bytes are at hand. */
export interface JsonEventSink {
  write(text: string): void;
  writeEncoded(text: string, bytes: Uint8Array): void;
}

// The start of a delta record, up to its delta, changes a few times per reply at most (the usage,
// the block): kept as text and bytes for the last usage text, delta type and block index.
let prefixUsage = "";
let prefixType = "";
let prefixIndex = -1;
let prefixText = "";
let prefixBytes = new Uint8Array();
const encoder = new TextEncoder();

type DeltaEvent = Extract<
  AssistantMessageEvent,
  { type: "text_delta" | "thinking_delta" | "toolcall_delta" }
>;

/** The delta of a one-per-delta record (a text, thinking or tool-call delta of a reply), else undefined. */
function plainDelta(event: AgentSessionEvent): DeltaEvent | undefined {
  if (event.type !== "message_update" || event.message.role !== "assistant") return undefined;
  const delta = event.assistantMessageEvent;
  if (delta.type !== "text_delta" && delta.type !== "thinking_delta" && delta.type !== "toolcall_delta") {
    return undefined;
  }
  return typeof delta.contentIndex === "number" && typeof delta.delta === "string" ? delta : undefined;
}

/** The start of a delta record, up to its delta's value. */
function deltaPrefix(usage: string, delta: DeltaEvent): string {
  return `{"type":"message_update","usage":${usage},"assistantMessageEvent":{"type":"${delta.type}",` +
    `"contentIndex":${JSON.stringify(delta.contentIndex)},"delta":`;
}

/**
 * Writes the line {@link serializeJsonEvent} gives for `event`. A delta record (one per delta of
 * a reply) goes out as its cached start plus the delta, not built and encoded whole each time.
 */
export function writeJsonEvent(event: AgentSessionEvent, sink: JsonEventSink): void {
  const delta = plainDelta(event);
  if (!delta) return sink.write(serializeJsonEvent(event));
  const usage = usageJson((event as { message: AssistantMessage }).message.usage);
  if (usage !== prefixUsage || delta.type !== prefixType || delta.contentIndex !== prefixIndex) {
    prefixUsage = usage;
    prefixType = delta.type;
    prefixIndex = delta.contentIndex;
    prefixText = deltaPrefix(usage, delta);
    prefixBytes = encoder.encode(prefixText);
  }
  sink.writeEncoded(prefixText, prefixBytes);
  sink.write(`${JSON.stringify(delta.delta)}}}\n`);
}

/** One JSON line (with its LF) for an event. */
export function serializeJsonEvent(event: AgentSessionEvent): string {
  const delta = plainDelta(event);
  if (delta) {
    // One record per delta of a reply: written out directly, the same bytes as below.
    const usage = usageJson((event as { message: AssistantMessage }).message.usage);
    return `${deltaPrefix(usage, delta)}${JSON.stringify(delta.delta)}}}\n`;
  }
  if (event.type === "message_update") {
    // Same bytes as stringifying toJsonEvent(event), without building the wrapper object.
    const { usage, assistantMessageEvent } = toJsonEvent(event) as Extract<
      JsonAgentSessionEvent,
      { type: "message_update" }
    >;
    return `{"type":"message_update","usage":${usageJson(usage)},"assistantMessageEvent":${
      JSON.stringify(assistantMessageEvent)
    }}\n`;
  }
  return `${JSON.stringify(event)}\n`;
}

// Every delta of a reply repeats its usage, which changes a few times per reply at most, so its
// JSON is kept with a flat copy of what it was made from: the same object holding the same
// values in the same order (checked on each use, since providers update usage in place) gives
// the same text.
let lastUsage: unknown;
let lastUsageJson = "";
let lastUsageValues: unknown[] | undefined = [];

function usageJson(usage: Usage): string {
  // Not an object (a custom stream without usage): as JSON.stringify renders it, never kept.
  if (usage === null || typeof usage !== "object") return `${JSON.stringify(usage)}`;
  if (
    usage === lastUsage && lastUsageValues && sameValues(usage, lastUsageValues, 0) === lastUsageValues.length
  ) {
    return lastUsageJson;
  }
  lastUsage = usage;
  lastUsageJson = JSON.stringify(usage);
  lastUsageValues = flatValues(usage, []);
  return lastUsageJson;
}

/** Keys and primitive values of a plain object tree in order, or undefined when not that simple. */
function flatValues(object: object, into: unknown[]): unknown[] | undefined {
  if (Object.getPrototypeOf(object) !== Object.prototype) return undefined;
  for (const key in object) {
    const value = (object as Record<string, unknown>)[key];
    into.push(key);
    if (value !== null && typeof value === "object") {
      into.push(OPEN);
      if (!flatValues(value, into)) return undefined;
      into.push(CLOSE);
    } else {
      into.push(value);
    }
  }
  return into;
}

const OPEN = Symbol("open");
const CLOSE = Symbol("close");

/**
 * How far `object` matches `values` from `at` (the index after its last match), or -1 on a
 * difference; a full match of the top-level object ends at `values.length`.
 */
function sameValues(object: object, values: unknown[], at: number): number {
  if (Object.getPrototypeOf(object) !== Object.prototype) return -1;
  for (const key in object) {
    const value = (object as Record<string, unknown>)[key];
    if (values[at++] !== key) return -1;
    if (value !== null && typeof value === "object") {
      if (values[at++] !== OPEN) return -1;
      at = sameValues(value, values, at);
      if (at < 0 || values[at++] !== CLOSE) return -1;
    } else if (values[at++] !== value) {
      return -1;
    }
  }
  return at;
}
