/**
 * Path functions with Node's exact `node:path` semantics, without loading Deno's Node
 * compatibility layer (importing `node:path` alone costs ~5 MB of RSS and start-up time).
 * The top-level functions follow the host OS like Node's; `posix` is exported, and `win32` lives in
 * `path_win32.ts`, loaded here only on Windows.
 *
 * @module
 */

import type { PathApi } from "./path_common.ts";
import { posix } from "./path_posix.ts";

export type { PathApi } from "./path_common.ts";
export { posix } from "./path_posix.ts";

// Windows path rules load only on Windows (a literal import(), so deno compile includes them).
const hostApi: PathApi = Deno.build.os === "windows" ? (await import("./path_win32.ts")).win32 : posix;

function host(): PathApi {
  return hostApi;
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
