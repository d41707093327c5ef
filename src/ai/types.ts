/**
 * Core data types of the LLM layer: messages, content blocks, models, stream options and
 * streaming events. Names and shapes follow the reference `@earendil-works/pi-ai` 1.6.0 so that code
 * written against it ports over unchanged, and so that session files stay interchangeable.
 *
 * @module
 */

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
  minimal?: number;
  low?: number;
  medium?: number;
  high?: number;
}

/** Prompt-cache retention preference; providers map it to what they support. */
export type CacheRetention = "none" | "short" | "long";

/** Transport preference for providers that have more than one. */
export type Transport = "sse" | "websocket" | "websocket-cached" | "auto";

/** Status and headers of a provider's HTTP response, handed to `onResponse`. */
export interface ProviderResponse {
  status: number;
  headers: Record<string, string>;
}

/** Options understood by every provider's `stream` function. */
export interface StreamOptions {
  temperature?: number;
  maxTokens?: number;
  signal?: AbortSignal;
  apiKey?: string;
  transport?: Transport;
  /** Default "short". */
  cacheRetention?: CacheRetention;
  /** Used by providers with session-based caching or routing. */
  sessionId?: string;
  /** Inspect or replace the request body before it is sent; return undefined to keep it. */
  onPayload?: (payload: unknown, model: Model) => unknown | Promise<unknown>;
  /** Called once the HTTP response headers arrived, before the body is read. */
  onResponse?: (response: ProviderResponse, model: Model) => void | Promise<void>;
  /** Extra HTTP headers, merged over the provider's defaults. */
  headers?: Record<string, string>;
  timeoutMs?: number;
  maxRetries?: number;
  /** Longest server-requested retry delay to honour in-client (default 60000; 0 = no cap). */
  maxRetryDelayMs?: number;
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
  reasoning?: ThinkingLevel;
  thinkingBudgets?: ThinkingBudgets;
}

/** Plain text. `textSignature` carries provider replay data (OpenAI Responses item ids). */
export interface TextContent {
  type: "text";
  text: string;
  textSignature?: string;
}

/** Model reasoning. Redacted thinking keeps its opaque payload in `thinkingSignature`. */
export interface ThinkingContent {
  type: "thinking";
  thinking: string;
  thinkingSignature?: string;
  redacted?: boolean;
}

/** A base64 image. */
export interface ImageContent {
  type: "image";
  data: string;
  mimeType: string;
}

/** A tool invocation requested by the model. */
export interface ToolCall {
  type: "toolCall";
  id: string;
  name: string;
  // deno-lint-ignore no-explicit-any
  arguments: Record<string, any>;
  /** Google's opaque thought signature, replayed on the same model. */
  thoughtSignature?: string;
}

/** Token counts and their cost in dollars. `input` excludes cache reads and writes. */
export interface Usage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  /** The part of `cacheWrite` written with 1-hour retention (Anthropic reports the split). */
  cacheWrite1h?: number;
  /** Reasoning tokens, a part of `output`, when the provider reports them. */
  reasoning?: number;
  totalTokens: number;
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
  role: "user";
  content: string | (TextContent | ImageContent)[];
  timestamp: number;
}

/** A diagnostic attached to an assistant message by a provider (e.g. a recovered parse problem). */
export interface AssistantMessageDiagnostic {
  type: string;
  message: string;
  [key: string]: unknown;
}

/** A message produced by a model. */
export interface AssistantMessage {
  role: "assistant";
  content: (TextContent | ThinkingContent | ToolCall)[];
  api: Api;
  provider: Provider;
  model: string;
  /** The model the server says answered, when it differs from `model`. */
  responseModel?: string;
  /** The provider's id of this response. */
  responseId?: string;
  /** The exact provider-native effort level sent for this response. */
  providerThinkingLevel?: string;
  /** The pi thinking level the agent loop requested (set by the agent, not by providers). */
  thinkingLevel?: ModelThinkingLevel;
  diagnostics?: AssistantMessageDiagnostic[];
  usage: Usage;
  stopReason: StopReason;
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
  role: "toolResult";
  toolCallId: string;
  toolName: string;
  content: (TextContent | ImageContent)[];
  details?: TDetails;
  isError: boolean;
  timestamp: number;
  /** Milliseconds the tool's execution took; absent for results written before pi 1.x. */
  durationMs?: number;
}

/** Any message the LLM layer sends or receives. */
export type Message = UserMessage | AssistantMessage | ToolResultMessage;

/** A JSON Schema object (as TypeBox produces and providers send). */
export type JsonSchema = Record<string, unknown>;

/** A tool as the model sees it. */
export interface Tool {
  name: string;
  description: string;
  parameters: JsonSchema;
}

/** Everything a request carries besides options. */
export interface Context {
  systemPrompt?: string;
  messages: Message[];
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

/** Switches for OpenAI-compatible Chat Completions servers; unset ones are detected from the URL. */
export interface OpenAICompletionsCompat {
  supportsStore?: boolean;
  supportsDeveloperRole?: boolean;
  supportsReasoningEffort?: boolean;
  supportsUsageInStreaming?: boolean;
  /** False for servers that never send `finish_reason` (the content decides the stop reason). */
  supportsFinishReason?: boolean;
  maxTokensField?: "max_completion_tokens" | "max_tokens";
  requiresToolResultName?: boolean;
  requiresAssistantAfterToolResult?: boolean;
  /** Send `tools: []` when the history has tool calls but no tools are offered. */
  requiresToolsWithToolHistory?: boolean;
  requiresThinkingAsText?: boolean;
  requiresReasoningContentOnAssistantMessages?: boolean;
  thinkingFormat?: "openai" | "openrouter" | "deepseek" | "zai" | "qwen" | "qwen-chat-template";
  openRouterRouting?: Record<string, unknown>;
  vercelGatewayRouting?: { only?: string[]; order?: string[] };
  zaiToolStream?: boolean;
  supportsStrictMode?: boolean;
  cacheControlFormat?: "anthropic";
  sendSessionAffinityHeaders?: boolean;
  supportsLongCacheRetention?: boolean;
}

/** Switches for OpenAI Responses servers. */
export interface OpenAIResponsesCompat {
  sendSessionIdHeader?: boolean;
  supportsLongCacheRetention?: boolean;
}

/** Switches for Anthropic Messages-compatible servers. */
export interface AnthropicMessagesCompat {
  /** The model thinks adaptively (an effort, no token budget). */
  forceAdaptiveThinking?: boolean;
  supportsEagerToolInputStreaming?: boolean;
  supportsLongCacheRetention?: boolean;
}

/** Per-million-token prices in dollars. */
export interface ModelCostRates {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

/** Prices that apply once the prompt (input plus cache reads and writes) exceeds a size. */
export interface ModelCostTier extends ModelCostRates {
  inputTokensAbove: number;
}

/** A model's prices: base rates and optional size tiers. */
export interface ModelCost extends ModelCostRates {
  tiers?: ModelCostTier[];
}

/** A model a provider serves, with what pi needs to talk to it and price it. */
export interface Model<TApi extends Api = Api> {
  id: string;
  name: string;
  api: TApi;
  provider: Provider;
  baseUrl: string;
  reasoning: boolean;
  thinkingLevelMap?: ThinkingLevelMap;
  input: ("text" | "image")[];
  cost: ModelCost;
  contextWindow: number;
  maxTokens: number;
  headers?: Record<string, string>;
  /** API-specific compatibility switches (see the *Compat interfaces). */
  compat?: OpenAICompletionsCompat | OpenAIResponsesCompat | AnthropicMessagesCompat;
  /** Catalog models are "chat"; absent means chat too. */
  type?: "chat";
  /** Prompt-cache lifetimes in seconds per retention tier. */
  promptCache?: { short?: number; long?: number };
  /** Request and image-size limits of the provider (carried over from the catalog). */
  inputLimits?: Record<string, unknown>;
  /** Default sampling parameters merged into OpenAI-compatible request bodies. */
  samplingParams?: Record<string, unknown>;
  /** Sampling parameters per thinking level. */
  samplingParamsByThinkingLevel?: Partial<Record<ModelThinkingLevel, Record<string, unknown>>>;
  /** Radius routing facts: the model's lab, whether it is offered, its upstream providers. */
  lab?: string;
  enabled?: boolean;
  providers?: Record<string, unknown>[];
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
