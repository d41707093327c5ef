/**
 * Content search over the built-in walker, standing in for
 * `rg --json --hidden [--context N]` when ripgrep is not installed: same ignore rules
 * (.gitignore, .ignore, .rgignore), same `--glob` override semantics, binary files skipped, and
 * the same events: each line once, as a match or as context around one.
 *
 * @module
 */
import ignore from "npm:ignore@7.0.17";
import { walk, type WalkEntry } from "./walker.ts";

/** One line as ripgrep's JSON `match` or `context` event reports it. */
export interface GrepEvent {
  isMatch: boolean;
  filePath: string;
  lineNumber: number;
  /** Line text; may end with its terminator. */
  lineText: string;
}

/** Receives events in order; returns false to stop the search. */
export type GrepEventSink = (event: GrepEvent) => boolean;

/** What {@link searchWithWalker} needs to know. */
export interface WalkerSearchRequest {
  pattern: string;
  /** Absolute file or folder to search. */
  searchPath: string;
  isDirectory: boolean;
  glob?: string;
  ignoreCase?: boolean;
  literal?: boolean;
  /** Lines of context before and after each match. */
  context: number;
  /** Apply `.gitignore` only inside git work trees (ripgrep without `--no-require-git`). */
  gitignoreRequiresGit: boolean;
  signal?: AbortSignal;
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

/** Emits one file's matches with their context; returns false when the sink asked to stop. */
function searchText(
  filePath: string,
  bytes: Uint8Array,
  regex: RegExp,
  context: number,
  emit: GrepEventSink,
): boolean {
  const sniff = bytes.subarray(0, BINARY_SNIFF_BYTES);
  if (sniff.includes(0)) return true;
  const nul = bytes.indexOf(0);
  const text = new TextDecoder().decode(nul === -1 ? bytes : bytes.subarray(0, nul));
  const lines = text.split("\n");
  if (text.endsWith("\n")) lines.pop();
  let shownUpTo = 0; // 1-based number of the last line emitted
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].endsWith("\r") ? lines[i].slice(0, -1) : lines[i];
    if (!regex.test(line)) continue;
    const number = i + 1;
    const from = Math.max(shownUpTo + 1, number - context);
    for (let n = from; n < number; n++) {
      if (!emit({ isMatch: false, filePath, lineNumber: n, lineText: lines[n - 1] })) return false;
    }
    if (!emit({ isMatch: true, filePath, lineNumber: number, lineText: lines[i] })) return false;
    shownUpTo = number;
    // Trailing context, unless a later match will show these lines itself.
    for (let n = number + 1; n <= Math.min(lines.length, number + context); n++) {
      const next = lines[n - 1].endsWith("\r") ? lines[n - 1].slice(0, -1) : lines[n - 1];
      if (regex.test(next)) break;
      if (!emit({ isMatch: false, filePath, lineNumber: n, lineText: lines[n - 1] })) return false;
      shownUpTo = n;
    }
  }
  return true;
}

/** Runs the search; files are read concurrently but events keep walk order. */
export async function searchWithWalker(req: WalkerSearchRequest, emit: GrepEventSink): Promise<void> {
  const regex = compileGrepPattern(req.pattern, req.ignoreCase, req.literal);
  if (!req.isDirectory) {
    searchText(req.searchPath, await Deno.readFile(req.searchPath), regex, req.context, emit);
    return;
  }
  const filter = globFilter(req.glob?.replace(/^(!?)(?:\.\/)+/, "$1"));
  const files = walk(req.searchPath, {
    customIgnoreFile: ".rgignore",
    gitignoreRequiresGit: req.gitignoreRequiresGit,
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
  while (window.length > 0) {
    if (req.signal?.aborted) return;
    const bytes = await window.shift()!;
    const path = paths.shift()!;
    if (bytes && !searchText(path, bytes, regex, req.context, emit)) return;
    fill();
  }
}
