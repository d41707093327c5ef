/**
 * Content search over the built-in walker, standing in for `rg --json --hidden` when ripgrep
 * is not installed: same ignore rules (.gitignore only inside git work trees, .ignore,
 * .rgignore), same `--glob` override semantics, binary files skipped, one match per line.
 *
 * @module
 */
import ignore from "ignore";
import { walk, type WalkEntry } from "./walker.ts";

/** One matching line, as ripgrep's JSON `match` event reports it. */
export interface GrepMatch {
  filePath: string;
  lineNumber: number;
  /** Line text without its terminator. */
  lineText?: string;
}

/** What {@link searchWithWalker} needs to know. */
export interface WalkerSearchRequest {
  pattern: string;
  /** Absolute file or folder to search. */
  searchPath: string;
  isDirectory: boolean;
  glob?: string;
  ignoreCase?: boolean;
  literal?: boolean;
  limit: number;
  signal?: AbortSignal;
}

/** Matches in walk order plus whether the limit cut the search short. */
export interface WalkerSearchResult {
  matches: GrepMatch[];
  limitReached: boolean;
}

const READ_CONCURRENCY = 32;
/** ripgrep decides "binary" from a NUL byte in the first buffer it reads. */
const BINARY_SNIFF_BYTES = 64 * 1024;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\\/]/g, "\\$&");
}

/**
 * Compiles a ripgrep-style pattern to a JS RegExp. Rust and JS syntax agree on the common
 * subset; a leading `(?i)` becomes the `i` flag. Failures read like ripgrep's own.
 */
export function compileGrepPattern(pattern: string, ignoreCase?: boolean, literal?: boolean): RegExp {
  if (literal) return new RegExp(escapeRegExp(pattern), ignoreCase ? "iu" : "u");
  let source = pattern;
  let flags = ignoreCase ? "i" : "";
  if (source.startsWith("(?i)")) {
    source = source.slice(4);
    if (!flags.includes("i")) flags += "i";
  }
  try {
    return new RegExp(source, `${flags}u`);
  } catch {
    try {
      return new RegExp(source, flags);
    } catch (e) {
      throw new Error(`regex parse error:\n    ${pattern}\nerror: ${(e as Error).message}`);
    }
  }
}

/** Builds the include/exclude test for one ripgrep `--glob` value (gitignore syntax). */
function globFilter(glob: string | undefined): {
  file: (rel: string) => boolean;
  dir: (rel: string) => boolean;
} {
  if (!glob) return { file: () => true, dir: () => true };
  const ig = ignore({ ignorecase: false }).add(glob);
  const negated = glob.startsWith("!");
  if (negated) {
    return { file: (rel) => !ig.test(rel).unignored, dir: (rel) => !ig.test(`${rel}/`).unignored };
  }
  return { file: (rel) => ig.test(rel).ignored, dir: () => true };
}

function searchText(filePath: string, bytes: Uint8Array, regex: RegExp, out: GrepMatch[], max: number): void {
  const sniff = bytes.subarray(0, BINARY_SNIFF_BYTES);
  if (sniff.includes(0)) return;
  const nul = bytes.indexOf(0);
  const text = new TextDecoder().decode(nul === -1 ? bytes : bytes.subarray(0, nul));
  let lineNumber = 0;
  let start = 0;
  while (start <= text.length && out.length < max) {
    let end = text.indexOf("\n", start);
    if (end === -1) end = text.length;
    if (end === text.length && start === text.length) break;
    lineNumber++;
    let line = text.slice(start, end);
    if (line.endsWith("\r")) line = line.slice(0, -1);
    if (regex.test(line)) out.push({ filePath, lineNumber, lineText: line });
    start = end + 1;
  }
}

/** Runs the search; files are read concurrently but results keep walk order. */
export async function searchWithWalker(req: WalkerSearchRequest): Promise<WalkerSearchResult> {
  const regex = compileGrepPattern(req.pattern, req.ignoreCase, req.literal);
  const matches: GrepMatch[] = [];
  if (!req.isDirectory) {
    searchText(req.searchPath, await Deno.readFile(req.searchPath), regex, matches, req.limit);
    return { matches, limitReached: matches.length >= req.limit };
  }
  const filter = globFilter(req.glob);
  const files = walk(req.searchPath, {
    customIgnoreFile: ".rgignore",
    gitignoreRequiresGit: true,
    signal: req.signal,
    skipDirectory: (e: WalkEntry) => !filter.dir(e.rel),
  });
  const nextFile = (): WalkEntry | undefined => {
    for (let r = files.next(); !r.done; r = files.next()) {
      const e = r.value;
      if (e.isDirectory || e.isSymlink) continue;
      if (filter.file(e.rel)) return e;
    }
    return undefined;
  };
  // Sliding window of reads; results are consumed strictly in walk order.
  const window: Promise<Uint8Array | null>[] = [];
  const paths: string[] = [];
  const fill = () => {
    while (window.length < READ_CONCURRENCY) {
      const e = nextFile();
      if (!e) return;
      paths.push(e.path);
      window.push(Deno.readFile(e.path).catch(() => null));
    }
  };
  fill();
  while (window.length > 0 && matches.length < req.limit) {
    if (req.signal?.aborted) break;
    const bytes = await window.shift()!;
    const path = paths.shift()!;
    if (bytes) searchText(path, bytes, regex, matches, req.limit);
    fill();
  }
  return { matches, limitReached: matches.length >= req.limit };
}
