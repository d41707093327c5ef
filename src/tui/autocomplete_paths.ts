/**
 * Path completion helpers of the CombinedAutocompleteProvider: finding the path token before the
 * cursor (quoted, `@`-prefixed, wrapped in prose brackets), building the completed value, and
 * walking a directory tree with `fd` (run lazily with Deno.Command, killed when the request is
 * aborted).
 *
 * @module
 */
import { autocompleteBoundaryRegex, autocompleteSeparatorRegex } from "./utils_chars.ts";

/** Characters that end a path token. */
const PATH_DELIMITERS = new Set([" ", "\t", '"', "'", "="]);
let tokenStart: RegExp | undefined;
/** Text ending where a token may begin (start, whitespace or CJK punctuation); built on first use. */
export function tokenStartRegex(): RegExp {
  return tokenStart ??= new RegExp(`${autocompleteBoundaryRegex().source}$`, "u");
}
/** Opening wrappers that may precede a path in prose, mapped to their closers. */
const PATH_WRAPPERS: Record<string, string> = { "(": ")", "[": "]", "{": "}", "<": ">", "`": "`" };

/** Backslashes shown as forward slashes. */
export function toDisplayPath(value: string): string {
  return value.replace(/\\/g, "/");
}

function escapeRegex(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The fd regex for a query; with slashes, each segment matches across either separator. */
export function buildFdPathQuery(query: string): string {
  const normalized = toDisplayPath(query);
  if (!normalized.includes("/")) return escapeRegex(normalized);
  const trimmed = normalized.replace(/^\/+|\/+$/g, "");
  if (!trimmed) return normalized;
  const separator = "[\\\\/]";
  const pattern = trimmed.split("/").filter(Boolean).map(escapeRegex).join(separator);
  return normalized.endsWith("/") ? pattern + separator : pattern;
}

/** Index of the last delimiter (or CJK punctuation) in the text, -1 for none. */
export function findLastDelimiter(text: string): number {
  let last = -1;
  let index = 0;
  for (const ch of text) {
    index += ch.length;
    if (PATH_DELIMITERS.has(ch) || autocompleteSeparatorRegex().test(ch)) last = index - 1;
  }
  return last;
}

/**
 * Drops opening wrappers before a path ("(~/Dev" → "~/Dev", "`src/ma" → "src/ma"), keeping one
 * the token also closes ("app/[slug]/pa", "(group)/pa").
 */
export function stripLeadingWrappers(token: string): string {
  let result = token;
  while (result.length > 0) {
    const closer = PATH_WRAPPERS[result[0]];
    if (!closer || result.includes(closer, 1)) break;
    result = result.slice(1);
  }
  return result;
}

function findUnclosedQuoteStart(text: string): number | null {
  let open = false;
  let start = -1;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '"') {
      open = !open;
      if (open) start = i;
    }
  }
  return open ? start : null;
}

function isTokenStart(text: string, index: number): boolean {
  let start = index;
  while (start > 0 && PATH_WRAPPERS[text[start - 1]]) start--;
  return PATH_DELIMITERS.has(text[start - 1] ?? "") || tokenStartRegex().test(text.slice(0, start));
}

/** The open quoted token at the end of the text (`"my fi` or `@"my fi`), if it starts a token. */
export function extractQuotedPrefix(text: string): string | null {
  const quote = findUnclosedQuoteStart(text);
  if (quote === null) return null;
  if (quote > 0 && text[quote - 1] === "@") {
    return isTokenStart(text, quote - 1) ? text.slice(quote - 1) : null;
  }
  return isTokenStart(text, quote) ? text.slice(quote) : null;
}

/** A path prefix split into its raw path and whether it had `@` and an opening quote. */
export interface ParsedPathPrefix {
  /** The path as typed, without `@` and the opening quote. */
  rawPrefix: string;
  /** Whether it began with `@`. */
  isAtPrefix: boolean;
  /** Whether it began with a quote (after any `@`). */
  isQuotedPrefix: boolean;
}

/** Splits `@"x`, `"x`, `@x` or `x` into its parts. */
export function parsePathPrefix(prefix: string): ParsedPathPrefix {
  if (prefix.startsWith('@"')) return { rawPrefix: prefix.slice(2), isAtPrefix: true, isQuotedPrefix: true };
  if (prefix.startsWith('"')) return { rawPrefix: prefix.slice(1), isAtPrefix: false, isQuotedPrefix: true };
  if (prefix.startsWith("@")) return { rawPrefix: prefix.slice(1), isAtPrefix: true, isQuotedPrefix: false };
  return { rawPrefix: prefix, isAtPrefix: false, isQuotedPrefix: false };
}

/** The completed value: `@` kept, and quotes when the prefix had one or the path holds a separator. */
export function buildCompletionValue(
  path: string,
  options: { isAtPrefix: boolean; isQuotedPrefix: boolean },
): string {
  const at = options.isAtPrefix ? "@" : "";
  if (!options.isQuotedPrefix && !autocompleteSeparatorRegex().test(path)) return `${at}${path}`;
  return `${at}"${path}"`;
}

/** One entry fd found: its path relative to the base (directories end in "/"). */
export interface FdEntry {
  /** Relative to the base directory, with "/" separators. */
  path: string;
  /** Whether fd marked it as a directory (a trailing "/"). */
  isDirectory: boolean;
}

/** Whether a path lies in a .git directory (fd's excludes can miss it through --follow). */
function isGitPath(path: string): boolean {
  return path === ".git" || path.startsWith(".git/") || path.includes("/.git/");
}

/**
 * Files and directories under `baseDir` matching `query`, found with fd (fast, honours .gitignore).
 * Any failure (no fd, a non-zero exit, an abort) gives an empty list.
 */
export async function walkDirectoryWithFd(
  baseDir: string,
  fdPath: string,
  query: string,
  maxResults: number,
  signal: AbortSignal,
  maxDepth?: number,
): Promise<FdEntry[]> {
  const args = [
    "--base-directory",
    baseDir,
    "--max-results",
    String(maxResults),
    "--type",
    "f",
    "--type",
    "d",
  ];
  args.push("--follow", "--hidden", "--exclude", ".git", "--exclude", ".git/*", "--exclude", ".git/**");
  if (maxDepth !== undefined) args.push("--max-depth", String(maxDepth));
  if (toDisplayPath(query).includes("/")) args.push("--full-path");
  if (query) args.push(buildFdPathQuery(query));
  if (signal.aborted) return [];
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(fdPath, { args, stdin: "null", stdout: "piped", stderr: "null" }).spawn();
  } catch {
    return [];
  }
  const onAbort = () => {
    try {
      child.kill("SIGKILL");
    } catch {
      // Already exited.
    }
  };
  signal.addEventListener("abort", onAbort, { once: true });
  try {
    const out = await child.output();
    const stdout = new TextDecoder().decode(out.stdout);
    if (signal.aborted || out.code !== 0 || !stdout) return [];
    const entries: FdEntry[] = [];
    for (const line of stdout.trim().split("\n").filter(Boolean)) {
      const display = toDisplayPath(line);
      const isDirectory = display.endsWith("/");
      if (isGitPath(isDirectory ? display.slice(0, -1) : display)) continue;
      entries.push({ path: display, isDirectory });
    }
    return entries;
  } catch {
    return [];
  } finally {
    signal.removeEventListener("abort", onAbort);
  }
}

/**
 * Score of a path against a query (0 = no match): exact name 100, name prefix 80, name substring
 * 50, path substring 30; directories get 10 more so they come first.
 */
export function scoreEntry(filePath: string, fileName: string, query: string, isDirectory: boolean): number {
  const name = fileName.toLowerCase();
  const q = query.toLowerCase();
  let score = 0;
  if (name === q) score = 100;
  else if (name.startsWith(q)) score = 80;
  else if (name.includes(q)) score = 50;
  else if (filePath.toLowerCase().includes(q)) score = 30;
  return isDirectory && score > 0 ? score + 10 : score;
}
