/**
 * The session lists a resume picker shows (the current folder's sessions, or every project's)
 * and the two changes it makes to a listed file (rename, delete), for the modes, which reach
 * src/session only through src/core.
 *
 * @module
 */
import type { SessionInfo, SessionListProgress } from "../session/entries.ts";
import { getDefaultSessionDirPath, getSessionsRoot, isSharedSessionDir } from "../session/paths.ts";
import { SessionManager } from "../session/session_manager.ts";
import { removeSessionIndex } from "../session/session_index.ts";

export type { SessionInfo, SessionListProgress };

/** Loads one scope's sessions, newest first, reporting files read so far. */
export type SessionListLoader = (onProgress?: SessionListProgress) => Promise<SessionInfo[]>;

/** The two loaders of a picker: this folder's sessions and all projects' sessions. */
export interface SessionListLoaders {
  /** Sessions started in the current folder. */
  current: SessionListLoader;
  /** Sessions of every project (or of the one shared `--session-dir` folder). */
  all: SessionListLoader;
}

/**
 * The loaders for a picker opened in `cwd` with sessions kept in `sessionDir`: a custom session
 * folder (not the per-project default) is the only place "all" looks, as in pi 1.6.0; otherwise
 * "all" scans every project folder under the agent dir's `sessions/` (`agentDir`, default: the
 * environment's).
 */
export function sessionListLoaders(
  cwd: string,
  sessionDir: string | undefined,
  agentDir?: string,
): SessionListLoaders {
  const own = sessionDir ?? (agentDir ? getDefaultSessionDirPath(cwd, agentDir) : undefined);
  return {
    current: (onProgress) => SessionManager.list(cwd, own, onProgress),
    all: (onProgress) =>
      isSharedSessionDir(sessionDir, cwd)
        ? SessionManager.listAll(sessionDir, onProgress)
        : SessionManager.listAll(onProgress, agentDir ? getSessionsRoot(agentDir) : undefined),
  };
}

/** Gives the session in `path` the display name `name` (a `session_info` entry appended to it). */
export function renameSessionFile(path: string, name: string): void {
  const next = name.trim();
  if (!next) return;
  SessionManager.open(path).appendSessionInfo(next);
}

/**
 * Deletes the session file at `path` and its resume index (`<file>.idx`, which would otherwise be
 * left behind unread); the error message when the session file could not be removed.
 */
export async function deleteSessionFile(path: string): Promise<{ ok: true } | { ok: false; error: string }> {
  try {
    await Deno.remove(path);
    removeSessionIndex(path);
    return { ok: true };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * Copies the session in `sourcePath` into a new session for `cwd` (new id, `parentSession`
 * naming the source) in `sessionDir`; its file and id. The source is left as it is.
 */
export function forkSessionFile(
  sourcePath: string,
  cwd: string,
  sessionDir?: string,
): { path: string; id: string } {
  const fork = SessionManager.forkFrom(sourcePath, cwd, sessionDir);
  return { path: fork.getSessionFile()!, id: fork.getSessionId() };
}
