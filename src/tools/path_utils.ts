/**
 * Turning the paths a model writes into real file system paths. Models often echo paths the
 * way a user typed them (`@file`, `~/x`, odd Unicode spaces) or the way macOS names
 * screenshots, so reads try a few spelling variants before giving up.
 *
 * @module
 */
import { accessSync, constants } from "node:fs";
import { homedir } from "node:os";
import { isAbsolute, resolve } from "node:path";

const UNICODE_SPACES = /[\u00A0\u2000-\u200A\u202F\u205F\u3000]/g;
const NARROW_NO_BREAK_SPACE = "\u202F";

function exists(path: string): boolean {
  try {
    accessSync(path, constants.F_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Strips one leading `@` (mention syntax), turns Unicode spaces into plain spaces and expands
 * `~` / `~/…` to the home directory.
 */
export function expandPath(filePath: string): string {
  const withoutAt = filePath.startsWith("@") ? filePath.slice(1) : filePath;
  const normalized = withoutAt.replace(UNICODE_SPACES, " ");
  if (normalized === "~") return homedir();
  if (normalized.startsWith("~/")) return homedir() + normalized.slice(1);
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
  if (exists(resolved)) return resolved;
  const amPm = resolved.replace(/ (AM|PM)\./gi, `${NARROW_NO_BREAK_SPACE}$1.`);
  if (amPm !== resolved && exists(amPm)) return amPm;
  const nfd = resolved.normalize("NFD");
  if (nfd !== resolved && exists(nfd)) return nfd;
  const curly = resolved.replace(/'/g, "\u2019");
  if (curly !== resolved && exists(curly)) return curly;
  const nfdCurly = nfd.replace(/'/g, "\u2019");
  if (nfdCurly !== resolved && exists(nfdCurly)) return nfdCurly;
  return resolved;
}
