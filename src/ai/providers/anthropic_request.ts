/**
 * The JSON body of an Anthropic Messages request: conversation conversion (tool results grouped,
 * thinking replayed with signatures), tools, prompt-cache markers, thinking parameters.
 *
 * @module
 */
import { readEnv } from "../../util/env.ts";
import { sanitizeSurrogates } from "../sanitize_unicode.ts";
import { transformMessages } from "../transform_messages.ts";
import { prefersStrictArguments, resolveStrictTool, toolParameters } from "./strict_tools.ts";
import type {
  AnthropicMessagesCompat,
  CacheRetention,
  Context,
  ImageContent,
  Message,
  Model,
  StreamOptions,
  TextContent,
  Tool,
} from "../types.ts";

/** Effort levels of adaptive thinking ("max": Opus 4.6 only, "xhigh": Opus 4.7). */
export type AnthropicEffort = "low" | "medium" | "high" | "xhigh" | "max";

/** How thinking text comes back: summarized, or omitted (signature only). */
export type AnthropicThinkingDisplay = "summarized" | "omitted";

/** Which tool the model must (or must not) call. */
export type AnthropicToolChoice = "auto" | "any" | "none" | { type: "tool"; name: string };

/** Options of the anthropic-messages `stream` function. */
export interface AnthropicOptions extends StreamOptions {
  /** Extended thinking on/off; `undefined` leaves the API default. */
  thinkingEnabled?: boolean;
  /** Thinking budget for models without adaptive thinking (default 1024). */
  thinkingBudgetTokens?: number;
  /** Effort for adaptive-thinking models; ignored by budget-based ones. */
  effort?: AnthropicEffort;
  /** Default "summarized", so newer models behave like older Claude 4 ones. */
  thinkingDisplay?: AnthropicThinkingDisplay;
  /** Sends the interleaved-thinking beta for models that need it (default true). */
  interleavedThinking?: boolean;
  /** Which tool the model must or may call. */
  toolChoice?: AnthropicToolChoice;
}

/** An Anthropic `cache_control` marker. */
export interface CacheControl {
  type: "ephemeral";
  ttl?: "1h";
}

type Json = Record<string, unknown>;

/** Compat switches with their defaults filled in (no affinity format means `x-session-affinity`). */
export type ResolvedAnthropicCompat =
  & Required<
    Pick<
      AnthropicMessagesCompat,
      | "sendSessionAffinityHeaders"
      | "supportsEagerToolInputStreaming"
      | "supportsLongCacheRetention"
      | "forceAdaptiveThinking"
      | "supportsStrictTools"
    >
  >
  & Pick<AnthropicMessagesCompat, "sessionAffinityFormat">;

/** Compat switches with their defaults filled in. */
export function anthropicCompat(model: Model): ResolvedAnthropicCompat {
  const compat = (model.compat ?? {}) as AnthropicMessagesCompat;
  const isOpenRouter = model.provider === "openrouter" || model.baseUrl.includes("openrouter.ai");
  return {
    sendSessionAffinityHeaders: compat.sendSessionAffinityHeaders ?? isOpenRouter,
    sessionAffinityFormat: compat.sessionAffinityFormat ?? (isOpenRouter ? "openrouter" : undefined),
    supportsEagerToolInputStreaming: compat.supportsEagerToolInputStreaming ?? true,
    supportsLongCacheRetention: compat.supportsLongCacheRetention ?? true,
    forceAdaptiveThinking: compat.forceAdaptiveThinking ?? false,
    supportsStrictTools: compat.supportsStrictTools ?? false,
  };
}

/** The marker for a retention preference; default "short", PI_CACHE_RETENTION=long for old setups. */
export function cacheControlFor(model: Model, retention?: CacheRetention): CacheControl | undefined {
  const resolved = retention ?? (readEnv("PI_CACHE_RETENTION") === "long" ? "long" : "short");
  if (resolved === "none") return undefined;
  const long = resolved === "long" && anthropicCompat(model).supportsLongCacheRetention;
  return long ? { type: "ephemeral", ttl: "1h" } : { type: "ephemeral" };
}

/**
 * Models whose thinking is adaptive (effort-driven) rather than budget-driven. pi-ai 1.x reads
 * this from the model's `compat.forceAdaptiveThinking` (set in the catalog), not from its id.
 */
export function supportsAdaptiveThinking(model: Pick<Model, "compat">): boolean {
  return (model.compat as AnthropicMessagesCompat | undefined)?.forceAdaptiveThinking === true;
}

// OAuth (Claude subscription) requests must look like Claude Code, which names its tools this way.
const CLAUDE_CODE_TOOLS = [
  "Read",
  "Write",
  "Edit",
  "Bash",
  "Grep",
  "Glob",
  "AskUserQuestion",
  "EnterPlanMode",
  "ExitPlanMode",
  "KillShell",
  "NotebookEdit",
  "Skill",
  "Task",
  "TaskOutput",
  "TodoWrite",
  "WebFetch",
  "WebSearch",
];
const claudeCodeNames = new Map(CLAUDE_CODE_TOOLS.map((name) => [name.toLowerCase(), name]));

/** A tool name in Claude Code's casing when it is one of Claude Code's tools. */
export function toClaudeCodeName(name: string): string {
  return claudeCodeNames.get(name.toLowerCase()) ?? name;
}

/** Maps a tool name from the response back to the caller's own tool of that name (any casing). */
export function fromClaudeCodeName(name: string, tools: Tool[] | undefined): string {
  const lower = name.toLowerCase();
  return tools?.find((tool) => tool.name.toLowerCase() === lower)?.name ?? name;
}

/** Anthropic tool-use ids allow [a-zA-Z0-9_-] and at most 64 characters. */
export function normalizeToolCallId(id: string): string {
  return id.replace(/[^a-zA-Z0-9_-]/g, "_").slice(0, 64);
}

function imageBlock(image: ImageContent): Json {
  return { type: "image", source: { type: "base64", media_type: image.mimeType, data: image.data } };
}

function toolResultContent(content: (TextContent | ImageContent)[]): string | Json[] {
  if (!content.some((c) => c.type === "image")) {
    return sanitizeSurrogates(content.map((c) => (c as TextContent).text).join("\n"));
  }
  const blocks = content.map((c) =>
    c.type === "text" ? { type: "text", text: sanitizeSurrogates(c.text) } : imageBlock(c)
  );
  // The API wants some text next to a result that is only images.
  if (!blocks.some((b) => b.type === "text")) blocks.unshift({ type: "text", text: "(see attached image)" });
  return blocks;
}

function assistantBlocks(msg: Extract<Message, { role: "assistant" }>, isOAuth: boolean): Json[] {
  const blocks: Json[] = [];
  for (const block of msg.content) {
    if (block.type === "text") {
      if (block.text.trim().length > 0) blocks.push({ type: "text", text: sanitizeSurrogates(block.text) });
    } else if (block.type === "thinking") {
      if (block.redacted) {
        blocks.push({ type: "redacted_thinking", data: block.thinkingSignature });
      } else if (block.thinking.trim().length === 0) {
        continue;
      } else if (!block.thinkingSignature || block.thinkingSignature.trim().length === 0) {
        // Unsigned thinking (e.g. from an aborted stream) would be rejected; send it as plain
        // text without tags so the model does not learn to imitate them.
        blocks.push({ type: "text", text: sanitizeSurrogates(block.thinking) });
      } else {
        blocks.push({
          type: "thinking",
          thinking: sanitizeSurrogates(block.thinking),
          signature: block.thinkingSignature,
        });
      }
    } else if (block.type === "toolCall") {
      blocks.push({
        type: "tool_use",
        id: block.id,
        name: isOAuth ? toClaudeCodeName(block.name) : block.name,
        input: block.arguments ?? {},
      });
    }
  }
  return blocks;
}

/** The `messages` array; the last user message carries the conversation cache marker. */
export function convertMessages(
  messages: Message[],
  model: Model,
  isOAuth: boolean,
  cacheControl: CacheControl | undefined,
): Json[] {
  const out: Json[] = [];
  const transformed = transformMessages(messages, model, (id) => normalizeToolCallId(id));
  for (let i = 0; i < transformed.length; i++) {
    const msg = transformed[i];
    if (msg.role === "user") {
      if (typeof msg.content === "string") {
        if (msg.content.trim().length > 0) {
          out.push({ role: "user", content: sanitizeSurrogates(msg.content) });
        }
        continue;
      }
      const blocks = msg.content
        .map((c): Json =>
          c.type === "text" ? { type: "text", text: sanitizeSurrogates(c.text) } : imageBlock(c)
        )
        .filter((b) => b.type !== "text" || (b.text as string).trim().length > 0);
      if (blocks.length > 0) out.push({ role: "user", content: blocks });
    } else if (msg.role === "assistant") {
      const blocks = assistantBlocks(msg, isOAuth);
      if (blocks.length > 0) out.push({ role: "assistant", content: blocks });
    } else {
      // Consecutive tool results travel together in one user message (some
      // Anthropic-compatible endpoints insist on it).
      const results: Json[] = [];
      let j = i;
      while (j < transformed.length) {
        const next = transformed[j];
        if (next.role !== "toolResult") break;
        results.push({
          type: "tool_result",
          tool_use_id: next.toolCallId,
          content: toolResultContent(next.content),
          is_error: next.isError,
        });
        j++;
      }
      i = j - 1;
      out.push({ role: "user", content: results });
    }
  }
  const last = out[out.length - 1];
  if (cacheControl && last?.role === "user") {
    if (Array.isArray(last.content)) {
      const lastBlock = last.content[last.content.length - 1] as Json | undefined;
      if (lastBlock && ["text", "image", "tool_result"].includes(lastBlock.type as string)) {
        lastBlock.cache_control = cacheControl;
      }
    } else if (typeof last.content === "string") {
      last.content = [{ type: "text", text: last.content, cache_control: cacheControl }];
    }
  }
  return out;
}

/** Keywords Claude's strict tool use rejects. */
const STRICT_UNSUPPORTED_KEYWORDS = new Set([
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "maxItems",
  "uniqueItems",
  "minContains",
  "maxContains",
  "minProperties",
  "maxProperties",
]);

/** String formats Claude's strict tool use accepts. */
const STRICT_STRING_FORMATS = new Set([
  "date-time",
  "time",
  "date",
  "duration",
  "email",
  "hostname",
  "uri",
  "ipv4",
  "ipv6",
  "uuid",
]);

function isStrictUnsupportedKeyword(key: string, value: unknown): boolean {
  if (STRICT_UNSUPPORTED_KEYWORDS.has(key)) return true;
  if (key === "minItems") return value !== 0 && value !== 1;
  if (key === "format") return typeof value !== "string" || !STRICT_STRING_FORMATS.has(value);
  return false;
}

/**
 * The `tools` array; the last tool carries the cache marker. Tools that prefer strict arguments
 * are sent `strict: true` with the strict schema to models whose compat has `supportsStrictTools`.
 */
export function convertTools(
  tools: Tool[],
  model: Model,
  isOAuth: boolean,
  cacheControl?: CacheControl,
  disablePreferredStrict = false,
): Json[] {
  const compat = anthropicCompat(model);
  return tools.map((tool, index) => {
    // After Claude refused the strict tools for its limits, tools that only prefer strict go without.
    const strict = disablePreferredStrict && prefersStrictArguments(tool)
      ? undefined
      : resolveStrictTool(tool, compat.supportsStrictTools, isStrictUnsupportedKeyword);
    const schema = toolParameters(tool, strict) as {
      properties?: unknown;
      required?: unknown;
      additionalProperties?: unknown;
      $defs?: unknown;
      definitions?: unknown;
    };
    // Only these root keywords: Claude rejects root anyOf/oneOf/allOf; shared definitions stay so
    // property $refs resolve, and additionalProperties tells the model whether extra arguments are allowed.
    const inputSchema: Json = {
      type: "object",
      properties: schema.properties ?? {},
      required: schema.required ?? [],
      ...(schema.additionalProperties === undefined
        ? {}
        : { additionalProperties: schema.additionalProperties }),
      ...(schema.$defs === undefined ? {} : { $defs: schema.$defs }),
      ...(schema.definitions === undefined ? {} : { definitions: schema.definitions }),
    };
    return {
      name: isOAuth ? toClaudeCodeName(tool.name) : tool.name,
      description: tool.description,
      ...(compat.supportsEagerToolInputStreaming ? { eager_input_streaming: true } : {}),
      ...(strict ? { strict: true } : {}),
      input_schema: strict ? { ...schema, ...inputSchema } : inputSchema,
      ...(cacheControl && index === tools.length - 1 ? { cache_control: cacheControl } : {}),
    };
  });
}

/** The identity line OAuth requests must open their system prompt with. */
export const CLAUDE_CODE_IDENTITY = "You are Claude Code, Anthropic's official CLI for Claude.";

/**
 * The whole request body (with `stream: true`); `disablePreferredStrict` sends the tools that only
 * prefer strict arguments non-strict.
 */
export function buildAnthropicParams(
  model: Model,
  context: Context,
  isOAuth: boolean,
  options?: AnthropicOptions,
  disablePreferredStrict = false,
): Json {
  const cacheControl = cacheControlFor(model, options?.cacheRetention);
  const cache = cacheControl ? { cache_control: cacheControl } : {};
  const params: Json = {
    model: model.id,
    messages: convertMessages(context.messages, model, isOAuth, cacheControl),
    max_tokens: options?.maxTokens || Math.trunc(model.maxTokens / 3),
    stream: true,
  };
  const system: Json[] = [];
  if (isOAuth) system.push({ type: "text", text: CLAUDE_CODE_IDENTITY, ...cache });
  if (context.systemPrompt) {
    system.push({ type: "text", text: sanitizeSurrogates(context.systemPrompt), ...cache });
  }
  if (system.length > 0) params.system = system;

  // The API rejects temperature together with extended thinking.
  if (options?.temperature !== undefined && !options.thinkingEnabled) {
    params.temperature = options.temperature;
  }
  if (context.tools && context.tools.length > 0) {
    params.tools = convertTools(context.tools, model, isOAuth, cacheControl, disablePreferredStrict);
  }
  if (model.reasoning) {
    if (options?.thinkingEnabled) {
      const display = options.thinkingDisplay ?? "summarized";
      if (supportsAdaptiveThinking(model)) {
        params.thinking = { type: "adaptive", display };
        if (options.effort) params.output_config = { effort: options.effort };
      } else {
        params.thinking = { type: "enabled", budget_tokens: options.thinkingBudgetTokens || 1024, display };
      }
    } else if (options?.thinkingEnabled === false) {
      params.thinking = { type: "disabled" };
    }
  }
  const userId = options?.metadata?.user_id;
  if (typeof userId === "string") params.metadata = { user_id: userId };
  if (options?.toolChoice) {
    params.tool_choice = typeof options.toolChoice === "string"
      ? { type: options.toolChoice }
      : options.toolChoice;
  }
  return params;
}
