/**
 * The `openai-codex-responses` wire API: OpenAI's Responses event stream from the ChatGPT
 * backend (`<base>/codex/responses`) that a ChatGPT Plus/Pro subscription pays for, as pi-ai
 * 1.6.0 speaks it over server-sent events. The token is the OAuth access token; the account id
 * comes from its claims. The body is zstd-compressed when the runtime can (the backend decodes
 * `Content-Encoding: zstd`). The events are read by the openai-responses code after Codex's
 * own mapping (`error` / `response.failed` events end the reply as "Codex error: …";
 * `response.done` and `response.incomplete` count as completion).
 *
 * pi-ai 1.6.0 prefers a WebSocket (transport "auto"/"websocket") and falls back to SSE; this
 * build always uses SSE (docs/differences.md).
 *
 * @module
 */
import type { ApiProvider } from "../api_provider.ts";
import type { AssistantMessageEventStream } from "../event_stream.ts";
import { finishWithDone, noApiKeyStream, runProviderStream } from "../provider_utils.ts";
import { buildBaseOptions } from "../simple_options.ts";
import { clampThinkingLevel } from "../thinking.ts";
import type { AssistantMessage, Context, Model, SimpleStreamOptions } from "../types.ts";
import { CodexApiError, codexEvents, isCodexNonTransportError, onFirstEvent } from "./openai_codex_events.ts";
import { DEFAULT_CONNECT_TIMEOUT_MS, uuidv7 } from "./openai_codex_socket.ts";
import { recordWebSocketFailure, requestOverWebSocket, usesSseFallback } from "./openai_codex_websocket.ts";
import {
  buildCodexHeaders,
  buildCodexRequestBody,
  buildCodexWebSocketHeaders,
  codexHttpErrorMessage,
  codexSessionKey,
  configurationUpdateEffort,
  extractCodexAccountId,
  isRetryableCodexError,
  type OpenAICodexResponsesOptions,
  resolveCodexUrl,
  resolveCodexWebSocketUrl,
} from "./openai_codex_request.ts";
import { applyServiceTierPricing } from "./openai_responses.ts";
import { processResponsesStream } from "./openai_responses_events.ts";
import { headersToRecord } from "./openai_shared_request.ts";
import { readOpenAIStream } from "./openai_shared_stream.ts";
import { ProviderHttpError, serverRetryDelayMs, withProviderRetries } from "./provider_retry.ts";

export type { OpenAICodexResponsesOptions } from "./openai_codex_request.ts";

/** The text when the stream ends without a terminal event. */
const CODEX_TRUNCATED = "Codex stream ended without a stop reason";
const ABORTED = "Request was aborted";
const ZSTD_LEVEL = 3;

/** The body as zstd bytes, or undefined when this runtime has no zstd (then it goes as JSON). */
async function compressZstd(json: string): Promise<Uint8Array | undefined> {
  try {
    const zlib = await import("node:zlib");
    if (typeof zlib.zstdCompressSync !== "function") return undefined;
    const level = zlib.constants.ZSTD_c_compressionLevel;
    return new Uint8Array(zlib.zstdCompressSync(json, { params: { [level]: ZSTD_LEVEL } }));
  } catch {
    return undefined;
  }
}

/** Sends the request (with Codex's retry rule) and returns the 2xx response. */
async function send(
  url: string,
  headers: Headers,
  json: string,
  options: OpenAICodexResponsesOptions | undefined,
): Promise<Response> {
  const compressed = await compressZstd(json);
  if (compressed) headers.set("content-encoding", "zstd");
  const payload: BodyInit = compressed ? compressed as Uint8Array<ArrayBuffer> : json;
  return await withProviderRetries(
    async () => {
      const timeout = options?.timeoutMs && options.timeoutMs > 0
        ? AbortSignal.timeout(options.timeoutMs)
        : undefined;
      const signals = [options?.signal, timeout].filter((s): s is AbortSignal => s !== undefined);
      let response: Response;
      try {
        response = await fetch(url, {
          method: "POST",
          headers,
          body: payload,
          signal: signals.length > 0 ? AbortSignal.any(signals) : undefined,
        });
      } catch (error) {
        if (options?.signal?.aborted) throw new Error(ABORTED);
        throw error;
      }
      if (response.ok) return response;
      const text = await response.text().catch(() => "");
      throw new ProviderHttpError(
        codexHttpErrorMessage(text, response.statusText, response.status),
        response.status,
        isRetryableCodexError(response.status, text),
        serverRetryDelayMs(response.headers),
      );
    },
    {
      signal: options?.signal,
      maxRetries: options?.maxRetries,
      maxRetryDelayMs: options?.maxRetryDelayMs,
      abortError: () => new Error(ABORTED),
    },
    (error) => !(error instanceof Error && error.message.includes("usage limit")),
  );
}

async function run(
  stream: AssistantMessageEventStream,
  output: AssistantMessage,
  model: Model,
  context: Context,
  options: OpenAICodexResponsesOptions | undefined,
): Promise<void> {
  const token = options?.apiKey;
  if (!token) throw new Error(`No API key for provider: ${model.provider}`);
  const accountId = extractCodexAccountId(token);
  const sessionKey = codexSessionKey(options);
  let body = buildCodexRequestBody(model, context, options);
  const replaced = await options?.onPayload?.(body, model);
  if (replaced !== undefined) body = replaced as Record<string, unknown>;
  const json = JSON.stringify(body);
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    stream.push({ type: "start", partial: output });
  };
  const consume = (events: AsyncIterable<Record<string, unknown>>, onFirst: () => void) =>
    processResponsesStream(
      onFirstEvent(
        codexEvents(
          events,
          output,
          options?.onProviderStreamEvent && ((event) => options.onProviderStreamEvent!(event, model)),
        ),
        onFirst,
      ),
      output,
      stream,
      model,
      {
        serviceTier: options?.serviceTier ?? undefined,
        // A "default" answer to a flex/priority request is billed at the requested tier.
        resolveServiceTier: (answered, requested) =>
          answered === "default" && (requested === "flex" || requested === "priority")
            ? requested
            : answered ?? requested,
        applyServiceTierPricing: (usage, tier) => applyServiceTierPricing(usage, tier, model),
      },
    );
  const finish = () => {
    if (options?.signal?.aborted) throw new Error(ABORTED);
    if (output.stopReason === "aborted" || output.stopReason === "error") {
      throw new Error(output.errorMessage || "An unknown error occurred");
    }
    finishWithDone(stream, output, CODEX_TRUNCATED);
  };

  const transport = options?.transport || "auto";
  const cacheSessionId = options?.cacheRetention === "none" ? undefined : options?.sessionId;
  if (transport !== "sse" && !usesSseFallback(cacheSessionId)) {
    const done = await runOverWebSocket(model, options, {
      token,
      accountId,
      sessionKey,
      cacheSessionId,
      transport,
      body,
      json,
      output,
      consume: (events, onFirst) => consume(events, () => (onFirst(), start())),
    });
    if (done) return finish();
  }

  const headers = buildCodexHeaders(model, options, token, accountId, sessionKey);
  const response = await send(resolveCodexUrl(model.baseUrl), headers, json, options);
  await options?.onResponse?.({ status: response.status, headers: headersToRecord(response.headers) }, model);
  if (!response.body) throw new Error("No response body");
  start();
  try {
    await consume(
      readOpenAIStream(response.body, options?.signal, false, "OpenAI Codex", options?.idleTimeoutMs),
      () => {},
    );
  } finally {
    await response.body.cancel().catch(() => {});
  }
  finish();
}

/**
 * Tries the request over the WebSocket: true when it was answered there; false when the socket
 * failed before anything streamed (the session then uses server-sent events). Server errors,
 * aborts and failures after the answer began are thrown. A missing previous response, or the
 * connection limit before anything streamed, is tried once more.
 */
async function runOverWebSocket(
  model: Model,
  options: OpenAICodexResponsesOptions | undefined,
  request: {
    token: string;
    accountId: string;
    sessionKey: string | undefined;
    cacheSessionId: string | undefined;
    transport: string;
    body: Record<string, unknown>;
    json: string;
    output: AssistantMessage;
    consume(events: AsyncIterable<Record<string, unknown>>, onFirst: () => void): Promise<void>;
  },
): Promise<boolean> {
  const { output, cacheSessionId } = request;
  const headers = buildCodexWebSocketHeaders(
    model,
    options,
    request.token,
    request.accountId,
    request.sessionKey || uuidv7(),
  );
  let retriedLimit = false;
  let retriedMissing = false;
  while (true) {
    let streamed = false;
    try {
      await requestOverWebSocket({
        url: resolveCodexWebSocketUrl(model.baseUrl),
        headers,
        body: request.body,
        sessionId: cacheSessionId,
        accountId: request.accountId,
        useContinuation: request.transport === "auto" || request.transport === "websocket-cached",
        signal: options?.signal,
        connectTimeoutMs: options?.websocketConnectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
        idleTimeoutMs: options?.idleTimeoutMs ?? options?.timeoutMs,
        model,
        output,
        consume: (events) => request.consume(events, () => (streamed = true)),
      });
      return true;
    } catch (error) {
      const aborted = options?.signal?.aborted === true;
      const code = error instanceof CodexApiError ? error.code : undefined;
      const limitBeforeStart = !streamed && code === "websocket_connection_limit_reached";
      if (!aborted && code === "previous_response_not_found" && !retriedMissing) {
        retriedMissing = true;
        continue;
      }
      if (!aborted && limitBeforeStart && !retriedLimit) {
        retriedLimit = true;
        continue;
      }
      if (aborted || (isCodexNonTransportError(error) && !limitBeforeStart)) throw error;
      const failure = error instanceof Error ? error : new Error(String(error));
      const errorCode = (failure as { code?: unknown }).code;
      output.diagnostics = [...(output.diagnostics ?? []), {
        type: "provider_transport_failure",
        timestamp: Date.now(),
        error: {
          name: failure.name,
          message: failure.message || failure.name,
          ...(typeof errorCode === "string" || typeof errorCode === "number" ? { code: errorCode } : {}),
        },
        details: {
          configuredTransport: request.transport,
          ...(streamed ? {} : { fallbackTransport: "sse" }),
          eventsEmitted: streamed,
          phase: streamed ? "after_message_stream_start" : "before_message_stream_start",
          requestBytes: new TextEncoder().encode(request.json).byteLength,
        },
      }];
      recordWebSocketFailure(cacheSessionId);
      if (streamed) throw error;
      return false;
    }
  }
}

/** Streams one Codex request. Never throws: failures end in an `error` event. */
export function streamOpenAICodexResponses(
  model: Model,
  context: Context,
  options?: OpenAICodexResponsesOptions,
): AssistantMessageEventStream {
  const effort = configurationUpdateEffort(model, options);
  return runProviderStream(
    model,
    options?.signal,
    (stream, output) => run(stream, output, model, context, options),
    {
      prepare: (output) => {
        output.api = "openai-codex-responses";
        if (effort !== undefined) output.providerThinkingLevel = effort;
      },
    },
  );
}

/**
 * Streams with the unified `reasoning` option: clamped to the model; "off" on a reasoning model
 * is sent as effort "none", so switching to it keeps the prompt cache.
 */
export function streamSimpleOpenAICodexResponses(
  model: Model,
  context: Context,
  options?: SimpleStreamOptions,
): AssistantMessageEventStream {
  if (!options?.apiKey) return noApiKeyStream(model, (output) => (output.api = "openai-codex-responses"));
  const level = options.reasoning ? clampThinkingLevel(model, options.reasoning) : "off";
  return streamOpenAICodexResponses(model, context, {
    ...buildBaseOptions(model, context, options, options.apiKey),
    toolChoice: options.toolChoice,
    reasoningEffort: level !== "off" ? level : model.reasoning ? "none" : undefined,
  });
}

/** The built-in implementation registered for "openai-codex-responses". */
export const provider: ApiProvider = {
  api: "openai-codex-responses",
  stream: streamOpenAICodexResponses,
  streamSimple: streamSimpleOpenAICodexResponses,
};
