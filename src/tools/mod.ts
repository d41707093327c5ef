/**
 * The built-in tools (read, bash, edit, write, grep, find, ls), their factories and option types,
 * and the truncation helpers they share.
 *
 * @example
 * ```ts
 * import { createCodingTools } from "@pi-deno/coding-agent/tools";
 *
 * const tools = createCodingTools(Deno.cwd());
 * console.log(tools.map((tool) => tool.name));
 * ```
 *
 * @module
 */

export {
  DEFAULT_MAX_BYTES,
  DEFAULT_MAX_LINES,
  formatSize,
  GREP_MAX_LINE_LENGTH,
  truncateHead,
  truncateLine,
  truncateTail,
} from "./truncate.ts";
export type { TruncationOptions, TruncationResult } from "./truncate.ts";
export { withFileMutationQueue } from "./file_mutation_queue.ts";
export { createReadTool } from "./read.ts";
export type { ReadOperations, ReadToolDetails, ReadToolInput, ReadToolOptions } from "./read.ts";
export { createWriteTool } from "./write.ts";
export type { WriteOperations, WriteToolInput, WriteToolOptions } from "./write.ts";
export { createEditTool } from "./edit.ts";
export type { EditOperations, EditToolDetails, EditToolInput, EditToolOptions } from "./edit.ts";
export { generateDiffString } from "./edit_render.ts";
export type { EditDiffResult } from "./edit_render.ts";
export { createBashTool } from "./bash.ts";
export { OutputAccumulator } from "./output_accumulator.ts";
export type {
  BashSessionEnvironment,
  BashSpawnContext,
  BashSpawnHook,
  BashTool,
  BashToolDetails,
  BashToolInput,
  BashToolOptions,
} from "./bash.ts";
export type { OutputSnapshot } from "./output_accumulator.ts";
export {
  createLocalBashOperations,
  getShellConfig,
  getShellEnv,
  killProcessTree,
  sanitizeBinaryOutput,
} from "./shell.ts";
export type { BashOperations, ShellConfig } from "./shell.ts";
export { createGrepTool } from "./grep.ts";
export type { GrepOperations, GrepTool, GrepToolDetails, GrepToolInput, GrepToolOptions } from "./grep.ts";
export { createFindTool } from "./find.ts";
export type { FindOperations, FindTool, FindToolDetails, FindToolInput, FindToolOptions } from "./find.ts";
export { createLsTool } from "./ls.ts";
export type { LsOperations, LsTool, LsToolDetails, LsToolInput, LsToolOptions } from "./ls.ts";
export { allToolNames, createAllTools, createCodingTools, createReadOnlyTools, createTool } from "./index.ts";
export type { BuiltinTool, ToolName, ToolsOptions } from "./index.ts";
export type { ConstrainedSampling, PromptedTool, ToolDeclarations } from "./tool_metadata.ts";
export type { Edit } from "./edit_diff.ts";
export type { SearchBinaryOption } from "./search_binaries.ts";
export { formatDimensionNote, resizeImage } from "./image_resize.ts";
export type { ImageResizeOptions, ResizedImage } from "./image_resize.ts";
export { detectSupportedImageMimeTypeFromFile } from "./image_mime.ts";
export type { SupportedImageMimeType } from "./image_mime.ts";
