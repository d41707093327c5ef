/**
 * Wire encoder for the Gemini API (`google-generative-ai`): answers
 * `POST …/models/{model}:streamGenerateContent?alt=sse` with `data:` chunks of
 * GenerateContentResponse, as generativelanguage.googleapis.com does.
 *
 * Shapes follow what the service sends: thinking arrives as parts with `thought: true`, function
 * calls arrive whole (one part each, parallel calls in the same chunk), every chunk carries
 * `usageMetadata`, the last chunk carries `finishReason` (tool calls also end with `STOP`).
 * Errors that happen after HTTP 200 arrive as a bare JSON object, not as an SSE record.
 *
 * @module
 */
import { registerEncoder, sse } from "./server.ts";
import { type RecordedRequest, type ScriptedTurn, splitDeltas, stopReasonOf, usageOf } from "./script.ts";

const STREAM_PATH = /\/models\/([^/]+):streamGenerateContent$/;

/** Google's canonical status names for the HTTP codes the tests use. */
const STATUS_NAMES: Record<number, string> = {
  400: "INVALID_ARGUMENT",
  401: "UNAUTHENTICATED",
  403: "PERMISSION_DENIED",
  404: "NOT_FOUND",
  409: "ABORTED",
  429: "RESOURCE_EXHAUSTED",
  499: "CANCELLED",
  500: "INTERNAL",
  501: "NOT_IMPLEMENTED",
  503: "UNAVAILABLE",
  504: "DEADLINE_EXCEEDED",
};

/** The `{error:{code,message,status}}` body Google sends with an HTTP error. */
export function googleErrorBody(status: number, message: string): unknown {
  return { error: { code: status, message, status: STATUS_NAMES[status] ?? "UNKNOWN" } };
}

let responseCounter = 0;

type Part = Record<string, unknown>;

function encodeChunks(turn: ScriptedTurn, request: RecordedRequest): string[] {
  const requested = STREAM_PATH.exec(request.path)?.[1] ?? "gemini";
  const modelVersion = turn.model ?? decodeURIComponent(requested);
  const responseId = `fakeResp${++responseCounter}`;
  const usage = usageOf(turn);
  const prompt = usage.input + usage.cacheRead;
  const size = turn.deltaSize ?? 8;

  // Each entry is the parts list of one chunk.
  const partLists: Part[][] = [];
  const blocks = turn.content ?? [];
  for (let i = 0; i < blocks.length; i++) {
    const block = blocks[i];
    if (block.type === "text") {
      for (const piece of splitDeltas(block.text, size)) partLists.push([{ text: piece }]);
    } else if (block.type === "thinking") {
      const pieces = splitDeltas(block.thinking, size);
      pieces.forEach((piece, n) => {
        const part: Part = { text: piece, thought: true };
        if (n === pieces.length - 1 && block.signature) part.thoughtSignature = block.signature;
        partLists.push([part]);
      });
    } else {
      // Consecutive calls travel together, as Gemini sends parallel calls in one chunk.
      const parts: Part[] = [];
      for (; i < blocks.length && blocks[i].type === "toolCall"; i++) {
        const call = blocks[i] as Extract<typeof block, { type: "toolCall" }>;
        parts.push({
          functionCall: { ...(call.id ? { id: call.id } : {}), name: call.name, args: call.arguments },
        });
      }
      i--;
      partLists.push(parts);
    }
  }
  if (partLists.length === 0) partLists.push([]);

  const finishReason = stopReasonOf(turn) === "length" ? "MAX_TOKENS" : "STOP";
  // Gemini counts thinking apart from the answer; half the output goes to thoughts when the turn thinks.
  const thoughts = blocks.some((b) => b.type === "thinking") ? Math.floor(usage.output / 2) : 0;
  return partLists.map((parts, n) => {
    const last = n === partLists.length - 1;
    const candidate: Record<string, unknown> = {
      content: parts.length ? { parts, role: "model" } : { role: "model" },
      index: 0,
    };
    if (last) candidate.finishReason = finishReason;
    const usageMetadata: Record<string, unknown> = last
      ? {
        promptTokenCount: prompt,
        candidatesTokenCount: usage.output - thoughts,
        totalTokenCount: prompt + usage.output,
        ...(usage.cacheRead ? { cachedContentTokenCount: usage.cacheRead } : {}),
        ...(thoughts ? { thoughtsTokenCount: thoughts } : {}),
        promptTokensDetails: [{ modality: "TEXT", tokenCount: prompt }],
      }
      : { promptTokenCount: prompt, totalTokenCount: prompt };
    return sse({ candidates: [candidate], usageMetadata, modelVersion, responseId });
  });
}

registerEncoder({
  matches: (method, path) => method === "POST" && STREAM_PATH.test(path),
  chunks: encodeChunks,
  // Sent bare (no `data:` framing), the way the service reports failures after streaming began.
  errorChunk: (message) => JSON.stringify(googleErrorBody(500, message)) + "\n",
  errorBody: googleErrorBody,
});
