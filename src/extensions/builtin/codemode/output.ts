/**
 * What the model gets from a script, laid out as pi 1.6.0 lays it out: text items numbered
 * `==> text N/M <==` when there are several, `console` lines in one `<console_output>` block after
 * the rest, adjacent text joined line by line, output over the token budget cut to its start and end
 * with the whole text saved to a temp file, each image saved to a temp file and named before it,
 * and a failure's error with the tool calls made before it.
 *
 * @module
 */
import type { ImageContent, TextContent } from "../../../ai/types.ts";
import { formatSize, sliceHead } from "../../../tools/truncate.ts";
import { saveToTempFile } from "../mcp/content.ts";
import type { SandboxError, SandboxOutput } from "./sandbox.ts";

/** Text and images, as a tool result holds them. */
export type OutputItem = TextContent | ImageContent;

/** One nested call as the result's details list it. */
export interface CodemodeCallRecord {
  id: string;
  name: string;
  /** The arguments as JSON, at most 200 characters. */
  args: string;
  status: "running" | "ok" | "error" | "cancelled";
  durationMs?: number;
  error?: string;
}

/** Default token budget of a script's output. */
export const DEFAULT_MAX_OUTPUT_TOKENS = 10_000;
/** Characters per token when estimating. */
const CHARS_PER_TOKEN = 4;

const IMAGE_EXTENSIONS: Record<string, string> = {
  "image/png": ".png",
  "image/jpeg": ".jpg",
  "image/gif": ".gif",
  "image/webp": ".webp",
};

/** The last `maxUnits` UTF-16 units of `text`, never starting on half a surrogate pair. */
function sliceTail(text: string, maxUnits: number): string {
  const start = Math.max(0, text.length - maxUnits);
  const low = text.charCodeAt(start);
  return low >= 0xdc00 && low <= 0xdfff ? text.slice(start + 1) : text.slice(start);
}

/** Numbered text items and images in order, then the console block. */
export function formatOutput(output: readonly SandboxOutput[]): OutputItem[] {
  const total = output.filter((item) => item.type === "text" && !item.console).length;
  const items: OutputItem[] = [];
  const consoleLines: string[] = [];
  let index = 0;
  for (const item of output) {
    if (item.type === "image") items.push({ type: "image", data: item.data, mimeType: item.mimeType });
    else if (item.console) consoleLines.push(item.text);
    else {
      index++;
      items.push({
        type: "text",
        text: total > 1 ? `==> text ${index}/${total} <==\n${item.text}` : item.text,
      });
    }
  }
  if (consoleLines.length > 0) {
    items.push({ type: "text", text: `<console_output>\n${consoleLines.join("\n")}\n</console_output>` });
  }
  return items;
}

/** Adjacent text items as one, each part on its own line. */
export function joinAdjacentText(items: readonly OutputItem[]): OutputItem[] {
  const joined: OutputItem[] = [];
  let parts: string[] = [];
  let last = "";
  const flush = () => {
    if (parts.length > 0) joined.push({ type: "text", text: parts.join("") });
    parts = [];
    last = "";
  };
  for (const item of items) {
    if (item.type !== "text") {
      flush();
      joined.push(item);
      continue;
    }
    if (last !== "" && !last.endsWith("\n")) {
      parts.push("\n");
      last = "\n";
    }
    parts.push(item.text);
    if (item.text !== "") last = item.text;
  }
  flush();
  return joined;
}

/** The failure text: the error (with its stack for a script error), then the calls made before it. */
export function formatError(error: SandboxError, calls: readonly CodemodeCallRecord[]): string {
  const head = error.kind === "script"
    ? (error.stack ?? `${error.name ?? "Error"}: ${error.message}`)
    : error.kind === "timeout"
    ? `Script timed out: ${error.message}`
    : error.kind === "aborted"
    ? `Script aborted: ${error.message}`
    : `Script sandbox failed: ${error.message}`;
  const summary = calls.length === 0
    ? "No tool calls were made."
    : `Tool calls made before the failure (they are not undone): ${
      calls.map((call) => `${call.name} (${call.status})`).join(", ")
    }`;
  return `${head}\n\n${summary}`;
}

/**
 * Applies the token budget: over it, the text items become one that keeps the start and end around
 * a `…N tokens truncated…` marker, followed by the images; the whole text goes to a temp file.
 */
export async function truncateOutput(
  items: readonly OutputItem[],
  maxTokens: number,
): Promise<{ items: OutputItem[]; fullOutputPath?: string }> {
  const texts = items.flatMap((item) => item.type === "text" ? [item.text] : []);
  const combined = texts.join("\n");
  const budget = maxTokens * CHARS_PER_TOKEN;
  if (texts.length === 0 || combined.length <= budget) return { items: [...items] };
  const headChars = Math.floor(budget / 2);
  const tailChars = budget - headChars;
  const removed = combined.length - headChars - tailChars;
  let text = `Warning: truncated output (original token count: ${
    Math.ceil(combined.length / CHARS_PER_TOKEN)
  })\nTotal output lines: ${combined.split("\n").length}\n\n${sliceHead(combined, headChars)}…${
    Math.ceil(removed / CHARS_PER_TOKEN)
  } tokens truncated…${sliceTail(combined, tailChars)}`;
  let fullOutputPath: string | undefined;
  try {
    fullOutputPath = await saveToTempFile(combined, ".txt", "pi-codemode");
    text += `\n\n[Full output: ${fullOutputPath} (read with offset/limit)]`;
  } catch (error) {
    text += `\n\n[Could not save the full output: ${error instanceof Error ? error.message : String(error)}]`;
  }
  return {
    items: [{ type: "text", text }, ...items.filter((item) => item.type === "image")],
    ...(fullOutputPath ? { fullOutputPath } : {}),
  };
}

function base64Bytes(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** Saves each image to a temp file and puts `[Image saved to <path> (<type>, <size>)]` before it. */
export async function saveImages(items: readonly OutputItem[]): Promise<OutputItem[]> {
  const labels = new Map<string, Promise<string>>();
  const label = async ({ data, mimeType }: ImageContent): Promise<string> => {
    const bytes = base64Bytes(data);
    const kind = `${mimeType}, ${formatSize(bytes.length)}`;
    try {
      const path = await saveToTempFile(bytes, IMAGE_EXTENSIONS[mimeType] ?? ".bin", "pi-codemode");
      return `[Image saved to ${path} (${kind})]`;
    } catch (error) {
      // A failed write must not lose the result of a script whose tool calls already ran.
      return `[Image (${kind}) could not be saved: ${
        error instanceof Error ? error.message : String(error)
      }]`;
    }
  };
  const result = await Promise.all(items.map(async (item): Promise<OutputItem[]> => {
    if (item.type !== "image") return [item];
    let pending = labels.get(item.data);
    if (!pending) {
      pending = label(item);
      labels.set(item.data, pending);
    }
    return [{ type: "text", text: await pending }, item];
  }));
  return result.flat();
}
