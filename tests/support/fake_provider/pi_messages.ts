/**
 * Wire encoder for the `pi-messages` protocol (the Radius gateway): answers
 * `POST /radius/.../messages` (point the model's baseUrl at `<server>/radius/v1`, which keeps it
 * apart from Anthropic's `/v1/messages`) with `data:` records of serialized assistant-message
 * events: `start`, text/thinking/tool-call `_start`/`_delta`/`_end` with content indexes, then
 * `done` with the stop reason and the usage the gateway already priced (cost here: input $1,
 * output $2, cache read $0.1, cache write $1.25 per million tokens). HTTP errors carry
 * `{error: {message, code}}`; the in-stream error is an `error` event.
 *
 * @module
 */
import { registerEncoder, sse } from "./server.ts";
import { type ScriptedTurn, type ScriptedUsage, splitDeltas, stopReasonOf, usageOf } from "./script.ts";

let counter = 0;

function pricedUsage(u: Required<ScriptedUsage>) {
  const cost = {
    input: u.input / 1e6,
    output: (u.output * 2) / 1e6,
    cacheRead: (u.cacheRead * 0.1) / 1e6,
    cacheWrite: (u.cacheWrite * 1.25) / 1e6,
    total: 0,
  };
  cost.total = cost.input + cost.output + cost.cacheRead + cost.cacheWrite;
  return { ...u, totalTokens: u.input + u.output + u.cacheRead + u.cacheWrite, cost };
}

function encodeChunks(turn: ScriptedTurn): string[] {
  const size = turn.deltaSize ?? 8;
  const out = [sse({ type: "start" })];
  (turn.content ?? []).forEach((block, contentIndex) => {
    if (block.type === "text") {
      out.push(sse({ type: "text_start", contentIndex }));
      for (const delta of splitDeltas(block.text, size)) {
        out.push(sse({ type: "text_delta", contentIndex, delta }));
      }
      out.push(sse({ type: "text_end", contentIndex, content: block.text }));
    } else if (block.type === "thinking") {
      out.push(sse({ type: "thinking_start", contentIndex }));
      for (const delta of splitDeltas(block.thinking, size)) {
        out.push(sse({ type: "thinking_delta", contentIndex, delta }));
      }
      out.push(sse({
        type: "thinking_end",
        contentIndex,
        content: block.thinking,
        ...(block.signature ? { contentSignature: block.signature } : {}),
        ...(block.redacted ? { redacted: true } : {}),
      }));
    } else {
      const id = block.id ?? `call_${contentIndex}`;
      out.push(sse({ type: "toolcall_start", contentIndex, id, toolName: block.name }));
      for (const delta of splitDeltas(JSON.stringify(block.arguments), size)) {
        out.push(sse({ type: "toolcall_delta", contentIndex, delta }));
      }
      out.push(sse({
        type: "toolcall_end",
        contentIndex,
        toolCall: { type: "toolCall", id, name: block.name, arguments: block.arguments },
      }));
    }
  });
  out.push(sse({
    type: "done",
    reason: stopReasonOf(turn),
    usage: pricedUsage(usageOf(turn)),
    responseId: `resp_fake${String(++counter).padStart(6, "0")}`,
    ...(turn.model ? { responseModel: turn.model } : {}),
  }));
  return out;
}

registerEncoder({
  matches: (method, path) => method === "POST" && path.startsWith("/radius/") && path.endsWith("/messages"),
  chunks: encodeChunks,
  errorChunk: (message) =>
    sse({
      type: "error",
      reason: "error",
      usage: pricedUsage(usageOf({})),
      errorMessage: message,
    }),
  errorBody: (status, message) => ({
    error: {
      message,
      code: status === 429 ? "rate_limited" : status === 401 ? "unauthorized" : "upstream_error",
    },
  }),
});
