/**
 * What both path flavours share: character codes, separator tests, Node's segment normalisation,
 * and `basename`/`extname` over a start offset and a separator test.
 *
 * @module
 */

/** Character code of "/". */
export const SLASH = 47;
/** Character code of "\\". */
export const BACKSLASH = 92;
/** Character code of ".". */
export const DOT = 46;
/** Character code of ":". */
export const COLON = 58;

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

/** Whether `code` separates POSIX path segments ("/"). */
export function isPosixSeparator(code: number): boolean {
  return code === SLASH;
}

/** Whether `code` separates Windows path segments ("/" or "\\"). */
export function isWindowsSeparator(code: number): boolean {
  return code === SLASH || code === BACKSLASH;
}

/** Whether `code` is an ASCII letter, as drive letters are. */
export function isDriveLetter(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

/** Collapses ".", ".." and repeated separators in a path without its root (Node's algorithm). */
export function normalizeString(
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

/** Shared by both flavours: the last segment, minus `suffix` when it ends with it. */
export function basenameFrom(
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
export function extnameFrom(path: string, first: number, isSeparator: (code: number) => boolean): string {
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

/**
 * How far `from` (from `fromStart`) and `to` (from `toStart`) agree within `length` characters,
 * and the offset of the last `separator` in that common part (-1 when none): the start of
 * Node's `relative` in both flavours.
 */
export function commonPrefix(
  from: string,
  fromStart: number,
  to: string,
  toStart: number,
  length: number,
  separator: number,
): [number, number] {
  let lastCommonSep = -1;
  let i = 0;
  for (; i < length; i++) {
    const fromCode = from.charCodeAt(fromStart + i);
    if (fromCode !== to.charCodeAt(toStart + i)) break;
    else if (fromCode === separator) lastCommonSep = i;
  }
  return [i, lastCommonSep];
}
