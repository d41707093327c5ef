/**
 * The `read` tool: text files with line windows and head truncation (continuation notices tell
 * the model how to page on), images as attachments resized to provider limits.
 *
 * @module
 */
import { checkAccess, readFileBytes } from "../util/fs.ts";
import type { ImageContent, TextContent } from "../ai/types.ts";
import type { AgentTool } from "../agent/types.ts";
import { detectSupportedImageMimeTypeFromFile } from "./image_mime.ts";
import { resolveReadPath } from "./path_utils.ts";
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, formatSize, type TruncationResult } from "./truncate.ts";
import type { SelectedLines } from "./read_lines.ts";
import { PREFER_STRICT_ARGUMENTS, type ToolDeclarations } from "./tool_metadata.ts";
import { abortable, abortError } from "./abortable.ts";

/** Arguments of the read tool; `offset` is 1-based. */
export interface ReadToolInput {
  /** File to read, relative to the tool's folder or absolute. */
  path: string;
  /** First line to show (1-based). */
  offset?: number;
  /** Most lines to show. */
  limit?: number;
}

/** Present when the output was cut by the line or byte budget. */
export interface ReadToolDetails {
  /** How the line or byte budget cut the text. */
  truncation?: TruncationResult;
}

/** File access the read tool needs; replace to read elsewhere (e.g. over SSH). */
export interface ReadOperations {
  /** The file's bytes. */
  readFile: (absolutePath: string) => Promise<Uint8Array>;
  /** Optional chunked reading; text reads then keep only the shown lines in memory. */
  createReadStream?: (absolutePath: string, options: { signal?: AbortSignal }) => AsyncIterable<Uint8Array>;
  /** Throws when the file is missing or unreadable. */
  access: (absolutePath: string) => Promise<void>;
  /** MIME type of a supported image, or null/undefined for anything read as text. */
  detectImageMimeType?: (absolutePath: string) => Promise<string | null | undefined>;
}

/** Options for {@link createReadTool}. */
export interface ReadToolOptions {
  /** Shrink images to fit 2000×2000 and the inline size limit (default true). */
  autoResizeImages?: boolean;
  /** File access; defaults to the local file system. */
  operations?: ReadOperations;
}

/** The JSON schema sent to the model (key order as the reference serialises it). */
const READ_PARAMETERS = {
  type: "object",
  required: ["path"],
  properties: {
    path: { type: "string", description: "Path to the file to read (relative or absolute)" },
    offset: { type: "number", description: "Line number to start reading from (1-indexed)" },
    limit: { type: "number", description: "Maximum number of lines to read" },
  },
};

/** Shape of `structuredContent`: the text, or the image with its note. */
const READ_OUTPUT_SCHEMA = {
  anyOf: [
    { type: "string" },
    {
      type: "object",
      required: ["type", "data", "mimeType", "note"],
      properties: {
        type: { type: "string", const: "image" },
        data: { type: "string" },
        mimeType: { type: "string" },
        note: { type: "string" },
      },
    },
  ],
};

/** The file's chunks; the line reader loads with the first read, not at start-up. */
async function* readLocalFileChunks(path: string): AsyncGenerator<Uint8Array> {
  const lines = await import("./read_lines.ts");
  yield* lines.readLocalFileChunks(path);
}

const defaultOperations: ReadOperations = {
  readFile: (path) => readFileBytes(path),
  createReadStream: readLocalFileChunks,
  access: (path) => checkAccess(path),
  detectImageMimeType: detectSupportedImageMimeTypeFromFile,
};

async function readImage(
  bytes: Uint8Array,
  mimeType: string,
  autoResize: boolean,
): Promise<(TextContent | ImageContent)[]> {
  // Image handling (conversion, EXIF, dimensions, resizing) loads with the first image read.
  const { processImage } = await import("./image_process.ts");
  const processed = await processImage(bytes, mimeType, { autoResizeImages: autoResize });
  if (!processed.ok) return [{ type: "text", text: `Read image file [${mimeType}]\n${processed.message}` }];
  return [
    { type: "text", text: [`Read image file [${processed.mimeType}]`, ...processed.hints].join("\n") },
    { type: "image", data: processed.data, mimeType: processed.mimeType },
  ];
}

/**
 * Formats a selected window: the text with the notice that tells the model which offset to
 * continue from. Throws for an offset past the end.
 */
function formatText(
  selected: SelectedLines,
  path: string,
  offset: number | undefined,
  limit: number | undefined,
): { text: string; details: ReadToolDetails | undefined } {
  const { totalFileLines, truncation, firstLineBytes } = selected;
  const start = offset ? Math.max(0, offset - 1) : 0;
  const firstShown = start + 1;
  if (start >= totalFileLines) {
    throw new Error(`Offset ${offset} is beyond end of file (${totalFileLines} lines total)`);
  }
  const limitedCount = limit === undefined ? undefined : Math.min(start + limit, totalFileLines) - start;
  if (truncation.firstLineExceedsLimit) {
    return {
      text: `[Line ${firstShown} is ${formatSize(firstLineBytes)}, exceeds ${
        formatSize(DEFAULT_MAX_BYTES)
      } limit. Use bash: sed -n '${firstShown}p' ${path} | head -c ${DEFAULT_MAX_BYTES}]`,
      details: { truncation },
    };
  }
  if (truncation.truncated) {
    const lastShown = firstShown + truncation.outputLines - 1;
    const range = `[Showing lines ${firstShown}-${lastShown} of ${totalFileLines}`;
    const budget = truncation.truncatedBy === "lines" ? "" : ` (${formatSize(DEFAULT_MAX_BYTES)} limit)`;
    return {
      text: `${truncation.content}\n\n${range}${budget}. Use offset=${lastShown + 1} to continue.]`,
      details: { truncation },
    };
  }
  if (limitedCount !== undefined && start + limitedCount < totalFileLines) {
    const remaining = totalFileLines - (start + limitedCount);
    return {
      text: `${truncation.content}\n\n[${remaining} more lines in file. Use offset=${
        start + limitedCount + 1
      } to continue.]`,
      details: undefined,
    };
  }
  return { text: truncation.content, details: undefined };
}

/** The result as data: the text, or the image with its note. */
export type ReadStructuredContent = string | { type: "image"; data: string; mimeType: string; note: string };

function structuredOf(content: (TextContent | ImageContent)[]): ReadStructuredContent {
  const text = content.find((c): c is TextContent => c.type === "text")?.text ?? "";
  const image = content.find((c): c is ImageContent => c.type === "image");
  return image ? { type: "image", data: image.data, mimeType: image.mimeType, note: text } : text;
}

/**
 * Creates the `read` tool for files under `cwd`.
 *
 * @example
 * ```ts
 * import { createReadTool } from "@pi-deno/coding-agent";
 *
 * const read = createReadTool(Deno.cwd());
 * const result = await read.execute("call-1", { path: "README.md", offset: 1, limit: 20 });
 * for (const block of result.content) {
 *   if (block.type === "text") console.log(block.text);
 * }
 * ```
 */
export function createReadTool(
  cwd: string,
  options?: ReadToolOptions,
): AgentTool<ReadToolInput, ReadToolDetails | undefined> & {
  promptSnippet: string;
  promptGuidelines: string[];
} & ToolDeclarations {
  const autoResizeImages = options?.autoResizeImages ?? true;
  const ops = options?.operations ?? defaultOperations;
  return {
    name: "read",
    label: "read",
    description:
      `Read the contents of a file. Supports text files and images (jpg, png, gif, webp, bmp). Images are sent as attachments. For text files, output is truncated to ${DEFAULT_MAX_LINES} lines or ${
        DEFAULT_MAX_BYTES / 1024
      }KB (whichever is hit first). Use offset/limit for large files. When you need the full file, continue with offset until complete.`,
    promptSnippet: "Read file contents",
    promptGuidelines: ["Use read to examine files instead of cat or sed."],
    parameters: READ_PARAMETERS,
    outputSchema: READ_OUTPUT_SCHEMA,
    constrainedSampling: PREFER_STRICT_ARGUMENTS,
    execute(_toolCallId, { path, offset, limit }, signal) {
      const absolutePath = resolveReadPath(path, cwd);
      return abortable(signal, async () => {
        await ops.access(absolutePath);
        if (signal?.aborted) throw abortError();
        const mimeType = ops.detectImageMimeType ? await ops.detectImageMimeType(absolutePath) : undefined;
        if (mimeType) {
          const content = await readImage(await ops.readFile(absolutePath), mimeType, autoResizeImages);
          return { content, details: undefined, structuredContent: structuredOf(content) };
        }
        const startLine = offset ? Math.max(0, offset - 1) : 0;
        // Streamed when possible, so only the shown lines are kept in memory.
        const lines = await import("./read_lines.ts");
        const selected = ops.createReadStream && lines.isStreamableRange(offset, limit)
          ? await lines.selectLinesFromStream(
            ops.createReadStream(absolutePath, { signal }),
            startLine,
            limit,
            signal,
          )
          : lines.selectLinesFromBuffer(await ops.readFile(absolutePath), startLine, limit);
        const result = formatText(selected, path, offset, limit);
        const content: TextContent[] = [{ type: "text", text: result.text }];
        return { content, details: result.details, structuredContent: structuredOf(content) };
      });
    },
  };
}
