/**
 * models.json: schema, JSONC reading and validation with the reference's exact error texts.
 * The registry turns a validated config into models; this module only decides whether the file is usable.
 *
 * @module
 */

import type { ModelInputLimits, OpenRouterRouting, VercelGatewayRouting } from "../ai/types.ts";
import { describeJsonError } from "./json_error.ts";
import { stripJsonComments } from "./jsonc.ts";
import { formatSchemaErrors, isModelsConfigShape, modelsConfigSchemaErrors } from "./models_json_validate.ts";

// models.json carries these exactly as pi-ai's model catalog declares them.
export type { ModelInputLimits, OpenRouterRouting, VercelGatewayRouting };

/** Maps pi's thinking levels to provider values; `null` marks a level as unsupported. */
export interface ThinkingLevelMap {
  off?: string | null;
  minimal?: string | null;
  low?: string | null;
  medium?: string | null;
  high?: string | null;
  xhigh?: string | null;
  max?: string | null;
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
  supportsStrictMode?: boolean;
}

/** Compat flags for anthropic-messages endpoints. */
export interface AnthropicMessagesCompatConfig {
  supportsEagerToolInputStreaming?: boolean;
  supportsLongCacheRetention?: boolean;
  supportsStrictTools?: boolean;
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
  cost?: ModelCostConfig;
  /** Image and request size limits (1.6.0). */
  inputLimits?: ModelInputLimits;
  /** Prompt-cache lifetimes in seconds (1.6.0). */
  promptCache?: { short?: number; long?: number };
  contextWindow?: number;
  maxTokens?: number;
  /** Fields merged into every request body (OpenAI-compatible APIs). */
  samplingParams?: Record<string, unknown>;
  /** samplingParams per thinking level, merged over samplingParams. */
  samplingParamsByThinkingLevel?: Partial<Record<ThinkingLevelKey, Record<string, unknown>>>;
  headers?: Record<string, string>;
  compat?: ProviderCompat;
}

/** Thinking levels a map or per-level setting may name (1.6.0 adds `max`). */
export type ThinkingLevelKey = "off" | "minimal" | "low" | "medium" | "high" | "xhigh" | "max";

/** Per-million-token prices, with optional long-context tiers (1.6.0). */
export interface ModelCostConfig {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  tiers?: {
    inputTokensAbove: number;
    input: number;
    output: number;
    cacheRead: number;
    cacheWrite: number;
  }[];
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
  /** OAuth login flow (`radius`); requires baseUrl. */
  oauth?: "radius";
  models?: ModelDefinition[];
  modelOverrides?: Record<string, ModelOverride>;
}

/** The whole models.json document. */
export interface ModelsConfig {
  $schema?: string;
  providers: Record<string, ProviderConfig>;
}

/**
 * Semantic checks beyond the schema, per provider as pi 1.6.0 composes them: the problem with one provider
 * (`Provider x: …`), or undefined when it is usable. A provider with a problem is skipped; the others load.
 */
export function providerConfigProblem(
  providerName: string,
  providerConfig: ProviderConfig,
  isBuiltIn: boolean,
): string | undefined {
  const models = providerConfig.models ?? [];
  const hasModelOverrides = providerConfig.modelOverrides &&
    Object.keys(providerConfig.modelOverrides).length > 0;
  if (providerConfig.oauth !== undefined && !providerConfig.baseUrl) {
    return `Provider ${providerName}: "baseUrl" is required when "oauth" is set.`;
  }
  if (models.length === 0) {
    if (
      !providerConfig.baseUrl && !providerConfig.headers && !providerConfig.compat && !hasModelOverrides &&
      !providerConfig.apiKey && !providerConfig.oauth
    ) {
      return `Provider ${providerName}: must specify "baseUrl", "headers", "compat", "modelOverrides", or "models".`;
    }
    return undefined;
  }
  for (const modelDef of models) {
    if (!providerConfig.api && !modelDef.api && !isBuiltIn) {
      return `Provider ${providerName}, model ${modelDef.id}: no "api" specified. Set at provider or model level.`;
    }
  }
  if (!isBuiltIn && !providerConfig.baseUrl && models.some((m) => !m.baseUrl)) {
    return `Provider ${providerName}: "baseUrl" is required when defining custom models.`;
  }
  return undefined;
}

/**
 * Outcome of {@link readModelsJson}: the usable config (providers with problems left out), and the message the
 * user sees when something was wrong. Both are absent when there is no file.
 */
export interface ModelsJsonResult {
  config?: ModelsConfig;
  error?: string;
}

/**
 * Reads and validates models.json. A file that cannot be read, parsed or that breaks the schema gives no config
 * and an error (`Failed to parse models.json: line L, column C: …`, the schema list, …); a provider whose
 * settings do not fit together is left out and named (`Provider "x": …`). Every error ends with
 * `\n\nFile: <path>`. Messages never quote the file, which may hold API keys.
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
  const text = stripJsonComments(content.charCodeAt(0) === 0xfeff ? content.slice(1) : content);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { error: `Failed to parse models.json: ${describeJsonError(text, error)}\n\nFile: ${path}` };
  }
  if (!isModelsConfigShape(parsed)) {
    const errors = formatSchemaErrors(modelsConfigSchemaErrors(parsed));
    return { error: `Invalid models.json schema:\n${errors}\n\nFile: ${path}` };
  }
  const config = parsed as ModelsConfig;
  const providers: Record<string, ProviderConfig> = {};
  const problems: string[] = [];
  for (const [name, provider] of Object.entries(config.providers)) {
    const problem = providerConfigProblem(name, provider, builtInProviders.has(name));
    if (problem) problems.push(`Provider "${name}": ${problem}`);
    else providers[name] = provider;
  }
  const usable = { ...config, providers };
  return problems.length > 0
    ? { config: usable, error: `${problems.join("\n")}\n\nFile: ${path}` }
    : { config: usable };
}
