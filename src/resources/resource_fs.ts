/**
 * Folder walking shared by the resource loaders: `.gitignore` / `.ignore` / `.fdignore` rules
 * (prefixed so they apply below their own folder) and directory entries with symlinks resolved.
 *
 * @module
 */
import type { Ignore } from "npm:ignore@7.0.17";
import { existsSync, readDirSorted } from "../util/fs.ts";
import { join, relative, sep } from "../util/path.ts";

const IGNORE_FILE_NAMES = [".gitignore", ".ignore", ".fdignore"];

/** A path with `/` separators, as ignore rules are written. */
export function toPosix(path: string): string {
  return path.split(sep).join("/");
}

/** One ignore-file line rebased onto `prefix` (null for blanks and comments). */
function prefixIgnoreLine(line: string, prefix: string): string | null {
  const trimmed = line.trim();
  if (!trimmed || (trimmed.startsWith("#") && !trimmed.startsWith("\\#"))) return null;
  let pattern = line;
  let negated = false;
  if (pattern.startsWith("!")) {
    negated = true;
    pattern = pattern.slice(1);
  } else if (pattern.startsWith("\\!")) {
    pattern = pattern.slice(1);
  }
  if (pattern.startsWith("/")) pattern = pattern.slice(1);
  return (negated ? "!" : "") + prefix + pattern;
}

/** Adds the ignore files of `dir` to `ig`, rebased so paths relative to `rootDir` match. */
export function addIgnoreRules(ig: Ignore, dir: string, rootDir: string): void {
  const rel = relative(rootDir, dir);
  const prefix = rel ? `${toPosix(rel)}/` : "";
  for (const name of IGNORE_FILE_NAMES) {
    const path = join(dir, name);
    if (!existsSync(path)) continue;
    try {
      const patterns = Deno.readTextFileSync(path).split(/\r?\n/)
        .map((line) => prefixIgnoreLine(line, prefix))
        .filter((p): p is string => Boolean(p));
      if (patterns.length) ig.add(patterns);
    } catch { /* an unreadable ignore file adds nothing */ }
  }
}

/** A directory entry with a symlink's target kind. */
export interface ResolvedEntry {
  name: string;
  path: string;
  isDir: boolean;
  isFile: boolean;
}

/** The entries of `dir`, sorted, with symlinks resolved; broken links are left out. */
export function resolvedEntries(dir: string): ResolvedEntry[] {
  const out: ResolvedEntry[] = [];
  for (const entry of readDirSorted(dir)) {
    const path = join(dir, entry.name);
    let isDir = entry.isDirectory;
    let isFile = entry.isFile;
    if (entry.isSymlink) {
      try {
        const stats = Deno.statSync(path);
        isDir = stats.isDirectory;
        isFile = stats.isFile;
      } catch {
        continue;
      }
    }
    out.push({ name: entry.name, path, isDir, isFile });
  }
  return out;
}
