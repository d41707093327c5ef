/**
 * The `pi-messages` wire API, spoken by the Radius gateway (and any backend a models.json
 * provider points at with `"api": "pi-messages"`), as pi-ai 1.6.0 speaks it with plain fetch:
 * one POST of `{model, context, options}` (the context as a 1.6.0 transcript) to `<baseUrl>/messages` with the API key (for Radius,
 * the login's access token) as bearer, answered by an SSE stream of serialized assistant-message
 * events (pi_messages_events.ts). HTTP errors read "<status> <statusText>: <message> (<code>)".
 * Never throws to the caller.
 *
 * @module
 */
import type { ApiProvider } from "../api_provider.ts";
import { providerEnvValue } from "../env_api_keys.ts";
import { AssistantMessageEventStream } from "../event_stream.ts";
import { createOutputMessage, errorToMessage, redactSecrets } from "../provider_utils.ts";
import type {
  CacheRetention,
  Context,
  JsonObject,
  Model,
  SimpleStreamOptions,
  StreamOptions,
  ThinkingLevel,
  Tool,
} from "../types.ts";
import { abortError, createPiMessagesConverter, readPiMessagesEvents } from "./pi_messages_events.ts";

/** Options of the pi-messages `stream` (pi-ai 1.6.0's `PiMessagesOptions`). */
export interface PiMessagesOptions extends StreamOptions {
  /** Thinking level, passed to the backend as is (it maps it per upstream model). */
  reasoning?: ThinkingLevel;
  /** Tool choice, passed to the backend as is. */
  toolChoice?: SimpleStreamOptions["toolChoice"];
  /** Ask the backend for debug metadata (`?debug=1`). */
  debug?: boolean;
}

const MAX_DIAGNOSTIC_BODY_CHARS = 8192;

/** An HTTP error answer; carries the facts pi-ai 1.6.0 keeps as a diagnostic. */
class PiMessagesResponseError extends Error {
  constructor(message: string, readonly code: string | undefined, readonly details: Record<string, unknown>) {
    super(message);
    this.name = "PiMessagesResponseError";
  }
}

function responseError(
  model: Model,
  url: URL,
  response: Response,
  body: string,
): PiMessagesResponseError {
  let parsed: { error?: Record<string, unknown> } | undefined;
  try {
    const json = JSON.parse(body);
    const error = json?.error;
    if (json && typeof error === "object" && error !== null && !Array.isArray(error)) parsed = json;
  } catch {
    // Not JSON: the body itself is the message.
  }
  const message = typeof parsed?.error?.message === "string" ? parsed.error.message : undefined;
  const code = typeof parsed?.error?.code === "string" ? parsed.error.code : undefined;
  const text = `${response.status} ${response.statusText}: ${message ?? body}${code ? ` (${code})` : ""}`;
  const cut = body.length > MAX_DIAGNOSTIC_BODY_CHARS ? `${body.slice(0, MAX_DIAGNOSTIC_BODY_CHARS)}…` : body;
  return new PiMessagesResponseError(text, code, {
    version: 1,
    provider: model.provider,
    model: model.id,
    url: url.toString(),
    status: response.status,
    statusText: response.statusText,
    ...(parsed?.error === undefined ? {} : { error: parsed.error }),
    ...(parsed ? {} : { body: cut }),
    timestampMs: Date.now(),
  });
}

/** Unset retention leaves the backend's default; only the legacy env opt-in is passed on. */
function cacheRetention(options: PiMessagesOptions | undefined): CacheRetention | undefined {
  if (options?.cacheRetention) return options.cacheRetention;
  return providerEnvValue("PI_CACHE_RETENTION", options?.env) === "long" ? "long" : undefined;
}

function buildHeaders(apiKey: string, options: PiMessagesOptions | undefined): Headers {
  const headers = new Headers({
    authorization: `Bearer ${apiKey}`,
    accept: "text/event-stream",
    "content-type": "application/json",
  });
  for (const [name, value] of Object.entries(options?.headers ?? {})) {
    if (value === null) headers.delete(name);
    else headers.set(name, value);
  }
  return headers;
}

/** A tool as the model sees it: runtime and display fields (label, prompt snippets) stay home. */
function toolDeclaration(tool: Tool): Record<string, unknown> {
  const { constrainedSampling } = tool as Tool & { constrainedSampling?: unknown };
  return {
    name: tool.name,
    description: tool.description,
    parameters: JSON.parse(JSON.stringify(tool.parameters)),
    ...(constrainedSampling === undefined ? {} : { constrainedSampling }),
  };
}

/**
 * The context as 1.6.0 sends it: the system prompt and tools folded into a leading `system`
 * message (`toolsAdded`), which is how pi-ai 1.6.0 transcripts carry them.
 */
function wireContext(context: Context): { messages: unknown[] } {
  const hasPrompt = context.systemPrompt !== undefined && context.systemPrompt.length > 0;
  const hasTools = context.tools !== undefined && context.tools.length > 0;
  if (!hasPrompt && !hasTools) return { messages: context.messages };
  const system = {
    role: "system",
    content: context.systemPrompt ?? "",
    ...(hasTools ? { toolsAdded: context.tools!.map(toolDeclaration) } : {}),
    timestamp: 0,
  };
  return { messages: [system, ...context.messages] };
}

async function run(
  out: AssistantMessageEventStream,
  model: Model,
  context: Context,
  options: PiMessagesOptions | undefined,
): Promise<void> {
  const apiKey = options?.apiKey;
  if (!apiKey) throw new Error(`No API key provided for provider "${model.provider}"`);
  const url = new URL(`${model.baseUrl.replace(/\/+$/u, "")}/messages`);
  if (options?.debug) url.searchParams.set("debug", "1");
  let payload: unknown = {
    model: model.id,
    context: wireContext(context),
    options: {
      temperature: options?.temperature,
      maxTokens: options?.maxTokens,
      reasoning: options?.reasoning,
      cacheRetention: cacheRetention(options),
      sessionId: options?.sessionId,
      toolChoice: options?.toolChoice,
    },
  };
  const replaced = await options?.onPayload?.(payload, model);
  if (replaced !== undefined) payload = replaced;
  let response: Response;
  try {
    response = await fetch(url, {
      method: "POST",
      headers: buildHeaders(apiKey, options),
      body: JSON.stringify(payload),
      signal: options?.signal,
    });
  } catch (error) {
    if (options?.signal?.aborted) throw abortError(options.signal);
    // Node's fetch (the reference) words every connection failure this way.
    throw new Error("fetch failed", { cause: error });
  }
  const headers: Record<string, string> = {};
  response.headers.forEach((value, key) => (headers[key] = value));
  await options?.onResponse?.({ status: response.status, headers }, model);
  if (!response.ok) {
    const body = await response.text().catch(() => "");
    throw responseError(model, url, response, redactSecrets(body, [apiKey]));
  }
  if (!response.body) throw new Error(`${model.provider} response has no body`);
  const convert = createPiMessagesConverter(createOutputMessage(model));
  for await (const wire of readPiMessagesEvents(response.body, options?.signal)) {
    await options?.onProviderStreamEvent?.(wire, model);
    const event = convert(wire);
    out.push(event);
    if (event.type === "done" || event.type === "error") {
      out.end();
      return;
    }
  }
  if (options?.signal?.aborted) throw abortError(options.signal);
  throw new Error(`${model.provider} stream ended without a terminal event`);
}

/**
 * A failed request ends as 1.6.0 ends it: a fresh message without the partial content, marked
 * "aborted" when the caller's signal fired; an HTTP error keeps its facts as a diagnostic.
 */
function failure(model: Model, error: unknown, aborted: boolean) {
  const message = createOutputMessage(model);
  message.stopReason = aborted ? "aborted" : "error";
  message.errorMessage = errorToMessage(error);
  if (!aborted && error instanceof PiMessagesResponseError) {
    message.diagnostics = [{
      type: "pi_messages_response_failure",
      timestamp: Date.now(),
      error: { name: error.name, message: error.message, code: error.code },
      details: error.details as JsonObject | undefined, // parsed from the JSON error body
    }];
  }
  return message;
}

/** Streams one pi-messages request. Never throws: failures end in an `error` event. */
export function streamPiMessages(
  model: Model,
  context: Context,
  options?: PiMessagesOptions,
): AssistantMessageEventStream {
  const out = new AssistantMessageEventStream();
  void run(out, model, context, options).catch((error) => {
    const aborted = options?.signal?.aborted ?? false;
    out.push({ type: "error", reason: aborted ? "aborted" : "error", error: failure(model, error, aborted) });
    out.end();
  });
  return out;
}

/** The unified options go to the backend unchanged: it resolves thinking and limits per model. */
export function streamSimplePiMessages(
  model: Model,
  context: Context,
  options?: SimpleStreamOptions,
): AssistantMessageEventStream {
  const extra = options as (SimpleStreamOptions & { debug?: boolean }) | undefined;
  return streamPiMessages(model, context, {
    ...options,
    reasoning: options?.reasoning,
    toolChoice: options?.toolChoice,
    debug: extra?.debug,
  });
}

/** The built-in implementation registered for "pi-messages". */
export const provider: ApiProvider = {
  api: "pi-messages",
  stream: streamPiMessages,
  streamSimple: streamSimplePiMessages,
};
