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
import {
  DEFAULT_MAX_BYTES,
  DEFAULT_MAX_LINES,
  formatSize,
  truncateHead,
  type TruncationResult,
  utf8ByteLength,
} from "./truncate.ts";
import { abortable, abortError } from "./abortable.ts";

/** Arguments of the read tool; `offset` is 1-based. */
export interface ReadToolInput {
  path: string;
  offset?: number;
  limit?: number;
}

/** Present when the output was cut by the line or byte budget. */
export interface ReadToolDetails {
  truncation?: TruncationResult;
}

/** File access the read tool needs; replace to read elsewhere (e.g. over SSH). */
export interface ReadOperations {
  readFile: (absolutePath: string) => Promise<Uint8Array>;
  /** Throws when the file is missing or unreadable. */
  access: (absolutePath: string) => Promise<void>;
  /** MIME type of a supported image, or null/undefined for anything read as text. */
  detectImageMimeType?: (absolutePath: string) => Promise<string | null | undefined>;
}

/** Options for {@link createReadTool}. */
export interface ReadToolOptions {
  /** Shrink images to fit 2000×2000 and the inline size limit (default true). */
  autoResizeImages?: boolean;
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

const defaultOperations: ReadOperations = {
  readFile: (path) => readFileBytes(path),
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
 * Selects the requested window of lines and applies head truncation, appending the notice
 * that tells the model which offset to continue from. Throws for an offset past the end.
 */
function readText(
  text: string,
  path: string,
  offset: number | undefined,
  limit: number | undefined,
): { text: string; details: ReadToolDetails | undefined } {
  const lines = text.split("\n");
  const start = offset ? Math.max(0, offset - 1) : 0;
  const firstShown = start + 1;
  if (start >= lines.length) {
    throw new Error(`Offset ${offset} is beyond end of file (${lines.length} lines total)`);
  }
  let limitedCount: number | undefined;
  let selected: string;
  if (limit !== undefined) {
    const end = Math.min(start + limit, lines.length);
    selected = lines.slice(start, end).join("\n");
    limitedCount = end - start;
  } else {
    selected = lines.slice(start).join("\n");
  }
  const truncation = truncateHead(selected);
  if (truncation.firstLineExceedsLimit) {
    const size = formatSize(utf8ByteLength(lines[start]));
    return {
      text: `[Line ${firstShown} is ${size}, exceeds ${
        formatSize(DEFAULT_MAX_BYTES)
      } limit. Use bash: sed -n '${firstShown}p' ${path} | head -c ${DEFAULT_MAX_BYTES}]`,
      details: { truncation },
    };
  }
  if (truncation.truncated) {
    const lastShown = firstShown + truncation.outputLines - 1;
    const range = `[Showing lines ${firstShown}-${lastShown} of ${lines.length}`;
    const budget = truncation.truncatedBy === "lines" ? "" : ` (${formatSize(DEFAULT_MAX_BYTES)} limit)`;
    return {
      text: `${truncation.content}\n\n${range}${budget}. Use offset=${lastShown + 1} to continue.]`,
      details: { truncation },
    };
  }
  if (limitedCount !== undefined && start + limitedCount < lines.length) {
    const remaining = lines.length - (start + limitedCount);
    return {
      text: `${truncation.content}\n\n[${remaining} more lines in file. Use offset=${
        start + limitedCount + 1
      } to continue.]`,
      details: undefined,
    };
  }
  return { text: truncation.content, details: undefined };
}

/** Creates the `read` tool for files under `cwd`. */
export function createReadTool(
  cwd: string,
  options?: ReadToolOptions,
): AgentTool<ReadToolInput, ReadToolDetails | undefined> & {
  promptSnippet: string;
  promptGuidelines: string[];
} {
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
    execute(_toolCallId, { path, offset, limit }, signal) {
      const absolutePath = resolveReadPath(path, cwd);
      return abortable(signal, async () => {
        await ops.access(absolutePath);
        if (signal?.aborted) throw abortError();
        const mimeType = ops.detectImageMimeType ? await ops.detectImageMimeType(absolutePath) : undefined;
        const bytes = await ops.readFile(absolutePath);
        if (mimeType) {
          const content = await readImage(bytes, mimeType, autoResizeImages);
          return { content, details: undefined };
        }
        const decoded = new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);
        const result = readText(decoded, path, offset, limit);
        return { content: [{ type: "text", text: result.text }], details: result.details };
      });
    },
  };
}
