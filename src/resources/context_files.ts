/**
 * Project context files (AGENTS.md / CLAUDE.md): the agent dir's own, then one per folder from
 * the filesystem root down to cwd, each folder contributing its first existing candidate.
 *
 * @module
 */
import { existsSync, readTextFileSync } from "../util/fs.ts";
import { join, resolve } from "../util/path.ts";

/** A context file and its text. */
export interface ContextFile {
  path: string;
  content: string;
}

const CANDIDATES = ["AGENTS.md", "AGENTS.MD", "CLAUDE.md", "CLAUDE.MD"];

function loadFromDir(dir: string, warn: (message: string) => void): ContextFile | null {
  for (const name of CANDIDATES) {
    const path = join(dir, name);
    if (!existsSync(path)) continue;
    try {
      return { path, content: readTextFileSync(path) };
    } catch (error) {
      warn(`Warning: Could not read ${path}: ${error}`);
    }
  }
  return null;
}

/** Loads the context files in prompt order (global first, then outermost folder to cwd). */
export function loadProjectContextFiles(
  options: { cwd: string; agentDir: string; warn?: (message: string) => void },
): ContextFile[] {
  const warn = options.warn ?? ((m: string) => console.error(m));
  const files: ContextFile[] = [];
  const seen = new Set<string>();
  const global = loadFromDir(options.agentDir, warn);
  if (global) {
    files.push(global);
    seen.add(global.path);
  }
  const ancestors: ContextFile[] = [];
  let dir = resolve(options.cwd);
  while (true) {
    const file = loadFromDir(dir, warn);
    if (file && !seen.has(file.path)) {
      ancestors.unshift(file);
      seen.add(file.path);
    }
    const parent = resolve(dir, "..");
    if (parent === dir) break;
    dir = parent;
  }
  return [...files, ...ancestors];
}
