/**
 * Decoding of the `pi-messages` wire stream (the Radius gateway's protocol): SSE records whose
 * `data:` is one serialized assistant-message event, ending in a `done` or `error` event. The
 * converter replays those events onto the message being built, as pi-ai 1.6.0 does: the server
 * already did the provider work (usage, cost, stop reason), so the client only assembles.
 *
 * @module
 */
import { parseStreamingJson } from "../json_parse.ts";
import type {
  AssistantMessage,
  AssistantMessageEvent,
  JsonObject,
  TextContent,
  ThinkingContent,
  ToolCall,
  Usage,
} from "../types.ts";

/** One event as a pi-messages backend sends it (pi-ai 1.6.0's `PiMessagesEvent`). */
export type PiMessagesEvent = { type: string; contentIndex?: unknown } & Record<string, unknown>;

/** The SSE records of `body`, parsed; `[DONE]` and records without data are skipped. */
export async function* readPiMessagesEvents(
  body: ReadableStream<Uint8Array>,
  signal?: AbortSignal,
): AsyncGenerator<PiMessagesEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  // A stalled body must end when the caller aborts.
  const onAbort = () => void reader.cancel().catch(() => {});
  signal?.addEventListener("abort", onAbort, { once: true });
  try {
    for (;;) {
      let read: ReadableStreamReadResult<Uint8Array>;
      try {
        read = await reader.read();
      } catch (error) {
        if (signal?.aborted) throw abortError(signal);
        // A body that breaks off reads "terminated", as Node's fetch (the reference) words it.
        throw new Error("terminated", { cause: error });
      }
      if (signal?.aborted) throw abortError(signal);
      buffer += read.done ? decoder.decode() : decoder.decode(read.value, { stream: true });
      buffer = buffer.replace(/\r\n/g, "\n");
      for (let split = buffer.indexOf("\n\n"); split !== -1; split = buffer.indexOf("\n\n")) {
        const event = parseRecord(buffer.slice(0, split));
        buffer = buffer.slice(split + 2);
        if (event) yield event;
      }
      if (read.done) break;
    }
    if (buffer.trim()) {
      const event = parseRecord(buffer);
      if (event) yield event;
    }
  } finally {
    signal?.removeEventListener("abort", onAbort);
    await reader.cancel().catch(() => {});
  }
}

/** What an aborted request throws: the caller's reason, worded as Node words the default one. */
export function abortError(signal: AbortSignal): unknown {
  const reason = signal.reason;
  return reason instanceof DOMException && reason.name === "AbortError"
    ? new DOMException("This operation was aborted", "AbortError")
    : reason;
}

function parseRecord(raw: string): PiMessagesEvent | undefined {
  const data = raw.split("\n").find((line) => line.startsWith("data:"))?.slice(5).trim();
  return data && data !== "[DONE]" ? JSON.parse(data) as PiMessagesEvent : undefined;
}

/** Turns wire events into stream events, filling `partial`; a terminal event carries the message. */
export function createPiMessagesConverter(
  partial: AssistantMessage,
): (event: PiMessagesEvent) => AssistantMessageEvent {
  const toolArguments = new Map<number, string>();
  const block = <T>(index: number) => partial.content[index] as unknown as T;
  const finishFields = (event: PiMessagesEvent) => {
    partial.stopReason = event.reason as AssistantMessage["stopReason"];
    partial.usage = event.usage as Usage;
    setIfDefined(partial, "responseId", event.responseId);
    setIfDefined(partial, "responseModel", event.responseModel);
    setIfDefined(partial, "providerThinkingLevel", event.providerThinkingLevel);
    if (event.rewrite) {
      partial.diagnostics = [...partial.diagnostics ?? [], {
        type: "pi_messages_rewrite",
        timestamp: Date.now(),
        details: { ...event.rewrite as JsonObject },
      }];
    }
  };
  return (event) => {
    let index = -1;
    if ("contentIndex" in event) {
      // The index keys the content array: a start adds the next block, other events need an
      // existing one (a huge or odd index must not make a sparse array or reach the prototype).
      const raw = event.contentIndex;
      const limit = event.type.endsWith("_start") ? partial.content.length : partial.content.length - 1;
      if (typeof raw !== "number" || !Number.isInteger(raw) || raw < 0 || raw > limit) {
        throw new Error(`Invalid contentIndex ${JSON.stringify(raw)} in pi-messages ${event.type} event`);
      }
      index = raw;
    }
    switch (event.type) {
      case "done":
        finishFields(event);
        return { type: "done", reason: event.reason, message: partial } as AssistantMessageEvent;
      case "error":
        finishFields(event);
        setIfDefined(partial, "errorMessage", event.errorMessage);
        return { type: "error", reason: event.reason, error: partial } as AssistantMessageEvent;
      case "text_start":
        partial.content[index] = { type: "text", text: "" };
        break;
      case "text_delta":
        block<TextContent>(index).text += String(event.delta);
        break;
      case "text_end": {
        const text = block<TextContent>(index);
        text.text = event.content as string;
        setIfDefined(text, "textSignature", event.contentSignature);
        break;
      }
      case "thinking_start":
        partial.content[index] = { type: "thinking", thinking: "" };
        break;
      case "thinking_delta":
        block<ThinkingContent>(index).thinking += String(event.delta);
        break;
      case "thinking_end": {
        const thinking = block<ThinkingContent>(index);
        thinking.thinking = event.content as string;
        setIfDefined(thinking, "thinkingSignature", event.contentSignature);
        setIfDefined(thinking, "redacted", event.redacted);
        break;
      }
      case "toolcall_start":
        partial.content[index] = {
          type: "toolCall",
          id: event.id as string,
          name: event.toolName as string,
          arguments: {},
        };
        toolArguments.set(index, "");
        break;
      case "toolcall_delta": {
        const sofar = toolArguments.get(index);
        if (sofar !== undefined) {
          const args = sofar + String(event.delta);
          toolArguments.set(index, args);
          block<ToolCall>(index).arguments = parseStreamingJson(args);
        }
        break;
      }
      case "toolcall_end": {
        Object.assign(partial.content[index], event.toolCall);
        toolArguments.delete(index);
        return { type: "toolcall_end", contentIndex: index, toolCall: block<ToolCall>(index), partial };
      }
    }
    return { ...event, partial } as unknown as AssistantMessageEvent;
  };
}

function setIfDefined<T extends object>(target: T, key: string, value: unknown): void {
  if (value !== undefined) (target as Record<string, unknown>)[key] = value;
}
