/**
 * Built-in file walker used by grep and find when ripgrep / fd are not installed. It mirrors
 * their traversal: ignore files honoured (see walker_ignore.ts), hidden entries optional,
 * symlinks reported but never followed, and a deterministic depth-first order with names
 * sorted byte-wise inside each folder (the order fd prints when it sorts its results).
 *
 * @module
 */
import { join } from "../util/path.ts";
import { type IgnoreConfig, IgnoreStack } from "./walker_ignore.ts";

/** One entry produced by {@link walk}. */
export interface WalkEntry {
  /** Absolute path. */
  path: string;
  /** Path relative to the walk root, `/`-separated. */
  rel: string;
  isDirectory: boolean;
  isSymlink: boolean;
}

/** Traversal settings. */
export interface WalkOptions extends IgnoreConfig {
  /** Include dot-entries (both rg and fd run with --hidden). Default true. */
  hidden?: boolean;
  /** Stops the walk early. */
  signal?: AbortSignal;
  /** Extra prune rule for folders, e.g. negated --glob overrides. */
  skipDirectory?: (entry: WalkEntry) => boolean;
}

function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Yields every non-ignored entry below `root` (the root itself excluded). Folders are yielded
 * before their contents; ignored folders are not entered.
 */
export function walk(root: string, options: WalkOptions): Generator<WalkEntry> {
  return walkInto(root, "", IgnoreStack.forRoot(root, options), options);
}

function* walkInto(
  dir: string,
  rel: string,
  ignores: IgnoreStack,
  options: WalkOptions,
): Generator<WalkEntry> {
  const hidden = options.hidden ?? true;
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(dir)];
  } catch {
    return;
  }
  entries.sort((a, b) => compareNames(a.name, b.name));
  for (const e of entries) {
    if (options.signal?.aborted) return;
    if (!hidden && e.name.startsWith(".")) continue;
    const path = join(dir, e.name);
    const entry: WalkEntry = {
      path,
      rel: rel ? `${rel}/${e.name}` : e.name,
      isDirectory: e.isDirectory,
      isSymlink: e.isSymlink,
    };
    if (ignores.isIgnored(path, e.isDirectory)) continue;
    if (e.isDirectory && options.skipDirectory?.(entry)) continue;
    yield entry;
    if (e.isDirectory) yield* walkInto(path, entry.rel, ignores.child(path), options);
  }
}
