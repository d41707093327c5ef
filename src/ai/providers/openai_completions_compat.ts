/**
 * What an OpenAI-compatible Chat Completions server accepts. Servers differ in small ways
 * (developer role, `store`, token field name, reasoning parameters, strict tool schemas);
 * known ones are recognised from the provider name or base URL, and `model.compat` overrides
 * any single switch.
 *
 * @module
 */
import type { Model, OpenAICompletionsCompat } from "../types.ts";

/** The switches this build applies; the others pi-ai 1.6.0 declares are accepted and ignored. */
type AppliedCompletionsCompat = Omit<
  OpenAICompletionsCompat,
  | "requiresNonNullAssistantContent"
  | "chatTemplateKwargs"
  | "chatTemplateArgs"
  | "thinkingTokenBudgetField"
  | "supportsThinkingTokenBudget"
  | "supportsOpenAIGrammarTools"
  | "supportsMidConvoSystemMessages"
  | "supportsMidConvoToolAdditions"
  | "promptCacheKeyMode"
  | "vllmPriority"
>;

/** Every applied compat switch with a value. */
export type ResolvedCompletionsCompat =
  & Required<Omit<AppliedCompletionsCompat, "cacheControlFormat" | "sessionAffinityFormat">>
  & Pick<OpenAICompletionsCompat, "cacheControlFormat" | "sessionAffinityFormat">;

/** The switches known servers need, detected from provider and base URL (provider first). */
export function detectCompletionsCompat(model: Model): ResolvedCompletionsCompat {
  const provider = model.provider;
  const url = model.baseUrl;
  const isZai = provider === "zai" || provider === "zai-coding-cn" || url.includes("api.z.ai") ||
    url.includes("open.bigmodel.cn");
  const isTogether = provider === "together" || url.includes("api.together.ai") ||
    url.includes("api.together.xyz");
  const isMoonshot = provider === "moonshotai" || provider === "moonshotai-cn" ||
    url.includes("api.moonshot.");
  const isOpenRouter = provider === "openrouter" || url.includes("openrouter.ai");
  const isWorkersAI = provider === "cloudflare-workers-ai" || url.includes("api.cloudflare.com");
  const isAiGateway = provider === "cloudflare-ai-gateway" || url.includes("gateway.ai.cloudflare.com");
  const isNvidia = provider === "nvidia" || url.includes("integrate.api.nvidia.com");
  const isAntLing = provider === "ant-ling" || url.includes("api.ant-ling.com");
  const isGrok = provider === "xai" || url.includes("api.x.ai");
  const isDeepSeek = provider === "deepseek" || url.toLowerCase().includes("deepseek.com");
  const isNonStandard = isNvidia || provider === "cerebras" || url.includes("cerebras.ai") || isGrok ||
    isTogether ||
    url.includes("chutes.ai") || isDeepSeek || isZai || isMoonshot || provider === "opencode" ||
    url.includes("opencode.ai") || isWorkersAI || isAiGateway || isAntLing;
  const useMaxTokens = url.includes("chutes.ai") || isDeepSeek || isMoonshot || isAiGateway || isTogether ||
    isNvidia || isAntLing || isZai;
  // pi-ai 1.6.0: the developer role is OpenAI's own; other hosts' chat templates often reject it,
  // and every host accepts "system".
  const isOpenAI = provider === "openai" || url.includes("api.openai.com");
  return {
    supportsStore: !isNonStandard,
    supportsDeveloperRole: isOpenAI,
    supportsReasoningEffort: !isGrok && !isZai && !isMoonshot && !isTogether && !isAiGateway && !isNvidia &&
      !isAntLing,
    supportsUsageInStreaming: true,
    supportsFinishReason: true,
    maxTokensField: useMaxTokens ? "max_tokens" : "max_completion_tokens",
    requiresToolResultName: false,
    requiresAssistantAfterToolResult: false,
    requiresToolsWithToolHistory: false,
    requiresThinkingAsText: false,
    requiresReasoningContentOnAssistantMessages: isDeepSeek,
    thinkingFormat: isDeepSeek ? "deepseek" : isZai ? "zai" : isOpenRouter ? "openrouter" : "openai",
    openRouterRouting: {},
    vercelGatewayRouting: {},
    zaiToolStream: false,
    // pi-ai 1.x: OpenAI compatibility alone does not imply strict tool schemas; no `strict` field.
    supportsStrictMode: false,
    cacheControlFormat: provider === "openrouter" && model.id.startsWith("anthropic/")
      ? "anthropic"
      : undefined,
    sendSessionAffinityHeaders: isOpenRouter,
    sessionAffinityFormat: isOpenRouter ? "openrouter" : "openai",
    supportsLongCacheRetention: !(isTogether || isWorkersAI || isAiGateway || isNvidia || isAntLing),
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
    supportsFinishReason: c.supportsFinishReason ?? detected.supportsFinishReason,
    maxTokensField: c.maxTokensField ?? detected.maxTokensField,
    requiresToolResultName: c.requiresToolResultName ?? detected.requiresToolResultName,
    requiresAssistantAfterToolResult: c.requiresAssistantAfterToolResult ??
      detected.requiresAssistantAfterToolResult,
    requiresToolsWithToolHistory: c.requiresToolsWithToolHistory ?? detected.requiresToolsWithToolHistory,
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
    sessionAffinityFormat: c.sessionAffinityFormat ?? detected.sessionAffinityFormat,
    supportsLongCacheRetention: c.supportsLongCacheRetention ?? detected.supportsLongCacheRetention,
  };
}
