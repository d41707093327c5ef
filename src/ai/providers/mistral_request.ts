/**
 * The body of a Mistral chat request (`POST /v1/chat/completions`, the `mistral-conversations`
 * API), as pi-ai 1.6.0 builds it: the system prompt as the first message, images as data URLs
 * (when the model takes images), replayed thinking as `thinking` chunks, tool calls with ids
 * shortened to Mistral's nine characters, tool results as `tool` messages ("[tool error] …"),
 * non-strict tools unless the model opts in, `prompt_mode` / `reasoning_effort`, and the
 * session as `prompt_cache_key`.
 *
 * @module
 */
import { sanitizeSurrogates } from "../sanitize_unicode.ts";
import type { CacheRetention, Context, Message, Model, Tool } from "../types.ts";
import { shortHash } from "./openai_responses_convert.ts";
import { resolveStrictTool, toolParameters } from "./strict_tools.ts";

/** Mistral's reasoning efforts. */
export type MistralReasoningEffort = "none" | "low" | "medium" | "high" | "max";

/** Tool selection as Mistral takes it. */
export type MistralToolChoice = "auto" | "none" | "any" | "required" | {
  type: "function";
  function: { name: string };
};

/** Options of the mistral-conversations `stream` beyond the common ones. */
export interface MistralRequestOptions {
  toolChoice?: MistralToolChoice;
  /** "reasoning" for reasoning models without an effort map (Magistral). */
  promptMode?: "reasoning";
  reasoningEffort?: MistralReasoningEffort;
  temperature?: number;
  maxTokens?: number;
  sessionId?: string;
  cacheRetention?: CacheRetention;
}

type Json = Record<string, unknown>;

const TOOL_CALL_ID_LENGTH = 9;
const IMAGE_OMITTED = "(image omitted: model does not support images)";

/** Mistral's tool-call id for `id` (nine alphanumerics), retried with a suffix on a collision. */
export function deriveMistralToolCallId(id: string, attempt: number): string {
  const normalized = id.replace(/[^a-zA-Z0-9]/g, "");
  if (attempt === 0 && normalized.length === TOOL_CALL_ID_LENGTH) return normalized;
  const base = normalized || id;
  const seed = attempt === 0 ? base : `${base}:${attempt}`;
  return shortHash(seed).replace(/[^a-zA-Z0-9]/g, "").slice(0, TOOL_CALL_ID_LENGTH);
}

/** A per-request id mapper: the same id always maps alike, two ids never to the same one. */
export function createMistralToolCallIdNormalizer(): (id: string) => string {
  const ids = new Map<string, string>();
  const owners = new Map<string, string>();
  return (id) => {
    const existing = ids.get(id);
    if (existing) return existing;
    for (let attempt = 0;; attempt++) {
      const candidate = deriveMistralToolCallId(id, attempt);
      const owner = owners.get(candidate);
      if (!owner || owner === id) {
        ids.set(id, candidate);
        owners.set(candidate, id);
        return candidate;
      }
    }
  };
}

/** Whether the request uses Mistral's prompt cache (a session, caching not switched off). */
export function usesPromptCache(options: MistralRequestOptions | undefined): boolean {
  return options?.cacheRetention !== "none" && !!options?.sessionId;
}

function toolResultText(text: string, hasImages: boolean, supportsImages: boolean, isError: boolean): string {
  const trimmed = text.trim();
  const prefix = isError ? "[tool error] " : "";
  if (trimmed.length > 0) {
    const suffix = hasImages && !supportsImages
      ? "\n[tool image omitted: model does not support images]"
      : "";
    return `${prefix}${trimmed}${suffix}`;
  }
  if (hasImages) return supportsImages ? `${prefix}(see attached image)` : `${prefix}${IMAGE_OMITTED}`;
  return `${prefix}(no tool output)`;
}

function imageUrl(mimeType: string, data: string): Json {
  return { type: "image_url", image_url: `data:${mimeType};base64,${data}` };
}

/** The `messages` array (system prompt first). */
export function toMistralMessages(
  systemPrompt: string | undefined,
  messages: Message[],
  supportsImages: boolean,
): Json[] {
  const out: Json[] = [];
  if (systemPrompt) out.push({ role: "system", content: sanitizeSurrogates(systemPrompt) });
  for (const msg of messages) {
    if (msg.role === "user") {
      if (typeof msg.content === "string") {
        out.push({ role: "user", content: sanitizeSurrogates(msg.content) });
        continue;
      }
      const hadImages = msg.content.some((c) => c.type === "image");
      const content = msg.content
        .filter((c) => c.type === "text" || supportsImages)
        .map((c) =>
          c.type === "text"
            ? { type: "text", text: sanitizeSurrogates(c.text) }
            : imageUrl(c.mimeType, c.data)
        );
      if (content.length > 0) out.push({ role: "user", content });
      else if (hadImages && !supportsImages) out.push({ role: "user", content: IMAGE_OMITTED });
    } else if (msg.role === "assistant") {
      const parts: Json[] = [];
      const toolCalls: Json[] = [];
      for (const block of msg.content) {
        if (block.type === "text") {
          if (block.text.trim().length > 0) {
            parts.push({ type: "text", text: sanitizeSurrogates(block.text) });
          }
        } else if (block.type === "thinking") {
          if (block.thinking.trim().length > 0) {
            parts.push({
              type: "thinking",
              thinking: [{ type: "text", text: sanitizeSurrogates(block.thinking) }],
            });
          }
        } else {
          toolCalls.push({
            id: block.id,
            type: "function",
            function: { name: block.name, arguments: JSON.stringify(block.arguments || {}) },
            index: 0,
          });
        }
      }
      if (parts.length === 0 && toolCalls.length === 0) continue;
      const message: Json = { role: "assistant", prefix: false };
      if (parts.length > 0) message.content = parts;
      if (toolCalls.length > 0) message.tool_calls = toolCalls;
      out.push(message);
    } else {
      const text = msg.content.filter((c) => c.type === "text").map((c) =>
        c.type === "text" ? sanitizeSurrogates(c.text) : ""
      )
        .join("\n");
      const hasImages = msg.content.some((c) => c.type === "image");
      const content: Json[] = [{
        type: "text",
        text: toolResultText(text, hasImages, supportsImages, msg.isError),
      }];
      if (supportsImages) {
        for (const c of msg.content) if (c.type === "image") content.push(imageUrl(c.mimeType, c.data));
      }
      out.push({ role: "tool", tool_call_id: msg.toolCallId, name: msg.toolName, content });
    }
  }
  return out;
}

function toFunctionTools(tools: Tool[], supportsStrict: boolean): Json[] {
  return tools.map((tool) => {
    const strict = resolveStrictTool(tool, supportsStrict);
    return {
      type: "function",
      function: {
        name: tool.name,
        description: tool.description,
        parameters: toolParameters(tool, strict),
        strict: strict ?? false,
      },
    };
  });
}

/** The whole request body, already in Mistral's snake_case wire form. */
export function buildMistralBody(
  model: Model,
  context: Context,
  messages: Message[],
  options: MistralRequestOptions | undefined,
): Json {
  const body: Json = {
    model: model.id,
    stream: true,
    messages: toMistralMessages(context.systemPrompt, messages, model.input.includes("image")),
  };
  // Strict tools are opt-in: Mistral Large can go silent for minutes before a strict tool call.
  const supportsStrict = (model.compat as { supportsStrictMode?: boolean } | undefined)?.supportsStrictMode ??
    false;
  if (context.tools && context.tools.length > 0) body.tools = toFunctionTools(context.tools, supportsStrict);
  if (options?.temperature !== undefined) body.temperature = options.temperature;
  if (options?.maxTokens !== undefined) body.max_tokens = options.maxTokens;
  if (options?.toolChoice) body.tool_choice = options.toolChoice;
  if (options?.promptMode) body.prompt_mode = options.promptMode;
  if (options?.reasoningEffort) body.reasoning_effort = options.reasoningEffort;
  if (usesPromptCache(options)) body.prompt_cache_key = options!.sessionId;
  return body;
}
