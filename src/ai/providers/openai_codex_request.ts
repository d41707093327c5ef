/**
 * What the `openai-codex-responses` API sends (pi-ai 1.6.0's ChatGPT-subscription backend): the
 * request body (stateless, encrypted reasoning replayed, low verbosity, parallel tool calls, the
 * system prompt as a leading instruction item, tools as an `additional_tools` item for models
 * whose compat says so, the effort in `configuration_update` items for models that take it
 * mid-conversation), the endpoint URL, the headers (bearer token, the account id from the
 * token's claims, `originator: pi`, session headers), and the wording of HTTP errors.
 *
 * @module
 */
import { sanitizeSurrogates } from "../sanitize_unicode.ts";
import type { AssistantMessage, Context, Model, StreamOptions, ThinkingLevel } from "../types.ts";
import {
  convertResponsesMessages,
  convertResponsesTools,
  type ResponsesInputItem,
} from "./openai_responses_convert.ts";

/** Options of the openai-codex-responses `stream` beyond the common ones. */
export interface OpenAICodexResponsesOptions extends StreamOptions {
  /** A pi level, or "none" (the simple entry's "off" on a reasoning model). */
  reasoningEffort?: ThinkingLevel | "none";
  /** How much of the reasoning the server summarises back (default "auto"). */
  reasoningSummary?: "auto" | "concise" | "detailed" | "off" | "on" | null;
  /** `text.verbosity` (default "low"). */
  textVerbosity?: "low" | "medium" | "high";
  /** Processing tier requested. */
  serviceTier?: "auto" | "default" | "flex" | "scale" | "priority" | null;
  /** Whether the model may call tools (default "auto"). */
  toolChoice?: "auto" | "none";
}

/** Where pi-ai 1.6.0 sends Codex requests when the model names no base URL. */
export const DEFAULT_CODEX_BASE_URL = "https://chatgpt.com/backend-api";
/** The token claim holding the ChatGPT account. */
const JWT_CLAIM_PATH = "https://api.openai.com/auth";
/** Providers whose `call|item` tool-call ids are kept as Responses ids. */
export const CODEX_TOOL_CALL_PROVIDERS: ReadonlySet<string> = new Set(["openai", "openai-codex", "opencode"]);
/** The backend rejects `max_output_tokens` below 16. */
const MIN_OUTPUT_TOKENS = 16;
/** OpenAI's limit on `prompt_cache_key`, in characters. */
const PROMPT_CACHE_KEY_MAX = 64;
/** `reasoning.effort` sent while `configuration_update` items carry the real level. */
const CONFIGURATION_UPDATE_REQUEST_EFFORT = "medium";

interface CodexCompat {
  supportsStrictMode?: boolean;
  supportsMaxOutputTokens?: boolean;
  supportsDeveloperRole?: boolean;
  supportsMidConvoSystemMessages?: boolean;
  supportsAdditionalTools?: boolean;
  supportsMidConvoEffort?: boolean;
}

function compatOf(model: Model): CodexCompat {
  return (model.compat ?? {}) as CodexCompat;
}

/** `POST` target: `<base>/codex/responses`, unless the base already ends there. */
export function resolveCodexUrl(baseUrl: string | undefined): string {
  const raw = baseUrl && baseUrl.trim().length > 0 ? baseUrl : DEFAULT_CODEX_BASE_URL;
  const trimmed = raw.replace(/\/+$/, "");
  if (trimmed.endsWith("/codex/responses")) return trimmed;
  if (trimmed.endsWith("/codex")) return `${trimmed}/responses`;
  return `${trimmed}/codex/responses`;
}

/** The WebSocket address of the same endpoint (`wss:` for `https:`, `ws:` for `http:`). */
export function resolveCodexWebSocketUrl(baseUrl: string | undefined): string {
  const url = new URL(resolveCodexUrl(baseUrl));
  if (url.protocol === "https:") url.protocol = "wss:";
  if (url.protocol === "http:") url.protocol = "ws:";
  return url.toString();
}

/** The ChatGPT account id inside the OAuth access token (a JWT); a clear error otherwise. */
export function extractCodexAccountId(token: string): string {
  try {
    const parts = token.split(".");
    if (parts.length !== 3) throw new Error("not a JWT");
    const payload = JSON.parse(atob(parts[1].replace(/-/g, "+").replace(/_/g, "/"))) as Record<
      string,
      { chatgpt_account_id?: unknown } | undefined
    >;
    const accountId = payload?.[JWT_CLAIM_PATH]?.chatgpt_account_id;
    if (typeof accountId !== "string" || !accountId) throw new Error("no account id");
    return accountId;
  } catch {
    throw new Error("Failed to extract accountId from token");
  }
}

/** The session id as a prompt cache key: at most 64 characters (whole code points). */
export function codexSessionKey(options: OpenAICodexResponsesOptions | undefined): string | undefined {
  const id = options?.cacheRetention === "none" ? undefined : options?.sessionId;
  return id === undefined ? undefined : Array.from(id).slice(0, PROMPT_CACHE_KEY_MAX).join("");
}

/** The provider-native effort of a level; null when the model takes no reasoning field for it. */
function nativeEffort(model: Model, effort: ThinkingLevel | "none"): string | null {
  const map = model.thinkingLevelMap as Record<string, string | null | undefined> | undefined;
  if (effort === "none") return map?.off === undefined ? "none" : map.off;
  const mapped = map?.[effort];
  return mapped === undefined ? effort : mapped;
}

/**
 * The effort sent in `configuration_update` items (models with `supportsMidConvoEffort`), or
 * undefined when the effort goes into `reasoning.effort`. The reply records it as
 * `providerThinkingLevel`, so a later request can replay the level each turn ran at.
 */
export function configurationUpdateEffort(
  model: Model,
  options: OpenAICodexResponsesOptions | undefined,
): string | undefined {
  if (!compatOf(model).supportsMidConvoEffort || options?.reasoningEffort === undefined) return undefined;
  return nativeEffort(model, options.reasoningEffort) ?? undefined;
}

/** Builds the JSON body posted to `/codex/responses`. */
export function buildCodexRequestBody(
  model: Model,
  context: Context,
  options: OpenAICodexResponsesOptions | undefined,
): Record<string, unknown> {
  const compat = compatOf(model);
  const supportsStrictMode = compat.supportsStrictMode ?? true;
  const updateEffort = configurationUpdateEffort(model, options);
  // Models that take mid-conversation system messages and additional tools get every tool in an
  // `additional_tools` item at the head of the input, as the Codex client declares them.
  const toolsAsItem = (compat.supportsMidConvoSystemMessages ?? false) &&
    (compat.supportsAdditionalTools ?? false);
  const tools = context.tools ?? [];
  const converted = convertResponsesMessages(model, context, CODEX_TOOL_CALL_PROVIDERS, {
    includeSystemPrompt: false,
    beforeAssistant: updateEffort === undefined
      ? undefined
      : (message: AssistantMessage) =>
        message.model === model.id && message.provider === model.provider && message.api === model.api &&
          message.providerThinkingLevel !== undefined
          ? { type: "configuration_update", reasoning: { effort: message.providerThinkingLevel } }
          : undefined,
  });
  const input: ResponsesInputItem[] = [];
  if (toolsAsItem && tools.length > 0) {
    input.push({
      type: "additional_tools",
      role: "developer",
      tools: convertResponsesTools(tools, { strict: null, supportsStrictMode }),
    });
  }
  if (context.systemPrompt) {
    const role = model.reasoning && compat.supportsDeveloperRole !== false ? "developer" : "system";
    input.push({ role, content: sanitizeSurrogates(context.systemPrompt) });
  }
  input.push(...converted);
  if (updateEffort !== undefined) {
    input.push({ type: "configuration_update", reasoning: { effort: updateEffort } });
  }

  const body: Record<string, unknown> = {
    model: model.id,
    store: false,
    stream: true,
    input,
    text: { verbosity: options?.textVerbosity || "low" },
    include: ["reasoning.encrypted_content"],
    prompt_cache_key: codexSessionKey(options),
    tool_choice: options?.toolChoice ?? "auto",
    parallel_tool_calls: true,
  };
  if (options?.maxTokens && (compat.supportsMaxOutputTokens ?? true)) {
    body.max_output_tokens = Math.max(options.maxTokens, MIN_OUTPUT_TOKENS);
  }
  if (options?.temperature !== undefined) body.temperature = options.temperature;
  if (options?.serviceTier !== undefined) body.service_tier = options.serviceTier;
  if (!toolsAsItem && tools.length > 0) {
    body.tools = convertResponsesTools(tools, { strict: null, supportsStrictMode });
  }
  if (options?.reasoningEffort !== undefined) {
    const effort = updateEffort === undefined
      ? nativeEffort(model, options.reasoningEffort)
      : CONFIGURATION_UPDATE_REQUEST_EFFORT;
    if (effort !== null) body.reasoning = { effort, summary: options.reasoningSummary ?? "auto" };
  } else if (model.reasoning && model.thinkingLevelMap?.off !== null) {
    body.reasoning = { effort: model.thinkingLevelMap?.off ?? "none" };
  }
  return body;
}

/**
 * The headers both transports share: the identity default (`originator`) under the model's and
 * the caller's headers (`null` removes one), then the token and the account id.
 */
function baseCodexHeaders(
  model: Model,
  options: OpenAICodexResponsesOptions | undefined,
  token: string,
  accountId: string,
): Headers {
  const headers = new Headers({ originator: "pi" });
  for (const [name, value] of Object.entries(model.headers ?? {})) headers.set(name, value);
  for (const [name, value] of Object.entries(options?.headers ?? {}) as [string, string | null][]) {
    if (value === null) headers.delete(name);
    else headers.set(name, value);
  }
  headers.set("authorization", `Bearer ${token}`);
  headers.set("chatgpt-account-id", accountId);
  return headers;
}

/** The headers of the server-sent-events request; the session key, when there is one, names the session. */
export function buildCodexHeaders(
  model: Model,
  options: OpenAICodexResponsesOptions | undefined,
  token: string,
  accountId: string,
  sessionKey: string | undefined,
): Headers {
  const headers = baseCodexHeaders(model, options, token, accountId);
  headers.set("openai-beta", "responses=experimental");
  headers.set("accept", "text/event-stream");
  headers.set("content-type", "application/json");
  if (sessionKey) {
    headers.set("session-id", sessionKey);
    headers.set("x-client-request-id", sessionKey);
  }
  return headers;
}

/** The headers of the WebSocket upgrade; `requestId` is the session key, else a fresh id. */
export function buildCodexWebSocketHeaders(
  model: Model,
  options: OpenAICodexResponsesOptions | undefined,
  token: string,
  accountId: string,
  requestId: string,
): Record<string, string> {
  const headers = baseCodexHeaders(model, options, token, accountId);
  for (const name of ["accept", "content-type"]) headers.delete(name);
  headers.set("openai-beta", "responses_websockets=2026-02-06");
  headers.set("x-client-request-id", requestId);
  headers.set("session-id", requestId);
  return Object.fromEntries(headers.entries());
}

/** Usage limits that waiting does not lift: a 429 with these is not retried. */
const TERMINAL_RATE_LIMIT =
  /GoUsageLimitError|FreeUsageLimitError|Monthly usage limit reached|available balance|insufficient_quota|out of budget|quota exceeded|billing/i;

/** Whether a failed answer is worth another attempt (pi-ai 1.6.0's Codex rule). */
export function isRetryableCodexError(status: number, text: string): boolean {
  if (status === 429 && TERMINAL_RATE_LIMIT.test(text)) return false;
  if ([429, 500, 502, 503, 504].includes(status)) return true;
  return /rate.?limit|overloaded|service.?unavailable|upstream.?connect|connection.?refused/i.test(text);
}

/**
 * The message of an HTTP error: a usage-limit answer (429, or a usage/rate-limit code) reads
 * "You have hit your ChatGPT usage limit (<plan> plan). Try again in ~N min."; otherwise the
 * body's `error.message`, else the raw body, else the status text.
 */
export function codexHttpErrorMessage(
  text: string,
  statusText: string,
  status: number,
  now = Date.now(),
): string {
  let message = text || statusText || "Request failed";
  let friendly: string | undefined;
  try {
    const err = (JSON.parse(text) as { error?: Record<string, unknown> } | null)?.error;
    if (err) {
      const code = String(err.code || err.type || "");
      if (/usage_limit_reached|usage_not_included|rate_limit_exceeded/i.test(code) || status === 429) {
        const plan = typeof err.plan_type === "string" ? ` (${err.plan_type.toLowerCase()} plan)` : "";
        const resetsAt = typeof err.resets_at === "number" ? err.resets_at : undefined;
        const minutes = resetsAt ? Math.max(0, Math.round((resetsAt * 1000 - now) / 60000)) : undefined;
        const when = minutes !== undefined ? ` Try again in ~${minutes} min.` : "";
        friendly = `You have hit your ChatGPT usage limit${plan}.${when}`.trim();
      }
      message = (typeof err.message === "string" && err.message) || friendly || message;
    }
  } catch { /* not JSON: the raw text */ }
  return friendly || message;
}
