/**
 * Project context files (pi 1.6.0): the agent dir's own, then one per folder from the filesystem
 * root down to cwd. Each folder contributes its first candidate that is a file:
 * `AGENTS.override.md` (replaces that folder's usual file), `AGENTS.md`, `AGENTS.MD`, `CLAUDE.md`,
 * `CLAUDE.MD`. A byte-order mark is dropped. In a git worktree nested inside its main repository,
 * the main repository's file is left out when the worktree has its own (both cover the same
 * repository, so loading both would apply that context twice).
 *
 * @module
 */
import { existsSync, readTextFileSync } from "../util/fs.ts";
import { basename, dirname, join, resolve } from "../util/path.ts";
import { canonicalizePath, isUnderPath } from "./resource_paths.ts";

/** A context file and its text. */
export interface ContextFile {
  /** Path of the file. */
  path: string;
  /** Its text. */
  content: string;
}

const CANDIDATES = ["AGENTS.override.md", "AGENTS.md", "AGENTS.MD", "CLAUDE.md", "CLAUDE.MD"];

function isFile(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

function loadFromDir(dir: string, warn: (message: string) => void): ContextFile | null {
  for (const name of CANDIDATES) {
    const path = join(dir, name);
    // A folder named like a context file is not one.
    if (!existsSync(path) || !isFile(path)) continue;
    try {
      return { path, content: readTextFileSync(path).replace(/^\uFEFF/, "") };
    } catch (error) {
      warn(`Warning: Could not read ${path}: ${error}`);
    }
  }
  return null;
}

/** The repository folder holding `.git` above `cwd`, and its common git dir (shared by worktrees). */
function findGitPaths(cwd: string): { repoDir: string; commonGitDir: string } | null {
  let dir = cwd;
  while (true) {
    const gitPath = join(dir, ".git");
    if (existsSync(gitPath)) {
      try {
        const stat = Deno.statSync(gitPath);
        if (stat.isFile) {
          const text = readTextFileSync(gitPath).trim();
          if (!text.startsWith("gitdir: ")) return null;
          const gitDir = resolve(dir, text.slice(8).trim());
          if (!existsSync(join(gitDir, "HEAD"))) return null;
          const commonDirFile = join(gitDir, "commondir");
          const commonGitDir = existsSync(commonDirFile)
            ? resolve(gitDir, readTextFileSync(commonDirFile).trim())
            : gitDir;
          return { repoDir: dir, commonGitDir };
        }
        if (stat.isDirectory) {
          return existsSync(join(gitPath, "HEAD")) ? { repoDir: dir, commonGitDir: gitPath } : null;
        }
      } catch {
        return null;
      }
    }
    const parent = dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

/**
 * The main repository's context file that a linked worktree nested inside it shadows (real
 * path), or undefined: ordinary repos, sibling worktrees, bare layouts and submodules shadow
 * nothing.
 */
function shadowedContextFile(cwd: string, warn: (message: string) => void): string | undefined {
  const git = findGitPaths(cwd);
  if (!git) return undefined;
  const commonGitDir = canonicalizePath(git.commonGitDir);
  const worktreeRoot = canonicalizePath(git.repoDir);
  const mainRoot = dirname(commonGitDir);
  if (!isUnderPath(worktreeRoot, mainRoot) || worktreeRoot === mainRoot) return undefined;
  if (canonicalizePath(join(mainRoot, ".git")) !== commonGitDir) return undefined;
  const own = loadFromDir(worktreeRoot, warn);
  return own ? join(mainRoot, basename(own.path)) : undefined;
}

/** Loads the context files in prompt order (global first, then outermost folder to cwd). */
export function loadProjectContextFiles(
  options: { cwd: string; agentDir: string; warn?: (message: string) => void },
): ContextFile[] {
  const warn = options.warn ?? ((m: string) => console.error(m));
  const files: ContextFile[] = [];
  const seen = new Set<string>();
  const global = loadFromDir(resolve(options.agentDir), warn);
  if (global) {
    files.push(global);
    seen.add(global.path);
  }
  const cwd = resolve(options.cwd);
  const shadowed = shadowedContextFile(cwd, warn);
  const ancestors: ContextFile[] = [];
  let dir = cwd;
  while (true) {
    const file = loadFromDir(dir, warn);
    // Compare the folder's real path: a worktree file symlinked to the main one is that file.
    const isShadowed = shadowed !== undefined && file !== null &&
      join(canonicalizePath(dir), basename(file.path)) === shadowed;
    if (file && !isShadowed && !seen.has(file.path)) {
      ancestors.unshift(file);
      seen.add(file.path);
    }
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return [...files, ...ancestors];
}
