/**
 * A stored session whose working directory is gone (CLI-23): found when a session is opened, before
 * anything runs in a folder that does not exist. The CLI reports it as an error; the runtime throws
 * {@link MissingSessionCwdError} unless the caller gave a cwd to use instead.
 *
 * @module
 */
import { existsSync } from "../util/fs.ts";
import type { SessionManager } from "../session/session_manager.ts";

/** A stored session whose working directory no longer exists. */
export interface MissingSessionCwdIssue {
  /** The session file that names the cwd. */
  sessionFile?: string;
  /** The cwd stored in the session's header. */
  sessionCwd: string;
  /** The cwd pi would use instead (the process's). */
  fallbackCwd: string;
}

/** The issue when `sessionManager`'s file names a cwd that is gone; undefined otherwise. */
export function getMissingSessionCwdIssue(
  sessionManager: SessionManager,
  fallbackCwd: string,
): MissingSessionCwdIssue | undefined {
  const sessionFile = sessionManager.getSessionFile();
  if (!sessionFile) return undefined;
  const sessionCwd = sessionManager.getCwd();
  if (!sessionCwd || existsSync(sessionCwd)) return undefined;
  return { sessionFile, sessionCwd, fallbackCwd };
}

/** The error text for a missing session cwd (reference wording). */
export function formatMissingSessionCwdError(issue: MissingSessionCwdIssue): string {
  const sessionFile = issue.sessionFile ? `\nSession file: ${issue.sessionFile}` : "";
  return `Stored session working directory does not exist: ${issue.sessionCwd}${sessionFile}\nCurrent working directory: ${issue.fallbackCwd}`;
}

/** Thrown when a session is opened whose cwd is gone and no override was given. */
export class MissingSessionCwdError extends Error {
  /** What is missing. */
  readonly issue: MissingSessionCwdIssue;
  /** Builds the error with the reference's message. */
  constructor(issue: MissingSessionCwdIssue) {
    super(formatMissingSessionCwdError(issue));
    this.name = "MissingSessionCwdError";
    this.issue = issue;
  }
}

/** Throws {@link MissingSessionCwdError} when the session's stored cwd does not exist. */
export function assertSessionCwdExists(sessionManager: SessionManager, fallbackCwd: string): void {
  const issue = getMissingSessionCwdIssue(sessionManager, fallbackCwd);
  if (issue) throw new MissingSessionCwdError(issue);
}
