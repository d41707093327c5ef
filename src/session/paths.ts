/**
 * Where session files live. The agent dir defaults to config's `getAgentDir()` (a leaf module of
 * the same tier); callers with their own directories pass them in.
 *
 * @module
 */
import { existsSync, makeDirSync } from "../util/fs.ts";
import { join, resolve } from "../util/path.ts";
import { getAgentDir } from "../config/paths.ts";

/** The root holding one folder per project: `<agentDir>/sessions`. */
export function getSessionsRoot(agentDir: string = getAgentDir()): string {
  return join(agentDir, "sessions");
}

/**
 * Folder name for a project: the cwd without its leading separator, with `/`, `\` and `:`
 * turned into `-`, wrapped in `--` (`/tmp/proj` → `--tmp-proj--`).
 */
export function encodeCwd(cwd: string): string {
  return `--${cwd.replace(/^[/\\]/, "").replace(/[/\\:]/g, "-")}--`;
}

/** The session folder for `cwd`, without creating it. */
export function getDefaultSessionDirPath(cwd: string, agentDir: string = getAgentDir()): string {
  return join(getSessionsRoot(agentDir), encodeCwd(cwd));
}

/** The session folder for `cwd`, created if missing (the reference creates it eagerly too). */
export function getDefaultSessionDir(cwd: string, agentDir: string = getAgentDir()): string {
  const dir = getDefaultSessionDirPath(cwd, agentDir);
  if (!existsSync(dir)) makeDirSync(dir);
  return dir;
}

/**
 * Whether a session folder other than `cwd`'s own is given: such a folder (`--session-dir`) may
 * hold sessions of several projects, so listings and `--continue` keep only `cwd`'s (pi 1.6.0).
 */
export function isSharedSessionDir(sessionDir: string | undefined, cwd: string): sessionDir is string {
  return sessionDir !== undefined && resolve(sessionDir) !== resolve(getDefaultSessionDirPath(resolve(cwd)));
}

/** Whether a header's `cwd` names the folder `cwd` (an empty or missing cwd matches nothing). */
export function sessionCwdMatches(headerCwd: unknown, cwd: string): boolean {
  return typeof headerCwd === "string" && headerCwd !== "" && resolve(headerCwd) === resolve(cwd);
}

/** File name for a new session: ISO time with `:` and `.` as `-`, then `_<id>.jsonl`. */
export function sessionFileName(isoTimestamp: string, sessionId: string): string {
  return `${isoTimestamp.replace(/[:.]/g, "-")}_${sessionId}.jsonl`;
}
