/**
 * The `grep` tool: searches file contents with `rg --no-config --json` when ripgrep is available,
 * otherwise with the built-in walker, and formats matches and ripgrep's context lines exactly
 * like the reference (spec GREP-01..03).
 *
 * @module
 */
import type { PromptedTool } from "./tool_metadata.ts";
import { basename, relative, resolve } from "../util/path.ts";
import { isInsideGitWorkTree, resolveToCwd } from "./path_utils.ts";
import { resolveSearchBinary, type SearchBinaryOption } from "./search_binaries.ts";
import {
  DEFAULT_MAX_BYTES,
  formatSize,
  GREP_MAX_LINE_LENGTH,
  truncateHead,
  truncateLine,
} from "./truncate.ts";
import type { TruncationResult } from "./truncate.ts";
import type { GrepEvent, GrepEventSink } from "./walker_grep.ts";

/** Arguments the model passes to `grep`. */
export interface GrepToolInput {
  /** Regular expression, or text with `literal`. */
  pattern: string;
  /** Folder or file to search (default: the tool's folder). */
  path?: string;
  /** File filter relative to `path`; without `/` it matches names at any depth. */
  glob?: string;
  /** Case-insensitive search. */
  ignoreCase?: boolean;
  /** Treat `pattern` as plain text. */
  literal?: boolean;
  /** Lines shown before and after each match. */
  context?: number;
  /** Most matches to return (default 100; below 1 means 1). */
  limit?: number;
}

/** Details attached when limits cut the result. */
export interface GrepToolDetails {
  /** How the byte budget cut the output. */
  truncation?: TruncationResult;
  /** The limit, when more matches existed. */
  matchLimitReached?: number;
  /** Whether some lines were cut to 500 characters. */
  linesTruncated?: boolean;
}

/** Filesystem hook (remote backends): the folder test; throws when the path does not exist. */
export interface GrepOperations {
  /** Whether the path is a folder; throws when it does not exist. */
  isDirectory: (absolutePath: string) => Promise<boolean> | boolean;
  /**
   * @deprecated Never called: context lines come from ripgrep. Accepted so integrations written
   * for older versions still compile.
   */
  readFile?: (absolutePath: string) => Promise<string> | string;
}

/** Options of {@link createGrepTool}. */
export interface GrepToolOptions {
  /** Custom path test (remote backends). */
  operations?: GrepOperations;
  /**
   * ripgrep executable: omitted = locate it (managed bin folder, then PATH); `null` = always
   * use the built-in walker (tests use this to exercise both paths).
   */
  rgPath?: SearchBinaryOption;
  /** Managed binaries folder searched before PATH; default `<agent dir>/bin`. */
  binDir?: string;
}

/** The grep tool with its prompt metadata. */
export type GrepTool = PromptedTool<GrepToolInput, GrepToolDetails | undefined>;

const DEFAULT_LIMIT = 100;

const defaultOperations: GrepOperations = {
  isDirectory: (p) => Deno.statSync(p).isDirectory,
};

/** Decodes a ripgrep JSON text field; non-UTF-8 data arrives base64-encoded in `bytes`. */
function decodeRgText(data: { text?: string; bytes?: string } | undefined): string {
  if (typeof data?.text === "string") return data.text;
  if (typeof data?.bytes === "string") {
    const binary = atob(data.bytes);
    return new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
  }
  return "";
}

/**
 * Runs `rg --json`, handing each match and context line to `emit` until it returns false
 * (then rg is stopped). Rejects with rg's own error text on exit codes other than 0 and 1.
 */
async function searchWithRipgrep(
  rgPath: string,
  args: string[],
  cwd: string | undefined,
  signal: AbortSignal | undefined,
  emit: GrepEventSink,
): Promise<void> {
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(rgPath, { args, cwd, stdin: "null", stdout: "piped", stderr: "piped" }).spawn();
  } catch (e) {
    throw new Error(`Failed to run ripgrep: ${(e as Error).message}`);
  }
  let stoppedEarly = false;
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
  const decoder = new TextDecoder();
  let pending = "";
  const handleLine = (line: string) => {
    if (stoppedEarly || !line.trim()) return;
    let event: {
      type?: string;
      data?: {
        path?: { text?: string; bytes?: string };
        line_number?: number;
        lines?: { text?: string; bytes?: string };
      };
    };
    try {
      event = JSON.parse(line);
    } catch {
      return;
    }
    if (event.type !== "match" && event.type !== "context") return;
    const filePath = decodeRgText(event.data?.path);
    const lineNumber = event.data?.line_number;
    if (!filePath || typeof lineNumber !== "number") return;
    const keepGoing = emit({
      isMatch: event.type === "match",
      filePath,
      lineNumber,
      lineText: decodeRgText(event.data?.lines),
    });
    if (!keepGoing) {
      stoppedEarly = true;
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
  if (!stoppedEarly && code !== 0 && code !== 1) {
    throw new Error(stderr.trim() || `ripgrep exited with code ${code}`);
  }
}

/**
 * Collects output rows from the event stream with the reference's limit rule: after the
 * `limit`-th match its trailing context is still shown, and the limit notice needs proof of one
 * more match.
 */
class GrepCollector {
  readonly lines: string[] = [];
  matchCount = 0;
  matchLimitReached = false;
  linesTruncated = false;
  /** Size of the whole output, lines past the byte cap counted but not kept. */
  outputBytes = 0;
  outputLineCount = 0;
  #limitHit = false;
  #trailingContextEnd = 0;
  #lastFile: string | undefined;

  constructor(
    private readonly limit: number,
    private readonly context: number,
    private readonly formatPath: (filePath: string) => string,
  ) {}

  /** Takes one event; false means "enough, stop searching". */
  readonly take = (event: GrepEvent): boolean => {
    const { filePath, lineNumber, lineText, isMatch } = event;
    if (!this.#limitHit) {
      this.#push(filePath, lineNumber, lineText, isMatch);
      if (!isMatch) return true;
      this.matchCount++;
      if (this.matchCount >= this.limit) {
        this.#limitHit = true;
        this.#trailingContextEnd = lineNumber + this.context;
      }
      return true;
    }
    const inWindow = filePath === this.#lastFile && lineNumber <= this.#trailingContextEnd;
    // A match inside the last match's trailing context is shown as context.
    if (inWindow) this.#push(filePath, lineNumber, lineText, false);
    if (isMatch) this.matchLimitReached = true;
    return !(this.matchLimitReached && !(inWindow && lineNumber < this.#trailingContextEnd));
  };

  #push(filePath: string, lineNumber: number, lineText: string, isMatch: boolean): void {
    this.#lastFile = filePath;
    const rel = this.formatPath(filePath);
    // Only the terminator goes: a lone CR inside a line is content, as in the read tool.
    const { text, wasTruncated } = truncateLine(lineText.replace(/\r?\n?$/, ""));
    if (wasTruncated) this.linesTruncated = true;
    const line = isMatch ? `${rel}:${lineNumber}: ${text}` : `${rel}-${lineNumber}- ${text}`;
    if (this.outputBytes - 1 <= DEFAULT_MAX_BYTES) this.lines.push(line);
    this.outputBytes += new TextEncoder().encode(line).length + 1;
    this.outputLineCount++;
  }
}

/**
 * Creates the `grep` tool bound to `cwd`.
 *
 * @example
 * ```ts
 * import { createGrepTool } from "@pi-deno/coding-agent";
 *
 * const grep = createGrepTool(Deno.cwd());
 * const result = await grep.execute("call-1", { pattern: "TODO", glob: "*.ts", ignoreCase: true });
 * for (const block of result.content) {
 *   if (block.type === "text") console.log(block.text);
 * }
 * ```
 */
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
        glob: {
          type: "string",
          description:
            "Filter files by glob pattern relative to path, e.g. 'src/**/*.ts'. Without '/', e.g. '*.ts', it matches file names at any depth",
        },
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
      const rgPath = resolveSearchBinary("rg", options?.rgPath, options?.binDir);
      const searchPath = resolveToCwd(searchDir || ".", cwd);
      let isDirectory: boolean;
      try {
        isDirectory = await ops.isDirectory(searchPath);
      } catch {
        throw new Error(`Path not found: ${searchPath}`);
      }
      // Whole lines only; capped so String() never gives exponent notation, which rg rejects.
      const contextValue = context && context > 0
        ? Math.min(Math.floor(context), Number.MAX_SAFE_INTEGER)
        : 0;
      const effectiveLimit = Math.max(1, Math.floor(limit ?? DEFAULT_LIMIT));
      const formatPath = (filePath: string): string => {
        if (isDirectory) {
          const rel = relative(searchPath, resolve(searchPath, filePath));
          if (rel && !rel.startsWith("..")) return rel.replace(/\\/g, "/");
        }
        return basename(filePath);
      };
      const collector = new GrepCollector(effectiveLimit, contextValue, formatPath);
      // One rule with find: .gitignore applies outside git work trees too.
      const insideGit = isInsideGitWorkTree(searchPath);
      if (rgPath) {
        // --no-config: the tool's contract must not depend on RIPGREP_CONFIG_PATH.
        const args = ["--no-config", "--json", "--line-number", "--color=never", "--hidden"];
        if (!insideGit) args.push("--no-require-git");
        if (ignoreCase) args.push("--ignore-case");
        if (literal) args.push("--fixed-strings");
        // rg never matches a leading "./"; "!" negates.
        if (glob) args.push("--glob", glob.replace(/^(!?)(?:\.\/)+/, "$1"));
        if (contextValue > 0) args.push("--context", String(contextValue));
        // rg roots --glob at its working folder, so a folder search runs inside it and searches ".".
        args.push("--", pattern, isDirectory ? "." : searchPath);
        await searchWithRipgrep(rgPath, args, isDirectory ? searchPath : undefined, signal, collector.take);
      } else {
        // The walker (and its ignore-file matcher) loads only when ripgrep is not available.
        const { searchWithWalker } = await import("./walker_grep.ts");
        await searchWithWalker({
          pattern,
          searchPath,
          isDirectory,
          glob,
          ignoreCase,
          literal,
          context: contextValue,
          gitignoreRequiresGit: false,
          signal,
        }, collector.take);
        if (signal?.aborted) throw new Error("Operation aborted");
      }
      if (collector.matchCount === 0) {
        return { content: [{ type: "text", text: "No matches found" }], details: undefined };
      }
      return format(collector, effectiveLimit);
    },
  };
}

function format(
  collector: GrepCollector,
  effectiveLimit: number,
): { content: { type: "text"; text: string }[]; details: GrepToolDetails | undefined } {
  // Rows are already capped by the match limit; only the byte budget applies here.
  const truncation = truncateHead(collector.lines.join("\n"), { maxLines: Number.MAX_SAFE_INTEGER });
  truncation.totalLines = collector.outputLineCount;
  truncation.totalBytes = collector.outputBytes - 1;
  let output = truncation.content;
  const details: GrepToolDetails = {};
  const notices: string[] = [];
  if (collector.matchLimitReached) {
    notices.push(
      `${effectiveLimit} matches limit reached. Use limit=${effectiveLimit * 2} for more, or refine pattern`,
    );
    details.matchLimitReached = effectiveLimit;
  }
  if (truncation.truncated) {
    notices.push(`${formatSize(DEFAULT_MAX_BYTES)} limit reached`);
    details.truncation = truncation;
  }
  if (collector.linesTruncated) {
    notices.push(`Some lines truncated to ${GREP_MAX_LINE_LENGTH} chars. Use read tool to see full lines`);
    details.linesTruncated = true;
  }
  if (notices.length > 0) output += `\n\n[${notices.join(". ")}]`;
  return {
    content: [{ type: "text", text: output }],
    details: Object.keys(details).length > 0 ? details : undefined,
  };
}
