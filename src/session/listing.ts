/**
 * Session lists for resume pickers. Each file is streamed once, keeping only the few facts a
 * {@link SessionInfo} needs; entries are never all held in memory.
 *
 * @module
 */
import { existsSync, readDirNames, readDirSorted } from "../util/fs.ts";
import { join } from "../util/path.ts";
import type { SessionInfo, SessionListProgress } from "./entries.ts";
import { sessionCwdMatches } from "./paths.ts";
import { readLines, readLinesSync } from "./jsonl_reader.ts";

type Loose = Record<string, unknown>;

/** Joins the text blocks of a message (images and other blocks are skipped). */
function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  const parts: string[] = [];
  for (const b of content) {
    if (b && typeof b === "object" && (b as Loose).type === "text") parts.push(String((b as Loose).text));
  }
  return parts.join(" ");
}

/** Types whose lines can be skipped without parsing (they carry nothing a listing shows). */
const SKIPPABLE =
  /^\{"type":"(?:model_change|thinking_level_change|compaction|branch_summary|custom|custom_message|label|usage|context_edit)"/;

/** Reads one file into a SessionInfo, or null if it is not a session file. */
export async function buildSessionInfo(filePath: string): Promise<SessionInfo | null> {
  try {
    let header: Loose | undefined;
    let valid = true;
    let messageCount = 0;
    let firstMessage = "";
    const texts: string[] = [];
    let name: string | undefined;
    let lastActivity: number | undefined;
    await readLines(filePath, (line) => {
      if (!line.trim()) return;
      if (header && SKIPPABLE.test(line)) return;
      let entry: Loose;
      try {
        entry = JSON.parse(line);
      } catch {
        return;
      }
      if (!header) {
        if (!entry || entry.type !== "session") {
          valid = false;
          return false;
        }
        header = entry;
        return;
      }
      if (entry.type === "session_info") {
        const n = typeof entry.name === "string" ? entry.name.trim() : "";
        name = n || undefined;
      }
      if (entry.type !== "message") return;
      messageCount++;
      const message = entry.message as Loose | undefined;
      if (!message || typeof message.role !== "string" || !("content" in message)) return;
      if (message.role !== "user" && message.role !== "assistant") return;
      if (typeof message.timestamp === "number") {
        lastActivity = Math.max(lastActivity ?? 0, message.timestamp);
      } else if (typeof entry.timestamp === "string") {
        const t = Date.parse(entry.timestamp);
        if (!Number.isNaN(t)) lastActivity = Math.max(lastActivity ?? 0, t);
      }
      const text = textOf(message.content);
      if (!text) return;
      texts.push(text);
      if (!firstMessage && message.role === "user") firstMessage = text;
    });
    if (!valid || !header) return null;
    const stats = await Deno.stat(filePath);
    let modified: Date;
    if (typeof lastActivity === "number" && lastActivity > 0) modified = new Date(lastActivity);
    else {
      const h = typeof header.timestamp === "string" ? Date.parse(header.timestamp) : NaN;
      modified = Number.isNaN(h) ? (stats.mtime ?? new Date(0)) : new Date(h);
    }
    return {
      path: filePath,
      id: header.id as string,
      cwd: typeof header.cwd === "string" ? header.cwd : "",
      name,
      parentSessionPath: header.parentSession as string | undefined,
      created: new Date(header.timestamp as string),
      modified,
      messageCount,
      firstMessage: firstMessage || "(no messages)",
      allMessagesText: texts.join(" "),
    };
  } catch {
    return null;
  }
}

async function infosFor(
  files: string[],
  onProgress: SessionListProgress | undefined,
  total: number,
): Promise<SessionInfo[]> {
  let loaded = 0;
  const results = await Promise.all(files.map(async (f) => {
    const info = await buildSessionInfo(f);
    loaded++;
    onProgress?.(loaded, total);
    return info;
  }));
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
    });
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
