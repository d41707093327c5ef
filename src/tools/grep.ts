/**
 * The `grep` tool: searches file contents with ripgrep when available, otherwise with the
 * built-in walker, and formats matches exactly like the reference (spec GREP-01..03).
 *
 * @module
 */
import { basename, relative } from "../util/path.ts";
import type { AgentTool } from "../agent/types.ts";
import { resolveToCwd } from "./path_utils.ts";
import { resolveSearchBinary, type SearchBinaryOption } from "./search_binaries.ts";
import {
  DEFAULT_MAX_BYTES,
  formatSize,
  GREP_MAX_LINE_LENGTH,
  truncateHead,
  truncateLine,
} from "./truncate.ts";
import type { TruncationResult } from "./truncate.ts";
import type { GrepMatch } from "./walker_grep.ts";

/** Arguments the model passes to `grep`. */
export interface GrepToolInput {
  pattern: string;
  path?: string;
  glob?: string;
  ignoreCase?: boolean;
  literal?: boolean;
  context?: number;
  limit?: number;
}

/** Details attached when limits cut the result. */
export interface GrepToolDetails {
  truncation?: TruncationResult;
  matchLimitReached?: number;
  linesTruncated?: boolean;
}

/** Filesystem hooks (remote backends): folder test and file reads for context lines. */
export interface GrepOperations {
  /** Throws when the path does not exist. */
  isDirectory: (absolutePath: string) => Promise<boolean> | boolean;
  readFile: (absolutePath: string) => Promise<string> | string;
}

/** Options of {@link createGrepTool}. */
export interface GrepToolOptions {
  operations?: GrepOperations;
  /**
   * ripgrep executable: omitted = locate it (managed bin folder, then PATH); `null` = always
   * use the built-in walker (tests use this to exercise both paths).
   */
  rgPath?: SearchBinaryOption;
}

/** The grep tool with its prompt metadata. */
export type GrepTool = AgentTool<GrepToolInput, GrepToolDetails | undefined> & {
  promptSnippet: string;
  promptGuidelines?: string[];
};

const DEFAULT_LIMIT = 100;

const defaultOperations: GrepOperations = {
  isDirectory: (p) => Deno.statSync(p).isDirectory,
  readFile: (p) => Deno.readTextFileSync(p),
};

interface Collected {
  matches: GrepMatch[];
  limitReached: boolean;
}

/** Runs `rg --json`, keeping the first `limit` match events; kills rg once it has enough. */
async function collectWithRipgrep(
  rgPath: string,
  args: string[],
  cwd: string | undefined,
  limit: number,
  signal: AbortSignal | undefined,
): Promise<Collected> {
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(rgPath, { args, cwd, stdin: "null", stdout: "piped", stderr: "piped" }).spawn();
  } catch (e) {
    throw new Error(`Failed to run ripgrep: ${(e as Error).message}`);
  }
  let killedDueToLimit = false;
  let aborted = false;
  const kill = () => {
    try {
      child.kill();
    } catch {
      // Already exited.
    }
  };
  const onAbort = () => {
    aborted = true;
    kill();
  };
  signal?.addEventListener("abort", onAbort, { once: true });
  const stderrPromise = new Response(child.stderr).text().catch(() => "");
  const matches: GrepMatch[] = [];
  let limitReached = false;
  const decoder = new TextDecoder();
  let pending = "";
  const handleLine = (line: string) => {
    if (!line.trim() || matches.length >= limit) return;
    let event: {
      type?: string;
      data?: { path?: { text?: string }; line_number?: number; lines?: { text?: string } };
    };
    try {
      event = JSON.parse(line);
    } catch {
      return;
    }
    if (event.type !== "match") return;
    const filePath = event.data?.path?.text;
    const lineNumber = event.data?.line_number;
    if (filePath && typeof lineNumber === "number") {
      matches.push({ filePath, lineNumber, lineText: event.data?.lines?.text });
    } else {
      // Count it anyway, like the reference does, so limits stay comparable.
      matches.push({ filePath: "", lineNumber: -1 });
    }
    if (matches.length >= limit) {
      limitReached = true;
      killedDueToLimit = true;
      kill();
    }
  };
  try {
    for await (const chunk of child.stdout) {
      pending += decoder.decode(chunk, { stream: true });
      let nl: number;
      while ((nl = pending.indexOf("\n")) !== -1) {
        handleLine(pending.slice(0, nl));
        pending = pending.slice(nl + 1);
      }
    }
    pending += decoder.decode();
    if (pending) handleLine(pending);
  } catch {
    // Stream cut short by a kill.
  }
  const status = await child.status;
  const stderr = await stderrPromise;
  signal?.removeEventListener("abort", onAbort);
  if (aborted) throw new Error("Operation aborted");
  const code = status.signal ? null : status.code;
  if (!killedDueToLimit && code !== 0 && code !== 1) {
    throw new Error(stderr.trim() || `ripgrep exited with code ${code}`);
  }
  return { matches: matches.filter((m) => m.lineNumber !== -1), limitReached };
}

/** Creates the `grep` tool bound to `cwd`. */
export function createGrepTool(cwd: string, options?: GrepToolOptions): GrepTool {
  const ops = options?.operations ?? defaultOperations;
  return {
    name: "grep",
    label: "grep",
    description:
      `Search file contents for a pattern. Returns matching lines with file paths and line numbers. Respects .gitignore. Output is truncated to ${DEFAULT_LIMIT} matches or ${
        DEFAULT_MAX_BYTES / 1024
      }KB (whichever is hit first). Long lines are truncated to ${GREP_MAX_LINE_LENGTH} chars.`,
    promptSnippet: "Search file contents for patterns (respects .gitignore)",
    parameters: {
      type: "object",
      required: ["pattern"],
      properties: {
        pattern: { type: "string", description: "Search pattern (regex or literal string)" },
        path: { type: "string", description: "Directory or file to search (default: current directory)" },
        glob: { type: "string", description: "Filter files by glob pattern, e.g. '*.ts' or '**/*.spec.ts'" },
        ignoreCase: { type: "boolean", description: "Case-insensitive search (default: false)" },
        literal: {
          type: "boolean",
          description: "Treat pattern as literal string instead of regex (default: false)",
        },
        context: {
          type: "number",
          description: "Number of lines to show before and after each match (default: 0)",
        },
        limit: { type: "number", description: "Maximum number of matches to return (default: 100)" },
      },
    },
    async execute(_id, { pattern, path: searchDir, glob, ignoreCase, literal, context, limit }, signal) {
      if (signal?.aborted) throw new Error("Operation aborted");
      const rgPath = resolveSearchBinary("rg", options?.rgPath);
      const searchPath = resolveToCwd(searchDir || ".", cwd);
      let isDirectory: boolean;
      try {
        isDirectory = await ops.isDirectory(searchPath);
      } catch {
        throw new Error(`Path not found: ${searchPath}`);
      }
      const contextValue = context && context > 0 ? context : 0;
      const effectiveLimit = Math.max(1, limit ?? DEFAULT_LIMIT);

      let collected: Collected;
      if (rgPath) {
        const args = ["--json", "--line-number", "--color=never", "--hidden"];
        if (ignoreCase) args.push("--ignore-case");
        if (literal) args.push("--fixed-strings");
        if (glob) args.push("--glob", glob);
        args.push("--", pattern, searchPath);
        // Run inside the searched folder so --glob patterns are relative to it, as with the walker.
        collected = await collectWithRipgrep(
          rgPath,
          args,
          isDirectory ? searchPath : undefined,
          effectiveLimit,
          signal,
        );
      } else {
        // The walker (and its ignore-file matcher) loads only when ripgrep is not available.
        const { searchWithWalker } = await import("./walker_grep.ts");
        collected = await searchWithWalker({
          pattern,
          searchPath,
          isDirectory,
          glob,
          ignoreCase,
          literal,
          limit: effectiveLimit,
          signal,
        });
        if (signal?.aborted) throw new Error("Operation aborted");
      }
      if (collected.matches.length === 0) {
        return { content: [{ type: "text", text: "No matches found" }], details: undefined };
      }
      return formatMatches(collected, { searchPath, isDirectory, contextValue, effectiveLimit, ops });
    },
  };
}

async function formatMatches(
  collected: Collected,
  ctx: {
    searchPath: string;
    isDirectory: boolean;
    contextValue: number;
    effectiveLimit: number;
    ops: GrepOperations;
  },
): Promise<{ content: { type: "text"; text: string }[]; details: GrepToolDetails | undefined }> {
  const { searchPath, isDirectory, contextValue, effectiveLimit, ops } = ctx;
  let linesTruncated = false;
  const formatPath = (filePath: string): string => {
    if (isDirectory) {
      const rel = relative(searchPath, filePath);
      if (rel && !rel.startsWith("..")) return rel.replace(/\\/g, "/");
    }
    return basename(filePath);
  };
  const fileCache = new Map<string, string[]>();
  const getFileLines = async (filePath: string): Promise<string[]> => {
    let lines = fileCache.get(filePath);
    if (!lines) {
      try {
        const content = await ops.readFile(filePath);
        lines = content.replace(/\r\n/g, "\n").replace(/\r/g, "\n").split("\n");
      } catch {
        lines = [];
      }
      fileCache.set(filePath, lines);
    }
    return lines;
  };
  const out: string[] = [];
  for (const match of collected.matches) {
    const rel = formatPath(match.filePath);
    if (contextValue === 0 && match.lineText !== undefined) {
      const clean = match.lineText.replace(/\r\n/g, "\n").replace(/\r/g, "").replace(/\n$/, "");
      const { text, wasTruncated } = truncateLine(clean);
      if (wasTruncated) linesTruncated = true;
      out.push(`${rel}:${match.lineNumber}: ${text}`);
      continue;
    }
    const lines = await getFileLines(match.filePath);
    if (!lines.length) {
      out.push(`${rel}:${match.lineNumber}: (unable to read file)`);
      continue;
    }
    const start = contextValue > 0 ? Math.max(1, match.lineNumber - contextValue) : match.lineNumber;
    const end = contextValue > 0 ? Math.min(lines.length, match.lineNumber + contextValue) : match.lineNumber;
    for (let current = start; current <= end; current++) {
      const { text, wasTruncated } = truncateLine((lines[current - 1] ?? "").replace(/\r/g, ""));
      if (wasTruncated) linesTruncated = true;
      out.push(current === match.lineNumber ? `${rel}:${current}: ${text}` : `${rel}-${current}- ${text}`);
    }
  }
  // Rows are already capped by the match limit; only the byte budget applies here.
  const truncation = truncateHead(out.join("\n"), { maxLines: Number.MAX_SAFE_INTEGER });
  let output = truncation.content;
  const details: GrepToolDetails = {};
  const notices: string[] = [];
  if (collected.limitReached) {
    notices.push(
      `${effectiveLimit} matches limit reached. Use limit=${effectiveLimit * 2} for more, or refine pattern`,
    );
    details.matchLimitReached = effectiveLimit;
  }
  if (truncation.truncated) {
    notices.push(`${formatSize(DEFAULT_MAX_BYTES)} limit reached`);
    details.truncation = truncation;
  }
  if (linesTruncated) {
    notices.push(`Some lines truncated to ${GREP_MAX_LINE_LENGTH} chars. Use read tool to see full lines`);
    details.linesTruncated = true;
  }
  if (notices.length > 0) output += `\n\n[${notices.join(". ")}]`;
  return {
    content: [{ type: "text", text: output }],
    details: Object.keys(details).length > 0 ? details : undefined,
  };
}
