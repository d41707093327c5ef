/**
 * models.json: schema, JSONC reading and validation with the reference's exact error texts.
 * The registry turns a validated config into models; this module only decides whether the file is usable.
 *
 * @module
 */

import { type Static, Type } from "typebox";
import { Compile } from "typebox/compile";
import { stripJsonComments } from "./jsonc.ts";

const PercentileCutoffsSchema = Type.Object({
  p50: Type.Optional(Type.Number()),
  p75: Type.Optional(Type.Number()),
  p90: Type.Optional(Type.Number()),
  p99: Type.Optional(Type.Number()),
});

const NumberOrString = Type.Optional(Type.Union([Type.Number(), Type.String()]));

const OpenRouterRoutingSchema = Type.Object({
  allow_fallbacks: Type.Optional(Type.Boolean()),
  require_parameters: Type.Optional(Type.Boolean()),
  data_collection: Type.Optional(Type.Union([Type.Literal("deny"), Type.Literal("allow")])),
  zdr: Type.Optional(Type.Boolean()),
  enforce_distillable_text: Type.Optional(Type.Boolean()),
  order: Type.Optional(Type.Array(Type.String())),
  only: Type.Optional(Type.Array(Type.String())),
  ignore: Type.Optional(Type.Array(Type.String())),
  quantizations: Type.Optional(Type.Array(Type.String())),
  sort: Type.Optional(Type.Union([
    Type.String(),
    Type.Object({
      by: Type.Optional(Type.String()),
      partition: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    }),
  ])),
  max_price: Type.Optional(Type.Object({
    prompt: NumberOrString,
    completion: NumberOrString,
    image: NumberOrString,
    audio: NumberOrString,
    request: NumberOrString,
  })),
  preferred_min_throughput: Type.Optional(Type.Union([Type.Number(), PercentileCutoffsSchema])),
  preferred_max_latency: Type.Optional(Type.Union([Type.Number(), PercentileCutoffsSchema])),
});

const VercelGatewayRoutingSchema = Type.Object({
  only: Type.Optional(Type.Array(Type.String())),
  order: Type.Optional(Type.Array(Type.String())),
});

const ThinkingLevelMapValueSchema = Type.Union([Type.String(), Type.Null()]);
const ThinkingLevelMapSchema = Type.Object({
  off: Type.Optional(ThinkingLevelMapValueSchema),
  minimal: Type.Optional(ThinkingLevelMapValueSchema),
  low: Type.Optional(ThinkingLevelMapValueSchema),
  medium: Type.Optional(ThinkingLevelMapValueSchema),
  high: Type.Optional(ThinkingLevelMapValueSchema),
  xhigh: Type.Optional(ThinkingLevelMapValueSchema),
});

const OpenAICompletionsCompatSchema = Type.Object({
  supportsStore: Type.Optional(Type.Boolean()),
  supportsDeveloperRole: Type.Optional(Type.Boolean()),
  supportsReasoningEffort: Type.Optional(Type.Boolean()),
  supportsUsageInStreaming: Type.Optional(Type.Boolean()),
  maxTokensField: Type.Optional(
    Type.Union([Type.Literal("max_completion_tokens"), Type.Literal("max_tokens")]),
  ),
  requiresToolResultName: Type.Optional(Type.Boolean()),
  requiresAssistantAfterToolResult: Type.Optional(Type.Boolean()),
  requiresThinkingAsText: Type.Optional(Type.Boolean()),
  requiresReasoningContentOnAssistantMessages: Type.Optional(Type.Boolean()),
  thinkingFormat: Type.Optional(Type.Union([
    Type.Literal("openai"),
    Type.Literal("openrouter"),
    Type.Literal("deepseek"),
    Type.Literal("zai"),
    Type.Literal("qwen"),
    Type.Literal("qwen-chat-template"),
  ])),
  cacheControlFormat: Type.Optional(Type.Literal("anthropic")),
  openRouterRouting: Type.Optional(OpenRouterRoutingSchema),
  vercelGatewayRouting: Type.Optional(VercelGatewayRoutingSchema),
  supportsStrictMode: Type.Optional(Type.Boolean()),
  supportsLongCacheRetention: Type.Optional(Type.Boolean()),
});

const OpenAIResponsesCompatSchema = Type.Object({
  sendSessionIdHeader: Type.Optional(Type.Boolean()),
  supportsLongCacheRetention: Type.Optional(Type.Boolean()),
});

const AnthropicMessagesCompatSchema = Type.Object({
  supportsEagerToolInputStreaming: Type.Optional(Type.Boolean()),
  supportsLongCacheRetention: Type.Optional(Type.Boolean()),
});

const ProviderCompatSchema = Type.Union([
  OpenAICompletionsCompatSchema,
  OpenAIResponsesCompatSchema,
  AnthropicMessagesCompatSchema,
]);

const InputSchema = Type.Array(Type.Union([Type.Literal("text"), Type.Literal("image")]));
const HeadersSchema = Type.Record(Type.String(), Type.String());

const ModelDefinitionSchema = Type.Object({
  id: Type.String({ minLength: 1 }),
  name: Type.Optional(Type.String({ minLength: 1 })),
  api: Type.Optional(Type.String({ minLength: 1 })),
  baseUrl: Type.Optional(Type.String({ minLength: 1 })),
  reasoning: Type.Optional(Type.Boolean()),
  thinkingLevelMap: Type.Optional(ThinkingLevelMapSchema),
  input: Type.Optional(InputSchema),
  cost: Type.Optional(Type.Object({
    input: Type.Number(),
    output: Type.Number(),
    cacheRead: Type.Number(),
    cacheWrite: Type.Number(),
  })),
  contextWindow: Type.Optional(Type.Number()),
  maxTokens: Type.Optional(Type.Number()),
  headers: Type.Optional(HeadersSchema),
  compat: Type.Optional(ProviderCompatSchema),
});

const ModelOverrideSchema = Type.Object({
  name: Type.Optional(Type.String({ minLength: 1 })),
  reasoning: Type.Optional(Type.Boolean()),
  thinkingLevelMap: Type.Optional(ThinkingLevelMapSchema),
  input: Type.Optional(InputSchema),
  cost: Type.Optional(Type.Object({
    input: Type.Optional(Type.Number()),
    output: Type.Optional(Type.Number()),
    cacheRead: Type.Optional(Type.Number()),
    cacheWrite: Type.Optional(Type.Number()),
  })),
  contextWindow: Type.Optional(Type.Number()),
  maxTokens: Type.Optional(Type.Number()),
  headers: Type.Optional(HeadersSchema),
  compat: Type.Optional(ProviderCompatSchema),
});

const ProviderConfigSchema = Type.Object({
  name: Type.Optional(Type.String({ minLength: 1 })),
  baseUrl: Type.Optional(Type.String({ minLength: 1 })),
  apiKey: Type.Optional(Type.String({ minLength: 1 })),
  api: Type.Optional(Type.String({ minLength: 1 })),
  headers: Type.Optional(HeadersSchema),
  compat: Type.Optional(ProviderCompatSchema),
  authHeader: Type.Optional(Type.Boolean()),
  models: Type.Optional(Type.Array(ModelDefinitionSchema)),
  modelOverrides: Type.Optional(Type.Record(Type.String(), ModelOverrideSchema)),
});

const ModelsConfigSchema = Type.Object({
  providers: Type.Record(Type.String(), ProviderConfigSchema),
});

/** A custom model entry in models.json. */
export type ModelDefinition = Static<typeof ModelDefinitionSchema>;
/** Per-model changes to a built-in model. */
export type ModelOverride = Static<typeof ModelOverrideSchema>;
/** One provider block in models.json. */
export type ProviderConfig = Static<typeof ProviderConfigSchema>;
/** The whole models.json document. */
export type ModelsConfig = Static<typeof ModelsConfigSchema>;
/** The compat object accepted at provider or model level. */
export type ProviderCompat = Static<typeof ProviderCompatSchema>;

let compiled: ReturnType<typeof Compile<typeof ModelsConfigSchema>> | undefined;
function validator() {
  // Compiled on first use so importing this module stays cheap.
  compiled ??= Compile(ModelsConfigSchema);
  return compiled;
}

interface ValidationErrorLike {
  keyword: string;
  instancePath: string;
  params: unknown;
  message: string;
}

function formatValidationPath(error: ValidationErrorLike): string {
  if (error.keyword === "required") {
    const params = error.params as { requiredProperties?: string[] };
    const requiredProperty = params.requiredProperties?.[0];
    if (requiredProperty) {
      const basePath = error.instancePath.replace(/^\//, "").replace(/\//g, ".");
      return basePath ? `${basePath}.${requiredProperty}` : requiredProperty;
    }
  }
  const path = error.instancePath.replace(/^\//, "").replace(/\//g, ".");
  return path || "root";
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
    const check = validator();
    if (!check.Check(parsed)) {
      const errors = [...check.Errors(parsed)]
        .map((error) => `  - ${formatValidationPath(error as ValidationErrorLike)}: ${error.message}`)
        .join("\n") || "Unknown schema error";
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
