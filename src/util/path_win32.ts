/**
 * Windows path semantics, exactly as Node's `path.win32` has them (drives, UNC shares, the
 * per-drive working directories).
 *
 * @module
 */
import {
  BACKSLASH,
  basenameFrom,
  COLON,
  commonPrefix,
  extnameFrom,
  isDriveLetter,
  isPosixSeparator,
  isWindowsSeparator,
  normalizeString,
  type PathApi,
} from "./path_common.ts";

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

/** Where a Windows path's root ends, the drive or UNC share it names, and whether it is absolute. */
interface Win32Root {
  /** "C:", "\\\\server\\share", or "" when the path names none. */
  device: string;
  /** Index after the root (drive, share, separator). */
  rootEnd: number;
  absolute: boolean;
  /** The path is a UNC share and nothing more ("\\\\server\\share"). */
  wholeUnc: boolean;
}

/** Parses the root of a non-empty Windows path as Node's `resolve` and `normalize` do. */
function win32Root(path: string): Win32Root {
  const root: Win32Root = { device: "", rootEnd: 0, absolute: false, wholeUnc: false };
  const code = path.charCodeAt(0);
  if (isWindowsSeparator(code)) {
    root.absolute = true;
    if (path.length > 1 && isWindowsSeparator(path.charCodeAt(1))) {
      // "\\" starts a UNC share; without a valid one the root is empty (Node's rule).
      const unc = uncRoot(path);
      if (unc) {
        root.device = unc.device;
        root.rootEnd = unc.end;
        root.wholeUnc = unc.whole;
      }
    } else {
      root.rootEnd = 1;
    }
  } else if (path.length > 1 && isDriveLetter(code) && path.charCodeAt(1) === COLON) {
    root.device = path.slice(0, 2);
    root.rootEnd = 2;
    if (path.length > 2 && isWindowsSeparator(path.charCodeAt(2))) {
      root.absolute = true;
      root.rootEnd = 3;
    }
  }
  return root;
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
    const { device, rootEnd, absolute } = win32Root(path);
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
  if (len === 1) return isPosixSeparator(path.charCodeAt(0)) ? "\\" : path;
  const root = win32Root(path);
  if (root.wholeUnc) return `${root.device}\\`;
  const { rootEnd, absolute } = root;
  const device = root.device === "" ? undefined : root.device;
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

/** Start and end of `path` without leading backslashes and trailing ones (one character stays). */
function withoutOuterBackslashes(path: string): [number, number] {
  let start = 0;
  while (start < path.length && path.charCodeAt(start) === BACKSLASH) start++;
  let end = path.length;
  while (end - 1 > start && path.charCodeAt(end - 1) === BACKSLASH) end--;
  return [start, end];
}

function win32Relative(fromPath: string, toPath: string): string {
  if (fromPath === toPath) return "";
  const fromOrig = win32Resolve(fromPath);
  const toOrig = win32Resolve(toPath);
  if (fromOrig === toOrig) return "";
  const from = fromOrig.toLowerCase();
  const to = toOrig.toLowerCase();
  if (from === to) return "";
  const [fromStart, fromEnd] = withoutOuterBackslashes(from);
  const fromLen = fromEnd - fromStart;
  let [toStart, toEnd] = withoutOuterBackslashes(to);
  const toLen = toEnd - toStart;
  const length = fromLen < toLen ? fromLen : toLen;
  let [i, lastCommonSep] = commonPrefix(from, fromStart, to, toStart, length, BACKSLASH);
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
