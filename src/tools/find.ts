/**
 * The `find` tool: glob search for file names via fd when a compatible fd exists, otherwise via
 * the built-in walker, with the reference's output, limits and notices (spec FIND-01).
 *
 * @module
 */
import type { PromptedTool } from "./tool_metadata.ts";
import { isAbsolute, relative, sep } from "../util/path.ts";
import { isInsideGitWorkTree, resolveToCwd } from "./path_utils.ts";
import { resolveSearchBinary, type SearchBinaryOption } from "./search_binaries.ts";
import { DEFAULT_MAX_BYTES, formatSize, truncateHead, type TruncationResult } from "./truncate.ts";

/** Arguments the model passes to `find`. */
export interface FindToolInput {
  /** Glob; with `/` it is anchored at the search folder. */
  pattern: string;
  /** Folder to search (default: the tool's folder). */
  path?: string;
  /** Most results to return (default 1000; below 1 means 1). */
  limit?: number;
}

/** Details attached when limits cut the result. */
export interface FindToolDetails {
  /** How the byte budget cut the list. */
  truncation?: TruncationResult;
  /** The limit, when more results existed. */
  resultLimitReached?: number;
}

/** Custom backends (remote file systems): existence check plus a glob implementation. */
export interface FindOperations {
  /** Whether the search folder exists. */
  exists: (absolutePath: string) => Promise<boolean> | boolean;
  /** Returns relative or absolute paths. */
  glob: (
    pattern: string,
    cwd: string,
    options: { ignore: string[]; limit: number },
  ) => Promise<string[]> | string[];
}

/** Options of {@link createFindTool}. */
export interface FindToolOptions {
  /** Custom backend; replaces fd and the walker. */
  operations?: FindOperations;
  /** fd executable: omitted = locate it; `null` = always use the built-in walker. */
  fdPath?: SearchBinaryOption;
  /** Managed binaries folder searched before PATH; default `<agent dir>/bin`. */
  binDir?: string;
}

/** The find tool with its prompt metadata. */
export type FindTool = PromptedTool<FindToolInput, FindToolDetails | undefined>;

const DEFAULT_LIMIT = 1000;

/**
 * A result relative to the search folder with `/` separators; relative results stay as given and
 * a trailing separator (a folder) is kept. Works for the file system root as search folder too.
 */
export function relativizeFindResultPath(resultPath: string, searchPath: string): string {
  const hadTrailingSeparator = resultPath.endsWith(sep) || (sep === "\\" && resultPath.endsWith("/"));
  const rel = isAbsolute(resultPath) ? relative(searchPath, resultPath) : resultPath;
  const posix = rel.split(sep).join("/");
  return hadTrailingSeparator && !posix.endsWith("/") ? `${posix}/` : posix;
}

/** fd builds that predate `--no-require-git` (Debian's fdfind 8.x) are not used outside git. */
const incompatibleFd = new Set<string>();

async function runFd(fdPath: string, args: string[], signal?: AbortSignal) {
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(fdPath, { args, stdin: "null", stdout: "piped", stderr: "piped" }).spawn();
  } catch (e) {
    throw new Error(`Failed to run fd: ${(e as Error).message}`);
  }
  const onAbort = () => {
    try {
      child.kill();
    } catch {
      // Already gone.
    }
  };
  signal?.addEventListener("abort", onAbort, { once: true });
  try {
    const out = await child.output();
    return {
      code: out.signal ? null : out.code,
      stdout: new TextDecoder().decode(out.stdout),
      stderr: new TextDecoder().decode(out.stderr),
    };
  } finally {
    signal?.removeEventListener("abort", onAbort);
  }
}

/** Formats up to `effectiveLimit` results; one more than that proves the limit cut results off. */
function finishResult(results: string[], effectiveLimit: number, limitNotice: string) {
  const relativized = results.slice(0, effectiveLimit);
  const truncation = truncateHead(relativized.join("\n"), { maxLines: Number.MAX_SAFE_INTEGER });
  let text = truncation.content;
  const details: FindToolDetails = {};
  const notices: string[] = [];
  if (results.length > effectiveLimit) {
    notices.push(limitNotice);
    details.resultLimitReached = effectiveLimit;
  }
  if (truncation.truncated) {
    notices.push(`${formatSize(DEFAULT_MAX_BYTES)} limit reached`);
    details.truncation = truncation;
  }
  if (notices.length > 0) text += `\n\n[${notices.join(". ")}]`;
  return {
    content: [{ type: "text" as const, text }],
    details: Object.keys(details).length > 0 ? details : undefined,
  };
}

const NO_FILES = {
  content: [{ type: "text" as const, text: "No files found matching pattern" }],
  details: undefined,
};

/**
 * Creates the `find` tool bound to `cwd`.
 *
 * @example
 * ```ts
 * import { createFindTool } from "@pi-deno/coding-agent";
 *
 * const find = createFindTool(Deno.cwd());
 * const result = await find.execute("call-1", { pattern: "*.md", limit: 50 });
 * for (const block of result.content) {
 *   if (block.type === "text") console.log(block.text);
 * }
 * ```
 */
export function createFindTool(cwd: string, options?: FindToolOptions): FindTool {
  const customOps = options?.operations;
  return {
    name: "find",
    label: "find",
    description:
      `Search for files by glob pattern. Returns matching file paths relative to the search directory. Respects .gitignore. Output is truncated to ${DEFAULT_LIMIT} results or ${
        DEFAULT_MAX_BYTES / 1024
      }KB (whichever is hit first).`,
    promptSnippet: "Find files by glob pattern (respects .gitignore)",
    parameters: {
      type: "object",
      required: ["pattern"],
      properties: {
        pattern: {
          type: "string",
          description:
            "Glob pattern relative to the search directory, e.g. 'src/**/*.ts'. Without '/', e.g. '*.ts', it matches file names at any depth",
        },
        path: { type: "string", description: "Directory to search in (default: current directory)" },
        limit: { type: "number", description: "Maximum number of results (default: 1000)" },
      },
    },
    async execute(_id, { pattern, path: searchDir, limit }, signal) {
      const aborted = () => new Error("Operation aborted");
      if (signal?.aborted) throw aborted();
      const searchPath = resolveToCwd(searchDir || ".", cwd);
      // fd reads --max-results 0 as "no limit", so a limit below 1 means 1.
      const effectiveLimit = Math.max(1, Math.floor(limit ?? DEFAULT_LIMIT));

      if (customOps?.glob) {
        if (!(await customOps.exists(searchPath))) throw new Error(`Path not found: ${searchPath}`);
        if (signal?.aborted) throw aborted();
        const results = await customOps.glob(pattern, searchPath, {
          ignore: ["**/node_modules/**", "**/.git/**"],
          limit: effectiveLimit + 1,
        });
        if (signal?.aborted) throw aborted();
        if (results.length === 0) return NO_FILES;
        const relativized = results.map((p) => relativizeFindResultPath(p, searchPath));
        return finishResult(relativized, effectiveLimit, `${effectiveLimit} results limit reached`);
      }

      let lines: string[] | undefined;
      const fdPath = resolveSearchBinary("fd", options?.fdPath, options?.binDir);
      const insideGit = isInsideGitWorkTree(searchPath);
      // fd never prints "/./", so a leading "./" could match nothing.
      const effectivePattern = pattern.replace(/^(?:\.\/)+/, "");
      if (fdPath && !(incompatibleFd.has(fdPath) && !insideGit)) {
        const args = ["--color=never", "--hidden"];
        // Outside work trees fd ignores .gitignore unless told; inside them its git-aware default
        // stops parent rules at nested repositories.
        if (!insideGit) args.push("--no-require-git");
        // One result past the limit tells "exactly N" apart from "more than N".
        args.push("--glob", "--max-results", String(effectiveLimit + 1));
        let fdPattern = effectivePattern;
        if (effectivePattern.includes("/")) {
          args.push("--full-path");
          if (!effectivePattern.startsWith("/")) {
            // A relative path pattern is anchored at the search folder: fd matches absolute
            // paths, so prefix the glob-escaped folder and decide smart case by the pattern alone.
            const escapedRoot = searchPath.replace(/\/+$/, "").replace(/[\\*?[\]{}]/g, "\\$&");
            fdPattern = `${escapedRoot}/${effectivePattern}`;
            if (effectivePattern === effectivePattern.toLowerCase()) args.push("--ignore-case");
          }
        }
        args.push("--", fdPattern, searchPath);
        const run = await runFd(fdPath, args, signal);
        if (signal?.aborted) throw aborted();
        const stdoutLines = run.stdout.split("\n");
        if (stdoutLines[stdoutLines.length - 1] === "") stdoutLines.pop();
        const output = stdoutLines.join("\n");
        if (run.code !== 0 && !output && run.stderr.includes("--no-require-git")) {
          incompatibleFd.add(fdPath);
        } else {
          if (run.code !== 0 && !output) {
            throw new Error(run.stderr.trim() || `fd exited with code ${run.code}`);
          }
          lines = stdoutLines;
        }
      }
      if (!lines) {
        // Same checks fd would make, then the built-in walker.
        let isDir = false;
        try {
          isDir = Deno.statSync(searchPath).isDirectory;
        } catch {
          // Reported below exactly as fd reports it.
        }
        if (!isDir) {
          throw new Error(
            `[fd error]: Search path '${searchPath}' is not a directory.\n[fd error]: No valid search paths given.`,
          );
        }
        // The walker (and its glob and ignore matchers) loads only when fd/rg are not available.
        const { findWithWalker } = await import("./walker_glob.ts");
        lines = findWithWalker({ pattern: effectivePattern, searchPath, limit: effectiveLimit + 1, signal });
        if (signal?.aborted) throw aborted();
      }
      if (lines.join("\n") === "") return NO_FILES;

      const relativized: string[] = [];
      for (const rawLine of lines) {
        const line = rawLine.replace(/\r$/, "").trim();
        if (line) relativized.push(relativizeFindResultPath(line, searchPath));
      }
      return finishResult(
        relativized,
        effectiveLimit,
        `${effectiveLimit} results limit reached. Use limit=${
          effectiveLimit * 2
        } for more, or refine pattern`,
      );
    },
  };
}
