/**
 * `@file` arguments (CLI-18): each file becomes a `<file name="ABS">` block in the initial
 * message; images (recognised by their bytes) become image attachments, resized to the inline
 * limits unless `images.autoResize` is off. Empty files are skipped; a missing file stops the run.
 *
 * @module
 */
import { readFileBytes } from "../util/fs.ts";
import { resolve } from "../util/path.ts";
import type { ImageContent } from "../ai/types.ts";
import { detectSupportedImageMimeTypeFromFile } from "../tools/image_mime.ts";
import { resolveReadPath } from "../tools/path_utils.ts";
import { CliExit } from "./cli_error.ts";

/** Text and images gathered from `@file` arguments. */
export interface ProcessedFiles {
  text: string;
  images: ImageContent[];
}

/** Options of {@link processFileArguments}. */
export interface ProcessFileOptions {
  /** Fit images to the inline limits (default true, setting `images.autoResize`). */
  autoResizeImages?: boolean;
  /** Base for relative paths (default the process cwd). */
  cwd?: string;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Reads the `@file` arguments in order. Throws {@link CliExit} with `Error: File not found: ABS`
 * for a missing file and `Error: Could not read file ABS: …` for an unreadable one.
 */
export async function processFileArguments(
  fileArgs: readonly string[],
  options: ProcessFileOptions = {},
): Promise<ProcessedFiles> {
  const autoResize = options.autoResizeImages ?? true;
  const cwd = options.cwd ?? Deno.cwd();
  let text = "";
  const images: ImageContent[] = [];
  for (const fileArg of fileArgs) {
    // Handles ~ and the macOS screenshot spellings (narrow no-break space, NFD, curly quote).
    const absolutePath = resolve(resolveReadPath(fileArg, cwd));
    let size: number;
    try {
      size = (await Deno.stat(absolutePath)).size;
    } catch {
      throw new CliExit(`Error: File not found: ${absolutePath}`);
    }
    if (size === 0) continue;
    let mimeType: string | null;
    try {
      mimeType = await detectSupportedImageMimeTypeFromFile(absolutePath);
    } catch (error) {
      // The reference crashes with a stack trace here (e.g. a directory); we report it instead.
      throw new CliExit(`Error: Could not read file ${absolutePath}: ${errorText(error)}`);
    }
    if (mimeType) {
      // Image handling loads only for image arguments.
      const { processImage } = await import("../tools/image_process.ts");
      const processed = await processImage(await readFileBytes(absolutePath), mimeType, {
        autoResizeImages: autoResize,
      });
      if (!processed.ok) {
        text += `<file name="${absolutePath}">${processed.message}</file>\n`;
        continue;
      }
      images.push({ type: "image", mimeType: processed.mimeType, data: processed.data });
      text += `<file name="${absolutePath}">${processed.hints.join("\n")}</file>\n`;
      continue;
    }
    try {
      const content = new TextDecoder("utf-8", { ignoreBOM: true }).decode(await readFileBytes(absolutePath));
      text += `<file name="${absolutePath}">\n${content}\n</file>\n`;
    } catch (error) {
      throw new CliExit(`Error: Could not read file ${absolutePath}: ${errorText(error)}`);
    }
  }
  return { text, images };
}
