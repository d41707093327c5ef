/**
 * Core data types of the LLM layer: messages, content blocks, models, stream options and
 * streaming events. Names and shapes follow the reference `@earendil-works/pi-ai` 1.6.0 so that code
 * written against it ports over unchanged, and so that session files stay interchangeable.
 *
 * @module
 */
import type { ModelCompat } from "./compat_types.ts";

export type {
  AnthropicAllowedFallbackModel,
  AnthropicMessagesCompat,
  BedrockCompat,
  ChatTemplateKwargValue,
  MistralConversationsCompat,
  ModelCompat,
  OpenAICompletionsCompat,
  OpenAIResponsesCompat,
  OpenRouterRouting,
  SessionAffinityFormat,
  ThinkingTokenBudgetField,
  VercelGatewayRouting,
} from "./compat_types.ts";

/** APIs with a built-in implementation. */
export type KnownApi =
  | "openai-completions"
  | "mistral-conversations"
  | "openai-responses"
  | "azure-openai-responses"
  | "openai-codex-responses"
  | "anthropic-messages"
  | "bedrock-converse-stream"
  | "google-generative-ai"
  | "google-vertex"
  | "pi-messages";

/** A wire API name; custom providers may register their own. */
export type Api = KnownApi | (string & Record<never, never>);

/** Providers with built-in models. */
export type KnownProvider =
  | "amazon-bedrock"
  | "ant-ling"
  | "anthropic"
  | "google"
  | "google-vertex"
  | "openai"
  | "azure"
  | "openai-codex"
  | "radius"
  | "typesafe"
  | "nvidia"
  | "deepseek"
  | "github-copilot"
  | "xai"
  | "groq"
  | "cerebras"
  | "openrouter"
  | "vercel-ai-gateway"
  | "zai"
  | "zai-coding-cn"
  | "mistral"
  | "minimax"
  | "minimax-cn"
  | "moonshotai"
  | "moonshotai-cn"
  | "huggingface"
  | "fireworks"
  | "together"
  | "baseten"
  | "opencode"
  | "opencode-go"
  | "kimi-coding"
  | "meta"
  | "cloudflare-workers-ai"
  | "cloudflare-ai-gateway"
  | "qwen-token-plan"
  | "qwen-token-plan-cn"
  | "qwen-token-plan-individual"
  | "qwen-token-plan-individual-cn"
  | "xiaomi"
  | "xiaomi-token-plan-cn"
  | "xiaomi-token-plan-ams"
  | "xiaomi-token-plan-sgp";

/** A provider name; models.json may define more. */
export type Provider = KnownProvider | (string & Record<never, never>);

/** Reasoning effort levels (without "off"); "max" came with pi-ai 1.x. */
export type ThinkingLevel = "minimal" | "low" | "medium" | "high" | "xhigh" | "max";

/** Thinking level as stored in sessions and settings, "off" included. */
export type ModelThinkingLevel = "off" | ThinkingLevel;

/** Maps pi thinking levels to provider values; `null` marks a level as unsupported. */
export type ThinkingLevelMap = Partial<Record<ModelThinkingLevel, string | null>>;

/** Token budgets per thinking level, for token-budget providers. */
export interface ThinkingBudgets {
  /** Token budget for the "minimal" level. */
  minimal?: number;
  /** Token budget for the "low" level. */
  low?: number;
  /** Token budget for the "medium" level. */
  medium?: number;
  /** Token budget for the "high" level. */
  high?: number;
}

/** Prompt-cache retention preference; providers map it to what they support. */
export type CacheRetention = "none" | "short" | "long";

/** Transport preference for providers that have more than one. */
export type Transport = "sse" | "websocket" | "websocket-cached" | "auto";

/** Status and headers of a provider's HTTP response, handed to `onResponse`. */
export interface ProviderResponse {
  /** HTTP status code. */
  status: number;
  /** Response headers, lower-cased names. */
  headers: Record<string, string>;
}

/** Request headers of a call: a `null` value removes the provider's default header of that name. */
export type ProviderHeaders = Record<string, string | null>;

/** Options understood by every provider's `stream` function. */
export interface StreamOptions {
  /** Sampling temperature, when the model accepts one. */
  temperature?: number;
  /**
   * Fields merged as they are into the request body after the named ones (`top_k`, `min_p`, …), over
   * the model's `samplingParams`. Only the OpenAI-compatible APIs (Chat Completions, Responses) send them.
   */
  samplingParams?: Record<string, unknown>;
  /**
   * Milliseconds the response body may send nothing before the request fails with a retryable
   * "terminated: …" error (`httpIdleTimeoutMs`; default 300000, 0 waits for ever).
   */
  idleTimeoutMs?: number;
  /** Upper bound on output tokens; defaults to the model's limit fitted into its context window. */
  maxTokens?: number;
  /** Aborts the request; the stream then ends with stop reason "aborted". */
  signal?: AbortSignal;
  /** API key; when absent it is read from the provider's environment variable. */
  apiKey?: string;
  /** Preferred transport for providers that offer more than one. */
  transport?: Transport;
  /** Longest wait for a WebSocket transport to open, in ms (Codex; default 15000, 0 waits for ever). */
  websocketConnectTimeoutMs?: number;
  /** Default "short". */
  cacheRetention?: CacheRetention;
  /** Used by providers with session-based caching or routing. */
  sessionId?: string;
  /** Inspect or replace the request body before it is sent; return undefined to keep it. */
  onPayload?: (payload: unknown, model: Model) => unknown | Promise<unknown>;
  /** Called once the HTTP response headers arrived, before the body is read. */
  onResponse?: (response: ProviderResponse, model: Model) => void | Promise<void>;
  /**
   * Sees each parsed provider stream event (an SSE payload) before it is turned into pi's
   * events (pi-ai 1.x). The data belongs to the provider code: read it, do not change it.
   */
  onProviderStreamEvent?: (data: unknown, model: Model) => void | Promise<void>;
  /** Extra HTTP headers, merged over the provider's defaults; `null` removes a default header. */
  headers?: ProviderHeaders;
  /** Request timeout in milliseconds. */
  timeoutMs?: number;
  /** Client-side retries of a failed request (none unless set). */
  maxRetries?: number;
  /** Longest server-requested retry delay to honour in-client (default 60000; 0 = no cap). */
  maxRetryDelayMs?: number;
  /** Provider-specific request metadata (e.g. Anthropic's `user_id`). */
  metadata?: Record<string, unknown>;
  /**
   * Environment values for this request (API keys, endpoint placeholders, cache retention);
   * they win over the process environment, and a name set to "" counts as unset.
   */
  env?: Record<string, string>;
}

/** Stream options plus provider-specific extras. */
export type ProviderStreamOptions = StreamOptions & Record<string, unknown>;

/** Options of `streamSimple`: one reasoning knob that each provider maps to its own parameters. */
export interface SimpleStreamOptions extends StreamOptions {
  /** Provider-neutral tool selection (pi-ai 1.x); unset leaves each API's default. */
  toolChoice?: "auto" | "none";
  /** One reasoning level, mapped to each provider's own parameters; absent means no reasoning. */
  reasoning?: ThinkingLevel;
  /** Token budgets per level, for providers that take a budget. */
  thinkingBudgets?: ThinkingBudgets;
}

/** Plain text. `textSignature` carries provider replay data (OpenAI Responses item ids). */
export interface TextContent {
  /** Block kind. */
  type: "text";
  /** The text. */
  text: string;
  /** Provider signature of the block, replayed to the same provider. */
  textSignature?: string;
}

/** Model reasoning. Redacted thinking keeps its opaque payload in `thinkingSignature`. */
export interface ThinkingContent {
  /** Block kind. */
  type: "thinking";
  /** The model's reasoning text (may be a summary). */
  thinking: string;
  /** Provider signature needed to replay the reasoning. */
  thinkingSignature?: string;
  /** True when the provider hid the reasoning; `thinkingSignature` then holds the opaque payload. */
  redacted?: boolean;
}

/** A base64 image. */
export interface ImageContent {
  /** Block kind. */
  type: "image";
  /** Base64-encoded image bytes. */
  data: string;
  /** MIME type of the image, e.g. "image/png". */
  mimeType: string;
}

/** A tool invocation requested by the model. */
export interface ToolCall {
  /** Block kind. */
  type: "toolCall";
  /** The provider's id of the call; the tool result refers to it. */
  id: string;
  /** Name of the tool to call. */
  name: string;
  /** Arguments parsed from the model's JSON. */
  // deno-lint-ignore no-explicit-any
  arguments: Record<string, any>;
  /** Google's opaque thought signature, replayed on the same model. */
  thoughtSignature?: string;
}

/** Token counts and their cost in dollars. `input` excludes cache reads and writes. */
export interface Usage {
  /** Input tokens not read from the cache. */
  input: number;
  /** Output tokens, reasoning included. */
  output: number;
  /** Input tokens read from the prompt cache. */
  cacheRead: number;
  /** Input tokens written to the prompt cache. */
  cacheWrite: number;
  /** The part of `cacheWrite` written with 1-hour retention (Anthropic reports the split). */
  cacheWrite1h?: number;
  /** Reasoning tokens, a part of `output`, when the provider reports them. */
  reasoning?: number;
  /** Sum of input, output, cache read and cache write tokens. */
  totalTokens: number;
  /** Cost in US dollars, per part and in total. */
  cost: {
    input: number;
    output: number;
    cacheRead: number;
    cacheWrite: number;
    total: number;
    /** True when `total` is the cost the provider billed; false or absent for a catalog estimate. */
    totalFromProvider?: boolean;
  };
}

/**
 * Why an assistant message ended. "pending" marks the message of a streaming `start` (pi-ai
 * 1.x); "deferred" is a request continued asynchronously, which no built-in API does yet.
 */
export type StopReason = "pending" | "stop" | "length" | "toolUse" | "error" | "aborted" | "deferred";

/** The stop reasons a successful stream ends with. */
export type DoneReason = "stop" | "length" | "toolUse" | "deferred";

/** A message from the user. */
export interface UserMessage {
  /** Message kind. */
  role: "user";
  /** Plain text or text and image blocks. */
  content: string | (TextContent | ImageContent)[];
  /** Unix time in milliseconds. */
  timestamp: number;
}

/** A JSON value (pi-ai 1.6.0's `JsonValue`). */
export type JsonValue = null | boolean | number | string | readonly JsonValue[] | JsonObject;

/** A JSON object (pi-ai 1.6.0's `JsonObject`). */
export type JsonObject = { [key: string]: JsonValue };

/** A diagnostic attached to an assistant message by a provider (e.g. a recovered parse problem). */
export interface AssistantMessageDiagnostic {
  /** Kind of diagnostic (e.g. `anthropic_strict_tools_fallback`). */
  type: string;
  /** Unix time in milliseconds. */
  timestamp: number;
  /** The error that led to it, when one did. */
  error?: { name?: string; message: string; code?: string | number };
  /** Further facts specific to the diagnostic (JSON, as it is stored in the session). */
  details?: JsonObject;
}

/** A message produced by a model. */
export interface AssistantMessage {
  /** Message kind. */
  role: "assistant";
  /** Text, thinking and tool-call blocks in the order they streamed. */
  content: (TextContent | ThinkingContent | ToolCall)[];
  /** Wire API that produced the message. */
  api: Api;
  /** Provider that produced the message. */
  provider: Provider;
  /** Id of the model that was asked. */
  model: string;
  /** The model the server says answered, when it differs from `model`. */
  responseModel?: string;
  /** The provider's id of this response. */
  responseId?: string;
  /** The exact provider-native effort level sent for this response. */
  providerThinkingLevel?: string;
  /** The pi thinking level the agent loop requested (set by the agent, not by providers). */
  thinkingLevel?: ModelThinkingLevel;
  /** Notes about the response (e.g. retries, repaired data). */
  diagnostics?: AssistantMessageDiagnostic[];
  /** Tokens and cost of this response. */
  usage: Usage;
  /** Why the message ended. */
  stopReason: StopReason;
  /** The error text when `stopReason` is "error" or "aborted". */
  errorMessage?: string;
  /** The provider's own stop reason (e.g. "end_turn", "tool_calls", "STOP"), kept for debugging. */
  rawStopReason?: string;
  /** Whether the provider said the model ended its turn; kept for debugging. */
  endTurn?: boolean;
  /** Unix time in ms when the request started. */
  timestamp: number;
  /** Milliseconds from `timestamp` until the response ended (monotonic clock). */
  durationMs?: number;
}

/** The result of a tool call, sent back to the model. */
// deno-lint-ignore no-explicit-any
export interface ToolResultMessage<TDetails = any> {
  /** Message kind. */
  role: "toolResult";
  /** Id of the tool call this result answers. */
  toolCallId: string;
  /** Name of the tool that ran. */
  toolName: string;
  /** What the model sees. */
  content: (TextContent | ImageContent)[];
  /** Structured data for the UI and session files; not sent to the model. */
  details?: TDetails;
  /** Whether the tool failed. */
  isError: boolean;
  /** Unix time in milliseconds. */
  timestamp: number;
  /** Milliseconds the tool's execution took; absent for results written before pi 1.x. */
  durationMs?: number;
  /** Calls this tool made to other tools (codemode scripts); kept for the session, not sent to the model. */
  nestedCalls?: NestedToolCalls;
}

/** One call a tool made to another tool (pi 1.6.0's record). */
export interface NestedToolCallRecord {
  /** The nested call's own id. */
  id: string;
  /** The tool that was called. */
  name: string;
  /** Omitted when over the size limits; `argumentsBytes` then gives their size. */
  arguments?: Record<string, unknown>;
  /** UTF-8 size of the arguments as JSON, set when `arguments` is omitted. */
  argumentsBytes?: number;
  /** `unfinished`: still running when the calling tool finished. */
  status: "ok" | "error" | "unfinished";
  /** Milliseconds the call took, when known. */
  durationMs?: number;
  /** Error text, truncated. */
  error?: string;
}

/** The bounded record of the calls a tool made to other tools. */
export interface NestedToolCalls {
  /** The calls, in the order they started (bounded in number and size). */
  calls: NestedToolCallRecord[];
  /** False when calls were dropped, arguments omitted, or calls had not finished. */
  complete: boolean;
}

/** Any message the LLM layer sends or receives. */
export type Message = UserMessage | AssistantMessage | ToolResultMessage;

/** A JSON Schema object (as TypeBox produces and providers send). */
export type JsonSchema = Record<string, unknown>;

/**
 * Provider-side constrained sampling of a tool's arguments: the JSON schema (`strict`, which the
 * providers apply), or a grammar per format (OpenAI's Lark or regex; carried, sent by pi-messages).
 */
export type ConstrainedSamplingConfig =
  | { type: "json_schema"; strict: "prefer" | "require" }
  | { type: "grammar"; variants: Partial<Record<"openai_lark" | "openai_regex", string>> };

/**
 * A tool as the model sees it. `TParameters` is the type of its JSON schema (a TypeBox schema, or
 * any JSON Schema object), generic as in pi-ai 1.6.0 so that tools typed against it fit.
 */
export interface Tool<TParameters extends object = object> {
  /** Name the model calls the tool by. */
  name: string;
  /** What the tool does, for the model. */
  description: string;
  /** JSON schema of the arguments. */
  parameters: TParameters;
  /**
   * Constrain the model's arguments to the schema where the server supports strict tools
   * (`prefer`), or fail where it does not (`require`); pi 1.6.0's read, bash, edit and write prefer it.
   */
  constrainedSampling?: false | ConstrainedSamplingConfig;
}

/** Everything a request carries besides options. */
export interface Context {
  /** System prompt of the request. */
  systemPrompt?: string;
  /** The conversation. */
  messages: Message[];
  /** Tools the model may call. */
  tools?: Tool[];
}

/**
 * Streaming events. A stream emits `start`, then block events with their `contentIndex`, and
 * ends with exactly one `done` or `error`. `partial` is the message as built so far.
 */
export type AssistantMessageEvent =
  | { type: "start"; partial: AssistantMessage }
  | { type: "text_start"; contentIndex: number; partial: AssistantMessage }
  | { type: "text_delta"; contentIndex: number; delta: string; partial: AssistantMessage }
  | { type: "text_end"; contentIndex: number; content: string; partial: AssistantMessage }
  | { type: "thinking_start"; contentIndex: number; partial: AssistantMessage }
  | { type: "thinking_delta"; contentIndex: number; delta: string; partial: AssistantMessage }
  | { type: "thinking_end"; contentIndex: number; content: string; partial: AssistantMessage }
  | { type: "toolcall_start"; contentIndex: number; partial: AssistantMessage }
  | { type: "toolcall_delta"; contentIndex: number; delta: string; partial: AssistantMessage }
  | { type: "toolcall_end"; contentIndex: number; toolCall: ToolCall; partial: AssistantMessage }
  | { type: "done"; reason: DoneReason; message: AssistantMessage }
  | { type: "error"; reason: "aborted" | "error"; error: AssistantMessage };

/** Request and image-size limits of a provider, as pi-ai 1.6.0's catalog carries them. */
export interface ModelInputLimits {
  /** Largest request body in bytes. */
  maxRequestBytes?: number;
  /** Image limits: how to shrink images and how many a message or request may carry. */
  images?: {
    resize?: { maxWidth?: number; maxHeight?: number; maxBytes?: number; jpegQuality?: number };
    maxPerMessage?: number;
    maxPerRequest?: number;
  };
}

/** Per-million-token prices in dollars. */
export interface ModelCostRates {
  /** US dollars per million input tokens. */
  input: number;
  /** US dollars per million output tokens. */
  output: number;
  /** US dollars per million cache-read tokens. */
  cacheRead: number;
  /** US dollars per million cache-write tokens. */
  cacheWrite: number;
}

/** Prices that apply once the prompt (input plus cache reads and writes) exceeds a size. */
export interface ModelCostTier extends ModelCostRates {
  /** The tier's rates apply when the request's input exceeds this many tokens. */
  inputTokensAbove: number;
}

/** A model's prices: base rates and optional size tiers. */
export interface ModelCost extends ModelCostRates {
  /** Higher rates for long inputs, lowest threshold first. */
  tiers?: ModelCostTier[];
}

/** A model a provider serves, with what pi needs to talk to it and price it. */
export interface Model<TApi extends Api = Api> {
  /** The provider's model id. */
  id: string;
  /** Human-readable name. */
  name: string;
  /** Wire API used to talk to the model. */
  api: TApi;
  /** Provider the model belongs to. */
  provider: Provider;
  /** Base URL of the API. */
  baseUrl: string;
  /** Whether the model can reason (thinking levels apply). */
  reasoning: boolean;
  /** Provider-native value per thinking level; `null` marks a level as unsupported. */
  thinkingLevelMap?: ThinkingLevelMap;
  /** Input kinds the model accepts. */
  input: ("text" | "image")[];
  /** Prices per million tokens. */
  cost: ModelCost;
  /** Context window in tokens. */
  contextWindow: number;
  /** Most output tokens per response. */
  maxTokens: number;
  /** Extra HTTP headers sent with every request to this model. */
  headers?: Record<string, string>;
  /** API-specific compatibility switches (see the *Compat interfaces), typed per wire API as in pi-ai 1.6.0. */
  compat?: ModelCompat<TApi>;
  /** Catalog models are "chat"; absent means chat too. */
  type?: "chat";
  /** Prompt-cache lifetimes in seconds per retention tier. */
  promptCache?: { short?: number; long?: number };
  /** Request and image-size limits of the provider (carried over from the catalog). */
  inputLimits?: ModelInputLimits;
  /** Default sampling parameters merged into OpenAI-compatible request bodies. */
  samplingParams?: Record<string, unknown>;
  /** Sampling parameters per thinking level. */
  samplingParamsByThinkingLevel?: Partial<Record<ModelThinkingLevel, Record<string, unknown>>>;
  /** Radius routing facts: the model's lab, whether it is offered, its upstream providers. */
  lab?: string;
  /** Whether the model is offered. */
  enabled?: boolean;
  /** Upstream providers serving the model. */
  providers?: Record<string, unknown>[];
  /** Whether the model is free to use. */
  free?: boolean;
}

/** A zeroed usage record. */
export function emptyUsage(): Usage {
  return {
    input: 0,
    output: 0,
    cacheRead: 0,
    cacheWrite: 0,
    totalTokens: 0,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
  };
}
