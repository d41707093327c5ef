/**
 * Wire encoder for OpenAI's Chat Completions API (`POST /v1/chat/completions` with
 * `stream: true`): `data:` chunks with `choices[0].delta`, a usage chunk when the request asked
 * for `stream_options.include_usage`, then `data: [DONE]`. Errors use OpenAI's
 * `{error: {message, type, param, code}}` shape.
 *
 * Thinking blocks are sent in the delta field named by the block's `signature`
 * (`reasoning_content` by default; `reasoning` or `reasoning_text` as other OpenAI-compatible
 * servers do), which is also the field the client records as the thinking signature.
 *
 * @module
 */
import { registerEncoder, sse, type WireEncoder } from "./server.ts";
import { type RecordedRequest, type ScriptedTurn, splitDeltas, stopReasonOf, usageOf } from "./script.ts";

/** OpenAI's error `type` and `code` for an HTTP status. */
export function openAIErrorShape(status: number): { type: string; code: string | null } {
  switch (status) {
    case 400:
      return { type: "invalid_request_error", code: null };
    case 401:
      return { type: "invalid_request_error", code: "invalid_api_key" };
    case 403:
      return { type: "invalid_request_error", code: "unsupported_country_region_territory" };
    case 404:
      return { type: "invalid_request_error", code: "model_not_found" };
    case 429:
      return { type: "requests", code: "rate_limit_exceeded" };
    case 503:
    case 529:
      return { type: "server_error", code: "overloaded" };
    default:
      return status >= 500
        ? { type: "server_error", code: null }
        : { type: "invalid_request_error", code: null };
  }
}

/** The JSON body OpenAI answers an HTTP error with. */
export function openAIErrorBody(status: number, message: string): unknown {
  const { type, code } = openAIErrorShape(status);
  return { error: { message, type, param: null, code } };
}

const FINISH_REASONS = { stop: "stop", length: "length", toolUse: "tool_calls" } as const;
const REASONING_FIELDS = new Set(["reasoning_content", "reasoning", "reasoning_text"]);

let idCounter = 0;

function requestedModel(request: RecordedRequest): string {
  const body = request.body as { model?: unknown } | undefined;
  return typeof body?.model === "string" ? body.model : "fake-model";
}

function wantsUsage(request: RecordedRequest): boolean {
  const body = request.body as { stream_options?: { include_usage?: unknown } } | undefined;
  return body?.stream_options?.include_usage === true;
}

/** The SSE chunks of a successful streamed chat completion. */
export function completionsChunks(turn: ScriptedTurn, request: RecordedRequest): string[] {
  idCounter++;
  const id = `chatcmpl-fake${String(idCounter).padStart(6, "0")}`;
  const created = Math.floor(Date.now() / 1000);
  const model = turn.model ?? requestedModel(request);
  const includeUsage = wantsUsage(request);
  const size = turn.deltaSize ?? 8;
  const chunk = (delta: Record<string, unknown>, finishReason: string | null = null): string =>
    sse({
      id,
      object: "chat.completion.chunk",
      created,
      model,
      system_fingerprint: "fp_fake",
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
      ...(includeUsage ? { usage: null } : {}),
    });

  const out: string[] = [chunk({ role: "assistant", content: "", refusal: null })];
  let toolIndex = 0;
  for (const block of turn.content ?? []) {
    if (block.type === "text") {
      for (const piece of splitDeltas(block.text, size)) out.push(chunk({ content: piece }));
    } else if (block.type === "thinking") {
      const field = block.signature && REASONING_FIELDS.has(block.signature)
        ? block.signature
        : "reasoning_content";
      for (const piece of splitDeltas(block.thinking, size)) out.push(chunk({ [field]: piece }));
    } else {
      const index = toolIndex++;
      const callId = block.id ?? `call_fake${String(idCounter).padStart(4, "0")}_${index}`;
      out.push(chunk({
        tool_calls: [{ index, id: callId, type: "function", function: { name: block.name, arguments: "" } }],
      }));
      for (const piece of splitDeltas(JSON.stringify(block.arguments), size)) {
        out.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
      }
    }
  }
  out.push(chunk({}, FINISH_REASONS[stopReasonOf(turn)]));
  if (includeUsage) {
    const u = usageOf(turn);
    const promptTokens = u.input + u.cacheRead + u.cacheWrite;
    const details: Record<string, number> = { cached_tokens: u.cacheRead + u.cacheWrite, audio_tokens: 0 };
    // OpenRouter-style servers report cache writes separately and count them inside cached_tokens.
    if (u.cacheWrite > 0) details.cache_write_tokens = u.cacheWrite;
    out.push(sse({
      id,
      object: "chat.completion.chunk",
      created,
      model,
      system_fingerprint: "fp_fake",
      choices: [],
      usage: {
        prompt_tokens: promptTokens,
        completion_tokens: u.output,
        total_tokens: promptTokens + u.output,
        prompt_tokens_details: details,
        completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0 },
      },
    }));
  }
  out.push(sse("[DONE]"));
  return out;
}

/** The Chat Completions encoder. */
export const openAICompletionsEncoder: WireEncoder = {
  matches: (method, path) => method === "POST" && path.endsWith("/chat/completions"),
  chunks: completionsChunks,
  errorChunk: (message) => sse({ error: { message, type: "server_error", param: null, code: null } }),
  errorBody: openAIErrorBody,
};

registerEncoder(openAICompletionsEncoder);
