/**
 * Path helpers shared by the resource loaders.
 *
 * @module
 */
import { homeDir } from "../util/os.ts";
import { isAbsolute, join, resolve, sep } from "../util/path.ts";

/** Expands a leading `~` and trims, as resource paths in settings and flags are written. */
export function expandHome(input: string): string {
  const trimmed = input.trim();
  if (trimmed === "~") return homeDir();
  if (trimmed.startsWith("~/")) return join(homeDir(), trimmed.slice(2));
  if (trimmed.startsWith("~")) return join(homeDir(), trimmed.slice(1));
  return trimmed;
}

/** Resolves a configured resource path against cwd. */
export function resolveResourcePath(path: string, cwd: string): string {
  const expanded = expandHome(path);
  return isAbsolute(expanded) ? expanded : resolve(cwd, expanded);
}

/** True when `target` is `root` or inside it. */
export function isUnderPath(target: string, root: string): boolean {
  const normalizedRoot = resolve(root);
  if (target === normalizedRoot) return true;
  return target.startsWith(normalizedRoot.endsWith(sep) ? normalizedRoot : normalizedRoot + sep);
}

/** The real path, or the path itself when it cannot be resolved. */
export function canonicalizePath(path: string): string {
  try {
    return Deno.realPathSync(path);
  } catch {
    return path;
  }
}

/** The project configuration folder name (`.pi`). */
export const CONFIG_DIR_NAME = ".pi";
