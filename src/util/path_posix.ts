/**
 * POSIX path semantics, exactly as Node's `path.posix` has them.
 *
 * @module
 */
import {
  basenameFrom,
  commonPrefix,
  extnameFrom,
  isPosixSeparator,
  normalizeString,
  type PathApi,
  SLASH,
} from "./path_common.ts";

function posixNormalize(path: string): string {
  if (path.length === 0) return ".";
  const absolute = path.charCodeAt(0) === SLASH;
  const trailingSeparator = path.charCodeAt(path.length - 1) === SLASH;
  let out = normalizeString(path, !absolute, "/", isPosixSeparator);
  if (out.length === 0) {
    if (absolute) return "/";
    return trailingSeparator ? "./" : ".";
  }
  if (trailingSeparator) out += "/";
  return absolute ? `/${out}` : out;
}

function posixResolve(...paths: string[]): string {
  let resolved = "";
  let absolute = false;
  for (let i = paths.length - 1; i >= -1 && !absolute; i--) {
    const path = i >= 0 ? paths[i] : Deno.cwd();
    if (path.length === 0) continue;
    resolved = `${path}/${resolved}`;
    absolute = path.charCodeAt(0) === SLASH;
  }
  resolved = normalizeString(resolved, !absolute, "/", isPosixSeparator);
  if (absolute) return `/${resolved}`;
  return resolved.length > 0 ? resolved : ".";
}

function posixRelative(from: string, to: string): string {
  if (from === to) return "";
  from = posixResolve(from);
  to = posixResolve(to);
  if (from === to) return "";
  const fromStart = 1;
  const fromEnd = from.length;
  const fromLen = fromEnd - fromStart;
  const toStart = 1;
  const toLen = to.length - toStart;
  const length = fromLen < toLen ? fromLen : toLen;
  let [i, lastCommonSep] = commonPrefix(from, fromStart, to, toStart, length, SLASH);
  if (i === length) {
    if (toLen > length) {
      // `from` is a prefix of `to`: "/a/b" → "/a/b/c/d" or "/" → "/a".
      if (to.charCodeAt(toStart + i) === SLASH) return to.slice(toStart + i + 1);
      if (i === 0) return to.slice(toStart + i);
    } else if (fromLen > length) {
      // `to` is a prefix of `from`.
      if (from.charCodeAt(fromStart + i) === SLASH) lastCommonSep = i;
      else if (i === 0) lastCommonSep = 0;
    }
  }
  let out = "";
  for (i = fromStart + lastCommonSep + 1; i <= fromEnd; ++i) {
    if (i === fromEnd || from.charCodeAt(i) === SLASH) out += out.length === 0 ? ".." : "/..";
  }
  return `${out}${to.slice(toStart + lastCommonSep)}`;
}

function posixDirname(path: string): string {
  if (path.length === 0) return ".";
  const hasRoot = path.charCodeAt(0) === SLASH;
  let end = -1;
  let matchedSlash = true;
  for (let i = path.length - 1; i >= 1; --i) {
    if (path.charCodeAt(i) === SLASH) {
      if (!matchedSlash) {
        end = i;
        break;
      }
    } else {
      matchedSlash = false;
    }
  }
  if (end === -1) return hasRoot ? "/" : ".";
  if (hasRoot && end === 1) return "//";
  return path.slice(0, end);
}

/** POSIX path semantics (Node's `path.posix`). */
export const posix: PathApi = {
  sep: "/",
  delimiter: ":",
  join(...paths: string[]): string {
    const parts = paths.filter((p) => p.length > 0);
    return parts.length === 0 ? "." : posixNormalize(parts.join("/"));
  },
  resolve: posixResolve,
  normalize: posixNormalize,
  isAbsolute: (path: string) => path.length > 0 && path.charCodeAt(0) === SLASH,
  relative: posixRelative,
  dirname: posixDirname,
  basename: (path: string, suffix?: string) => basenameFrom(path, suffix, 0, isPosixSeparator),
  extname: (path: string) => extnameFrom(path, 0, isPosixSeparator),
};
