/**
 * pi messages → Responses API `input` items, and tools → Responses function tools.
 * Assistant turns become their original items again: reasoning items (kept whole in the
 * thinking signature, encrypted content included), message items with their ids (from the
 * text signature), and function calls whose `call_id|item_id` ids are split back apart.
 *
 * @module
 */
import { contentText } from "../content_text.ts";
import { sanitizeSurrogates } from "../sanitize_unicode.ts";
import { transformMessages } from "../transform_messages.ts";
import type { AssistantMessage, Context, Model, Tool } from "../types.ts";
import { resolveStrictTool, toolParameters } from "./strict_tools.ts";

/** One Responses input item (loosely typed; the server validates). */
export type ResponsesInputItem = Record<string, unknown>;

/** A fast deterministic hash that shortens ids past OpenAI's 64-character limit. */
export function shortHash(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (h2 >>> 0).toString(36) + (h1 >>> 0).toString(36);
}

/** The text signature stored on text blocks: the message item id and its phase. */
export function encodeTextSignature(id: string, phase?: string): string {
  return JSON.stringify(phase ? { v: 1, id, phase } : { v: 1, id });
}

/** Reads a text signature; plain strings are taken as a bare item id (older sessions). */
export function parseTextSignature(signature?: string): { id: string; phase?: string } | undefined {
  if (!signature) return undefined;
  if (signature.startsWith("{")) {
    try {
      const parsed = JSON.parse(signature);
      if (parsed.v === 1 && typeof parsed.id === "string") {
        return parsed.phase === "commentary" || parsed.phase === "final_answer"
          ? { id: parsed.id, phase: parsed.phase }
          : { id: parsed.id };
      }
    } catch {
      // fall through to the plain form
    }
  }
  return { id: signature };
}

/** Options of {@link convertResponsesMessages}. */
export interface ConvertResponsesOptions {
  /** Default true; the Codex API places the prompt itself (after its `additional_tools` item). */
  includeSystemPrompt?: boolean;
  /** Items sent right before an earlier assistant turn's own (Codex's `configuration_update`). */
  beforeAssistant?: (message: AssistantMessage) => ResponsesInputItem | undefined;
}

function normalizeIdPart(part: string): string {
  const sanitized = part.replace(/[^a-zA-Z0-9_-]/g, "_");
  return (sanitized.length > 64 ? sanitized.slice(0, 64) : sanitized).replace(/_+$/, "");
}

/**
 * The request's `input`. Providers in `allowedToolCallProviders` keep `call|item` tool-call
 * ids (item ids from other models are re-hashed to `fc_…`); others get the id sanitised whole.
 */
export function convertResponsesMessages(
  model: Model,
  context: Context,
  allowedToolCallProviders: ReadonlySet<string>,
  options?: ConvertResponsesOptions,
): ResponsesInputItem[] {
  const items: ResponsesInputItem[] = [];
  const normalizeToolCallId = (id: string, _target: Model, source: AssistantMessage): string => {
    if (!allowedToolCallProviders.has(model.provider) || !id.includes("|")) return normalizeIdPart(id);
    const [callId, itemId] = id.split("|");
    const foreign = source.provider !== model.provider || source.api !== model.api;
    let item = foreign ? `fc_${shortHash(itemId)}`.slice(0, 64) : normalizeIdPart(itemId);
    // The API insists that function-call item ids start with "fc".
    if (!item.startsWith("fc_")) item = normalizeIdPart(`fc_${item}`);
    return `${normalizeIdPart(callId)}|${item}`;
  };
  const messages = transformMessages(context.messages, model, normalizeToolCallId);
  if ((options?.includeSystemPrompt ?? true) && context.systemPrompt) {
    items.push({
      role: model.reasoning ? "developer" : "system",
      content: sanitizeSurrogates(context.systemPrompt),
    });
  }
  let msgIndex = 0;
  for (const msg of messages) {
    if (msg.role === "user") {
      if (typeof msg.content === "string") {
        items.push({
          role: "user",
          content: [{ type: "input_text", text: sanitizeSurrogates(msg.content) }],
        });
      } else {
        const content = msg.content.map((item) =>
          item.type === "text"
            ? { type: "input_text", text: sanitizeSurrogates(item.text) }
            : { type: "input_image", detail: "auto", image_url: `data:${item.mimeType};base64,${item.data}` }
        );
        // An empty turn is skipped without counting towards generated message ids.
        if (content.length === 0) continue;
        items.push({ role: "user", content });
      }
    } else if (msg.role === "assistant") {
      const out: ResponsesInputItem[] = [];
      // Same API and provider but another model: its fc_ ids were paired with reasoning we drop.
      const otherModel = msg.model !== model.id && msg.provider === model.provider && msg.api === model.api;
      // Text blocks without a replay id get distinct ones (pi-ai 1.x: msg_pi_<n>[_<k>]).
      let textBlockIndex = 0;
      for (const block of msg.content) {
        if (block.type === "thinking") {
          if (block.thinkingSignature) out.push(JSON.parse(block.thinkingSignature));
        } else if (block.type === "text") {
          const signature = parseTextSignature(block.textSignature);
          const fallbackId = textBlockIndex === 0
            ? `msg_pi_${msgIndex}`
            : `msg_pi_${msgIndex}_${textBlockIndex}`;
          textBlockIndex++;
          let id = signature?.id;
          if (!id) id = fallbackId;
          else if (id.length > 64) id = `msg_${shortHash(id)}`;
          out.push({
            type: "message",
            role: "assistant",
            content: [{ type: "output_text", text: sanitizeSurrogates(block.text), annotations: [] }],
            status: "completed",
            id,
            phase: signature?.phase,
          });
        } else {
          const [callId, rawItemId] = block.id.split("|");
          const itemId = otherModel && rawItemId?.startsWith("fc_") ? undefined : rawItemId;
          out.push({
            type: "function_call",
            id: itemId,
            call_id: callId,
            name: block.name,
            arguments: JSON.stringify(block.arguments),
          });
        }
      }
      if (out.length === 0) continue;
      const prefix = options?.beforeAssistant?.(msg);
      if (prefix) items.push(prefix);
      items.push(...out);
    } else {
      const text = contentText(msg.content, "\n");
      const hasImages = msg.content.some((c) => c.type === "image");
      const [callId] = msg.toolCallId.split("|");
      let output: unknown;
      if (hasImages && model.input.includes("image")) {
        const parts: unknown[] = [];
        if (text.length > 0) parts.push({ type: "input_text", text: sanitizeSurrogates(text) });
        for (const block of msg.content) {
          if (block.type === "image") {
            parts.push({
              type: "input_image",
              detail: "auto",
              image_url: `data:${block.mimeType};base64,${block.data}`,
            });
          }
        }
        output = parts;
      } else {
        // pi-ai 1.x: "(see attached image)" only when there is an image, else "(no tool output)".
        output = sanitizeSurrogates(
          text.trim().length > 0 ? text : hasImages ? "(see attached image)" : "(no tool output)",
        );
      }
      items.push({ type: "function_call_output", call_id: callId, output });
    }
    msgIndex++;
  }
  return items;
}

/**
 * Function tools. `strict` is sent only to servers whose compat says they support it (pi-ai
 * 1.x): true with the strict schema for tools that prefer strict arguments, else `options.strict`
 * (default false).
 */
export function convertResponsesTools(
  tools: Tool[],
  options?: { strict?: boolean | null; supportsStrictMode?: boolean },
): ResponsesInputItem[] {
  const defaultStrict = options?.strict === undefined ? false : options.strict;
  const sendStrict = options?.supportsStrictMode ?? true;
  return tools.map((tool) => {
    const strict = resolveStrictTool(tool, sendStrict) ?? defaultStrict;
    return {
      type: "function",
      name: tool.name,
      description: tool.description,
      parameters: toolParameters(tool, strict === true),
      ...(sendStrict ? { strict } : {}),
    };
  });
}
