/**
 * pi messages and tools in Gemini's terms (`Content[]`, function declarations), and Gemini's
 * finish reasons in pi's. Kept apart from the HTTP code so a Vertex provider can share it.
 *
 * @module
 */
import { contentText } from "../content_text.ts";
import { sanitizeSurrogates } from "../sanitize_unicode.ts";
import { transformMessages } from "../transform_messages.ts";
import type { Context, Model, StopReason, Tool } from "../types.ts";
import { resolveStrictTool, toolParameters } from "./strict_tools.ts";

/** A Gemini `Part`: one piece of a turn. Key order follows what the official SDK sends. */
export interface GooglePart {
  functionCall?: { id?: string; args: Record<string, unknown>; name: string };
  functionResponse?: {
    name: string;
    response: { output: string } | { error: string };
    parts?: GooglePart[];
    id?: string;
  };
  inlineData?: { data: string; mimeType: string };
  text?: string;
  thought?: boolean;
  thoughtSignature?: string;
}

/** A Gemini `Content`: one turn. */
export interface GoogleContent {
  parts: GooglePart[];
  role: "user" | "model";
}

/** A Gemini tool entry holding function declarations. */
export interface GoogleTool {
  functionDeclarations: {
    name: string;
    description: string;
    parameters?: unknown;
    parametersJsonSchema?: unknown;
  }[];
}

/** Tool choice values pi accepts, and the Gemini function-calling modes they become. */
export type GoogleToolChoice = "auto" | "none" | "any";

/** Gemini's `thinkingLevel` values. */
export type GoogleThinkingLevel = "THINKING_LEVEL_UNSPECIFIED" | "MINIMAL" | "LOW" | "MEDIUM" | "HIGH";

/** Only `thought: true` marks reasoning; a `thoughtSignature` can ride on any part. */
export function isThinkingPart(part: { thought?: boolean }): boolean {
  return part.thought === true;
}

/**
 * Some backends send a block's signature on its first delta only; keep the last non-empty one
 * instead of letting a later delta erase it. Signatures are never moved between blocks.
 */
export function retainThoughtSignature(existing: string | undefined, incoming: unknown): string | undefined {
  return typeof incoming === "string" && incoming.length > 0 ? incoming : existing;
}

// Google types signatures as bytes, so anything that is not base64 would be rejected.
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

function replayableSignature(sameModel: boolean, signature: string | undefined): string | undefined {
  if (!sameModel || !signature || signature.length % 4 !== 0 || !BASE64.test(signature)) return undefined;
  return signature;
}

/**
 * Models served through Google APIs that need explicit ids on function calls and responses
 * (Gemini 3 and later too, as pi-ai 1.6.0).
 */
export function requiresToolCallId(modelId: string): boolean {
  const major = geminiMajorVersion(modelId);
  return modelId.startsWith("claude-") || modelId.startsWith("gpt-oss-") ||
    (major !== undefined && major >= 3);
}

/** The major version of a Gemini model id; undefined for other models. */
function geminiMajorVersion(modelId: string): number | undefined {
  const match = modelId.toLowerCase().match(/^gemini(?:-live)?-(\d+)/);
  return match ? Number.parseInt(match[1], 10) : undefined;
}

/** Gemini 3+ (and non-Gemini models) take images inside the function response itself. */
function supportsMultimodalFunctionResponse(modelId: string): boolean {
  return (geminiMajorVersion(modelId) ?? 3) >= 3;
}

/** Gemini 3+ enforces required function parameters in the VALIDATED function-calling mode. */
export function supportsGoogleStrictTools(modelId: string): boolean {
  return (geminiMajorVersion(modelId) ?? 0) >= 3;
}

/** The conversation as Gemini `contents`. */
export function convertMessages(model: Model, context: Context): GoogleContent[] {
  const contents: GoogleContent[] = [];
  const normalizeId = (id: string) =>
    requiresToolCallId(model.id) ? id.replace(/[^a-zA-Z0-9_-]/g, "_").slice(0, 64) : id;

  for (const msg of transformMessages(context.messages, model, normalizeId)) {
    if (msg.role === "user") {
      if (typeof msg.content === "string") {
        contents.push({ parts: [{ text: sanitizeSurrogates(msg.content) }], role: "user" });
        continue;
      }
      const parts: GooglePart[] = msg.content.map((item) =>
        item.type === "text"
          ? { text: sanitizeSurrogates(item.text) }
          : { inlineData: { mimeType: item.mimeType, data: item.data } }
      );
      if (parts.length > 0) contents.push({ parts, role: "user" });
    } else if (msg.role === "assistant") {
      // Thinking and signatures only mean something to the model that produced them.
      const sameModel = msg.provider === model.provider && msg.model === model.id;
      const parts: GooglePart[] = [];
      for (const block of msg.content) {
        if (block.type === "text") {
          if (!block.text || block.text.trim() === "") continue;
          const signature = replayableSignature(sameModel, block.textSignature);
          parts.push({
            text: sanitizeSurrogates(block.text),
            ...(signature && { thoughtSignature: signature }),
          });
        } else if (block.type === "thinking") {
          if (!block.thinking || block.thinking.trim() === "") continue;
          if (sameModel) {
            const signature = replayableSignature(sameModel, block.thinkingSignature);
            parts.push({
              text: sanitizeSurrogates(block.thinking),
              thought: true,
              ...(signature && { thoughtSignature: signature }),
            });
          } else {
            // Plain text without tags, so the model does not learn to imitate them.
            parts.push({ text: sanitizeSurrogates(block.thinking) });
          }
        } else {
          const signature = replayableSignature(sameModel, block.thoughtSignature);
          parts.push({
            functionCall: {
              ...(requiresToolCallId(model.id) ? { id: block.id } : {}),
              args: block.arguments ?? {},
              name: block.name,
            },
            ...(signature && { thoughtSignature: signature }),
          });
        }
      }
      if (parts.length > 0) contents.push({ parts, role: "model" });
    } else {
      const text = contentText(msg.content, "\n");
      const images = model.input.includes("image") ? msg.content.filter((c) => c.type === "image") : [];
      const imageParts: GooglePart[] = images.map((img) => ({
        inlineData: { mimeType: img.mimeType, data: img.data },
      }));
      const nested = supportsMultimodalFunctionResponse(model.id);
      // Whitespace-only text counts as none (pi-ai 1.x).
      const value = text.trim().length > 0
        ? sanitizeSurrogates(text)
        : images.length > 0
        ? "(see attached image)"
        : "";
      const part: GooglePart = {
        functionResponse: {
          name: msg.toolName,
          response: msg.isError ? { error: value } : { output: value },
          ...(images.length > 0 && nested ? { parts: imageParts } : {}),
          ...(requiresToolCallId(model.id) ? { id: msg.toolCallId } : {}),
        },
      };
      // Parallel results go back in one user turn (Cloud Code Assist insists on it).
      const last = contents[contents.length - 1];
      if (last?.role === "user" && last.parts.some((p) => p.functionResponse)) last.parts.push(part);
      else contents.push({ parts: [part], role: "user" });
      if (images.length > 0 && !nested) {
        contents.push({ parts: [{ text: "Tool result image:" }, ...imageParts], role: "user" });
      }
    }
  }
  return contents;
}

// JSON Schema bookkeeping keys the OpenAPI-style `parameters` field rejects.
const SCHEMA_META_KEYS = new Set([
  "$schema",
  "$id",
  "$anchor",
  "$dynamicAnchor",
  "$vocabulary",
  "$comment",
  "$defs",
  "definitions",
]);

function stripSchemaMeta(schema: unknown): unknown {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (!SCHEMA_META_KEYS.has(key)) out[key] = stripSchemaMeta(value);
  }
  return out;
}

/**
 * Tools as one function-declarations entry. `parametersJsonSchema` takes full JSON Schema
 * (anyOf, const, …) as-is; `useParameters` picks the legacy OpenAPI `parameters` field instead,
 * which backends that translate to other vendors' schemas need.
 */
export function convertTools(
  tools: Tool[],
  useParameters = false,
  supportsStrict = true,
): GoogleTool[] | undefined {
  if (tools.length === 0) return undefined;
  return [{
    functionDeclarations: tools.map((tool) => {
      // Tools that prefer strict arguments get the strict schema where the model validates them.
      const parameters = toolParameters(tool, resolveStrictTool(tool, supportsStrict));
      return {
        name: tool.name,
        description: tool.description,
        ...(useParameters
          ? { parameters: stripSchemaMeta(parameters) }
          : { parametersJsonSchema: parameters }),
      };
    }),
  }];
}

/** pi's tool choice as Gemini's function-calling mode. */
export function mapToolChoice(choice: string): "AUTO" | "NONE" | "ANY" {
  if (choice === "none") return "NONE";
  if (choice === "any") return "ANY";
  return "AUTO";
}

/**
 * The function-calling mode: an explicit "none"/"any" wins; else VALIDATED when a tool is sent
 * strict (pi-ai 1.6.0), else the tool choice's mode, or none at all.
 */
export function resolveFunctionCallingMode(
  tools: Tool[],
  toolChoice: string | undefined,
  supportsStrict: boolean,
): "AUTO" | "NONE" | "ANY" | "VALIDATED" | undefined {
  if (toolChoice === "none" || toolChoice === "any") return mapToolChoice(toolChoice);
  if (tools.some((tool) => resolveStrictTool(tool, supportsStrict) === true)) return "VALIDATED";
  return toolChoice ? mapToolChoice(toolChoice) : undefined;
}

// Finish reasons Gemini documents besides STOP and MAX_TOKENS: all mean the answer is unusable.
const ERROR_FINISH_REASONS = new Set([
  "FINISH_REASON_UNSPECIFIED",
  "SAFETY",
  "RECITATION",
  "LANGUAGE",
  "OTHER",
  "BLOCKLIST",
  "PROHIBITED_CONTENT",
  "SPII",
  "MALFORMED_FUNCTION_CALL",
  "IMAGE_SAFETY",
  "UNEXPECTED_TOOL_CALL",
  "IMAGE_PROHIBITED_CONTENT",
  "NO_IMAGE",
  "IMAGE_RECITATION",
  "IMAGE_OTHER",
]);

/**
 * Gemini finish reasons in pi's terms. A reason Google adds later throws, so the failure names
 * it instead of passing for a normal end.
 */
export function mapStopReason(reason: string): StopReason {
  if (reason === "STOP") return "stop";
  if (reason === "MAX_TOKENS") return "length";
  if (ERROR_FINISH_REASONS.has(reason)) return "error";
  throw new Error(`Unhandled stop reason: ${reason}`);
}
