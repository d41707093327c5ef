/**
 * The `ls` tool: one folder's entries, dotfiles included, sorted case-insensitively, folders
 * marked with `/`, with the reference's limits and notices (spec LS-01).
 *
 * @module
 */
import type { PromptedTool } from "./tool_metadata.ts";
import { join } from "../util/path.ts";
import { resolveToCwd } from "./path_utils.ts";
import { DEFAULT_MAX_BYTES, formatSize, truncateHead, type TruncationResult } from "./truncate.ts";

/** Arguments the model passes to `ls`. */
export interface LsToolInput {
  /** Folder to list (default: the tool's folder). */
  path?: string;
  /** Most entries to return (default 500; below 1 means 1). */
  limit?: number;
}

/** Details attached when limits cut the result. */
export interface LsToolDetails {
  /** How the byte budget cut the list. */
  truncation?: TruncationResult;
  /** The limit, when more entries existed. */
  entryLimitReached?: number;
}

/** File-system hooks so listings can come from elsewhere (remote hosts). */
export interface LsOperations {
  /** Whether the path exists. */
  exists: (absolutePath: string) => Promise<boolean> | boolean;
  /** Throws when the path is missing. */
  stat: (absolutePath: string) => Promise<{ isDirectory: () => boolean }> | { isDirectory: () => boolean };
  /** Names of the folder's entries. */
  readdir: (absolutePath: string) => Promise<string[]> | string[];
}

/** Options of {@link createLsTool}. */
export interface LsToolOptions {
  /** File access; defaults to the local file system. */
  operations?: LsOperations;
}

/** The ls tool with its prompt metadata. */
export type LsTool = PromptedTool<LsToolInput, LsToolDetails | undefined>;

const DEFAULT_LIMIT = 500;

const defaultOperations: LsOperations = {
  exists: (p) => {
    try {
      Deno.statSync(p);
      return true;
    } catch {
      return false;
    }
  },
  stat: (p) => {
    const info = Deno.statSync(p);
    return { isDirectory: () => info.isDirectory };
  },
  readdir: (p) => [...Deno.readDirSync(p)].map((e) => e.name),
};

/**
 * Creates the `ls` tool bound to `cwd`.
 *
 * @example
 * ```ts
 * import { createLsTool } from "@pi-deno/coding-agent";
 *
 * const ls = createLsTool(Deno.cwd());
 * const result = await ls.execute("call-1", { path: "." });
 * for (const block of result.content) {
 *   if (block.type === "text") console.log(block.text);
 * }
 * ```
 */
export function createLsTool(cwd: string, options?: LsToolOptions): LsTool {
  const ops = options?.operations ?? defaultOperations;
  return {
    name: "ls",
    label: "ls",
    description:
      `List directory contents. Returns entries sorted alphabetically, with '/' suffix for directories. Includes dotfiles. Output is truncated to ${DEFAULT_LIMIT} entries or ${
        DEFAULT_MAX_BYTES / 1024
      }KB (whichever is hit first).`,
    promptSnippet: "List directory contents",
    parameters: {
      type: "object",
      properties: {
        path: { type: "string", description: "Directory to list (default: current directory)" },
        limit: { type: "number", description: "Maximum number of entries to return (default: 500)" },
      },
    },
    async execute(_id, { path, limit }, signal) {
      if (signal?.aborted) throw new Error("Operation aborted");
      const dirPath = resolveToCwd(path || ".", cwd);
      // A limit of 0 would list nothing and report "(empty directory)", so it means 1.
      const effectiveLimit = Math.max(1, Math.floor(limit ?? DEFAULT_LIMIT));
      if (!(await ops.exists(dirPath))) throw new Error(`Path not found: ${dirPath}`);
      if (!(await ops.stat(dirPath)).isDirectory()) throw new Error(`Not a directory: ${dirPath}`);
      let entries: string[];
      try {
        entries = await ops.readdir(dirPath);
      } catch (e) {
        throw new Error(`Cannot read directory: ${(e as Error).message}`);
      }
      entries.sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()));
      const results: string[] = [];
      let entryLimitReached = false;
      for (const entry of entries) {
        if (results.length >= effectiveLimit) {
          entryLimitReached = true;
          break;
        }
        let suffix = "";
        try {
          if ((await ops.stat(join(dirPath, entry))).isDirectory()) suffix = "/";
        } catch {
          // Entries that cannot be stat'ed (dangling symlinks) are left out, as in the reference.
          continue;
        }
        results.push(entry + suffix);
      }
      if (signal?.aborted) throw new Error("Operation aborted");
      if (results.length === 0) {
        return { content: [{ type: "text", text: "(empty directory)" }], details: undefined };
      }
      // The entry limit already caps rows; only the byte budget remains.
      const truncation = truncateHead(results.join("\n"), { maxLines: Number.MAX_SAFE_INTEGER });
      let output = truncation.content;
      const details: LsToolDetails = {};
      const notices: string[] = [];
      if (entryLimitReached) {
        notices.push(`${effectiveLimit} entries limit reached. Use limit=${effectiveLimit * 2} for more`);
        details.entryLimitReached = effectiveLimit;
      }
      if (truncation.truncated) {
        notices.push(`${formatSize(DEFAULT_MAX_BYTES)} limit reached`);
        details.truncation = truncation;
      }
      if (notices.length > 0) output += `\n\n[${notices.join(". ")}]`;
      return {
        content: [{ type: "text", text: output }],
        details: Object.keys(details).length > 0 ? details : undefined,
      };
    },
  };
}
