/**
 * The `google-generative-ai` wire API (Gemini API, `streamGenerateContent` over SSE) with plain
 * fetch. Behaves as the reference, which drives the official `@google/genai` client: the same
 * request body and headers, the shared client-side retry policy (none unless `maxRetries` asks,
 * as pi-ai 1.6.0; here `retry-after` is honoured too), and the SDK's wording for failures. Nothing is thrown to the caller: every failure
 * ends the stream with an `error` event.
 *
 * @module
 */
import type { ApiProvider } from "../api_provider.ts";
import { calculateCost } from "../cost.ts";
import { getEnvApiKey } from "../env_api_keys.ts";
import type { AssistantMessageEventStream } from "../event_stream.ts";
import { finishWithDone, formatHttpError, noApiKeyStream, runProviderStream } from "../provider_utils.ts";
import { buildBaseOptions } from "../simple_options.ts";
import { clampThinkingLevel } from "../thinking.ts";
import type {
  AssistantMessage,
  Context,
  Model,
  SimpleStreamOptions,
  TextContent,
  ThinkingContent,
  ThinkingLevel,
  ToolCall,
} from "../types.ts";
import { isThinkingPart, mapStopReason, retainThoughtSignature } from "./google_convert.ts";
import {
  buildGoogleParams,
  DEFAULT_GOOGLE_BASE_URL,
  getGoogleBudget,
  getThinkingLevel,
  type GoogleOptions,
  type GoogleParams,
  isGemini3FlashModel,
  isGemini3ProModel,
  isGemma4Model,
  streamPath,
  toWireBody,
} from "./google_request.ts";
import { type GoogleChunk, readGoogleChunks } from "./google_stream_body.ts";
import {
  ProviderHttpError,
  serverRetryDelayMs,
  shouldRetryResponse,
  withProviderRetries,
} from "./provider_retry.ts";

export type { GoogleOptions } from "./google_request.ts";

// Makes generated tool-call ids unique within the process even when two arrive in the same ms.
let toolCallCounter = 0;

/** A failure whose text is final, even when the signal has fired meanwhile. */
class FixedMessageError extends Error {}

/** Google's output messages name the wire API they came through, whatever the model says. */
function setGoogleApi(output: AssistantMessage): void {
  output.api = "google-generative-ai";
}

/**
 * Where and how one Gemini-shaped request goes: the wire API named in the output message, the
 * URL and auth headers for the request (resolved per request, so credentials may be fetched),
 * the secrets to keep out of error texts, and the text for a stream without a finish reason.
 * Vertex AI sends the same body to another host with other credentials.
 */
export interface GoogleWireTarget {
  api: "google-generative-ai" | "google-vertex";
  resolve(model: Model, params: GoogleParams): Promise<GoogleWireRequest>;
  endedWithoutFinish: string;
}

/** The URL, auth headers and secrets of one request of a {@link GoogleWireTarget}. */
export interface GoogleWireRequest {
  url: string;
  headers: Record<string, string>;
  secrets: string[];
}

const GEMINI_TARGET: GoogleWireTarget = {
  api: "google-generative-ai",
  resolve: () => Promise.reject(new Error("unused")),
  endedWithoutFinish: "Google stream ended without a finishReason",
};

/** Streams one Gemini request. */
export function streamGoogle(
  model: Model,
  context: Context,
  options?: GoogleOptions,
): AssistantMessageEventStream {
  return streamGoogleWire(model, context, options, GEMINI_TARGET);
}

/** Streams one request of a Gemini-shaped wire API to `target` (see {@link GoogleWireTarget}). */
export function streamGoogleWire(
  model: Model,
  context: Context,
  options: GoogleOptions | undefined,
  target: GoogleWireTarget,
): AssistantMessageEventStream {
  const signal = options?.signal;
  return runProviderStream(
    model,
    signal,
    (stream, output) => run(model, context, options, stream, output, target),
    {
      prepare: (output) => (output.api = target.api),
      // Whatever broke once the signal fired (fetch, body read), the SDK path reports this.
      report: (error) =>
        signal?.aborted && !(error instanceof FixedMessageError)
          ? new Error("This operation was aborted")
          : error,
    },
  );
}

function geminiRequest(
  model: Model,
  params: GoogleParams,
  options: GoogleOptions | undefined,
): GoogleWireRequest {
  const apiKey = options?.apiKey || getEnvApiKey(model.provider, options?.env) || "";
  const baseUrl = (model.baseUrl || DEFAULT_GOOGLE_BASE_URL).replace(/\/$/, "");
  const headers: Record<string, string> = apiKey ? { "x-goog-api-key": apiKey } : {};
  return { url: `${baseUrl}/${streamPath(params.model)}`, headers, secrets: [apiKey] };
}

async function send(
  model: Model,
  params: GoogleParams,
  options: GoogleOptions | undefined,
  target: GoogleWireTarget,
): Promise<Response> {
  const request = target === GEMINI_TARGET
    ? geminiRequest(model, params, options)
    : await target.resolve(model, params);
  const { url, secrets } = request;
  const headers = new Headers({ "content-type": "application/json" });
  // 1.6.0: a null header value drops that header, the target's defaults included.
  const dropped = new Set<string>();
  for (const [key, value] of Object.entries({ ...model.headers, ...options?.headers })) {
    if (value === null) {
      headers.delete(key);
      dropped.add(key.toLowerCase());
    } else headers.set(key, value);
  }
  for (const [key, value] of Object.entries(request.headers)) {
    if (!headers.has(key) && !dropped.has(key.toLowerCase())) headers.set(key, value);
  }
  const body = JSON.stringify(toWireBody(params));
  return withProviderRetries(async () => {
    let response: Response;
    try {
      response = await fetch(url, { method: "POST", headers, body, signal: options?.signal });
    } catch (error) {
      if (options?.signal?.aborted || !(error instanceof TypeError)) throw error;
      // Node's fetch words every connection failure this way; retry classification relies on it.
      throw new Error("fetch failed", { cause: error });
    }
    if (response.ok) return response;
    const text = await response.text();
    throw new ProviderHttpError(
      formatHttpError(response.status, text, {
        style: "google",
        statusText: response.statusText,
        secrets,
      }),
      response.status,
      shouldRetryResponse(response),
      serverRetryDelayMs(response.headers),
    );
  }, {
    signal: options?.signal,
    maxRetries: options?.maxRetries,
    maxRetryDelayMs: options?.maxRetryDelayMs,
    abortError: () => new Error("This operation was aborted"),
  });
}

async function* chunksOf(
  response: Response,
  signal?: AbortSignal,
  idleTimeoutMs?: number,
): AsyncGenerator<GoogleChunk> {
  if (!response.body) throw new Error("Response body is empty");
  const chunks = readGoogleChunks(response.body, signal, idleTimeoutMs);
  while (true) {
    let next: IteratorResult<GoogleChunk>;
    try {
      next = await chunks.next();
    } catch (error) {
      if (signal?.aborted || !(error instanceof TypeError)) throw error;
      // A body that breaks off reads "terminated", as in Node's fetch.
      throw new Error("terminated", { cause: error });
    }
    if (next.done) return;
    yield next.value;
  }
}

async function run(
  model: Model,
  context: Context,
  options: GoogleOptions | undefined,
  stream: AssistantMessageEventStream,
  output: AssistantMessage,
  target: GoogleWireTarget,
): Promise<void> {
  let params: GoogleParams;
  try {
    params = buildGoogleParams(model, context, options);
  } catch (error) {
    throw new FixedMessageError(error instanceof Error ? error.message : String(error));
  }
  const replaced = await options?.onPayload?.(params, model);
  if (replaced !== undefined) params = replaced as GoogleParams;

  const response = await send(model, params, options, target);
  await options?.onResponse?.(
    { status: response.status, headers: Object.fromEntries(response.headers) },
    model,
  );
  stream.push({ type: "start", partial: output });

  const blocks = output.content;
  let current: TextContent | ThinkingContent | undefined;
  const closeCurrent = () => {
    if (!current) return;
    const contentIndex = blocks.length - 1;
    if (current.type === "text") {
      stream.push({ type: "text_end", contentIndex, content: current.text, partial: output });
    } else {
      stream.push({ type: "thinking_end", contentIndex, content: current.thinking, partial: output });
    }
    current = undefined;
  };

  let finished = false;
  for await (const chunk of chunksOf(response, options?.signal, options?.idleTimeoutMs)) {
    await options?.onProviderStreamEvent?.(chunk, model);
    output.responseId ||= chunk.responseId;
    const candidate = chunk.candidates?.[0];
    for (const part of candidate?.content?.parts ?? []) {
      if (part.text !== undefined) {
        const thinking = isThinkingPart(part);
        if (!current || (thinking ? current.type !== "thinking" : current.type !== "text")) {
          closeCurrent();
          current = thinking ? { type: "thinking", thinking: "" } : { type: "text", text: "" };
          blocks.push(current);
          const contentIndex = blocks.length - 1;
          stream.push({ type: thinking ? "thinking_start" : "text_start", contentIndex, partial: output });
        }
        const contentIndex = blocks.length - 1;
        if (current.type === "thinking") {
          current.thinking += part.text;
          current.thinkingSignature = retainThoughtSignature(
            current.thinkingSignature,
            part.thoughtSignature,
          );
          stream.push({ type: "thinking_delta", contentIndex, delta: part.text, partial: output });
        } else {
          current.text += part.text;
          const signature = retainThoughtSignature(current.textSignature, part.thoughtSignature);
          // Unset rather than undefined keys, so messages compare and serialise cleanly.
          if (signature !== undefined) current.textSignature = signature;
          stream.push({ type: "text_delta", contentIndex, delta: part.text, partial: output });
        }
      }
      if (part.functionCall) {
        closeCurrent();
        const call = part.functionCall;
        // Gemini often omits ids, and a repeated id would make tool results ambiguous.
        const given = call.id;
        const taken = given !== undefined && blocks.some((b) => b.type === "toolCall" && b.id === given);
        const id = !given || taken ? `${call.name}_${Date.now()}_${++toolCallCounter}` : given;
        const toolCall: ToolCall = {
          type: "toolCall",
          id,
          name: call.name || "",
          arguments: call.args ?? {},
          ...(part.thoughtSignature && { thoughtSignature: part.thoughtSignature }),
        };
        blocks.push(toolCall);
        const contentIndex = blocks.length - 1;
        stream.push({ type: "toolcall_start", contentIndex, partial: output });
        stream.push({
          type: "toolcall_delta",
          contentIndex,
          delta: JSON.stringify(toolCall.arguments),
          partial: output,
        });
        stream.push({ type: "toolcall_end", contentIndex, toolCall, partial: output });
      }
    }
    if (candidate?.finishReason) {
      finished = true;
      output.rawStopReason = candidate.finishReason;
      output.stopReason = mapStopReason(candidate.finishReason);
      if (output.stopReason === "stop" && blocks.some((b) => b.type === "toolCall")) {
        output.stopReason = "toolUse";
      }
    }
    const usage = chunk.usageMetadata;
    if (usage) {
      // Google's prompt count includes cached tokens and its answer count excludes thoughts.
      const cached = usage.cachedContentTokenCount || 0;
      output.usage = {
        input: (usage.promptTokenCount || 0) - cached,
        output: (usage.candidatesTokenCount || 0) + (usage.thoughtsTokenCount || 0),
        cacheRead: cached,
        cacheWrite: 0,
        reasoning: usage.thoughtsTokenCount || 0,
        totalTokens: usage.totalTokenCount || 0,
        cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
      };
      calculateCost(model, output.usage);
    }
  }
  closeCurrent();

  if (options?.signal?.aborted) throw new FixedMessageError("Request was aborted");
  // A stream that stops before any finishReason is a failed reply, not a short answer (the
  // reference accepts it as "stop"); "ended without" is a phrase auto-retry recognises.
  if (!finished) throw new FixedMessageError(target.endedWithoutFinish);
  // A safety stop (or similar) leaves nothing usable; say which.
  if (output.stopReason === "aborted" || output.stopReason === "error") {
    const raw = output.rawStopReason;
    throw new FixedMessageError(raw ? `Provider stopped with: ${raw}` : "An unknown error occurred");
  }
  finishWithDone(stream, output, target.endedWithoutFinish);
}

/**
 * Streams with the unified `reasoning` option: Gemini 3 and Gemma 4 get a thinking level, other
 * models a token budget; without `reasoning`, thinking is switched off as far as the model allows.
 */
export function streamSimpleGoogle(
  model: Model,
  context: Context,
  options?: SimpleStreamOptions,
): AssistantMessageEventStream {
  const apiKey = options?.apiKey || getEnvApiKey(model.provider, options?.env);
  if (!apiKey) return noApiKeyStream(model, setGoogleApi);
  return streamGoogle(model, context, googleSimpleOptions(model, context, options, apiKey));
}

/**
 * The stream options for the unified entry of a Gemini-shaped API (shared with Vertex AI):
 * Gemini 3 and Gemma 4 get a thinking level, other models a token budget; without `reasoning`,
 * thinking is switched off as far as the model allows.
 */
export function googleSimpleOptions(
  model: Model,
  context: Context,
  options: SimpleStreamOptions | undefined,
  apiKey: string | undefined,
): GoogleOptions {
  const base = { ...buildBaseOptions(model, context, options, apiKey), toolChoice: options?.toolChoice };
  if (!options?.reasoning) return { ...base, thinking: { enabled: false } };

  const clamped = clampThinkingLevel(model, options.reasoning);
  const effort: ThinkingLevel = clamped === "off" ? "high" : clamped;
  if (isGemini3ProModel(model) || isGemini3FlashModel(model) || isGemma4Model(model)) {
    return { ...base, thinking: { enabled: true, level: getThinkingLevel(effort, model) } };
  }
  return {
    ...base,
    thinking: { enabled: true, budgetTokens: getGoogleBudget(model, effort, options.thinkingBudgets) },
  };
}

/** The registry entry for `google-generative-ai`. */
export const provider: ApiProvider = {
  api: "google-generative-ai",
  stream: (model, context, options) => streamGoogle(model, context, options as GoogleOptions | undefined),
  streamSimple: streamSimpleGoogle,
};
