/**
 * Session lists for resume pickers. Each file is streamed once, keeping only the few facts a
 * {@link SessionInfo} needs; entries are never all held in memory.
 *
 * @module
 */
import { existsSync, readDirNames, readDirSorted } from "../util/fs.ts";
import { basename, dirname, join } from "../util/path.ts";
import type { SessionInfo, SessionListProgress } from "./entries.ts";
import { sessionCwdMatches } from "./paths.ts";
import { readLinesSync } from "./jsonl_reader.ts";
import { ListingCache } from "./listing_cache.ts";
import { type SessionSummary, summarizeSessionFile, textOf } from "./session_summary.ts";

type Loose = Record<string, unknown>;

/** Reads at most this many files at once (each holds a read buffer). */
const CONCURRENCY = 8;

/**
 * The text of all user/assistant messages of a file, joined by spaces, for searching. Read in
 * full only when a search asks for it (see {@link buildSessionInfo}).
 */
export function readAllMessagesText(filePath: string): string {
  const texts: string[] = [];
  try {
    readLinesSync(filePath, (line) => {
      // Lines whose start shows they are no user/assistant message are not parsed.
      const head = line.slice(0, 320);
      const type = TYPE_PREFIX.exec(head)?.[1];
      if (type !== undefined && type !== "message") return;
      const role = ROLE_PREFIX.exec(head)?.[1];
      if (role !== undefined && role !== "user" && role !== "assistant") return;
      let entry: Loose;
      try {
        entry = JSON.parse(line);
      } catch {
        return;
      }
      if (entry?.type !== "message") return;
      const message = entry.message as Loose | undefined;
      if (!message || (message.role !== "user" && message.role !== "assistant") || !("content" in message)) {
        return;
      }
      const text = textOf(message.content);
      if (text) texts.push(text);
    });
  } catch {
    return "";
  }
  return texts.join(" ");
}

const TYPE_PREFIX = /^\s*\{\s*"type"\s*:\s*"([^"\\]*)"/;
const ROLE_PREFIX = /"message"\s*:\s*\{\s*"role"\s*:\s*"([^"\\]*)"/;

/**
 * Reads one file into a SessionInfo, or null if it is not a session file. Only what a listing
 * shows is read (see session_summary.ts); `allMessagesText` is read from the file when first
 * used (a search), and `cache` skips files that did not change since the last listing.
 */
export async function buildSessionInfo(filePath: string, cache?: ListingCache): Promise<SessionInfo | null> {
  try {
    const summarize = (prior?: SessionSummary) => summarizeSessionFile(filePath, prior);
    const summary = cache
      ? await cache.summary(basename(filePath), filePath, summarize)
      : (await summarize()).shown;
    const header = summary.header;
    if (!header) return null;
    let modified: Date;
    if (typeof summary.lastActivity === "number" && summary.lastActivity > 0) {
      modified = new Date(summary.lastActivity);
    } else {
      const h = typeof header.timestamp === "string" ? Date.parse(header.timestamp) : NaN;
      modified = Number.isNaN(h) ? ((await Deno.stat(filePath)).mtime ?? new Date(0)) : new Date(h);
    }
    const info: SessionInfo = {
      path: filePath,
      id: header.id as string,
      cwd: typeof header.cwd === "string" ? header.cwd : "",
      name: summary.name,
      parentSessionPath: header.parentSession as string | undefined,
      created: new Date(header.timestamp as string),
      modified,
      messageCount: summary.messageCount,
      firstMessage: summary.firstMessage || "(no messages)",
      allMessagesText: "",
    };
    let text: string | undefined;
    Object.defineProperty(info, "allMessagesText", {
      enumerable: true,
      configurable: true,
      get: () => text ??= readAllMessagesText(filePath),
      set: (value: string) => {
        text = value;
      },
    });
    return info;
  } catch {
    return null;
  }
}

/** Infos of `files` (unreadable ones left out), a few files at a time, using each folder's cache. */
async function infosFor(
  files: string[],
  onProgress: SessionListProgress | undefined,
  total: number,
): Promise<SessionInfo[]> {
  const caches = new Map<string, ListingCache>();
  for (const f of files) {
    const dir = dirname(f);
    if (!caches.has(dir)) caches.set(dir, await ListingCache.load(dir));
  }
  const results: (SessionInfo | null)[] = new Array(files.length).fill(null);
  let loaded = 0;
  let next = 0;
  const worker = async () => {
    while (next < files.length) {
      const i = next++;
      results[i] = await buildSessionInfo(files[i], caches.get(dirname(files[i])));
      loaded++;
      onProgress?.(loaded, total);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, files.length) }, worker));
  for (const cache of caches.values()) await cache.save();
  return results.filter((i): i is SessionInfo => i !== null);
}

function newestFirst(list: SessionInfo[]): SessionInfo[] {
  return list.sort((a, b) => b.modified.getTime() - a.modified.getTime());
}

/** All sessions in one folder, newest first; unreadable files are left out. */
export async function listSessionsInDir(
  dir: string,
  onProgress?: SessionListProgress,
): Promise<SessionInfo[]> {
  if (!existsSync(dir)) return [];
  try {
    const files = (await readDirNames(dir)).filter((f) => f.endsWith(".jsonl")).map((f) => join(dir, f));
    return newestFirst(await infosFor(files, onProgress, files.length));
  } catch {
    return [];
  }
}

/** Sessions of every project under `sessionsRoot` (one sub-folder per project), newest first. */
export async function listSessionsUnder(
  sessionsRoot: string,
  onProgress?: SessionListProgress,
): Promise<SessionInfo[]> {
  if (!existsSync(sessionsRoot)) return [];
  try {
    const dirs = readDirSorted(sessionsRoot)
      .filter((e) => e.isDirectory)
      .map((e) => join(sessionsRoot, e.name));
    const files: string[] = [];
    for (const dir of dirs) {
      try {
        for (const f of await readDirNames(dir)) if (f.endsWith(".jsonl")) files.push(join(dir, f));
      } catch {
        // An unreadable project folder just contributes nothing.
      }
    }
    return newestFirst(await infosFor(files, onProgress, files.length));
  } catch {
    return [];
  }
}

/** Header reads start small: the first line is usually a few hundred bytes. */
const HEADER_CHUNK = 16 * 1024;

/**
 * The header of a session file: its first parseable line when that is a session header with a
 * string id (blank and malformed lines before it are skipped, as on load), else null.
 */
export function readSessionHeader(path: string): { id: string; cwd?: unknown } | null {
  let header: { id: string; cwd?: unknown } | null = null;
  try {
    readLinesSync(path, (line) => {
      if (!line.trim()) return;
      let value: Record<string, unknown>;
      try {
        value = JSON.parse(line);
      } catch {
        return;
      }
      if (value?.type === "session" && typeof value.id === "string") header = value as { id: string };
      return false;
    }, HEADER_CHUNK);
  } catch {
    return null;
  }
  return header;
}

/** True when `path` starts with a session header with a string id. */
export function isValidSessionFile(path: string): boolean {
  return readSessionHeader(path) !== null;
}

/**
 * The most recently modified valid session file in `sessionDir`, or null. With `cwd`, only
 * sessions whose header names that folder count.
 */
export function findMostRecentSession(sessionDir: string, cwd?: string): string | null {
  try {
    const files = readDirSorted(sessionDir).map((e) => e.name)
      .filter((f) => f.endsWith(".jsonl"))
      .map((f) => join(sessionDir, f))
      .map((path) => ({ path, mtime: Deno.statSync(path).mtime?.getTime() ?? 0 }))
      .sort((a, b) => b.mtime - a.mtime);
    for (const { path } of files) {
      const header = readSessionHeader(path);
      if (header && (cwd === undefined || sessionCwdMatches(header.cwd, cwd))) return path;
    }
    return null;
  } catch {
    return null;
  }
}

/**
 * The file in `sessionDir` whose header has exactly `id`, reading only headers; with `cwd`, only
 * a session started there counts. Undefined when there is none (or the folder is unreadable).
 */
export function findSessionById(sessionDir: string, id: string, cwd?: string): string | undefined {
  try {
    for (const entry of readDirSorted(sessionDir)) {
      if (!entry.name.endsWith(".jsonl")) continue;
      const path = join(sessionDir, entry.name);
      const header = readSessionHeader(path);
      if (header?.id !== id) continue;
      if (cwd !== undefined && !sessionCwdMatches(header.cwd, cwd)) continue;
      return path;
    }
  } catch {
    // Discovery is best-effort, like listing.
  }
  return undefined;
}
