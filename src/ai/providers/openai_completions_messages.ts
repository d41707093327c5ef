/**
 * pi messages → Chat Completions `messages` and `tools`. Assistant text goes as one plain
 * string (array content makes some models echo the structure), reasoning is replayed in the
 * field it arrived in, consecutive tool results become `tool` messages with their images
 * forwarded in a following user message, and empty assistant turns are left out.
 *
 * @module
 */
import { contentText } from "../content_text.ts";
import { sanitizeSurrogates } from "../sanitize_unicode.ts";
import { transformMessages } from "../transform_messages.ts";
import type { Context, Model, Tool } from "../types.ts";
import { resolveStrictTool, toolParameters } from "./strict_tools.ts";
import type { ResolvedCompletionsCompat } from "./openai_completions_compat.ts";

/** One entry of the request's `messages` (loosely typed: servers accept extra fields). */
export type ChatMessageParam = Record<string, unknown> & { role: string; content?: unknown };

/** Tool-call ids OpenAI accepts: Responses-style `call|item` ids keep the call part, max 40 chars. */
export function normalizeCompletionsToolCallId(id: string, model: Model): string {
  if (id.includes("|")) {
    const [callId] = id.split("|");
    return callId.replace(/[^a-zA-Z0-9_-]/g, "_").slice(0, 40);
  }
  if (model.provider === "openai") return id.length > 40 ? id.slice(0, 40) : id;
  return id;
}

const ASSISTANT_BRIDGE = "I have processed the tool results.";

/** The request's `messages`: system/developer prompt first, then the converted history. */
export function convertCompletionsMessages(
  model: Model,
  context: Context,
  compat: ResolvedCompletionsCompat,
): ChatMessageParam[] {
  const params: ChatMessageParam[] = [];
  const messages = transformMessages(
    context.messages,
    model,
    (id) => normalizeCompletionsToolCallId(id, model),
  );
  if (context.systemPrompt) {
    const role = model.reasoning && compat.supportsDeveloperRole ? "developer" : "system";
    params.push({ role, content: sanitizeSurrogates(context.systemPrompt) });
  }
  let lastRole: string | null = null;
  for (let i = 0; i < messages.length; i++) {
    const msg = messages[i];
    if (compat.requiresAssistantAfterToolResult && lastRole === "toolResult" && msg.role === "user") {
      params.push({ role: "assistant", content: ASSISTANT_BRIDGE });
    }
    if (msg.role === "user") {
      if (typeof msg.content === "string") {
        params.push({ role: "user", content: sanitizeSurrogates(msg.content) });
      } else {
        const content = msg.content.map((item) =>
          item.type === "text"
            ? { type: "text", text: sanitizeSurrogates(item.text) }
            : { type: "image_url", image_url: { url: `data:${item.mimeType};base64,${item.data}` } }
        );
        if (content.length === 0) continue;
        params.push({ role: "user", content });
      }
    } else if (msg.role === "assistant") {
      const out: ChatMessageParam = {
        role: "assistant",
        content: compat.requiresAssistantAfterToolResult ? "" : null,
      };
      const textParts = msg.content
        .filter((b) => b.type === "text")
        .filter((b) => b.text.trim().length > 0)
        .map((b) => ({ type: "text", text: sanitizeSurrogates(b.text) }));
      const text = textParts.map((p) => p.text).join("");
      const thinking = msg.content.filter((b) => b.type === "thinking").filter((b) =>
        b.thinking.trim().length > 0
      );
      if (thinking.length > 0 && compat.requiresThinkingAsText) {
        // Plain text without tags, so the model does not learn to imitate them.
        const thinkingText = thinking.map((b) => sanitizeSurrogates(b.thinking)).join("\n\n");
        out.content = [{ type: "text", text: thinkingText }, ...textParts];
      } else {
        if (text.length > 0) out.content = text;
        // The field the reasoning arrived in (e.g. reasoning_content) is where it goes back.
        const field = thinking[0]?.thinkingSignature;
        if (field && field.length > 0) out[field] = thinking.map((b) => b.thinking).join("\n");
      }
      const toolCalls = msg.content.filter((b) => b.type === "toolCall");
      if (toolCalls.length > 0) {
        out.tool_calls = toolCalls.map((tc) => ({
          id: tc.id,
          type: "function",
          function: { name: tc.name, arguments: JSON.stringify(tc.arguments) },
        }));
        const details = toolCalls.flatMap((tc) => {
          if (!tc.thoughtSignature) return [];
          try {
            const parsed = JSON.parse(tc.thoughtSignature);
            return parsed ? [parsed] : [];
          } catch {
            return [];
          }
        });
        if (details.length > 0) out.reasoning_details = details;
      }
      if (
        compat.requiresReasoningContentOnAssistantMessages && model.reasoning &&
        out.reasoning_content === undefined
      ) {
        out.reasoning_content = "";
      }
      const content = out.content as string | unknown[] | null;
      const hasContent = content !== null && content !== undefined && content.length > 0;
      if (!hasContent && !out.tool_calls) continue;
      params.push(out);
    } else {
      const images: unknown[] = [];
      let j = i;
      for (; j < messages.length; j++) {
        const result = messages[j];
        if (result.role !== "toolResult") break;
        const text = contentText(result.content, "\n");
        const toolMsg: ChatMessageParam = {
          role: "tool",
          // pi-ai 1.x: "(see attached image)" only when an image follows, else "(no tool output)".
          content: sanitizeSurrogates(
            text.trim().length > 0
              ? text
              : result.content.some((c) => c.type === "image")
              ? "(see attached image)"
              : "(no tool output)",
          ),
          tool_call_id: result.toolCallId,
        };
        if (compat.requiresToolResultName && result.toolName) toolMsg.name = result.toolName;
        params.push(toolMsg);
        if (model.input.includes("image")) {
          for (const block of result.content) {
            if (block.type === "image") {
              images.push({
                type: "image_url",
                image_url: { url: `data:${block.mimeType};base64,${block.data}` },
              });
            }
          }
        }
      }
      i = j - 1;
      if (images.length > 0) {
        if (compat.requiresAssistantAfterToolResult) {
          params.push({ role: "assistant", content: ASSISTANT_BRIDGE });
        }
        params.push({
          role: "user",
          content: [{ type: "text", text: "Attached image(s) from tool result:" }, ...images],
        });
        lastRole = "user";
      } else {
        lastRole = "toolResult";
      }
      continue;
    }
    lastRole = msg.role;
  }
  return params;
}

/**
 * Tool definitions. `strict` only for servers whose compat says they support the field: true with
 * the strict schema for tools that prefer strict arguments, false for the others.
 */
export function convertCompletionsTools(
  tools: Tool[],
  compat: ResolvedCompletionsCompat,
): Record<string, unknown>[] {
  return tools.map((tool) => {
    const strict = resolveStrictTool(tool, compat.supportsStrictMode);
    return {
      type: "function",
      function: {
        name: tool.name,
        description: tool.description,
        parameters: toolParameters(tool, strict),
        ...(compat.supportsStrictMode ? { strict: strict ?? false } : {}),
      },
    };
  });
}
