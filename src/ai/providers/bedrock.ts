/**
 * The `bedrock-converse-stream` wire API (Amazon Bedrock's ConverseStream) with plain fetch: the
 * request body of pi-ai 1.6.0, a SigV4 signature of our own (or a Bedrock API key as bearer
 * token), region and endpoint resolution as 1.6.0, and the binary event stream decoded with its
 * checksums checked. Failures read as 1.6.0 words them ("Throttling error: …", "Validation
 * error: …"), which the retry and overflow classification rely on. Never throws to the caller.
 *
 * @module
 */
import type { ApiProvider } from "../api_provider.ts";
import { calculateCost } from "../cost.ts";
import { providerEnvValue } from "../env_api_keys.ts";
import type { AssistantMessageEventStream } from "../event_stream.ts";
import { parseStreamingJson } from "../json_parse.ts";
import { redactSecrets, runProviderStream } from "../provider_utils.ts";
import {
  adjustMaxTokensForThinking,
  buildBaseOptions,
  clampMaxTokensToContext,
  clampReasoning,
} from "../simple_options.ts";
import type {
  AssistantMessage,
  CacheRetention,
  Context,
  Model,
  SimpleStreamOptions,
  StreamOptions,
  TextContent,
  ThinkingContent,
  ToolCall,
} from "../types.ts";
import { type BedrockAuth, profileRegion, resolveBedrockAuth } from "./bedrock_credentials.ts";
import { type EventStreamMessage, readEventStream } from "./bedrock_eventstream.ts";
import {
  type BedrockOptions,
  buildAdditionalModelRequestFields,
  buildBedrockSystem,
  buildBedrockToolConfig,
  configuredBedrockRegion,
  convertBedrockMessages,
  isClaudeModel,
  supportsAdaptiveThinking,
} from "./bedrock_request.ts";
import { signRequest, uriEncode } from "./bedrock_sigv4.ts";
import {
  hasExceededStrictToolLimits,
  isStrictToolLimitError,
  markStrictToolLimitsExceeded,
} from "./strict_tools.ts";

export type { BedrockOptions } from "./bedrock_request.ts";

/** Options of the Bedrock `stream`. */
export type BedrockStreamOptions = StreamOptions & BedrockOptions;

const REDACTED_THINKING_PLACEHOLDER = "[Reasoning redacted]";

/** The readable prefixes of Bedrock's modelled exceptions (the retry logic matches them). */
const ERROR_PREFIXES: Record<string, string> = {
  InternalServerException: "Internal server error",
  ModelStreamErrorException: "Model stream error",
  ValidationException: "Validation error",
  ThrottlingException: "Throttling error",
  ServiceUnavailableException: "Service unavailable",
};

const DATA_RETENTION_DOCS_URL = "https://docs.aws.amazon.com/bedrock/latest/userguide/data-retention.html";

/** A Bedrock service exception (HTTP error or exception frame), named by its AWS error code. */
class BedrockServiceError extends Error {
  constructor(readonly code: string, message: string, readonly status?: number, readonly requestId?: string) {
    super(message);
  }
}

function formatBedrockError(error: unknown): string {
  const core = error instanceof Error ? error.message : String(error);
  const hint = /data retention mode/i.test(core)
    ? ` See ${DATA_RETENTION_DOCS_URL} for supported data retention modes.`
    : "";
  if (error instanceof BedrockServiceError) {
    return `${ERROR_PREFIXES[error.code] ?? error.code}: ${core}${hint}`;
  }
  return `${core}${hint}`;
}

/** `bedrock-runtime.<region>.amazonaws.com` hosts name their region. */
function standardEndpointRegion(baseUrl: string | undefined): string | undefined {
  if (!baseUrl) return undefined;
  try {
    const host = new URL(baseUrl).hostname.toLowerCase();
    return /^bedrock-runtime(?:-fips)?\.([a-z0-9-]+)\.amazonaws\.com(?:\.cn)?$/.exec(host)?.[1];
  } catch {
    return undefined;
  }
}

/** Region and endpoint of a request, resolved as pi-ai 1.6.0 does. */
export function resolveBedrockTarget(
  model: Model,
  options: BedrockStreamOptions,
): { region: string; endpoint: string } {
  const configured = configuredBedrockRegion(options);
  // Read from the process only: a profile in the user's shell, not one scoped to the request.
  const ambientProfile = providerEnvValue("AWS_PROFILE");
  const endpointRegion = standardEndpointRegion(model.baseUrl);
  // Custom endpoints (VPC, proxies) are kept; a catalog endpoint yields to a configured region.
  const explicitEndpoint = !endpointRegion || (!configured && !ambientProfile);
  const arnRegion = /^arn:aws(?:-[a-z0-9-]+)?:bedrock:([a-z0-9-]+):/.exec(model.id)?.[1];
  let region = arnRegion ?? configured ?? (explicitEndpoint ? endpointRegion : undefined);
  if (!region) {
    const profile = options.profile || options.env?.AWS_PROFILE || ambientProfile;
    region = ambientProfile ? profileRegion(profile ?? "default", options.env) : "us-east-1";
  }
  if (!region) {
    throw new Error(
      `No AWS region for Amazon Bedrock: set AWS_REGION, or "region" for profile "${ambientProfile}" in ~/.aws/config`,
    );
  }
  const endpoint = explicitEndpoint && model.baseUrl
    ? model.baseUrl.replace(/\/+$/, "")
    : `https://bedrock-runtime.${region}.amazonaws.com${region.startsWith("cn-") ? ".cn" : ""}`;
  return { region, endpoint };
}

/** Headers the caller may not set: they are part of the signature or the authentication. */
function isReservedHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return lower.startsWith("x-amz-") || lower === "authorization" || lower === "host";
}

async function sendRequest(
  url: URL,
  body: string,
  auth: BedrockAuth,
  region: string,
  model: Model,
  options: BedrockStreamOptions,
): Promise<Response> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  for (const [key, value] of Object.entries({ ...model.headers, ...options.headers })) {
    if (!isReservedHeader(key)) headers[key.toLowerCase()] = value;
  }
  let sendHeaders: Record<string, string>;
  if (auth.kind === "bearer") sendHeaders = { ...headers, authorization: `Bearer ${auth.token}` };
  else {
    const signed = await signRequest(
      { method: "POST", url, headers, body },
      auth.credentials,
      region,
      "bedrock",
      new Date(),
      true,
    );
    sendHeaders = signed.headers;
    delete sendHeaders.host;
  }
  return await fetch(url, { method: "POST", headers: sendHeaders, body, signal: options.signal });
}

/** Error codes the AWS SDK's standard retry strategy treats as throttling. */
const THROTTLING_CODES = new Set([
  "ThrottlingException",
  "Throttling",
  "TooManyRequestsException",
  "RequestLimitExceeded",
  "ProvisionedThroughputExceededException",
  "RequestThrottled",
  "SlowDown",
]);
const TRANSIENT_STATUSES = new Set([500, 502, 503, 504]);
/** Attempts per request, as the AWS SDK's default (`maxAttempts` 3), which pi-ai 1.6.0 keeps. */
const MAX_ATTEMPTS = 3;

function abortableSleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new DOMException("This operation was aborted", "AbortError"));
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new DOMException("This operation was aborted", "AbortError"));
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * Sends with the AWS SDK's standard retries, which pi-ai 1.6.0 inherits: throttling answers,
 * HTTP 500/502/503/504 and connection failures are tried up to three times in all, waiting a
 * random part of 100 ms (500 ms after throttling) doubled per attempt. The last answer, good
 * or bad, is returned; the last connection failure is thrown.
 */
async function sendWithRetries(
  url: URL,
  body: string,
  auth: BedrockAuth,
  region: string,
  model: Model,
  options: BedrockStreamOptions,
): Promise<Response> {
  for (let attempt = 1;; attempt++) {
    let retryBase: number | undefined;
    let response: Response | undefined;
    try {
      response = await sendRequest(url, body, auth, region, model, options);
      const code = response.headers.get("x-amzn-errortype")?.split(":")[0] ?? "";
      if (response.status === 429 || THROTTLING_CODES.has(code)) retryBase = 500;
      else if (TRANSIENT_STATUSES.has(response.status)) retryBase = 100;
    } catch (error) {
      if (options.signal?.aborted || attempt >= MAX_ATTEMPTS || !(error instanceof TypeError)) throw error;
      retryBase = 100;
    }
    if (response && (retryBase === undefined || attempt >= MAX_ATTEMPTS)) return response;
    await response?.body?.cancel();
    await abortableSleep(
      Math.floor(Math.random() * Math.min(20_000, 2 ** attempt * retryBase!)),
      options.signal,
    );
  }
}

async function httpError(response: Response, secrets: (string | undefined)[]): Promise<BedrockServiceError> {
  const text = await response.text().catch(() => "");
  const headerType = response.headers.get("x-amzn-errortype")?.split(":")[0];
  let parsed: Record<string, unknown> | undefined;
  try {
    parsed = JSON.parse(text);
  } catch { /* not JSON */ }
  const code = headerType ||
    (typeof parsed?.__type === "string" ? parsed.__type.split("#").pop()! : undefined) ||
    "UnknownError";
  const message = typeof parsed?.message === "string"
    ? parsed.message
    : typeof parsed?.Message === "string"
    ? parsed.Message
    : `${response.status}: ${text || response.statusText}`;
  return new BedrockServiceError(
    code,
    redactSecrets(message, secrets),
    response.status,
    response.headers.get("x-amzn-requestid") ?? undefined,
  );
}

interface OpenBlock {
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

function flushRedacted(open: OpenBlock, output: AssistantMessage): void {
  const block = output.content[open.contentIndex];
  if (block?.type !== "thinking" || !open.redacted) return;
  // Each chunk is base64 of some bytes; the payload is the bytes joined, encoded once.
  block.thinkingSignature = btoa(open.redacted.map((chunk) => atob(chunk)).join(""));
  open.redacted = undefined;
}

/** Folds one decoded event into the output; throws the in-stream exceptions. */
function handleEvent(
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

async function* bodyChunks(
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

function resolveCacheRetention(
  retention: CacheRetention | undefined,
  env?: Record<string, string>,
): CacheRetention {
  if (retention) return retention;
  return providerEnvValue("PI_CACHE_RETENTION", env) === "long" ? "long" : "short";
}

/** Builds the ConverseStream body (the SDK's command input, minus `modelId`, which goes in the path). */
export function buildBedrockBody(
  model: Model,
  context: Context,
  options: BedrockStreamOptions,
  disablePreferredStrict: boolean,
): { body: Json; hasPreferredStrictTools: boolean } {
  const cacheRetention = resolveCacheRetention(options.cacheRetention, options.env);
  const maxTokens = options.maxTokens ?? (isClaudeModel(model) ? model.maxTokens : undefined);
  const supportsStrict = (model.compat as { supportsStrictMode?: boolean } | undefined)?.supportsStrictMode ??
    false;
  const tools = buildBedrockToolConfig(
    context.tools,
    options.toolChoice,
    supportsStrict,
    disablePreferredStrict,
  );
  const body: Json = {
    messages: convertBedrockMessages(context, model, cacheRetention, options.env),
    system: buildBedrockSystem(context.systemPrompt, model, cacheRetention, options.env),
    inferenceConfig: {
      ...(maxTokens !== undefined ? { maxTokens } : {}),
      ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
    },
    toolConfig: tools.toolConfig,
    additionalModelRequestFields: buildAdditionalModelRequestFields(model, options),
    ...(options.requestMetadata !== undefined ? { requestMetadata: options.requestMetadata } : {}),
  };
  return { body, hasPreferredStrictTools: tools.hasPreferredStrictTools };
}

async function run(
  stream: AssistantMessageEventStream,
  output: AssistantMessage,
  model: Model,
  context: Context,
  options: BedrockStreamOptions,
): Promise<void> {
  const open = new Map<number, OpenBlock>();
  try {
    const auth = await resolveBedrockAuth(options);
    const secrets = auth.kind === "bearer"
      ? [auth.token]
      : [auth.credentials.secretAccessKey, auth.credentials.sessionToken];
    const { region, endpoint } = resolveBedrockTarget(model, options);
    const url = new URL(`${endpoint}/model/${uriEncode(model.id)}/converse-stream`);
    let disablePreferredStrict = hasExceededStrictToolLimits(options.sessionId);
    let response: Response;
    for (;;) {
      const built = buildBedrockBody(model, context, options, disablePreferredStrict);
      let payload: unknown = { modelId: model.id, ...built.body };
      const replaced = await options.onPayload?.(payload, model);
      if (replaced !== undefined) payload = replaced;
      const { modelId: _modelId, ...wire } = payload as Json;
      response = await sendWithRetries(url, JSON.stringify(wire), auth, region, model, options);
      if (response.ok) break;
      const error = await httpError(response, secrets);
      // Bedrock checks tool schemas before streaming: a retry without preferred-strict tools repeats nothing.
      if (
        options.signal?.aborted || disablePreferredStrict || !built.hasPreferredStrictTools ||
        error.code !== "ValidationException" || !isStrictToolLimitError(error.message)
      ) {
        throw error;
      }
      disablePreferredStrict = true;
      markStrictToolLimitsExceeded(options.sessionId);
      output.diagnostics = [...(output.diagnostics ?? []), {
        type: "bedrock_strict_tools_fallback",
        timestamp: Date.now(),
        error: { message: error.message },
        details: { reason: "strict_tool_limits_exceeded" },
      }];
    }
    const headers: Record<string, string> = {};
    response.headers.forEach((value, key) => (headers[key] = value));
    await options.onResponse?.({ status: response.status, headers }, model);
    if (!response.body) throw new Error("Bedrock answered without a body");
    for await (const message of readEventStream(bodyChunks(response.body, options.signal))) {
      const event = handleEvent(message, open, output, stream, model);
      if (event) await options.onProviderStreamEvent?.(event, model);
    }
    if (options.signal?.aborted) throw new Error("Request was aborted");
    if (output.stopReason === "pending") throw new Error("Bedrock stream ended without a stop reason");
    if (output.stopReason === "error" || output.stopReason === "aborted") {
      throw new Error(output.errorMessage || "An unknown error occurred");
    }
    for (const block of open.values()) flushRedacted(block, output);
    stream.push({ type: "done", reason: output.stopReason, message: output });
    stream.end();
  } catch (error) {
    for (const block of open.values()) flushRedacted(block, output);
    const message = options.signal?.aborted && error instanceof Error && error.name === "AbortError"
      ? "Request was aborted"
      : formatBedrockError(error);
    if (!options.signal?.aborted && error instanceof BedrockServiceError) {
      const details: Record<string, unknown> = {};
      if (error.status !== undefined) details.status = error.status;
      details.errorCode = error.code;
      if (error.requestId) details.requestId = error.requestId;
      output.diagnostics = [...(output.diagnostics ?? []), {
        type: "bedrock_response_failure",
        timestamp: Date.now(),
        details,
      }];
    }
    throw new Error(message);
  }
}

/** Streams one ConverseStream request. Never throws: failures end in an `error` event. */
export function streamBedrock(
  model: Model,
  context: Context,
  options?: BedrockStreamOptions,
): AssistantMessageEventStream {
  const opts = options ?? {};
  return runProviderStream(
    model,
    opts.signal,
    (stream, output) => run(stream, output, model, context, opts),
    {
      prepare: (output) => (output.api = "bedrock-converse-stream"),
    },
  );
}

/** Streams with the unified options: budgets for older Claude models, effort for adaptive ones. */
export function streamSimpleBedrock(
  model: Model,
  context: Context,
  options?: SimpleStreamOptions,
): AssistantMessageEventStream {
  const base: BedrockStreamOptions = {
    ...buildBaseOptions(model, context, options),
    toolChoice: options?.toolChoice,
  };
  const level = options?.reasoning;
  if (!level) return streamBedrock(model, context, { ...base, reasoning: undefined });
  if (isClaudeModel(model) && !supportsAdaptiveThinking(model)) {
    const adjusted = adjustMaxTokensForThinking(
      base.maxTokens ?? model.maxTokens,
      model.maxTokens,
      level,
      options.thinkingBudgets,
    );
    const maxTokens = clampMaxTokensToContext(model, context, adjusted.maxTokens);
    return streamBedrock(model, context, {
      ...base,
      maxTokens,
      reasoning: level,
      thinkingBudgets: {
        ...options.thinkingBudgets,
        [clampReasoning(level)]: Math.min(adjusted.thinkingBudget, Math.max(0, maxTokens - 1024)),
      },
    });
  }
  return streamBedrock(model, context, {
    ...base,
    reasoning: level,
    thinkingBudgets: options.thinkingBudgets,
  });
}

/** The built-in implementation registered for "bedrock-converse-stream". */
export const provider: ApiProvider = {
  api: "bedrock-converse-stream",
  stream: streamBedrock,
  streamSimple: streamSimpleBedrock,
};
