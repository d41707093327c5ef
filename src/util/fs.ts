/**
 * File-system helpers on Deno's own APIs with the answers (and error texts) pi used to get from
 * `node:fs`, so start-up does not load Deno's Node compatibility layer. Errors that reach the user
 * keep Node's wording ("ENOENT: no such file or directory, open '/x'") through {@link nodeError}.
 *
 * @module
 */

/** libuv's descriptions, which Node puts into its error messages. */
const UV_DESCRIPTIONS: Record<string, string> = {
  EACCES: "permission denied",
  EAGAIN: "resource temporarily unavailable",
  EBADF: "bad file descriptor",
  EBUSY: "resource busy or locked",
  EEXIST: "file already exists",
  EFBIG: "file too large",
  EINVAL: "invalid argument",
  EIO: "i/o error",
  EISDIR: "illegal operation on a directory",
  ELOOP: "too many symbolic links encountered",
  EMFILE: "too many open files",
  ENAMETOOLONG: "name too long",
  ENFILE: "file table overflow",
  ENODEV: "no such device",
  ENOENT: "no such file or directory",
  ENOSPC: "no space left on device",
  ENOTDIR: "not a directory",
  ENOTEMPTY: "directory not empty",
  ENXIO: "no such device or address",
  EPERM: "operation not permitted",
  EROFS: "read-only file system",
  ETXTBSY: "text file is busy",
  EXDEV: "cross-device link not permitted",
};

/** An error shaped like Node's file-system errors (code, syscall, path). */
interface NodeStyleError extends Error {
  code?: string;
  syscall?: string;
  path?: string;
}

/**
 * Rewrites a Deno file-system error into Node's form `CODE: description, syscall 'path'`
 * (without the path when `path` is undefined; `-> 'dest'` for two-path calls). Errors without a
 * known code pass through.
 */
export function nodeError(error: unknown, syscall: string, path?: string, dest?: string): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== "string" || !(code in UV_DESCRIPTIONS)) return error;
  let where = path === undefined ? syscall : `${syscall} '${path}'`;
  if (dest !== undefined) where += ` -> '${dest}'`;
  const out: NodeStyleError = new Error(`${code}: ${UV_DESCRIPTIONS[code]}, ${where}`);
  out.code = code;
  out.syscall = syscall;
  if (path !== undefined) out.path = path;
  return out;
}

/** Whether something exists at `path`, following symlinks, like Node's `existsSync`. */
export function existsSync(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

/** Stat that follows symlinks and answers undefined instead of throwing. */
function statOrUndefined(path: string): Deno.FileInfo | undefined {
  try {
    return Deno.statSync(path);
  } catch {
    return undefined;
  }
}

/** Whether `path` is (or links to) a directory. */
export function isDirectorySync(path: string): boolean {
  return statOrUndefined(path)?.isDirectory ?? false;
}

/** Whether `path` is (or links to) a regular file. */
export function isFileSync(path: string): boolean {
  return statOrUndefined(path)?.isFile ?? false;
}

/** Code-unit order, the order Node's `readdir` lists names in. */
function byName(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Directory entries sorted by name like Node's `readdirSync(dir, { withFileTypes: true })`. */
export function readDirSorted(dir: string): Deno.DirEntry[] {
  try {
    return [...Deno.readDirSync(dir)].sort((a, b) => byName(a.name, b.name));
  } catch (error) {
    throw nodeError(error, "scandir", dir);
  }
}

/** Reads UTF-8 text like Node's `readFileSync(path, "utf-8")`: a BOM is kept, errors read as Node's. */
export function readTextFileSync(path: string): string {
  try {
    return new TextDecoder("utf-8", { ignoreBOM: true }).decode(Deno.readFileSync(path));
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    throw code === "EISDIR" ? nodeError(error, "read") : nodeError(error, "open", path);
  }
}

/** Entry names sorted like Node's `readdir(dir)`; errors read as Node's (syscall "scandir"). */
export async function readDirNames(dir: string): Promise<string[]> {
  const names: string[] = [];
  try {
    for await (const entry of Deno.readDir(dir)) names.push(entry.name);
  } catch (error) {
    throw nodeError(error, "scandir", dir);
  }
  return names.sort(byName);
}

/**
 * Node's `access(path, R_OK | W_OK)`: rejects with Node's error when the path is missing or
 * cannot be opened as asked. Folders only need to exist (their contents fail later, as in Node).
 */
export async function checkAccess(path: string, mode: { write?: boolean } = {}): Promise<void> {
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(path);
  } catch (error) {
    throw nodeError(error, "access", path);
  }
  if (info.isDirectory) return;
  try {
    const file = await Deno.open(path, { read: true, write: mode.write === true });
    file.close();
  } catch (error) {
    throw nodeError(error, "access", path);
  }
}

/** Reads a whole file; errors read as Node's `readFile` ones ("open '/x'", "read" for folders). */
export async function readFileBytes(path: string): Promise<Uint8Array> {
  try {
    return await Deno.readFile(path);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    throw code === "EISDIR" ? nodeError(error, "read") : nodeError(error, "open", path);
  }
}

/** Writes UTF-8 text (creating or truncating); errors read as Node's `writeFile` ones. */
export async function writeTextFile(path: string, text: string): Promise<void> {
  try {
    await Deno.writeTextFile(path, text);
  } catch (error) {
    throw nodeError(error, "open", path);
  }
}

/** Creates a folder and its parents; errors read as Node's `mkdir` ones. */
export async function makeDir(path: string): Promise<void> {
  try {
    await Deno.mkdir(path, { recursive: true });
  } catch (error) {
    throw nodeError(error, "mkdir", path);
  }
}

/** Writes UTF-8 text synchronously (creating or truncating); errors read as Node's `writeFileSync` ones. */
export function writeTextFileSync(path: string, text: string): void {
  try {
    Deno.writeTextFileSync(path, text);
  } catch (error) {
    throw nodeError(error, "open", path);
  }
}

/** Creates a folder and its parents synchronously; errors read as Node's `mkdirSync` ones. */
export function makeDirSync(path: string): void {
  try {
    Deno.mkdirSync(path, { recursive: true });
  } catch (error) {
    throw nodeError(error, "mkdir", path);
  }
}

/** Renames synchronously; errors read as Node's `renameSync` ones. */
export function renameSync(from: string, to: string): void {
  try {
    Deno.renameSync(from, to);
  } catch (error) {
    throw nodeError(error, "rename", from, to);
  }
}

/** Copies a file synchronously; errors read as Node's `copyFileSync` ones. */
export function copyFileSync(from: string, to: string): void {
  try {
    Deno.copyFileSync(from, to);
  } catch (error) {
    throw nodeError(error, "copyfile", from, to);
  }
}

/** Something written to synchronously: a file, `Deno.stdout`, `Deno.stderr`. */
export interface SyncWriter {
  /** Writes some of `p`, returning how many bytes were written. */
  writeSync(p: Uint8Array): number;
}

const utf8Encoder = new TextEncoder();

/**
 * Writes all of `data` (text as UTF-8) to `writer`: a single `writeSync` may write only part of
 * it (pipes, signals), so it is called until nothing is left — normally once.
 *
 * @example
 * ```ts
 * writeAllSync(Deno.stderr, "done\n");
 * ```
 */
export function writeAllSync(writer: SyncWriter, data: Uint8Array | string): void {
  const bytes = typeof data === "string" ? utf8Encoder.encode(data) : data;
  let offset = 0;
  while (offset < bytes.length) offset += writer.writeSync(bytes.subarray(offset));
}
