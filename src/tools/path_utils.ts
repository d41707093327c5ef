/**
 * Turning the paths a model writes into real file system paths. Models often echo paths the
 * way a user typed them (`@file`, `~/x`, odd Unicode spaces) or the way macOS names
 * screenshots, so reads try a few spelling variants before giving up.
 *
 * @module
 */
import { existsSync } from "../util/fs.ts";
import { homeDir } from "../util/os.ts";
import { dirname, isAbsolute, resolve } from "../util/path.ts";

const UNICODE_SPACES = /[\u00A0\u2000-\u200A\u202F\u205F\u3000]/g;
const NARROW_NO_BREAK_SPACE = "\u202F";

/**
 * Strips one leading `@` (mention syntax), turns Unicode spaces into plain spaces and expands
 * `~` / `~/…` to the home directory.
 */
export function expandPath(filePath: string): string {
  const withoutAt = filePath.startsWith("@") ? filePath.slice(1) : filePath;
  const normalized = withoutAt.replace(UNICODE_SPACES, " ");
  if (normalized === "~") return homeDir();
  if (normalized.startsWith("~/")) return homeDir() + normalized.slice(1);
  return normalized;
}

/** Expands `filePath` and makes it absolute against `cwd` when it is relative. */
export function resolveToCwd(filePath: string, cwd: string): string {
  const expanded = expandPath(filePath);
  return isAbsolute(expanded) ? expanded : resolve(cwd, expanded);
}

/**
 * Like {@link resolveToCwd}, but when the file does not exist tries the spellings macOS uses:
 * a narrow no-break space before AM/PM in screenshot names, NFD-decomposed names, a curly
 * apostrophe (U+2019), and NFD plus curly apostrophe. Returns the plain resolution if none exists.
 */
export function resolveReadPath(filePath: string, cwd: string): string {
  const resolved = resolveToCwd(filePath, cwd);
  if (existsSync(resolved)) return resolved;
  const amPm = resolved.replace(/ (AM|PM)\./gi, `${NARROW_NO_BREAK_SPACE}$1.`);
  if (amPm !== resolved && existsSync(amPm)) return amPm;
  const nfd = resolved.normalize("NFD");
  if (nfd !== resolved && existsSync(nfd)) return nfd;
  const curly = resolved.replace(/'/g, "\u2019");
  if (curly !== resolved && existsSync(curly)) return curly;
  const nfdCurly = nfd.replace(/'/g, "\u2019");
  if (nfdCurly !== resolved && existsSync(nfdCurly)) return nfdCurly;
  return resolved;
}

/**
 * True when `path` or a folder above it holds `.git`: the search tools apply `.gitignore`
 * everywhere, letting rg and fd use their git-aware rules (nested repositories) inside work trees
 * and passing `--no-require-git` outside them.
 */
export function isInsideGitWorkTree(path: string): boolean {
  for (let current = path;;) {
    if (existsSync(`${current.replace(/\/+$/, "")}/.git`)) return true;
    const parent = dirname(current);
    if (parent === current) return false;
    current = parent;
  }
}
