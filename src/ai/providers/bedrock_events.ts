/**
 * Bedrock's stream events folded into pi's: text and reasoning deltas open their blocks, tool
 * use arrives as a start plus JSON deltas, encrypted reasoning is kept as one base64 payload,
 * `messageStop` sets the stop reason, `metadata` the usage and cost, and exception or error
 * frames are thrown with their AWS names.
 *
 * @module
 */
import { calculateCost } from "../cost.ts";
import type { AssistantMessageEventStream } from "../event_stream.ts";
import { parseStreamingJson } from "../json_parse.ts";
import type { AssistantMessage, Model, TextContent, ThinkingContent, ToolCall } from "../types.ts";
import type { EventStreamMessage } from "./bedrock_eventstream.ts";
import { BedrockServiceError } from "./bedrock_http.ts";

const REDACTED_THINKING_PLACEHOLDER = "[Reasoning redacted]";

export interface OpenBlock {
  contentIndex: number;
  argsText?: string;
  redacted?: string[];
}

type Json = Record<string, unknown>;

function mapStopReason(
  reason: string | undefined,
): { stopReason: AssistantMessage["stopReason"]; error?: string } {
  switch (reason) {
    case "end_turn":
    case "stop_sequence":
      return { stopReason: "stop" };
    case "max_tokens":
    case "model_context_window_exceeded":
      return { stopReason: "length" };
    case "tool_use":
      return { stopReason: "toolUse" };
    default:
      return reason
        ? { stopReason: "error", error: `Provider stopped with: ${reason}` }
        : { stopReason: "error" };
  }
}

export function flushRedacted(open: OpenBlock, output: AssistantMessage): void {
  const block = output.content[open.contentIndex];
  if (block?.type !== "thinking" || !open.redacted) return;
  // Each chunk is base64 of some bytes; the payload is the bytes joined, encoded once.
  block.thinkingSignature = btoa(open.redacted.map((chunk) => atob(chunk)).join(""));
  open.redacted = undefined;
}

/** Folds one decoded event into the output; throws the in-stream exceptions. */
export function handleEvent(
  message: EventStreamMessage,
  open: Map<number, OpenBlock>,
  output: AssistantMessage,
  stream: AssistantMessageEventStream,
  model: Model,
): Json | undefined {
  const messageType = message.headers[":message-type"];
  const payloadText = new TextDecoder().decode(message.payload);
  if (messageType === "error") {
    const code = String(message.headers[":error-code"] ?? "UnknownError");
    throw Object.assign(new Error(String(message.headers[":error-message"] ?? code)), { name: code });
  }
  let payload: Json;
  try {
    payload = payloadText ? JSON.parse(payloadText) : {};
  } catch {
    throw new Error(`Bedrock event stream: an event's payload is not JSON: ${payloadText.slice(0, 200)}`);
  }
  if (messageType === "exception") {
    const type = String(message.headers[":exception-type"] ?? "UnknownError");
    const code = type.charAt(0).toUpperCase() + type.slice(1);
    const text = typeof payload.message === "string"
      ? payload.message
      : typeof payload.Message === "string"
      ? payload.Message
      : code;
    throw new BedrockServiceError(code, text);
  }
  const eventType = String(message.headers[":event-type"] ?? "");
  const event = { [eventType]: payload };
  if (eventType === "messageStart") {
    if (payload.role !== "assistant") {
      throw new Error("Unexpected assistant message start but got user message start instead");
    }
    stream.push({ type: "start", partial: output });
  } else if (eventType === "contentBlockStart") {
    const toolUse = (payload.start as Json | undefined)?.toolUse as Json | undefined;
    if (toolUse) {
      output.content.push({
        type: "toolCall",
        id: String(toolUse.toolUseId ?? ""),
        name: String(toolUse.name ?? ""),
        arguments: {},
      });
      const contentIndex = output.content.length - 1;
      open.set(Number(payload.contentBlockIndex), { contentIndex, argsText: "" });
      stream.push({ type: "toolcall_start", contentIndex, partial: output });
    }
  } else if (eventType === "contentBlockDelta") {
    handleDelta(payload, open, output, stream);
  } else if (eventType === "contentBlockStop") {
    const index = Number(payload.contentBlockIndex);
    const block = open.get(index);
    if (block) {
      open.delete(index);
      const content = output.content[block.contentIndex];
      if (content.type === "text") {
        stream.push({
          type: "text_end",
          contentIndex: block.contentIndex,
          content: content.text,
          partial: output,
        });
      } else if (content.type === "thinking") {
        flushRedacted(block, output);
        stream.push({
          type: "thinking_end",
          contentIndex: block.contentIndex,
          content: content.thinking,
          partial: output,
        });
      } else if (content.type === "toolCall") {
        content.arguments = parseStreamingJson(block.argsText ?? "");
        stream.push({
          type: "toolcall_end",
          contentIndex: block.contentIndex,
          toolCall: content,
          partial: output,
        });
      }
    }
  } else if (eventType === "messageStop") {
    const reason = typeof payload.stopReason === "string" ? payload.stopReason : undefined;
    output.rawStopReason = reason;
    const mapped = mapStopReason(reason);
    output.stopReason = mapped.stopReason;
    if (mapped.error) output.errorMessage = mapped.error;
  } else if (eventType === "metadata") {
    const usage = payload.usage as Json | undefined;
    if (usage) {
      const n = (v: unknown) => (typeof v === "number" ? v : 0);
      output.usage.input = n(usage.inputTokens);
      output.usage.output = n(usage.outputTokens);
      output.usage.cacheRead = n(usage.cacheReadInputTokens);
      output.usage.cacheWrite = n(usage.cacheWriteInputTokens);
      const details = usage.cacheDetails as { ttl?: string; inputTokens?: number }[] | undefined;
      output.usage.cacheWrite1h = details?.reduce((t, d) => t + (d.ttl === "1h" ? d.inputTokens ?? 0 : 0), 0);
      output.usage.totalTokens = n(usage.totalTokens) || output.usage.input + output.usage.output;
      calculateCost(model, output.usage);
    }
  }
  return event;
}

function handleDelta(
  payload: Json,
  open: Map<number, OpenBlock>,
  output: AssistantMessage,
  stream: AssistantMessageEventStream,
): void {
  const index = Number(payload.contentBlockIndex);
  const delta = payload.delta as Json | undefined;
  let block = open.get(index);
  if (typeof delta?.text === "string") {
    if (!block) {
      output.content.push({ type: "text", text: "" });
      block = { contentIndex: output.content.length - 1 };
      open.set(index, block);
      stream.push({ type: "text_start", contentIndex: block.contentIndex, partial: output });
    }
    const content = output.content[block.contentIndex];
    if (content.type === "text") {
      (content as TextContent).text += delta.text;
      stream.push({
        type: "text_delta",
        contentIndex: block.contentIndex,
        delta: delta.text,
        partial: output,
      });
    }
  } else if (delta?.toolUse) {
    const content = block && output.content[block.contentIndex];
    if (!block || content?.type !== "toolCall" || block.argsText === undefined) return;
    const input = String((delta.toolUse as Json).input ?? "");
    block.argsText += input;
    (content as ToolCall).arguments = parseStreamingJson(block.argsText);
    stream.push({ type: "toolcall_delta", contentIndex: block.contentIndex, delta: input, partial: output });
  } else if (delta?.reasoningContent) {
    const reasoning = delta.reasoningContent as {
      text?: string;
      signature?: string;
      redactedContent?: string;
    };
    if (!block) {
      output.content.push({ type: "thinking", thinking: "", thinkingSignature: "" });
      block = { contentIndex: output.content.length - 1 };
      open.set(index, block);
      stream.push({ type: "thinking_start", contentIndex: block.contentIndex, partial: output });
    }
    const content = output.content[block.contentIndex] as ThinkingContent;
    if (content.type !== "thinking") return;
    if (reasoning.text) {
      content.thinking += reasoning.text;
      stream.push({
        type: "thinking_delta",
        contentIndex: block.contentIndex,
        delta: reasoning.text,
        partial: output,
      });
    }
    // A signature and an opaque redacted payload never mix in `thinkingSignature`.
    if (reasoning.signature && !content.redacted) {
      content.thinkingSignature = (content.thinkingSignature || "") + reasoning.signature;
    }
    if (reasoning.redactedContent) {
      if (!content.redacted) {
        content.redacted = true;
        content.thinkingSignature = "";
        content.thinking += REDACTED_THINKING_PLACEHOLDER;
        stream.push({
          type: "thinking_delta",
          contentIndex: block.contentIndex,
          delta: REDACTED_THINKING_PLACEHOLDER,
          partial: output,
        });
      }
      (block.redacted ??= []).push(reasoning.redactedContent);
    }
  }
}

export async function* bodyChunks(
  body: ReadableStream<Uint8Array>,
  signal?: AbortSignal,
): AsyncGenerator<Uint8Array> {
  const reader = body.getReader();
  try {
    for (;;) {
      let read: ReadableStreamReadResult<Uint8Array>;
      try {
        read = await reader.read();
      } catch (error) {
        if (signal?.aborted) throw error;
        // A body that breaks off reads "terminated" as with the other APIs, so auto-retry sees it
        // (pi-ai 1.6.0 reports Node's bare "aborted" here, which nothing retries).
        throw new Error("terminated", { cause: error });
      }
      const { value, done } = read;
      if (done) return;
      if (value) yield value;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}
