/**
 * Wire encoder for Mistral's native chat completions (`mistral-conversations`): answers
 * `POST /mistral/v1/chat/completions` (point the model's baseUrl at `<server>/mistral`, which
 * keeps it apart from the OpenAI encoder) with `data:` chunks as api.mistral.ai sends them:
 * thinking as `content: [{type: "thinking", thinking: [{type: "text", text}]}]`, text as plain
 * string deltas, each tool call whole in one chunk with a nine-character id, the finish reason
 * and usage (cached prompt tokens under `prompt_tokens_details`) on the last chunk, then
 * `[DONE]`. HTTP errors carry Mistral's `{object: "error", message, type, param, code}` body;
 * the in-stream error is a chunk with finish reason "error".
 *
 * @module
 */
import { registerEncoder, sse } from "./server.ts";
import { type RecordedRequest, type ScriptedTurn, splitDeltas, stopReasonOf, usageOf } from "./script.ts";

const FINISH = { stop: "stop", length: "length", toolUse: "tool_calls" } as const;

let counter = 0;

function model(request: RecordedRequest): string {
  const body = request.body as { model?: unknown } | undefined;
  return typeof body?.model === "string" ? body.model : "mistral-fake";
}

function encodeChunks(turn: ScriptedTurn, request: RecordedRequest): string[] {
  const id = `cmpl-fake${String(++counter).padStart(6, "0")}`;
  const base = {
    id,
    object: "chat.completion.chunk",
    created: 1700000000,
    model: turn.model ?? model(request),
  };
  const chunk = (delta: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    sse({ ...base, choices: [{ index: 0, delta, finish_reason: null }], ...extra });
  const size = turn.deltaSize ?? 8;
  const out = [chunk({ role: "assistant", content: "" })];
  let callIndex = 0;
  for (const block of turn.content ?? []) {
    if (block.type === "text") {
      for (const piece of splitDeltas(block.text, size)) out.push(chunk({ content: piece }));
    } else if (block.type === "thinking") {
      for (const piece of splitDeltas(block.thinking, size)) {
        out.push(chunk({ content: [{ type: "thinking", thinking: [{ type: "text", text: piece }] }] }));
      }
    } else {
      const callId = (block.id ?? `call${callIndex}abcde`).replace(/[^a-zA-Z0-9]/g, "").slice(0, 9).padEnd(
        9,
        "x",
      );
      out.push(chunk({
        content: "",
        tool_calls: [{
          id: callId,
          function: { name: block.name, arguments: JSON.stringify(block.arguments) },
          index: callIndex++,
        }],
      }));
    }
  }
  const u = usageOf(turn);
  const prompt = u.input + u.cacheRead;
  out.push(sse({
    ...base,
    choices: [{ index: 0, delta: { content: "" }, finish_reason: FINISH[stopReasonOf(turn)] }],
    usage: {
      prompt_tokens: prompt,
      completion_tokens: u.output,
      total_tokens: prompt + u.output,
      ...(u.cacheRead ? { prompt_tokens_details: { cached_tokens: u.cacheRead } } : {}),
    },
  }));
  out.push("data: [DONE]\n\n");
  return out;
}

const ERROR_TYPES: Record<number, string> = {
  400: "invalid_request_error",
  401: "unauthorized",
  429: "rate_limited",
};

registerEncoder({
  matches: (method, path) => method === "POST" && path === "/mistral/v1/chat/completions",
  chunks: encodeChunks,
  errorChunk: () =>
    sse({
      id: "cmpl-error",
      object: "chat.completion.chunk",
      created: 1700000000,
      model: "mistral-fake",
      choices: [{ index: 0, delta: { content: "" }, finish_reason: "error" }],
    }),
  errorBody: (status, message) => ({
    object: "error",
    message,
    type: ERROR_TYPES[status] ?? "internal_server_error",
    param: null,
    code: String(status),
  }),
});
