/**
 * Reading and writing session files safely. Every append is one write of complete lines; a
 * torn last line (writer killed mid-write) is ignored on load and the next append starts on a
 * fresh line, so one crash never damages the entries around it. Nothing here ever truncates a
 * file that holds data.
 *
 * @module
 */
import { existsSync, renameSync, writeAllSync, writeTextFileSync } from "../util/fs.ts";
import type { FileEntry, SessionHeader } from "./entries.ts";
import { readLinesSync } from "./jsonl_reader.ts";
import { type LazyReadOptions, readSessionFileLazily } from "./lazy_session_file.ts";
import {
  type IndexedReadOptions,
  type IndexOptions,
  readSessionFileIndexed,
  removeSessionIndex,
} from "./session_index.ts";

/** Thrown when a non-empty file does not start with a readable session header. */
export class InvalidSessionFileError extends Error {
  /** The file that was refused. */
  readonly path: string;
  /** Names the file and why it was refused in the message. */
  constructor(path: string, reason: string) {
    super(`Not a valid session file: ${path} (${reason}). The file was left untouched.`);
    this.name = "InvalidSessionFileError";
    this.path = path;
  }
}

/** Everything learnt from reading one session file. */
export interface LoadedSessionFile {
  /** Parsed lines in file order; the header first when valid. */
  entries: FileEntry[];
  /** One message per skipped line (malformed JSON, non-object, torn tail). */
  warnings: string[];
  /** False when the file's last byte is not `\n`: the next append must begin with one. */
  endsWithNewline: boolean;
  /** True when the file held no non-blank line at all (safe to give it a fresh header). */
  blank: boolean;
  /** Null when the first parsed line is not a session header with a string id. */
  header: SessionHeader | null;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** How resume loads a file: lazily or in full, with or without the session index. */
export interface SessionLoadMode {
  /** Lazy read thresholds (with the index: how stubs are made), or false for a full load. */
  lazy: (LazyReadOptions & IndexedReadOptions) | false;
  /** Session index settings (session_index.ts), or false to neither read nor write one. */
  index: IndexOptions | false;
}

function envValue(name: string): string | undefined {
  try {
    return Deno.env.get(name);
  } catch {
    return undefined; // No env permission: the default.
  }
}

/**
 * How resume loads a file: lazily with the default thresholds and the session index, unless
 * `PI_SESSION_LOAD` says `eager` (every line parsed in full, no index) or `lazy-all` (every line
 * and value through the lazy path), or `PI_SESSION_INDEX` says `off` (no index) or `always`
 * (write one after any scan, not only after a big one). The variables exist for the tests that
 * prove every way sends the same requests.
 */
export function sessionLoadMode(): SessionLoadMode {
  const mode = envValue("PI_SESSION_LOAD");
  if (mode === "eager") return { lazy: false, index: false };
  const indexMode = envValue("PI_SESSION_INDEX");
  const index = indexMode === "off" ? false : indexMode === "always" ? { minScanBytes: 1 } : {};
  // With the index, entries are stubs (entry_stubs.ts); `lazy-all` then stubs every entry it can.
  if (index !== false) return { lazy: mode === "lazy-all" ? { stubAll: true } : {}, index };
  if (mode === "lazy-all") return { lazy: { eagerLineBytes: 0, inlineValueBytes: 0 }, index };
  return { lazy: {}, index };
}

/**
 * Reads a session file: lazily with `lazy` options (see lazy_session_file.ts; big content is
 * read back when used), through the session index with `index` options (see
 * session_index.ts), else every line parsed in full. The same result every way.
 */
export function readSessionFile(
  path: string,
  lazy: (LazyReadOptions & IndexedReadOptions) | false = false,
  index: IndexOptions | false = false,
): LoadedSessionFile {
  if (lazy) {
    const loaded = index ? readSessionFileIndexed(path, lazy, index) : readSessionFileLazily(path, lazy);
    return {
      entries: loaded.entries,
      warnings: loaded.warnings,
      endsWithNewline: loaded.endsWithNewline,
      blank: loaded.blank,
      header: headerOf(loaded.entries),
    };
  }
  const entries: FileEntry[] = [];
  const warnings: string[] = [];
  let blank = true;
  const scan = readLinesSync(path, (line, lineNumber, terminated) => {
    if (!line.trim()) return;
    blank = false;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      warnings.push(
        terminated
          ? `${path}:${lineNumber}: skipped malformed line`
          : `${path}:${lineNumber}: ignored incomplete last line (${line.length} chars, interrupted write?)`,
      );
      return;
    }
    if (!isObject(value)) {
      warnings.push(`${path}:${lineNumber}: skipped line that is not a JSON object`);
      return;
    }
    entries.push(value as unknown as FileEntry);
  });
  return { entries, warnings, endsWithNewline: scan.endsWithNewline, blank, header: headerOf(entries) };
}

/** The first entry when it is a session header with a string id, else null. */
function headerOf(entries: FileEntry[]): SessionHeader | null {
  const first = entries[0] as unknown as Record<string, unknown> | undefined;
  return first && first.type === "session" && typeof first.id === "string"
    ? (first as unknown as SessionHeader)
    : null;
}

/** Serializes entries as JSONL text (each line ends with `\n`). */
export function toJsonl(entries: readonly unknown[]): string {
  let out = "";
  for (const e of entries) out += `${JSON.stringify(e)}\n`;
  return out;
}

/** Appends `text` (complete lines) to `path`, creating it if needed. */
export function appendText(path: string, text: string): void {
  const file = Deno.openSync(path, { append: true, create: true });
  try {
    writeAllSync(file, text);
  } finally {
    file.close();
  }
}

/**
 * Replaces `path` with `text` atomically (temp file + rename), so a crash leaves either the old
 * or the new content, never half of each.
 */
export function replaceFileAtomically(path: string, text: string): void {
  const tmp = `${path}.${crypto.randomUUID().slice(0, 8)}.tmp`;
  writeTextFileSync(tmp, text);
  renameSync(tmp, path);
  // The session index described the old bytes (it would be ignored, but need not linger).
  if (path.endsWith(".jsonl")) removeSessionIndex(path);
}

/** Creates a new file with `text`; refuses to clobber an existing one with data. */
export function writeNewFile(path: string, text: string): void {
  if (existsSync(path) && Deno.statSync(path).size > 0) {
    throw new Error(`Refusing to overwrite existing session file: ${path}`);
  }
  writeTextFileSync(path, text);
}

/**
 * All lines of a session file (header first), or `[]` when the file is missing or has no valid
 * header. Kept for SDK compatibility with the reference's test helper.
 */
export function loadEntriesFromFile(filePath: string): FileEntry[] {
  if (!existsSync(filePath)) return [];
  const loaded = readSessionFile(filePath);
  return loaded.header ? loaded.entries : [];
}

/** Parses JSONL text already in memory (small inputs), skipping malformed lines. */
export function parseSessionEntries(content: string): FileEntry[] {
  const out: FileEntry[] = [];
  for (const line of content.split("\n")) {
    if (!line.trim()) continue;
    try {
      const v = JSON.parse(line);
      if (isObject(v)) out.push(v as unknown as FileEntry);
    } catch {
      // Malformed lines are skipped, as on load.
    }
  }
  return out;
}
