/**
 * The per-API `compat` switches of a model, shaped as pi-ai 1.6.0 declares them (its
 * `providers/compat-schema.d.ts`), so a model an extension builds against 1.6.0's types is a model
 * of ours and back. Fields marked "accepted" pass models.json's check and are carried on the model,
 * but this build does not act on them yet (docs/models-json.md lists the applied ones).
 *
 * @module
 */

/** Which session-affinity headers an OpenAI-style server gets; "openai-nosession" sends no `session_id`. */
export type SessionAffinityFormat = "openai" | "openai-nosession" | "openrouter";

/** The request field that carries a thinking token budget (accepted). */
export type ThinkingTokenBudgetField = "thinking_budget" | "thinking_budget_tokens" | "thinking_token_budget";

/** A chat-template argument: a literal, or a variable filled from the thinking settings (accepted). */
export type ChatTemplateKwargValue =
  | string
  | number
  | boolean
  | null
  | { $var: "thinking.budget" | "thinking.effort" | "thinking.enabled"; omitWhenOff?: boolean };

/** OpenRouter's provider-routing preferences, sent as the request's `provider` field. */
export interface OpenRouterRouting {
  /** Whether other providers may serve the request when the preferred ones fail. */
  allow_fallbacks?: boolean;
  /** Only providers that support every request parameter. */
  require_parameters?: boolean;
  /** Whether providers that store data may serve the request. */
  data_collection?: "allow" | "deny";
  /** Zero-data-retention endpoints only. */
  zdr?: boolean;
  /** Only providers that allow distillation of their output. */
  enforce_distillable_text?: boolean;
  /** Providers to try, in order. */
  order?: string[];
  /** The only providers to use. */
  only?: string[];
  /** Providers to skip. */
  ignore?: string[];
  /** Accepted quantisation levels. */
  quantizations?: string[];
  /** Sort order of the candidate providers. */
  sort?: string | { by?: string; partition?: string | null };
  /** Highest prices to accept, per million tokens (or per request). */
  max_price?: {
    prompt?: number | string;
    completion?: number | string;
    image?: number | string;
    audio?: number | string;
    request?: number | string;
  };
  /** Lowest throughput to prefer. */
  preferred_min_throughput?: number | { p50?: number; p75?: number; p90?: number; p99?: number };
  /** Highest latency to prefer. */
  preferred_max_latency?: number | { p50?: number; p75?: number; p90?: number; p99?: number };
}

/** Vercel AI Gateway's routing preferences. */
export interface VercelGatewayRouting {
  /** The only providers to use. */
  only?: string[];
  /** Providers to try, in order. */
  order?: string[];
}

/** A model Anthropic may fall back to, with its prices (accepted). */
export interface AnthropicAllowedFallbackModel {
  /** Provider of the fallback model. */
  provider: string;
  /** Id of the fallback model. */
  model: string;
  /** Its prices per million tokens. */
  cost: {
    input: number;
    output: number;
    cacheRead: number;
    cacheWrite: number;
    tiers?: {
      input: number;
      output: number;
      cacheRead: number;
      cacheWrite: number;
      inputTokensAbove: number;
    }[];
  };
}

/** Switches for OpenAI-compatible Chat Completions servers; unset ones are detected from the URL. */
export interface OpenAICompletionsCompat {
  /** Whether the server accepts `store`. */
  supportsStore?: boolean;
  /** Whether the server accepts the `developer` role for the system prompt. */
  supportsDeveloperRole?: boolean;
  /** Whether the server accepts `reasoning_effort`. */
  supportsReasoningEffort?: boolean;
  /** Whether the server reports usage in the stream (`stream_options.include_usage`). */
  supportsUsageInStreaming?: boolean;
  /** False for servers that never send `finish_reason` (the content decides the stop reason). */
  supportsFinishReason?: boolean;
  /** Which field carries the output token limit. */
  maxTokensField?: "max_completion_tokens" | "max_tokens";
  /** Whether tool results must carry the tool's `name`. */
  requiresToolResultName?: boolean;
  /** Whether an assistant message must follow tool results before a user message. */
  requiresAssistantAfterToolResult?: boolean;
  /** Whether assistant messages need non-null `content` (accepted). */
  requiresNonNullAssistantContent?: boolean;
  /** Send `tools: []` when the history has tool calls but no tools are offered. */
  requiresToolsWithToolHistory?: boolean;
  /** Whether earlier thinking must be sent back as plain text. */
  requiresThinkingAsText?: boolean;
  /** Whether assistant messages must carry `reasoning_content`. */
  requiresReasoningContentOnAssistantMessages?: boolean;
  /**
   * How reasoning is requested and returned by this server. This build applies "openai",
   * "openrouter", "deepseek", "zai", "qwen" and "qwen-chat-template"; the others are accepted.
   */
  thinkingFormat?:
    | "ant-ling"
    | "baseten"
    | "chat-template"
    | "deepseek"
    | "openai"
    | "openrouter"
    | "qwen"
    | "qwen-chat-template"
    | "string-thinking"
    | "together"
    | "zai";
  /** Chat-template keyword arguments (accepted). */
  chatTemplateKwargs?: Record<string, ChatTemplateKwargValue>;
  /** Chat-template arguments (accepted). */
  chatTemplateArgs?: Record<string, ChatTemplateKwargValue>;
  /** OpenRouter provider-routing preferences sent as `provider`. */
  openRouterRouting?: OpenRouterRouting;
  /** Vercel AI Gateway routing preferences. */
  vercelGatewayRouting?: VercelGatewayRouting;
  /** Whether Z.ai's `tool_stream` is turned on. */
  zaiToolStream?: boolean;
  /** The field of a thinking token budget (accepted). */
  thinkingTokenBudgetField?: ThinkingTokenBudgetField;
  /** Whether the server takes a thinking token budget (accepted). */
  supportsThinkingTokenBudget?: boolean;
  /** Whether the server takes OpenAI grammar tools (accepted). */
  supportsOpenAIGrammarTools?: boolean;
  /** Whether system messages may appear mid-conversation (accepted). */
  supportsMidConvoSystemMessages?: boolean;
  /** Whether tools may be added mid-conversation (accepted). */
  supportsMidConvoToolAdditions?: boolean;
  /** Whether tools may be declared with `strict: true`. */
  supportsStrictMode?: boolean;
  /** Cache-control markers in the Anthropic style, for proxies that pass them on. */
  cacheControlFormat?: "anthropic";
  /** Whether to send the session id as affinity headers. */
  sendSessionAffinityHeaders?: boolean;
  /** Which session headers: OpenRouter's `x-session-id`, or OpenAI's `session_id` and friends. */
  sessionAffinityFormat?: SessionAffinityFormat;
  /** How the prompt cache key is sent (accepted). */
  promptCacheKeyMode?: "auto" | "disabled" | "enabled";
  /** Whether the server offers the long prompt-cache retention (`cacheRetention: "long"`). */
  supportsLongCacheRetention?: boolean;
  /** vLLM request priority (accepted). */
  vllmPriority?: number;
}

/** Switches for OpenAI Responses servers (Responses, Azure, Codex). */
export interface OpenAIResponsesCompat {
  /** Whether the server accepts the `developer` role (accepted). */
  supportsDeveloperRole?: boolean;
  /** Whether system messages may appear mid-conversation (accepted). */
  supportsMidConvoSystemMessages?: boolean;
  /** Which session headers: OpenRouter's `x-session-id`, or OpenAI's `session-id` (1.x). */
  sessionAffinityFormat?: SessionAffinityFormat;
  /** How the prompt cache key is sent (accepted). */
  promptCacheKeyMode?: "auto" | "disabled" | "enabled";
  /** Whether the server offers the long prompt-cache retention (`cacheRetention: "long"`). */
  supportsLongCacheRetention?: boolean;
  /** Whether tools may be declared with `strict: true`. */
  supportsStrictMode?: boolean;
  /** Whether the server takes OpenAI grammar tools (accepted). */
  supportsOpenAIGrammarTools?: boolean;
  /** Whether the server takes additional tools (accepted). */
  supportsAdditionalTools?: boolean;
  /** Whether the server offers tool search (accepted). */
  supportsToolSearch?: boolean;
  /** Whether the prompt cache mode can be set explicitly (accepted). */
  supportsExplicitPromptCacheMode?: boolean;
  /** Whether the effort may change mid-conversation (accepted). */
  supportsMidConvoEffort?: boolean;
  /** Whether the server takes `max_output_tokens` (accepted). */
  supportsMaxOutputTokens?: boolean;
  /** Removed in pi 1.x (use `sessionAffinityFormat`); ignored. */
  sendSessionIdHeader?: boolean;
}

/** Switches for Anthropic Messages-compatible servers. */
export interface AnthropicMessagesCompat {
  /** Whether tool arguments may stream eagerly (fine-grained tool streaming). */
  supportsEagerToolInputStreaming?: boolean;
  /** Whether the server offers the long prompt-cache retention (`cacheRetention: "long"`). */
  supportsLongCacheRetention?: boolean;
  /** Send the session id as an affinity header (default: OpenRouter only). */
  sendSessionAffinityHeaders?: boolean;
  /** "openrouter" sends OpenRouter's `x-session-id`; unset sends `x-session-affinity`. */
  sessionAffinityFormat?: "openrouter";
  /** Whether tools may carry cache-control markers (accepted). */
  supportsCacheControlOnTools?: boolean;
  /** Whether the server takes `temperature` (accepted). */
  supportsTemperature?: boolean;
  /** The model thinks adaptively (an effort, no token budget). */
  forceAdaptiveThinking?: boolean;
  /** Whether thinking blocks may come without a signature (accepted). */
  allowEmptySignature?: boolean;
  /** Whether the server takes strict tool schemas (the catalog's Claude models say so; default false). */
  supportsStrictTools?: boolean;
  /** Whether the effort may change mid-conversation (accepted). */
  supportsMidConvoEffort?: boolean;
  /** Whether system messages may appear mid-conversation (accepted). */
  supportsMidConvoSystemMessages?: boolean;
  /** Whether tools may change mid-conversation (accepted). */
  supportsMidConvoToolChanges?: boolean;
  /** Whether the server keeps message threads (accepted). */
  supportsMessageThreads?: boolean;
  /** Models Anthropic may fall back to (accepted). */
  allowedFallbackModels?: AnthropicAllowedFallbackModel[];
}

/** Switches for Amazon Bedrock's Converse API. */
export interface BedrockCompat {
  /** Whether tools may be declared strict. */
  supportsStrictMode?: boolean;
}

/** Switches for Mistral's Conversations API. */
export interface MistralConversationsCompat {
  /** Whether system messages may appear mid-conversation (accepted). */
  supportsMidConvoSystemMessages?: boolean;
  /** Whether tools may be declared strict. */
  supportsStrictMode?: boolean;
}

/** The `compat` switches a model of wire API `TApi` carries (none for the Google APIs). */
export type ModelCompat<TApi extends string> = TApi extends "openai-completions" ? OpenAICompletionsCompat
  : TApi extends "openai-responses" | "azure-openai-responses" | "openai-codex-responses"
    ? OpenAIResponsesCompat
  : TApi extends "anthropic-messages" ? AnthropicMessagesCompat
  : TApi extends "bedrock-converse-stream" ? BedrockCompat
  : TApi extends "mistral-conversations" ? MistralConversationsCompat
  : never;
