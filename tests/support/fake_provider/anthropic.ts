/**
 * Wire encoder for Anthropic's Messages API (`POST /v1/messages` with `stream: true`): turns a
 * scripted turn into the SSE records Anthropic sends, ping included, and errors into Anthropic's
 * `{type: "error", error: {type, message}}` shape.
 *
 * @module
 */
import { registerEncoder, sse, type WireEncoder } from "./server.ts";
import {
  type RecordedRequest,
  type ScriptedBlock,
  type ScriptedTurn,
  splitDeltas,
  stopReasonOf,
  usageOf,
} from "./script.ts";

/** Anthropic's error type for an HTTP status, as its API reports it. */
export function anthropicErrorType(status: number): string {
  switch (status) {
    case 400:
      return "invalid_request_error";
    case 401:
      return "authentication_error";
    case 402:
      return "billing_error";
    case 403:
      return "permission_error";
    case 404:
      return "not_found_error";
    case 413:
      return "request_too_large";
    case 429:
      return "rate_limit_error";
    case 504:
      return "timeout_error";
    case 529:
      return "overloaded_error";
    default:
      return status >= 500 ? "api_error" : "invalid_request_error";
  }
}

const STOP_REASONS = { stop: "end_turn", length: "max_tokens", toolUse: "tool_use" } as const;

// Ids only need to be unique within a test run; a counter keeps them readable.
let idCounter = 0;
function nextId(prefix: string): string {
  idCounter++;
  return `${prefix}_fake${String(idCounter).padStart(6, "0")}`;
}

function blockChunks(block: ScriptedBlock, index: number, size: number | undefined): string[] {
  const out: string[] = [];
  const start = (content_block: unknown) =>
    out.push(sse({ type: "content_block_start", index, content_block }, "content_block_start"));
  const delta = (d: unknown) =>
    out.push(sse({ type: "content_block_delta", index, delta: d }, "content_block_delta"));
  if (block.type === "text") {
    start({ type: "text", text: "" });
    for (const text of splitDeltas(block.text, size)) delta({ type: "text_delta", text });
  } else if (block.type === "thinking" && block.redacted) {
    // Redacted thinking arrives whole: its opaque payload sits in the start event.
    start({ type: "redacted_thinking", data: block.signature ?? block.thinking });
  } else if (block.type === "thinking") {
    start({ type: "thinking", thinking: "", signature: "" });
    for (const thinking of splitDeltas(block.thinking, size)) delta({ type: "thinking_delta", thinking });
    if (block.signature !== undefined) delta({ type: "signature_delta", signature: block.signature });
  } else {
    start({ type: "tool_use", id: block.id ?? nextId("toolu"), name: block.name, input: {} });
    // Anthropic opens tool input with an empty fragment before the JSON itself.
    delta({ type: "input_json_delta", partial_json: "" });
    for (const partial_json of splitDeltas(JSON.stringify(block.arguments), size)) {
      delta({ type: "input_json_delta", partial_json });
    }
  }
  out.push(sse({ type: "content_block_stop", index }, "content_block_stop"));
  return out;
}

/** The SSE records of one successful streamed answer. */
export function anthropicChunks(turn: ScriptedTurn, request: RecordedRequest): string[] {
  const body = (request.body ?? {}) as { model?: unknown };
  const model = turn.model ?? (typeof body.model === "string" ? body.model : "claude-fake");
  const usage = usageOf(turn);
  const cacheFields = {
    cache_creation_input_tokens: usage.cacheWrite,
    cache_read_input_tokens: usage.cacheRead,
  };
  const chunks: string[] = [
    sse({
      type: "message_start",
      message: {
        id: nextId("msg"),
        type: "message",
        role: "assistant",
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: usage.input, ...cacheFields, output_tokens: 1, service_tier: "standard" },
      },
    }, "message_start"),
    sse({ type: "ping" }, "ping"),
  ];
  (turn.content ?? []).forEach((block, index) => chunks.push(...blockChunks(block, index, turn.deltaSize)));
  chunks.push(
    sse({
      type: "message_delta",
      delta: { stop_reason: STOP_REASONS[stopReasonOf(turn)], stop_sequence: null },
      usage: { input_tokens: usage.input, ...cacheFields, output_tokens: usage.output },
    }, "message_delta"),
    sse({ type: "message_stop" }, "message_stop"),
  );
  return chunks;
}

/** Anthropic's in-stream error record (the service reports overload this way mid-stream). */
export function anthropicErrorChunk(message: string): string {
  return sse({ type: "error", error: { type: "overloaded_error", message } }, "error");
}

/** Anthropic's JSON body of an HTTP error. */
export function anthropicErrorBody(status: number, message: string): unknown {
  return { type: "error", error: { type: anthropicErrorType(status), message } };
}

const encoder: WireEncoder = {
  matches: (method, path) => method === "POST" && path.endsWith("/v1/messages"),
  chunks: anthropicChunks,
  errorChunk: anthropicErrorChunk,
  errorBody: anthropicErrorBody,
};

registerEncoder(encoder);
