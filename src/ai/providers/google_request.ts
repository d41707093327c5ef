/**
 * Builds a Gemini `streamGenerateContent` request: the parameters in the official SDK's shape
 * (`{model, contents, config}`, which is what `onPayload` sees, as with the reference), their
 * translation to the wire body, and the per-model thinking settings.
 *
 * @module
 */
import { sanitizeSurrogates } from "../sanitize_unicode.ts";
import type { Context, Model, StreamOptions, ThinkingBudgets, ThinkingLevel } from "../types.ts";
import {
  convertMessages,
  convertTools,
  type GoogleContent,
  type GoogleThinkingLevel,
  type GoogleToolChoice,
  resolveFunctionCallingMode,
  supportsGoogleStrictTools,
} from "./google_convert.ts";

/** Options of the `google-generative-ai` stream function. */
export interface GoogleOptions extends StreamOptions {
  /** Whether the model may, must or must not call tools. */
  toolChoice?: GoogleToolChoice;
  /** `level` wins over `budgetTokens`; neither leaves the model's default budget. */
  thinking?: { enabled: boolean; budgetTokens?: number; level?: GoogleThinkingLevel };
}

/** Gemini `thinkingConfig`. */
export interface GoogleThinkingConfig {
  includeThoughts?: boolean;
  thinkingBudget?: number;
  thinkingLevel?: GoogleThinkingLevel;
}

/** Request parameters in the `@google/genai` `generateContentStream` shape. */
export interface GoogleParams {
  model: string;
  contents: GoogleContent[];
  config: Record<string, unknown>;
}

/** Where Google serves the Gemini API when a model names no base URL. */
export const DEFAULT_GOOGLE_BASE_URL = "https://generativelanguage.googleapis.com/v1beta";

/** Gemma 4 models take thinking levels. */
export function isGemma4Model(model: Pick<Model, "id">): boolean {
  return /gemma-?4/.test(model.id.toLowerCase());
}

/** Gemini 3 Pro models take thinking levels and cannot switch thinking off. */
export function isGemini3ProModel(model: Pick<Model, "id">): boolean {
  return /gemini-3(?:\.\d+)?-pro/.test(model.id.toLowerCase());
}

/** Gemini 3 Flash (and Flash-Lite) models take thinking levels. */
export function isGemini3FlashModel(model: Pick<Model, "id">): boolean {
  return /gemini-3(?:\.\d+)?-flash/.test(model.id.toLowerCase());
}

/**
 * What "thinking off" means per model. Gemini 3 and Gemma 4 cannot turn thinking off fully, so
 * they get their lowest level without `includeThoughts`, which keeps the thinking hidden;
 * Gemini 2.x takes a zero budget.
 */
export function getDisabledThinkingConfig(model: Pick<Model, "id">): GoogleThinkingConfig {
  if (isGemini3ProModel(model)) return { thinkingLevel: "LOW" };
  if (isGemini3FlashModel(model) || isGemma4Model(model)) return { thinkingLevel: "MINIMAL" };
  return { thinkingBudget: 0 };
}

/**
 * A pi effort as a Gemini thinking level; Gemini 3 Pro and Gemma 4 only know two. "xhigh" has
 * no level (undefined leaves the model's default), which only a custom thinkingLevelMap reaches.
 */
export function getThinkingLevel(
  effort: ThinkingLevel,
  model: Pick<Model, "id">,
): GoogleThinkingLevel | undefined {
  const low = effort === "minimal" || effort === "low";
  const high = effort === "medium" || effort === "high";
  if (isGemini3ProModel(model) && (low || high)) return low ? "LOW" : "HIGH";
  if (isGemma4Model(model) && (low || high)) return low ? "MINIMAL" : "HIGH";
  const levels: Partial<Record<ThinkingLevel, GoogleThinkingLevel>> = {
    minimal: "MINIMAL",
    low: "LOW",
    medium: "MEDIUM",
    high: "HIGH",
  };
  return levels[effort];
}

type Budgets = Required<ThinkingBudgets>;
const BUDGETS_2_5_PRO: Budgets = { minimal: 128, low: 2048, medium: 8192, high: 32768 };
const BUDGETS_2_5_FLASH_LITE: Budgets = { minimal: 512, low: 2048, medium: 8192, high: 24576 };
const BUDGETS_2_5_FLASH: Budgets = { minimal: 128, low: 2048, medium: 8192, high: 24576 };

/**
 * The thinking budget for budget-based models: a custom budget wins, then Google's limits for
 * the 2.5 family (undefined for "xhigh", which they lack); otherwise -1, letting the model decide.
 */
export function getGoogleBudget(
  model: Pick<Model, "id">,
  effort: ThinkingLevel,
  customBudgets?: ThinkingBudgets,
): number | undefined {
  const key = effort as keyof ThinkingBudgets;
  const custom = customBudgets?.[key];
  if (custom !== undefined) return custom;
  if (model.id.includes("2.5-pro")) return BUDGETS_2_5_PRO[key];
  if (model.id.includes("2.5-flash-lite")) return BUDGETS_2_5_FLASH_LITE[key];
  if (model.id.includes("2.5-flash")) return BUDGETS_2_5_FLASH[key];
  return -1;
}

/** The request in SDK shape; throws "Request aborted" when the signal already fired. */
export function buildGoogleParams(model: Model, context: Context, options: GoogleOptions = {}): GoogleParams {
  const contents = convertMessages(model, context);
  const config: Record<string, unknown> = {};
  if (options.temperature !== undefined) config.temperature = options.temperature;
  if (options.maxTokens !== undefined) config.maxOutputTokens = options.maxTokens;
  if (context.systemPrompt) config.systemInstruction = sanitizeSurrogates(context.systemPrompt);
  const hasTools = context.tools !== undefined && context.tools.length > 0;
  const supportsStrict = supportsGoogleStrictTools(model.id);
  if (hasTools) config.tools = convertTools(context.tools!, false, supportsStrict);
  const mode = hasTools
    ? resolveFunctionCallingMode(context.tools!, options.toolChoice, supportsStrict)
    : undefined;
  if (mode) config.toolConfig = { functionCallingConfig: { mode } };
  if (options.thinking?.enabled && model.reasoning) {
    const thinkingConfig: GoogleThinkingConfig = { includeThoughts: true };
    if (options.thinking.level !== undefined) thinkingConfig.thinkingLevel = options.thinking.level;
    else if (options.thinking.budgetTokens !== undefined) {
      thinkingConfig.thinkingBudget = options.thinking.budgetTokens;
    }
    config.thinkingConfig = thinkingConfig;
  } else if (model.reasoning && options.thinking && !options.thinking.enabled) {
    config.thinkingConfig = getDisabledThinkingConfig(model);
  }
  if (options.signal?.aborted) throw new Error("Request aborted");
  return { model: model.id, contents, config };
}

// Config keys the SDK lifts to the top of the body; the rest are generation settings.
const TOP_LEVEL_KEYS = ["systemInstruction", "safetySettings", "tools", "toolConfig", "cachedContent"];
// Client-side settings the SDK never sends.
const CLIENT_ONLY_KEYS = new Set([
  "abortSignal",
  "httpOptions",
  "automaticFunctionCalling",
  "shouldReturnHttpResponse",
]);
// Generation settings in the order the SDK writes them.
const GENERATION_KEY_ORDER = [
  "temperature",
  "topP",
  "topK",
  "candidateCount",
  "maxOutputTokens",
  "stopSequences",
  "responseLogprobs",
  "logprobs",
  "presencePenalty",
  "frequencyPenalty",
  "seed",
  "responseMimeType",
  "responseSchema",
  "responseJsonSchema",
  "responseModalities",
  "mediaResolution",
  "speechConfig",
  "thinkingConfig",
  "imageConfig",
  "enableEnhancedCivicAnswers",
];

/** The path (after the base URL) of a streaming request for `model`, as the SDK forms it. */
export function streamPath(model: string): string {
  const name = model.startsWith("models/") || model.startsWith("tunedModels/") ? model : `models/${model}`;
  return `${name}:streamGenerateContent?alt=sse`;
}

/**
 * The wire body for SDK-shaped params, laid out as the SDK lays it out: `contents`, the lifted
 * config keys, then `generationConfig` (always present, possibly empty). A string
 * `systemInstruction` becomes a user-role Content.
 */
export function toWireBody(params: GoogleParams): Record<string, unknown> {
  const config = params.config ?? {};
  const body: Record<string, unknown> = { contents: params.contents };
  for (const key of TOP_LEVEL_KEYS) {
    const value = config[key];
    if (value === undefined || value === null) continue;
    body[key] = key === "systemInstruction" && typeof value === "string"
      ? { parts: [{ text: value }], role: "user" }
      : value;
  }
  const generation: Record<string, unknown> = {};
  const rest = Object.keys(config).filter((k) =>
    !TOP_LEVEL_KEYS.includes(k) && !CLIENT_ONLY_KEYS.has(k) && !GENERATION_KEY_ORDER.includes(k)
  );
  for (const key of [...GENERATION_KEY_ORDER, ...rest]) {
    if (config[key] !== undefined && config[key] !== null) generation[key] = config[key];
  }
  body.generationConfig = generation;
  return body;
}
