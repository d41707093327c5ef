/**
 * The body of a Bedrock `ConverseStream` request, as pi-ai 1.6.0 builds it: `messages` (tool
 * results of a turn in one user message, images as base64 bytes, thinking replayed with its
 * signature for Claude only), `system`, `toolConfig` (strict tools where asked), `inferenceConfig`,
 * `additionalModelRequestFields` (Claude's adaptive or budget thinking, OpenAI's reasoning
 * effort) and prompt-cache points for the Claude models that support them.
 *
 * @module
 */
import { providerEnvValue } from "../env_api_keys.ts";
import { sanitizeSurrogates } from "../sanitize_unicode.ts";
import { transformMessages } from "../transform_messages.ts";
import type {
  CacheRetention,
  Context,
  ImageContent,
  Model,
  StreamOptions,
  TextContent,
  ThinkingBudgets,
  ThinkingLevel,
  Tool,
  ToolResultMessage,
} from "../types.ts";
import { normalizeToolCallId } from "./anthropic_request.ts";
import { prefersStrictArguments, resolveStrictTool, toolParameters } from "./strict_tools.ts";

/** Options of the bedrock-converse-stream `stream` beyond the common ones (pi-ai 1.6.0's `BedrockOptions`). */
export interface BedrockOptions {
  /** AWS region; else AWS_REGION, AWS_DEFAULT_REGION, the endpoint's or the profile's. */
  region?: string;
  /** AWS profile of ~/.aws/credentials and ~/.aws/config; wins over access keys in the environment. */
  profile?: string;
  /** Tool selection; "none" sends no tools. */
  toolChoice?: "auto" | "any" | "none" | { type: "tool"; name: string };
  /** Reasoning level; absent means none. */
  reasoning?: ThinkingLevel;
  /** Token budgets per level for budget-based Claude thinking. */
  thinkingBudgets?: ThinkingBudgets;
  /** Interleaved thinking beta for budget-based Claude models (default true). */
  interleavedThinking?: boolean;
  /** How Claude returns its thinking (default "summarized"). */
  thinkingDisplay?: "summarized" | "omitted";
  /** Cost-allocation tags attached to the request. */
  requestMetadata?: Record<string, string>;
  /** Bedrock API key: sent as `Authorization: Bearer` instead of a SigV4 signature. */
  bearerToken?: string;
}

/** Options of the Bedrock `stream`: the common ones plus {@link BedrockOptions}. */
export type BedrockStreamOptions = StreamOptions & BedrockOptions;

type Json = Record<string, unknown>;

const EMPTY_TEXT_PLACEHOLDER = "<empty>";
const THINKING_BINDING_CONTROLS_BETA = "thinking-binding-controls-2026-08-01";
const ERROR_TOOL_IMAGE_PLACEHOLDER = "(image attached after the tool results)";

/** Lower-cased id and name, also with separators as dashes (application inference profiles carry no model name in the ARN). */
function matchCandidates(model: Pick<Model, "id" | "name">): string[] {
  const values = model.name ? [model.id, model.name] : [model.id];
  return values.flatMap((value) => {
    const lower = value.toLowerCase();
    return [lower, lower.replace(/[\s_.:]+/g, "-")];
  });
}

function anyCandidate(model: Pick<Model, "id" | "name">, parts: string[]): boolean {
  return matchCandidates(model).some((s) => parts.some((p) => s.includes(p)));
}

/** Whether the model is Anthropic's Claude (by id, or by name for inference-profile ARNs). */
export function isClaudeModel(model: Pick<Model, "id" | "name">): boolean {
  const id = model.id.toLowerCase();
  const name = model.name?.toLowerCase() ?? "";
  return id.includes("anthropic.claude") || id.includes("anthropic/claude") || name.includes("claude");
}

/** Claude models with adaptive thinking (effort instead of a budget). */
export function supportsAdaptiveThinking(model: Pick<Model, "id" | "name">): boolean {
  return anyCandidate(model, [
    "opus-4-6",
    "opus-4-7",
    "opus-4-8",
    "opus-5",
    "sonnet-4-6",
    "sonnet-5",
    "haiku-5",
    "fable-5",
  ]);
}

/** Claude models that take the "xhigh" effort and `thinking.block_binding`. */
function isLatestClaude(model: Pick<Model, "id" | "name">): boolean {
  return anyCandidate(model, ["opus-4-7", "opus-4-8", "opus-5", "sonnet-5", "haiku-5", "fable-5"]);
}

function supportsPromptCaching(model: Model, env: Record<string, string> | undefined): boolean {
  const candidates = matchCandidates(model);
  if (!candidates.some((s) => s.includes("claude"))) {
    return providerEnvValue("AWS_BEDROCK_FORCE_CACHE", env) === "1";
  }
  return candidates.some((s) =>
    ["fable-5", "opus-5", "sonnet-5", "haiku-5", "-4-", "claude-3-7-sonnet", "claude-3-5-haiku"].some((p) =>
      s.includes(p)
    )
  );
}

function cachePoint(retention: CacheRetention): Json {
  return { cachePoint: { type: "default", ...(retention === "long" ? { ttl: "1h" } : {}) } };
}

const IMAGE_FORMATS: Record<string, string> = {
  "image/jpeg": "jpeg",
  "image/jpg": "jpeg",
  "image/png": "png",
  "image/gif": "gif",
  "image/webp": "webp",
};

function imageBlock(image: ImageContent): Json {
  const format = IMAGE_FORMATS[image.mimeType];
  if (!format) throw new Error(`Unknown image type: ${image.mimeType}`);
  // The wire carries the bytes as base64; re-encoding normalises what the session stored.
  return { image: { format, source: { bytes: btoa(atob(image.data)) } } };
}

function nonBlankText(text: string): Json | undefined {
  const clean = sanitizeSurrogates(text);
  return clean.trim().length === 0 ? undefined : { text: clean };
}

/** Tool arguments as a Bedrock document: keys may not be empty. */
function toDocument(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toDocument);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).filter(([key]) => key.length > 0).map(([key, v]) => [key, toDocument(v)]),
    );
  }
  return value;
}

function toolResultContent(content: (TextContent | ImageContent)[]): Json[] {
  const out: Json[] = [];
  for (const c of content) {
    if (c.type === "image") out.push(imageBlock(c));
    else {
      const text = nonBlankText(c.text);
      if (text) out.push(text);
    }
  }
  return out.length > 0 ? out : [{ text: EMPTY_TEXT_PLACEHOLDER }];
}

/** Claude rejects error tool results holding images: they follow the turn's results with a caption. */
function splitErrorImages(msg: ToolResultMessage):
  | { content: (TextContent | ImageContent)[]; caption: string; images: ImageContent[] }
  | undefined {
  if (!msg.isError) return undefined;
  const images = msg.content.filter((b): b is ImageContent => b.type === "image");
  if (images.length === 0) return undefined;
  const content: (TextContent | ImageContent)[] = [];
  let previousWasPlaceholder = false;
  for (const block of msg.content) {
    if (block.type === "image") {
      if (!previousWasPlaceholder) content.push({ type: "text", text: ERROR_TOOL_IMAGE_PLACEHOLDER });
      previousWasPlaceholder = true;
      continue;
    }
    content.push(block);
    previousWasPlaceholder = block.text === ERROR_TOOL_IMAGE_PLACEHOLDER;
  }
  return {
    content,
    caption: `Images from the error result of tool call ${msg.toolCallId} (${msg.toolName}):`,
    images,
  };
}

function redactedBytes(signature: string | undefined): string | undefined {
  if (!signature) return undefined;
  try {
    const decoded = atob(signature);
    return decoded.length > 0 ? btoa(decoded) : undefined;
  } catch {
    // A hand-edited session may hold something that is not base64: drop the block.
    return undefined;
  }
}

/** The `messages` array. */
export function convertBedrockMessages(
  context: Context,
  model: Model,
  cacheRetention: CacheRetention,
  env?: Record<string, string>,
): Json[] {
  const result: Json[] = [];
  const messages = transformMessages(context.messages, model, (id) => normalizeToolCallId(id));
  const claude = isClaudeModel(model);
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    if (m.role === "user") {
      const content: Json[] = [];
      if (typeof m.content === "string") {
        content.push(nonBlankText(m.content) ?? { text: EMPTY_TEXT_PLACEHOLDER });
      } else {
        for (const c of m.content) {
          if (c.type === "text") {
            const text = nonBlankText(c.text);
            if (text) content.push(text);
          } else if (c.type === "image") content.push(imageBlock(c));
        }
        if (content.length === 0) content.push({ text: EMPTY_TEXT_PLACEHOLDER });
      }
      result.push({ role: "user", content });
    } else if (m.role === "assistant") {
      const blocks: Json[] = [];
      for (const c of m.content) {
        if (c.type === "text") {
          const text = nonBlankText(c.text);
          if (text) blocks.push(text);
        } else if (c.type === "toolCall") {
          blocks.push({ toolUse: { toolUseId: c.id, name: c.name, input: toDocument(c.arguments) } });
        } else if (c.type === "thinking") {
          if (c.redacted) {
            const bytes = redactedBytes(c.thinkingSignature);
            if (bytes) blocks.push({ reasoningContent: { redactedContent: bytes } });
            continue;
          }
          const thinking = sanitizeSurrogates(c.thinking);
          if (thinking.trim().length === 0) continue;
          if (!claude) blocks.push({ reasoningContent: { reasoningText: { text: thinking } } });
          // Bedrock rejects replayed Claude reasoning without its signature; send it as text then.
          else if (!c.thinkingSignature || c.thinkingSignature.trim().length === 0) {
            blocks.push({ text: thinking });
          } else {
            blocks.push({
              reasoningContent: { reasoningText: { text: thinking, signature: c.thinkingSignature } },
            });
          }
        }
      }
      if (blocks.length > 0) result.push({ role: "assistant", content: blocks });
    } else {
      // Bedrock wants every tool result of a turn in one user message.
      const results: Json[] = [];
      const errorImages: Json[] = [];
      let j = i;
      while (j < messages.length && messages[j].role === "toolResult") {
        const tool = messages[j] as ToolResultMessage;
        const split = claude ? splitErrorImages(tool) : undefined;
        results.push({
          toolResult: {
            toolUseId: tool.toolCallId,
            content: toolResultContent(split?.content ?? tool.content),
            status: tool.isError ? "error" : "success",
          },
        });
        if (split) errorImages.push({ text: split.caption }, ...split.images.map(imageBlock));
        j++;
      }
      i = j - 1;
      result.push({ role: "user", content: [...results, ...errorImages] });
    }
  }
  if (cacheRetention !== "none" && supportsPromptCaching(model, env) && result.length > 0) {
    const last = result[result.length - 1];
    if (last.role === "user") (last.content as Json[]).push(cachePoint(cacheRetention));
  }
  return result;
}

/** The `system` blocks (with a cache point for caching Claude models). */
export function buildBedrockSystem(
  systemPrompt: string | undefined,
  model: Model,
  cacheRetention: CacheRetention,
  env?: Record<string, string>,
): Json[] | undefined {
  if (!systemPrompt) return undefined;
  const blocks: Json[] = [{ text: sanitizeSurrogates(systemPrompt) }];
  if (cacheRetention !== "none" && supportsPromptCaching(model, env)) blocks.push(cachePoint(cacheRetention));
  return blocks;
}

/** `toolConfig`, and whether a tool that only prefers strict sampling was sent strict. */
export function buildBedrockToolConfig(
  tools: Tool[] | undefined,
  toolChoice: BedrockOptions["toolChoice"],
  supportsStrict: boolean,
  disablePreferredStrict: boolean,
): { toolConfig: Json | undefined; hasPreferredStrictTools: boolean } {
  if (!tools?.length || toolChoice === "none") {
    return { toolConfig: undefined, hasPreferredStrictTools: false };
  }
  let hasPreferredStrictTools = false;
  const specs = tools.map((tool) => {
    const preferred = prefersStrictArguments(tool);
    const strict = disablePreferredStrict && preferred ? undefined : resolveStrictTool(tool, supportsStrict);
    if (strict === true && preferred) hasPreferredStrictTools = true;
    return {
      toolSpec: {
        name: tool.name,
        description: tool.description,
        inputSchema: { json: toolParameters(tool, strict) },
        ...(strict === true ? { strict: true } : {}),
      },
    };
  });
  let choice: Json | undefined;
  if (toolChoice === "auto") choice = { auto: {} };
  else if (toolChoice === "any") choice = { any: {} };
  else if (typeof toolChoice === "object" && toolChoice.type === "tool") {
    choice = { tool: { name: toolChoice.name } };
  }
  return { toolConfig: { tools: specs, ...(choice ? { toolChoice: choice } : {}) }, hasPreferredStrictTools };
}

const GPT_EFFORT: Record<ThinkingLevel, string> = {
  minimal: "low",
  low: "low",
  medium: "medium",
  high: "high",
  xhigh: "xhigh",
  max: "max",
};
const GPT_OSS_EFFORT: Record<ThinkingLevel, string> = {
  minimal: "low",
  low: "low",
  medium: "medium",
  high: "high",
  xhigh: "high",
  max: "high",
};
const DEFAULT_BUDGETS: Record<ThinkingLevel, number> = {
  minimal: 1024,
  low: 2048,
  medium: 8192,
  high: 16384,
  xhigh: 16384,
  max: 16384,
};

function claudeEffort(model: Model, level: ThinkingLevel): string {
  if (level === "xhigh" && isLatestClaude(model)) return "xhigh";
  const mapped = model.thinkingLevelMap?.[level];
  if (typeof mapped === "string") return mapped;
  return level === "minimal" || level === "low" ? "low" : level === "medium" ? "medium" : "high";
}

/** The configured region (option, AWS_REGION, AWS_DEFAULT_REGION). */
export function configuredBedrockRegion(
  options: { region?: string; env?: Record<string, string> },
): string | undefined {
  return options.region || providerEnvValue("AWS_REGION", options.env) ||
    providerEnvValue("AWS_DEFAULT_REGION", options.env) || undefined;
}

/** `additionalModelRequestFields`: the reasoning configuration of the model family. */
export function buildAdditionalModelRequestFields(
  model: Model,
  options: BedrockOptions & { env?: Record<string, string> },
): Json | undefined {
  const level = options.reasoning;
  if (!level || !model.reasoning) return undefined;
  if (isClaudeModel(model)) {
    // GovCloud rejects `thinking.display` and block binding.
    const region = configuredBedrockRegion(options)?.toLowerCase();
    const id = model.id.toLowerCase();
    const govCloud = !!region?.startsWith("us-gov-") || id.startsWith("us-gov.") ||
      id.startsWith("arn:aws-us-gov:");
    const display = govCloud ? undefined : (options.thinkingDisplay ?? "summarized");
    const blockBinding = !govCloud && isLatestClaude(model);
    const adaptive = supportsAdaptiveThinking(model);
    let result: Json;
    if (adaptive) {
      result = {
        thinking: {
          type: "adaptive",
          ...(display !== undefined ? { display } : {}),
          ...(blockBinding ? { block_binding: { prefix_mismatch_behavior: "drop_block" } } : {}),
        },
        output_config: { effort: claudeEffort(model, level) },
        ...(blockBinding ? { anthropic_beta: [THINKING_BINDING_CONTROLS_BETA] } : {}),
      };
    } else {
      const budgetLevel = level === "xhigh" || level === "max" ? "high" : level;
      const budget = options.thinkingBudgets?.[budgetLevel] ?? DEFAULT_BUDGETS[level];
      result = {
        thinking: { type: "enabled", budget_tokens: budget, ...(display !== undefined ? { display } : {}) },
      };
    }
    if (!adaptive && (options.interleavedThinking ?? true)) {
      result.anthropic_beta = ["interleaved-thinking-2025-05-14"];
    }
    return result;
  }
  if (anyCandidate(model, ["gpt-oss"])) return { reasoning_effort: GPT_OSS_EFFORT[level] };
  if (anyCandidate(model, ["gpt-"])) {
    const mapped = model.thinkingLevelMap?.[level];
    return { reasoning: { effort: typeof mapped === "string" ? mapped : GPT_EFFORT[level] } };
  }
  return undefined;
}
