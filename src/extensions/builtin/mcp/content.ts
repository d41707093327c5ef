/**
 * MCP tool results as model-facing content, as 1.6.0 maps them: text and images pass through,
 * embedded text resources become text, embedded images images, other binary resources are saved to
 * a temp file the result names, resource links become a one-line description, audio a placeholder;
 * a result with no blocks but `structuredContent` becomes its JSON. Text over 20 KB keeps its start
 * and end around a `…N chars truncated…` marker and the full text is saved to a temp file.
 *
 * @module
 */
import type { ImageContent, JsonObject, TextContent } from "../../../ai/types.ts";
import { formatSize } from "../../../tools/truncate.ts";
import { tmpDir } from "../../../util/os.ts";
import { join } from "../../../util/path.ts";

/** One content block of an MCP `CallToolResult` (the fields pi reads). */
export interface McpContentBlock {
  type: string;
  text?: string;
  data?: string;
  mimeType?: string;
  uri?: string;
  name?: string;
  title?: string;
  description?: string;
  size?: number;
  resource?: { uri: string; mimeType?: string; text?: string; blob?: string };
  [key: string]: unknown;
}

/** An MCP `CallToolResult`. */
export interface McpCallToolResult {
  content: McpContentBlock[];
  structuredContent?: unknown;
  isError?: boolean;
  _meta?: unknown;
  [key: string]: unknown;
}

/** Model-facing text of an MCP result beyond this is cut in the middle. */
export const MCP_OUTPUT_MAX_BYTES = 20 * 1024;

/** Text and images, what a tool result holds. */
export type ModelContent = TextContent | ImageContent;

/**
 * Writes `data` to a new private file `<tmp>/<prefix>-<16 hex><extension>` and returns its path
 * (`pi-mcp` for MCP results, `pi-codemode` for codemode output).
 */
export async function saveToTempFile(
  data: string | Uint8Array,
  extension: string,
  prefix = "pi-mcp",
): Promise<string> {
  const random = crypto.getRandomValues(new Uint8Array(8));
  const hex = [...random].map((byte) => byte.toString(16).padStart(2, "0")).join("");
  const path = join(tmpDir(), `${prefix}-${hex}${extension}`);
  // createNew never follows a link someone else placed at the path; output may be private.
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
  await Deno.writeFile(path, bytes, { createNew: true, mode: 0o600 });
  return path;
}

function base64Bytes(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function extensionOf(uri: string): string {
  const path = URL.canParse(uri) ? new URL(uri).pathname : uri;
  return /\.[A-Za-z0-9]{1,8}$/.exec(path)?.[0] ?? ".bin";
}

function isTextMimeType(mimeType: string | undefined): boolean {
  if (!mimeType) return false;
  const type = mimeType.split(";", 1)[0].trim().toLowerCase();
  return type.startsWith("text/") || type === "application/json" || type.endsWith("+json") ||
    type.endsWith("+xml");
}

/** The generic mapping of one block (pi-mcp's `toLlmContent`). */
export function plainBlock(block: McpContentBlock): ModelContent {
  switch (block.type) {
    case "text":
      return { type: "text", text: block.text ?? "" };
    case "image":
      return { type: "image", data: block.data ?? "", mimeType: block.mimeType ?? "" };
    case "audio":
      return { type: "text", text: `[audio ${block.mimeType} omitted]` };
    case "resource_link":
      return { type: "text", text: `${block.name}: ${block.uri}` };
    case "resource": {
      const resource = block.resource ?? { uri: "" };
      if ("text" in resource) return { type: "text", text: resource.text ?? "" };
      if (resource.mimeType?.startsWith("image/")) {
        return { type: "image", data: resource.blob ?? "", mimeType: resource.mimeType };
      }
      return {
        type: "text",
        text: `[binary resource ${resource.uri} (${resource.mimeType ?? "unknown type"}) omitted]`,
      };
    }
    default:
      return { type: "text", text: `[unsupported MCP content ${block.type}]` };
  }
}

/** Options of {@link convertMcpResult}. */
export interface ConvertOptions {
  /** Whether `read_mcp_resource` can read this server's resources (named in resource links). */
  readableResources?: boolean;
  /** Where truncated text and binary resources go; a temp file by default. */
  saveOutput?: (data: string | Uint8Array, extension: string) => Promise<string>;
}

async function blockToContent(
  server: string,
  block: McpContentBlock,
  options: ConvertOptions,
): Promise<ModelContent[]> {
  if (block.type === "resource_link") {
    const details = [block.mimeType, block.size === undefined ? undefined : formatSize(block.size)].filter(
      Boolean,
    );
    const read = options.readableResources ? `. Read it with read_mcp_resource (server "${server}")` : "";
    const description = block.description ? `: ${block.description}` : "";
    const sizes = details.length > 0 ? ` (${details.join(", ")})` : "";
    return [{
      type: "text" as const,
      text: `[Resource ${block.uri} "${block.title ?? block.name}"${sizes}${description}${read}]`,
    }];
  }
  const resource = block.resource;
  if (
    block.type === "resource" && resource && "blob" in resource && !resource.mimeType?.startsWith("image/")
  ) {
    const data = base64Bytes(resource.blob ?? "");
    if (isTextMimeType(resource.mimeType)) {
      return [{ type: "text" as const, text: new TextDecoder().decode(data) }];
    }
    const kind = `${resource.mimeType ?? "unknown type"}, ${formatSize(data.length)}`;
    try {
      const path = await (options.saveOutput ?? saveToTempFile)(data, extensionOf(resource.uri));
      return [{
        type: "text" as const,
        text: `[Binary resource ${resource.uri} (${kind}) saved to ${path}]`,
      }];
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      return [{
        type: "text" as const,
        text: `[Binary resource ${resource.uri} (${kind}) could not be saved: ${reason}]`,
      }];
    }
  }
  return [plainBlock(block)];
}

function textOf(content: ModelContent[]): string {
  return content.flatMap((block) => block.type === "text" ? [block.text] : []).join("\n");
}

/**
 * Keeps the start and end of `text` (half of `maxBytes` each, at character boundaries) around a
 * `…N chars truncated…` marker; undefined when it fits.
 */
function truncateMiddle(text: string, maxBytes: number) {
  const buf = new TextEncoder().encode(text);
  if (buf.length <= maxBytes) return undefined;
  const isBoundary = (index: number) => index >= buf.length || (buf[index] & 0xc0) !== 0x80;
  let headEnd = Math.floor(maxBytes / 2);
  while (headEnd > 0 && !isBoundary(headEnd)) headEnd--;
  let tailStart = buf.length - (maxBytes - Math.floor(maxBytes / 2));
  while (tailStart < buf.length && !isBoundary(tailStart)) tailStart++;
  const decoder = new TextDecoder();
  const head = decoder.decode(buf.subarray(0, headEnd));
  const tail = decoder.decode(buf.subarray(tailStart));
  const removed = Array.from(decoder.decode(buf.subarray(headEnd, tailStart))).length;
  const lines = text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
  return { content: `${head}…${removed} chars truncated…${tail}`, totalBytes: buf.length, totalLines: lines };
}

/** Model-facing content of `server`'s blocks, before the output limit. */
export async function toModelContent(
  server: string,
  blocks: McpContentBlock[],
  options: ConvertOptions = {},
): Promise<ModelContent[]> {
  return (await Promise.all(blocks.map((block) => blockToContent(server, block, options)))).flat();
}

/**
 * Keeps model-facing text within {@link MCP_OUTPUT_MAX_BYTES}, saving the full text with `save`
 * (without it, the cut text does not say where the full text is).
 */
export async function limitContent(
  content: ModelContent[],
  save?: (data: string, extension: string) => Promise<string>,
): Promise<{ content: ModelContent[]; fullOutputPath?: string }> {
  const combined = textOf(content);
  const truncation = truncateMiddle(combined, MCP_OUTPUT_MAX_BYTES);
  if (!truncation) return { content };
  let fullOutputPath: string | undefined;
  let where = "";
  if (save) {
    try {
      fullOutputPath = await save(combined, ".txt");
      where = `\n\n[Full output: ${fullOutputPath} (read it with offset/limit)]`;
    } catch (error) {
      where = `\n\n[Could not save the full output: ${
        error instanceof Error ? error.message : String(error)
      }]`;
    }
  }
  const tokens = Math.ceil(truncation.totalBytes / 4);
  const text =
    `Warning: truncated output (original token count: ${tokens})\nTotal output lines: ${truncation.totalLines}\n\n${truncation.content}${where}`;
  return {
    content: [{ type: "text", text }, ...content.filter((block) => block.type === "image")],
    ...(fullOutputPath ? { fullOutputPath } : {}),
  };
}

/** What an MCP tool call gives pi's tool pipeline. */
export interface ConvertedMcpResult {
  content: ModelContent[];
  details: { server: string; tool: string; fullOutputPath?: string };
  /** The whole result without `_meta` (what codemode scripts get); parsed JSON from the server. */
  structuredContent: JsonObject;
  isError?: true;
}

/** Converts a `CallToolResult`; `isError` results become error results (1.6.0's `convertMcpResult`). */
export async function convertMcpResult(
  server: string,
  tool: string,
  result: McpCallToolResult,
  options: ConvertOptions = {},
): Promise<ConvertedMcpResult> {
  const blocks = result.content ?? [];
  let converted: ModelContent[];
  if (blocks.length > 0) {
    converted = await toModelContent(server, blocks, options);
  } else {
    converted = result.structuredContent !== undefined
      ? [{ type: "text", text: JSON.stringify(result.structuredContent, null, 2) }]
      : [];
  }
  if (result.isError && textOf(converted) === "") {
    converted.push({ type: "text", text: `MCP tool ${server}/${tool} returned an error` });
  }
  const { content, fullOutputPath } = await limitContent(converted, options.saveOutput ?? saveToTempFile);
  const { _meta: _ignored, ...scriptResult } = result;
  return {
    content,
    details: { server, tool, ...(fullOutputPath ? { fullOutputPath } : {}) },
    structuredContent: scriptResult as JsonObject,
    ...(result.isError ? { isError: true as const } : {}),
  };
}
