/**
 * Path functions with Node's exact `node:path` semantics, without loading Deno's Node
 * compatibility layer (importing `node:path` alone costs ~5 MB of RSS and start-up time).
 * `posix` and `win32` are both available; the top-level functions follow the host OS like Node's.
 *
 * @module
 */

const SLASH = 47; // "/"
const BACKSLASH = 92; // "\\"
const DOT = 46; // "."
const COLON = 58; // ":"

/** The operations of one path flavour, mirroring the subset of Node's `path` that pi uses. */
export interface PathApi {
  sep: "/" | "\\";
  delimiter: ":" | ";";
  join(...paths: string[]): string;
  resolve(...paths: string[]): string;
  normalize(path: string): string;
  isAbsolute(path: string): boolean;
  relative(from: string, to: string): string;
  dirname(path: string): string;
  basename(path: string, suffix?: string): string;
  extname(path: string): string;
}

function isPosixSeparator(code: number): boolean {
  return code === SLASH;
}

function isWindowsSeparator(code: number): boolean {
  return code === SLASH || code === BACKSLASH;
}

function isDriveLetter(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

/** Collapses ".", ".." and repeated separators in a path without its root (Node's algorithm). */
function normalizeString(
  path: string,
  allowAboveRoot: boolean,
  separator: string,
  isSeparator: (code: number) => boolean,
): string {
  let res = "";
  let lastSegmentLength = 0;
  let lastSlash = -1;
  let dots = 0;
  let code = 0;
  for (let i = 0; i <= path.length; ++i) {
    if (i < path.length) code = path.charCodeAt(i);
    else if (isSeparator(code)) break;
    else code = SLASH;
    if (isSeparator(code)) {
      if (lastSlash === i - 1 || dots === 1) {
        // Empty segment or ".": nothing to add.
      } else if (dots === 2) {
        if (
          res.length < 2 || lastSegmentLength !== 2 || res.charCodeAt(res.length - 1) !== DOT ||
          res.charCodeAt(res.length - 2) !== DOT
        ) {
          if (res.length > 2) {
            const lastSlashIndex = res.lastIndexOf(separator);
            if (lastSlashIndex === -1) {
              res = "";
              lastSegmentLength = 0;
            } else {
              res = res.slice(0, lastSlashIndex);
              lastSegmentLength = res.length - 1 - res.lastIndexOf(separator);
            }
            lastSlash = i;
            dots = 0;
            continue;
          } else if (res.length !== 0) {
            res = "";
            lastSegmentLength = 0;
            lastSlash = i;
            dots = 0;
            continue;
          }
        }
        if (allowAboveRoot) {
          res += res.length > 0 ? `${separator}..` : "..";
          lastSegmentLength = 2;
        }
      } else {
        if (res.length > 0) res += `${separator}${path.slice(lastSlash + 1, i)}`;
        else res = path.slice(lastSlash + 1, i);
        lastSegmentLength = i - lastSlash - 1;
      }
      lastSlash = i;
      dots = 0;
    } else if (code === DOT && dots !== -1) {
      ++dots;
    } else {
      dots = -1;
    }
  }
  return res;
}

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
  let lastCommonSep = -1;
  let i = 0;
  for (; i < length; i++) {
    const fromCode = from.charCodeAt(fromStart + i);
    if (fromCode !== to.charCodeAt(toStart + i)) break;
    else if (fromCode === SLASH) lastCommonSep = i;
  }
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

/** Shared by both flavours: the last segment, minus `suffix` when it ends with it. */
function basenameFrom(
  path: string,
  suffix: string | undefined,
  first: number,
  isSeparator: (code: number) => boolean,
): string {
  let start = first;
  let end = -1;
  let matchedSlash = true;
  if (suffix !== undefined && suffix.length > 0 && suffix.length <= path.length) {
    if (suffix === path) return "";
    let extIdx = suffix.length - 1;
    let firstNonSlashEnd = -1;
    for (let i = path.length - 1; i >= first; --i) {
      const code = path.charCodeAt(i);
      if (isSeparator(code)) {
        if (!matchedSlash) {
          start = i + 1;
          break;
        }
      } else {
        if (firstNonSlashEnd === -1) {
          matchedSlash = false;
          firstNonSlashEnd = i + 1;
        }
        if (extIdx >= 0) {
          if (code === suffix.charCodeAt(extIdx)) {
            if (--extIdx === -1) end = i;
          } else {
            extIdx = -1;
            end = firstNonSlashEnd;
          }
        }
      }
    }
    if (start === end) end = firstNonSlashEnd;
    else if (end === -1) end = path.length;
    return path.slice(start, end);
  }
  for (let i = path.length - 1; i >= first; --i) {
    if (isSeparator(path.charCodeAt(i))) {
      if (!matchedSlash) {
        start = i + 1;
        break;
      }
    } else if (end === -1) {
      matchedSlash = false;
      end = i + 1;
    }
  }
  if (end === -1) return "";
  return path.slice(start, end);
}

/** Shared by both flavours: the extension of the last segment ("" for dotfiles and "..") */
function extnameFrom(path: string, first: number, isSeparator: (code: number) => boolean): string {
  let startDot = -1;
  let startPart = first;
  let end = -1;
  let matchedSlash = true;
  let preDotState = 0;
  for (let i = path.length - 1; i >= first; --i) {
    const code = path.charCodeAt(i);
    if (isSeparator(code)) {
      if (!matchedSlash) {
        startPart = i + 1;
        break;
      }
      continue;
    }
    if (end === -1) {
      matchedSlash = false;
      end = i + 1;
    }
    if (code === DOT) {
      if (startDot === -1) startDot = i;
      else if (preDotState !== 1) preDotState = 1;
    } else if (startDot !== -1) {
      preDotState = -1;
    }
  }
  if (
    startDot === -1 || end === -1 || preDotState === 0 ||
    (preDotState === 1 && startDot === end - 1 && startDot === startPart + 1)
  ) {
    return "";
  }
  return path.slice(startDot, end);
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

/** Length of a UNC root ("\\\\server\\share") at the start of `path`, with its device text; undefined if none. */
function uncRoot(path: string): { device: string; end: number; whole: boolean } | undefined {
  const len = path.length;
  let j = 2;
  let last = j;
  while (j < len && !isWindowsSeparator(path.charCodeAt(j))) j++;
  if (j >= len || j === last) return undefined;
  const server = path.slice(last, j);
  last = j;
  while (j < len && isWindowsSeparator(path.charCodeAt(j))) j++;
  if (j >= len || j === last) return undefined;
  last = j;
  while (j < len && !isWindowsSeparator(path.charCodeAt(j))) j++;
  if (j === len) return { device: `\\\\${server}\\${path.slice(last)}`, end: j, whole: true };
  if (j !== last) return { device: `\\\\${server}\\${path.slice(last, j)}`, end: j, whole: false };
  return undefined;
}

/** The hidden per-drive working directory ("=C:"), when the platform lets us read it. */
function driveCwd(device: string): string | undefined {
  try {
    return Deno.env.get(`=${device}`);
  } catch {
    return undefined; // Deno refuses keys with "=" outside Windows.
  }
}

function win32Resolve(...paths: string[]): string {
  let resolvedDevice = "";
  let resolvedTail = "";
  let resolvedAbsolute = false;
  for (let i = paths.length - 1; i >= -1; i--) {
    let path: string;
    if (i >= 0) {
      path = paths[i];
      if (path.length === 0) continue;
    } else if (resolvedDevice.length === 0) {
      path = Deno.cwd();
    } else {
      // Windows keeps a current directory per drive in the hidden "=C:" variables.
      path = driveCwd(resolvedDevice) || Deno.cwd();
      if (
        path.slice(0, 2).toLowerCase() !== resolvedDevice.toLowerCase() &&
        path.charCodeAt(2) === BACKSLASH
      ) {
        path = `${resolvedDevice}\\`;
      }
    }
    const len = path.length;
    let rootEnd = 0;
    let device = "";
    let absolute = false;
    const code = path.charCodeAt(0);
    if (len === 1) {
      if (isWindowsSeparator(code)) {
        rootEnd = 1;
        absolute = true;
      }
    } else if (isWindowsSeparator(code)) {
      absolute = true;
      if (isWindowsSeparator(path.charCodeAt(1))) {
        const unc = uncRoot(path);
        if (unc) {
          device = unc.device;
          rootEnd = unc.end;
        }
      } else {
        rootEnd = 1;
      }
    } else if (isDriveLetter(code) && path.charCodeAt(1) === COLON) {
      device = path.slice(0, 2);
      rootEnd = 2;
      if (len > 2 && isWindowsSeparator(path.charCodeAt(2))) {
        absolute = true;
        rootEnd = 3;
      }
    }
    if (device.length > 0) {
      if (resolvedDevice.length > 0) {
        if (device.toLowerCase() !== resolvedDevice.toLowerCase()) continue;
      } else {
        resolvedDevice = device;
      }
    }
    if (resolvedAbsolute) {
      if (resolvedDevice.length > 0) break;
    } else {
      resolvedTail = `${path.slice(rootEnd)}\\${resolvedTail}`;
      resolvedAbsolute = absolute;
      if (absolute && resolvedDevice.length > 0) break;
    }
  }
  resolvedTail = normalizeString(resolvedTail, !resolvedAbsolute, "\\", isWindowsSeparator);
  return resolvedAbsolute ? `${resolvedDevice}\\${resolvedTail}` : `${resolvedDevice}${resolvedTail}` || ".";
}

/** Whether a normalized relative `tail` (or a segment of `path` ending in ":") could pass for a drive. */
function looksLikeDrive(path: string, tail: string): boolean {
  if (tail.length >= 2 && isDriveLetter(tail.charCodeAt(0)) && tail.charCodeAt(1) === COLON) return true;
  for (let index = path.indexOf(":"); index !== -1; index = path.indexOf(":", index + 1)) {
    if (index === path.length - 1 || isWindowsSeparator(path.charCodeAt(index + 1))) return true;
  }
  return false;
}

function win32Normalize(path: string): string {
  const len = path.length;
  if (len === 0) return ".";
  let rootEnd = 0;
  let device: string | undefined;
  let absolute = false;
  const code = path.charCodeAt(0);
  if (len === 1) return isPosixSeparator(code) ? "\\" : path;
  if (isWindowsSeparator(code)) {
    absolute = true;
    if (isWindowsSeparator(path.charCodeAt(1))) {
      const unc = uncRoot(path);
      if (unc?.whole) return `${unc.device}\\`;
      if (unc) {
        device = unc.device;
        rootEnd = unc.end;
      }
    } else {
      rootEnd = 1;
    }
  } else if (isDriveLetter(code) && path.charCodeAt(1) === COLON) {
    device = path.slice(0, 2);
    rootEnd = 2;
    if (len > 2 && isWindowsSeparator(path.charCodeAt(2))) {
      absolute = true;
      rootEnd = 3;
    }
  }
  let tail = rootEnd < len ? normalizeString(path.slice(rootEnd), !absolute, "\\", isWindowsSeparator) : "";
  if (tail.length === 0 && !absolute) tail = ".";
  if (tail.length > 0 && isWindowsSeparator(path.charCodeAt(len - 1))) tail += "\\";
  if (!absolute && device === undefined && path.includes(":") && looksLikeDrive(path, tail)) {
    // A relative result must not read as a drive path (Node's guard for CVE-2024-36139).
    return `.\\${tail}`;
  }
  if (device === undefined) return absolute ? `\\${tail}` : tail;
  return absolute ? `${device}\\${tail}` : `${device}${tail}`;
}

function win32IsAbsolute(path: string): boolean {
  const len = path.length;
  if (len === 0) return false;
  const code = path.charCodeAt(0);
  return isWindowsSeparator(code) ||
    (len > 2 && isDriveLetter(code) && path.charCodeAt(1) === COLON &&
      isWindowsSeparator(path.charCodeAt(2)));
}

function win32Join(...paths: string[]): string {
  let joined: string | undefined;
  let firstPart = "";
  for (const arg of paths) {
    if (arg.length === 0) continue;
    if (joined === undefined) joined = firstPart = arg;
    else joined += `\\${arg}`;
  }
  if (joined === undefined) return ".";
  // Keep a UNC root only when the first part starts with exactly two separators.
  let needsReplace = true;
  let slashCount = 0;
  if (isWindowsSeparator(firstPart.charCodeAt(0))) {
    ++slashCount;
    const firstLen = firstPart.length;
    if (firstLen > 1 && isWindowsSeparator(firstPart.charCodeAt(1))) {
      ++slashCount;
      if (firstLen > 2) {
        if (isWindowsSeparator(firstPart.charCodeAt(2))) ++slashCount;
        else needsReplace = false;
      }
    }
  }
  if (needsReplace) {
    while (slashCount < joined.length && isWindowsSeparator(joined.charCodeAt(slashCount))) slashCount++;
    if (slashCount >= 2) joined = `\\${joined.slice(slashCount)}`;
  }
  return win32Normalize(joined);
}

function win32Relative(fromPath: string, toPath: string): string {
  if (fromPath === toPath) return "";
  const fromOrig = win32Resolve(fromPath);
  const toOrig = win32Resolve(toPath);
  if (fromOrig === toOrig) return "";
  const from = fromOrig.toLowerCase();
  const to = toOrig.toLowerCase();
  if (from === to) return "";
  let fromStart = 0;
  while (fromStart < from.length && from.charCodeAt(fromStart) === BACKSLASH) fromStart++;
  let fromEnd = from.length;
  while (fromEnd - 1 > fromStart && from.charCodeAt(fromEnd - 1) === BACKSLASH) fromEnd--;
  const fromLen = fromEnd - fromStart;
  let toStart = 0;
  while (toStart < to.length && to.charCodeAt(toStart) === BACKSLASH) toStart++;
  let toEnd = to.length;
  while (toEnd - 1 > toStart && to.charCodeAt(toEnd - 1) === BACKSLASH) toEnd--;
  const toLen = toEnd - toStart;
  const length = fromLen < toLen ? fromLen : toLen;
  let lastCommonSep = -1;
  let i = 0;
  for (; i < length; i++) {
    const fromCode = from.charCodeAt(fromStart + i);
    if (fromCode !== to.charCodeAt(toStart + i)) break;
    else if (fromCode === BACKSLASH) lastCommonSep = i;
  }
  if (i !== length) {
    // Different drives or shares: no relative path exists.
    if (lastCommonSep === -1) return toOrig;
  } else {
    if (toLen > length) {
      if (to.charCodeAt(toStart + i) === BACKSLASH) return toOrig.slice(toStart + i + 1);
      if (i === 2) return toOrig.slice(toStart + i);
    }
    if (fromLen > length) {
      if (from.charCodeAt(fromStart + i) === BACKSLASH) lastCommonSep = i;
      else if (i === 2) lastCommonSep = 3;
    }
    if (lastCommonSep === -1) lastCommonSep = 0;
  }
  let out = "";
  for (i = fromStart + lastCommonSep + 1; i <= fromEnd; ++i) {
    if (i === fromEnd || from.charCodeAt(i) === BACKSLASH) out += out.length === 0 ? ".." : "\\..";
  }
  toStart += lastCommonSep;
  if (out.length > 0) return `${out}${toOrig.slice(toStart, toEnd)}`;
  if (toOrig.charCodeAt(toStart) === BACKSLASH) ++toStart;
  return toOrig.slice(toStart, toEnd);
}

function win32Dirname(path: string): string {
  const len = path.length;
  if (len === 0) return ".";
  let rootEnd = -1;
  let offset = 0;
  const code = path.charCodeAt(0);
  if (len === 1) return isWindowsSeparator(code) ? path : ".";
  if (isWindowsSeparator(code)) {
    rootEnd = offset = 1;
    if (isWindowsSeparator(path.charCodeAt(1))) {
      const unc = uncRoot(path);
      if (unc?.whole) return path;
      if (unc) rootEnd = offset = unc.end + 1;
    }
  } else if (isDriveLetter(code) && path.charCodeAt(1) === COLON) {
    rootEnd = len > 2 && isWindowsSeparator(path.charCodeAt(2)) ? 3 : 2;
    offset = rootEnd;
  }
  let end = -1;
  let matchedSlash = true;
  for (let i = len - 1; i >= offset; --i) {
    if (isWindowsSeparator(path.charCodeAt(i))) {
      if (!matchedSlash) {
        end = i;
        break;
      }
    } else {
      matchedSlash = false;
    }
  }
  if (end === -1) {
    if (rootEnd === -1) return ".";
    end = rootEnd;
  }
  return path.slice(0, end);
}

/** Index after a leading drive ("C:") that basename/extname skip. */
function driveOffset(path: string): number {
  return path.length >= 2 && isDriveLetter(path.charCodeAt(0)) && path.charCodeAt(1) === COLON ? 2 : 0;
}

/** Windows path semantics (Node's `path.win32`). */
export const win32: PathApi = {
  sep: "\\",
  delimiter: ";",
  join: win32Join,
  resolve: win32Resolve,
  normalize: win32Normalize,
  isAbsolute: win32IsAbsolute,
  relative: win32Relative,
  dirname: win32Dirname,
  basename: (path: string, suffix?: string) =>
    basenameFrom(path, suffix, driveOffset(path), isWindowsSeparator),
  extname: (path: string) => extnameFrom(path, driveOffset(path), isWindowsSeparator),
};

function host(): PathApi {
  return Deno.build.os === "windows" ? win32 : posix;
}

/** The host's path separator, like Node's `path.sep`. */
export const sep: "/" | "\\" = Deno.build.os === "windows" ? "\\" : "/";
/** The host's PATH list separator, like Node's `path.delimiter`. */
export const delimiter: ":" | ";" = Deno.build.os === "windows" ? ";" : ":";

/** Joins segments and normalizes the result (Node's `path.join`). */
export function join(...paths: string[]): string {
  return host().join(...paths);
}

/** Resolves segments right to left against the working directory (Node's `path.resolve`). */
export function resolve(...paths: string[]): string {
  return host().resolve(...paths);
}

/** Collapses ".", ".." and repeated separators, keeping a trailing one (Node's `path.normalize`). */
export function normalize(path: string): string {
  return host().normalize(path);
}

/** Whether the path is absolute (Node's `path.isAbsolute`). */
export function isAbsolute(path: string): boolean {
  return host().isAbsolute(path);
}

/** The path from `from` to `to` (Node's `path.relative`). */
export function relative(from: string, to: string): string {
  return host().relative(from, to);
}

/** The path without its last segment (Node's `path.dirname`). */
export function dirname(path: string): string {
  return host().dirname(path);
}

/** The last segment, minus `suffix` when given and matching (Node's `path.basename`). */
export function basename(path: string, suffix?: string): string {
  return host().basename(path, suffix);
}

/** The extension of the last segment, dot included (Node's `path.extname`). */
export function extname(path: string): string {
  return host().extname(path);
}

/**
 * The file-system path of a `file:` URL like Node's `fileURLToPath` (percent-decoded; drive
 * letters and UNC hosts on Windows).
 */
export function fileUrlToPath(url: URL): string {
  if (url.protocol !== "file:") throw new TypeError("The URL must be of scheme file");
  const pathname = url.pathname;
  if (Deno.build.os !== "windows") return decodeURIComponent(pathname);
  const decoded = decodeURIComponent(pathname.replace(/\//g, "\\"));
  if (url.hostname !== "") return `\\\\${url.hostname}${decoded}`;
  // "/C:/x" → "C:\\x"
  return decoded.slice(1);
}
