/**
 * File-name search over the built-in walker, standing in for
 * `fd --glob --hidden --no-require-git --max-results N` when fd is missing or too old.
 * fd semantics kept: the glob matches the base name, or (pattern containing `/`) the path
 * relative to the search folder (absolute patterns: the absolute path); smart case
 * (case-insensitive when the pattern is all lower case); `*` never crosses `/`; folders are
 * reported with a trailing `/`.
 *
 * @module
 */
import picomatch from "npm:picomatch@4.0.7";
import { walk } from "./walker.ts";

/** Parameters of {@link findWithWalker}. */
export interface WalkerFindRequest {
  /** Pattern as the tool received it. */
  pattern: string;
  /** Absolute folder to search. */
  searchPath: string;
  limit: number;
  signal?: AbortSignal;
}

/**
 * Returns matching entries as fd prints them (absolute paths, folders with trailing `/`), in
 * fd's sorted order, at most `limit` of them.
 */
export function findWithWalker(req: WalkerFindRequest): string[] {
  const fullPath = req.pattern.includes("/");
  const absolute = req.pattern.startsWith("/");
  // picomatch wants relative-looking input; strip the leading slash from both sides.
  const pattern = absolute ? req.pattern.slice(1) : req.pattern;
  const nocase = req.pattern === req.pattern.toLowerCase();
  const isMatch = picomatch(pattern, { dot: true, nocase, noextglob: true, nonegate: true });
  const results: string[] = [];
  if (req.limit <= 0) return results;
  for (const entry of walk(req.searchPath, { customIgnoreFile: ".fdignore", gitignoreRequiresGit: false })) {
    if (req.signal?.aborted) break;
    const subject = !fullPath
      ? entry.path.slice(entry.path.lastIndexOf("/") + 1)
      : absolute
      ? entry.path.replace(/^\/+/, "")
      : entry.rel;
    if (!isMatch(subject)) continue;
    results.push(entry.isDirectory ? `${entry.path}/` : entry.path);
    if (results.length >= req.limit) break;
  }
  return results;
}
