/**
 * models.json: schema, JSONC reading and validation with the reference's exact error texts.
 * The registry turns a validated config into models; this module only decides whether the file is usable.
 *
 * @module
 */

import { stripJsonComments } from "./jsonc.ts";
import { formatSchemaErrors, isModelsConfigShape, modelsConfigSchemaErrors } from "./models_json_validate.ts";

/** Latency/throughput cutoffs by percentile for OpenRouter provider routing. */
export interface PercentileCutoffs {
  p50?: number;
  p75?: number;
  p90?: number;
  p99?: number;
}

/** OpenRouter `provider` routing preferences, passed through to the request. */
export interface OpenRouterRouting {
  allow_fallbacks?: boolean;
  require_parameters?: boolean;
  data_collection?: "deny" | "allow";
  zdr?: boolean;
  enforce_distillable_text?: boolean;
  order?: string[];
  only?: string[];
  ignore?: string[];
  quantizations?: string[];
  sort?: string | { by?: string; partition?: string | null };
  max_price?: {
    prompt?: number | string;
    completion?: number | string;
    image?: number | string;
    audio?: number | string;
    request?: number | string;
  };
  preferred_min_throughput?: number | PercentileCutoffs;
  preferred_max_latency?: number | PercentileCutoffs;
}

/** Vercel AI Gateway provider routing preferences. */
export interface VercelGatewayRouting {
  only?: string[];
  order?: string[];
}

/** Maps pi's thinking levels to provider values; `null` marks a level as unsupported. */
export interface ThinkingLevelMap {
  off?: string | null;
  minimal?: string | null;
  low?: string | null;
  medium?: string | null;
  high?: string | null;
  xhigh?: string | null;
}

/** Compat flags for openai-completions style endpoints. */
export interface OpenAICompletionsCompatConfig {
  supportsStore?: boolean;
  supportsDeveloperRole?: boolean;
  supportsReasoningEffort?: boolean;
  supportsUsageInStreaming?: boolean;
  maxTokensField?: "max_completion_tokens" | "max_tokens";
  requiresToolResultName?: boolean;
  requiresAssistantAfterToolResult?: boolean;
  requiresThinkingAsText?: boolean;
  requiresReasoningContentOnAssistantMessages?: boolean;
  thinkingFormat?: "openai" | "openrouter" | "deepseek" | "zai" | "qwen" | "qwen-chat-template";
  cacheControlFormat?: "anthropic";
  openRouterRouting?: OpenRouterRouting;
  vercelGatewayRouting?: VercelGatewayRouting;
  supportsStrictMode?: boolean;
  supportsLongCacheRetention?: boolean;
}

/** Compat flags for openai-responses endpoints. */
export interface OpenAIResponsesCompatConfig {
  sendSessionIdHeader?: boolean;
  supportsLongCacheRetention?: boolean;
}

/** Compat flags for anthropic-messages endpoints. */
export interface AnthropicMessagesCompatConfig {
  supportsEagerToolInputStreaming?: boolean;
  supportsLongCacheRetention?: boolean;
}

/** The compat object accepted at provider or model level. */
export type ProviderCompat =
  | OpenAICompletionsCompatConfig
  | OpenAIResponsesCompatConfig
  | AnthropicMessagesCompatConfig;

/** A custom model entry in models.json. */
export interface ModelDefinition {
  id: string;
  name?: string;
  api?: string;
  baseUrl?: string;
  reasoning?: boolean;
  thinkingLevelMap?: ThinkingLevelMap;
  input?: ("text" | "image")[];
  cost?: { input: number; output: number; cacheRead: number; cacheWrite: number };
  contextWindow?: number;
  maxTokens?: number;
  headers?: Record<string, string>;
  compat?: ProviderCompat;
}

/** Per-model changes to a built-in model. */
export interface ModelOverride {
  name?: string;
  reasoning?: boolean;
  thinkingLevelMap?: ThinkingLevelMap;
  input?: ("text" | "image")[];
  cost?: { input?: number; output?: number; cacheRead?: number; cacheWrite?: number };
  contextWindow?: number;
  maxTokens?: number;
  headers?: Record<string, string>;
  compat?: ProviderCompat;
}

/** One provider block in models.json. */
export interface ProviderConfig {
  name?: string;
  baseUrl?: string;
  apiKey?: string;
  api?: string;
  headers?: Record<string, string>;
  compat?: ProviderCompat;
  authHeader?: boolean;
  models?: ModelDefinition[];
  modelOverrides?: Record<string, ModelOverride>;
}

/** The whole models.json document. */
export interface ModelsConfig {
  providers: Record<string, ProviderConfig>;
}

/** Semantic checks beyond the schema; throws `Provider X: …` errors. */
export function validateModelsConfig(config: ModelsConfig, builtInProviders: ReadonlySet<string>): void {
  for (const [providerName, providerConfig] of Object.entries(config.providers)) {
    const isBuiltIn = builtInProviders.has(providerName);
    const hasProviderApi = !!providerConfig.api;
    const models = providerConfig.models ?? [];
    const hasModelOverrides = providerConfig.modelOverrides &&
      Object.keys(providerConfig.modelOverrides).length > 0;
    if (models.length === 0) {
      if (
        !providerConfig.baseUrl && !providerConfig.headers && !providerConfig.compat && !hasModelOverrides
      ) {
        throw new Error(
          `Provider ${providerName}: must specify "baseUrl", "headers", "compat", "modelOverrides", or "models".`,
        );
      }
    } else if (!isBuiltIn) {
      if (!providerConfig.baseUrl) {
        throw new Error(`Provider ${providerName}: "baseUrl" is required when defining custom models.`);
      }
      if (!providerConfig.apiKey) {
        throw new Error(`Provider ${providerName}: "apiKey" is required when defining custom models.`);
      }
    }
    for (const modelDef of models) {
      if (!hasProviderApi && !modelDef.api && !isBuiltIn) {
        throw new Error(
          `Provider ${providerName}, model ${modelDef.id}: no "api" specified. Set at provider or model level.`,
        );
      }
      if (!modelDef.id) throw new Error(`Provider ${providerName}: model missing "id"`);
      if (modelDef.contextWindow !== undefined && modelDef.contextWindow <= 0) {
        throw new Error(`Provider ${providerName}, model ${modelDef.id}: invalid contextWindow`);
      }
      if (modelDef.maxTokens !== undefined && modelDef.maxTokens <= 0) {
        throw new Error(`Provider ${providerName}, model ${modelDef.id}: invalid maxTokens`);
      }
    }
  }
}

/** Outcome of {@link readModelsJson}: a usable config, nothing (file absent), or an error message. */
export type ModelsJsonResult =
  | { config: ModelsConfig; error?: undefined }
  | { config?: undefined; error?: string };

/**
 * Reads and validates models.json. Errors come back as the message the user sees (schema list, semantic
 * error, or JSON parse error), each followed by `\n\nFile: <path>`.
 */
export function readModelsJson(path: string, builtInProviders: ReadonlySet<string>): ModelsJsonResult {
  let content: string;
  try {
    content = Deno.readTextFileSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return {};
    return {
      error: `Failed to load models.json: ${error instanceof Error ? error.message : error}\n\nFile: ${path}`,
    };
  }
  try {
    const parsed: unknown = JSON.parse(stripJsonComments(content));
    if (!isModelsConfigShape(parsed)) {
      const errors = formatSchemaErrors(modelsConfigSchemaErrors(parsed));
      return { error: `Invalid models.json schema:\n${errors}\n\nFile: ${path}` };
    }
    const config = parsed as ModelsConfig;
    validateModelsConfig(config, builtInProviders);
    return { config };
  } catch (error) {
    if (error instanceof SyntaxError) {
      return { error: `Failed to parse models.json: ${error.message}\n\nFile: ${path}` };
    }
    return {
      error: `Failed to load models.json: ${error instanceof Error ? error.message : error}\n\nFile: ${path}`,
    };
  }
}
