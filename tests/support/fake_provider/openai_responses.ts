/**
 * Wire encoder for OpenAI's Responses API (`POST /v1/responses` with `stream: true`): typed
 * events (`event: response.*`) carrying increasing `sequence_number`s, reasoning items with
 * summaries and `encrypted_content`, message items, function calls, and a terminal
 * `response.completed` (or `response.incomplete` when the turn stops for length).
 *
 * A thinking block's `signature` becomes the reasoning item's `encrypted_content`; a tool
 * call id of the form `call_x|fc_y` sets both the `call_id` and the item id.
 *
 * @module
 */
import { registerEncoder, sse, type WireEncoder } from "./server.ts";
import { type RecordedRequest, type ScriptedTurn, splitDeltas, stopReasonOf, usageOf } from "./script.ts";
import { openAIErrorBody } from "./openai_completions.ts";

let idCounter = 0;
// The in-stream error is framed after the scripted chunks were cut; numbering it past the
// last full answer keeps sequence numbers increasing even though some were never sent.
let lastSequence = 0;

function requestedModel(request: RecordedRequest): string {
  const body = request.body as { model?: unknown } | undefined;
  return typeof body?.model === "string" ? body.model : "fake-model";
}

/** The SSE events of a successful streamed response. */
export function responsesChunks(turn: ScriptedTurn, request: RecordedRequest): string[] {
  idCounter++;
  const tag = String(idCounter).padStart(6, "0");
  const body = (request.body ?? {}) as Record<string, unknown>;
  const model = turn.model ?? requestedModel(request);
  const size = turn.deltaSize ?? 8;
  const createdAt = Math.floor(Date.now() / 1000);
  const stop = stopReasonOf(turn);
  const status = stop === "length" ? "incomplete" : "completed";
  let seq = 0;
  const out: string[] = [];
  const emit = (type: string, fields: Record<string, unknown>) => {
    out.push(sse({ type, sequence_number: seq++, ...fields }, type));
  };
  const response = (
    state: string,
    output: unknown[],
    usage: unknown,
  ): Record<string, unknown> => ({
    id: `resp_fake${tag}`,
    object: "response",
    created_at: createdAt,
    status: state,
    error: null,
    incomplete_details: state === "incomplete" ? { reason: "max_output_tokens" } : null,
    instructions: null,
    max_output_tokens: body.max_output_tokens ?? null,
    model,
    output,
    parallel_tool_calls: true,
    previous_response_id: null,
    reasoning: body.reasoning ?? { effort: null, summary: null },
    store: body.store ?? true,
    temperature: body.temperature ?? 1,
    tool_choice: "auto",
    tools: body.tools ?? [],
    top_p: 1,
    truncation: "disabled",
    usage,
    metadata: {},
  });

  emit("response.created", { response: response("in_progress", [], null) });
  emit("response.in_progress", { response: response("in_progress", [], null) });

  const items: Record<string, unknown>[] = [];
  (turn.content ?? []).forEach((block, outputIndex) => {
    if (block.type === "thinking") {
      const id = `rs_fake${tag}_${outputIndex}`;
      const encrypted = block.signature ?? `gAAAAfake${tag}_${outputIndex}`;
      emit("response.output_item.added", {
        output_index: outputIndex,
        item: { id, type: "reasoning", encrypted_content: encrypted, summary: [] },
      });
      const summary = block.redacted || block.thinking === ""
        ? []
        : [{ type: "summary_text", text: block.thinking }];
      if (summary.length > 0) {
        const at = { item_id: id, output_index: outputIndex, summary_index: 0 };
        emit("response.reasoning_summary_part.added", { ...at, part: { type: "summary_text", text: "" } });
        for (const delta of splitDeltas(block.thinking, size)) {
          emit("response.reasoning_summary_text.delta", { ...at, delta });
        }
        emit("response.reasoning_summary_text.done", { ...at, text: block.thinking });
        emit("response.reasoning_summary_part.done", { ...at, part: summary[0] });
      }
      const item = { id, type: "reasoning", encrypted_content: encrypted, summary };
      items.push(item);
      emit("response.output_item.done", { output_index: outputIndex, item });
    } else if (block.type === "text") {
      const id = `msg_fake${tag}_${outputIndex}`;
      emit("response.output_item.added", {
        output_index: outputIndex,
        item: { id, type: "message", status: "in_progress", content: [], role: "assistant" },
      });
      const at = { item_id: id, output_index: outputIndex, content_index: 0 };
      const emptyPart = { type: "output_text", annotations: [], logprobs: [], text: "" };
      emit("response.content_part.added", { ...at, part: emptyPart });
      for (const delta of splitDeltas(block.text, size)) {
        emit("response.output_text.delta", { ...at, delta, logprobs: [] });
      }
      emit("response.output_text.done", { ...at, text: block.text, logprobs: [] });
      const part = { ...emptyPart, text: block.text };
      emit("response.content_part.done", { ...at, part });
      const item = { id, type: "message", status: "completed", content: [part], role: "assistant" };
      items.push(item);
      emit("response.output_item.done", { output_index: outputIndex, item });
    } else {
      const [callId, itemId] = block.id?.includes("|")
        ? block.id.split("|")
        : [block.id ?? `call_fake${tag}_${outputIndex}`, `fc_fake${tag}_${outputIndex}`];
      const args = JSON.stringify(block.arguments);
      const base = { id: itemId, type: "function_call", call_id: callId, name: block.name };
      emit("response.output_item.added", {
        output_index: outputIndex,
        item: { ...base, status: "in_progress", arguments: "" },
      });
      const at = { item_id: itemId, output_index: outputIndex };
      for (const delta of splitDeltas(args, size)) {
        emit("response.function_call_arguments.delta", { ...at, delta });
      }
      emit("response.function_call_arguments.done", { ...at, arguments: args });
      const item = { ...base, status: "completed", arguments: args };
      items.push(item);
      emit("response.output_item.done", { output_index: outputIndex, item });
    }
  });

  const u = usageOf(turn);
  // Responses usage counts cached tokens inside input_tokens.
  const inputTokens = u.input + u.cacheRead + u.cacheWrite;
  const usage = {
    input_tokens: inputTokens,
    input_tokens_details: { cached_tokens: u.cacheRead },
    output_tokens: u.output,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: inputTokens + u.output,
  };
  emit(status === "completed" ? "response.completed" : "response.incomplete", {
    response: response(status, items, usage),
  });
  lastSequence = seq;
  return out;
}

/** The `error` event OpenAI sends mid-stream. */
export function responsesErrorChunk(message: string, code = "server_error"): string {
  return sse({ type: "error", code, message, param: null, sequence_number: lastSequence }, "error");
}

/** The `response.failed` event (a failed response rather than a transport error). */
export function responsesFailedChunk(message: string, code = "server_error"): string {
  return sse({
    type: "response.failed",
    sequence_number: lastSequence,
    response: {
      id: "resp_failed",
      object: "response",
      status: "failed",
      error: { code, message },
      output: [],
    },
  }, "response.failed");
}

/** The Responses encoder. */
export const openAIResponsesEncoder: WireEncoder = {
  matches: (method, path) => method === "POST" && path.endsWith("/responses"),
  chunks: responsesChunks,
  errorChunk: (message) => responsesErrorChunk(message),
  errorBody: openAIErrorBody,
};

registerEncoder(openAIResponsesEncoder);
