/**
 * The `write` tool: creates or overwrites a whole file, creating parent folders as needed.
 * Serialised with other writers of the same file.
 *
 * Deliberate difference from the reference: the success text reports the UTF-8 byte count
 * actually written, where the reference prints the UTF-16 length of the string.
 *
 * @module
 */
import { makeDir, writeTextFile } from "../util/fs.ts";
import { dirname } from "../util/path.ts";
import type { AgentTool } from "../agent/types.ts";
import { withFileMutationQueue } from "./file_mutation_queue.ts";
import { resolveToCwd } from "./path_utils.ts";
import { PREFER_STRICT_ARGUMENTS, type ToolDeclarations } from "./tool_metadata.ts";
import { abortable, abortError } from "./abortable.ts";

/** Arguments of the write tool. */
export interface WriteToolInput {
  /** File to write, relative to the tool's folder or absolute. */
  path: string;
  /** The complete new text of the file. */
  content: string;
}

/** File access the write tool needs; replace to write elsewhere (e.g. over SSH). */
export interface WriteOperations {
  /** Writes the text, replacing the file. */
  writeFile: (absolutePath: string, content: string) => Promise<void>;
  /** Creates `dir` and its parents; succeeds when it already exists. */
  mkdir: (dir: string) => Promise<void>;
}

/** Options for {@link createWriteTool}. */
export interface WriteToolOptions {
  /** File access; defaults to the local file system. */
  operations?: WriteOperations;
}

/** The JSON schema sent to the model (key order as the reference serialises it). */
const WRITE_PARAMETERS = {
  type: "object",
  required: ["path", "content"],
  properties: {
    path: { type: "string", description: "Path to the file to write (relative or absolute)" },
    content: { type: "string", description: "Content to write to the file" },
  },
};

const defaultOperations: WriteOperations = {
  writeFile: (path, content) => writeTextFile(path, content),
  mkdir: (dir) => makeDir(dir),
};

/**
 * Creates the `write` tool for files under `cwd`.
 *
 * @example
 * ```ts
 * import { createWriteTool } from "@pi-deno/coding-agent";
 *
 * const dir = await Deno.makeTempDir();
 * const write = createWriteTool(dir);
 * await write.execute("call-1", { path: "notes/todo.md", content: "- write docs\n" });
 * console.log(await Deno.readTextFile(`${dir}/notes/todo.md`));
 * ```
 */
export function createWriteTool(
  cwd: string,
  options?: WriteToolOptions,
):
  & AgentTool<WriteToolInput, undefined>
  & { promptSnippet: string; promptGuidelines: string[] }
  & ToolDeclarations {
  const ops = options?.operations ?? defaultOperations;
  return {
    name: "write",
    label: "write",
    description:
      "Write content to a file. Creates the file if it doesn't exist, overwrites if it does. Automatically creates parent directories.",
    promptSnippet: "Create or overwrite files",
    promptGuidelines: ["Use write only for new files or complete rewrites."],
    constrainedSampling: PREFER_STRICT_ARGUMENTS,
    parameters: WRITE_PARAMETERS,
    execute(_toolCallId, { path, content }, signal) {
      const absolutePath = resolveToCwd(path, cwd);
      return withFileMutationQueue(absolutePath, () =>
        abortable(signal, async () => {
          await ops.mkdir(dirname(absolutePath));
          if (signal?.aborted) throw abortError();
          await ops.writeFile(absolutePath, content);
          if (signal?.aborted) throw abortError();
          return {
            content: [{
              type: "text",
              text: `Successfully wrote to ${path}`,
            }],
            details: undefined,
          };
        }));
    },
  };
}
