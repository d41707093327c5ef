/**
 * What an OpenAI-compatible Chat Completions server accepts. Servers differ in small ways
 * (developer role, `store`, token field name, reasoning parameters, strict tool schemas);
 * known ones are recognised from the provider name or base URL, and `model.compat` overrides
 * any single switch.
 *
 * @module
 */
import type { Model, OpenAICompletionsCompat } from "../types.ts";

/** Every compat switch with a value. */
export type ResolvedCompletionsCompat =
  & Required<Omit<OpenAICompletionsCompat, "cacheControlFormat">>
  & Pick<OpenAICompletionsCompat, "cacheControlFormat">;

/** The switches known servers need, detected from provider and base URL (provider first). */
export function detectCompletionsCompat(model: Model): ResolvedCompletionsCompat {
  const provider = model.provider;
  const url = model.baseUrl;
  const isZai = provider === "zai" || url.includes("api.z.ai");
  const isMoonshot = provider === "moonshotai" || provider === "moonshotai-cn" ||
    url.includes("api.moonshot.");
  const isWorkersAI = provider === "cloudflare-workers-ai" || url.includes("api.cloudflare.com");
  const isAiGateway = provider === "cloudflare-ai-gateway" || url.includes("gateway.ai.cloudflare.com");
  const isGrok = provider === "xai" || url.includes("api.x.ai");
  const isDeepSeek = provider === "deepseek" || url.includes("deepseek.com");
  const isNonStandard = provider === "cerebras" || url.includes("cerebras.ai") || isGrok ||
    url.includes("chutes.ai") || url.includes("deepseek.com") || isZai || isMoonshot ||
    provider === "opencode" || url.includes("opencode.ai") || isWorkersAI || isAiGateway;
  const useMaxTokens = url.includes("chutes.ai") || isMoonshot || isAiGateway;
  return {
    supportsStore: !isNonStandard,
    supportsDeveloperRole: !isNonStandard,
    supportsReasoningEffort: !isGrok && !isZai && !isMoonshot && !isAiGateway,
    supportsUsageInStreaming: true,
    maxTokensField: useMaxTokens ? "max_tokens" : "max_completion_tokens",
    requiresToolResultName: false,
    requiresAssistantAfterToolResult: false,
    requiresThinkingAsText: false,
    requiresReasoningContentOnAssistantMessages: isDeepSeek,
    thinkingFormat: isDeepSeek
      ? "deepseek"
      : isZai
      ? "zai"
      : provider === "openrouter" || url.includes("openrouter.ai")
      ? "openrouter"
      : "openai",
    openRouterRouting: {},
    vercelGatewayRouting: {},
    zaiToolStream: false,
    supportsStrictMode: !isMoonshot && !isAiGateway,
    cacheControlFormat: provider === "openrouter" && model.id.startsWith("anthropic/")
      ? "anthropic"
      : undefined,
    sendSessionAffinityHeaders: false,
    supportsLongCacheRetention: !(isWorkersAI || isAiGateway),
  };
}

/** Detected switches with the model's explicit `compat` values laid over them. */
export function getCompletionsCompat(model: Model): ResolvedCompletionsCompat {
  const detected = detectCompletionsCompat(model);
  const c = model.compat as OpenAICompletionsCompat | undefined;
  if (!c) return detected;
  return {
    supportsStore: c.supportsStore ?? detected.supportsStore,
    supportsDeveloperRole: c.supportsDeveloperRole ?? detected.supportsDeveloperRole,
    supportsReasoningEffort: c.supportsReasoningEffort ?? detected.supportsReasoningEffort,
    supportsUsageInStreaming: c.supportsUsageInStreaming ?? detected.supportsUsageInStreaming,
    maxTokensField: c.maxTokensField ?? detected.maxTokensField,
    requiresToolResultName: c.requiresToolResultName ?? detected.requiresToolResultName,
    requiresAssistantAfterToolResult: c.requiresAssistantAfterToolResult ??
      detected.requiresAssistantAfterToolResult,
    requiresThinkingAsText: c.requiresThinkingAsText ?? detected.requiresThinkingAsText,
    requiresReasoningContentOnAssistantMessages: c.requiresReasoningContentOnAssistantMessages ??
      detected.requiresReasoningContentOnAssistantMessages,
    thinkingFormat: c.thinkingFormat ?? detected.thinkingFormat,
    openRouterRouting: c.openRouterRouting ?? {},
    vercelGatewayRouting: c.vercelGatewayRouting ?? detected.vercelGatewayRouting,
    zaiToolStream: c.zaiToolStream ?? detected.zaiToolStream,
    supportsStrictMode: c.supportsStrictMode ?? detected.supportsStrictMode,
    cacheControlFormat: c.cacheControlFormat ?? detected.cacheControlFormat,
    sendSessionAffinityHeaders: c.sendSessionAffinityHeaders ?? detected.sendSessionAffinityHeaders,
    supportsLongCacheRetention: c.supportsLongCacheRetention ?? detected.supportsLongCacheRetention,
  };
}
