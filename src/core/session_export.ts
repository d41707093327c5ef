/**
 * `/export <file>.jsonl`: the current branch as a standalone, linear session file (SES-17).
 * Unlike a fork it keeps the session id and drops `parentSession`, so the file reads as the same
 * conversation with its side branches removed, ready for `/import` elsewhere.
 *
 * @module
 */
import { existsSync, makeDirSync, writeTextFileSync } from "../util/fs.ts";
import { dirname, resolve } from "../util/path.ts";
import { CURRENT_SESSION_VERSION, type SessionHeader } from "../session/entries.ts";
import type { SessionManager } from "../session/session_manager.ts";

/** The part of an AgentSession that exporting reads. */
export interface ExportableSession {
  /** The session's entries, id and cwd. */
  readonly sessionManager: Pick<SessionManager, "getSessionId" | "getCwd" | "getBranch">;
}

/** The file name used when no output path is given: `session-<ISO time with - for : and .>.jsonl`. */
export function defaultJsonlExportName(date: Date = new Date()): string {
  return `session-${date.toISOString().replace(/[:.]/g, "-")}.jsonl`;
}

/**
 * Writes a fresh header (same id and cwd, new timestamp) plus every entry from the root to the
 * leaf with `parentId`s re-chained into one line, replacing any existing file. Relative paths
 * resolve against the process cwd; missing folders are created. Returns the absolute path.
 */
export function exportToJsonl(session: ExportableSession, outputPath?: string): string {
  const filePath = resolve(outputPath ?? defaultJsonlExportName());
  const dir = dirname(filePath);
  if (!existsSync(dir)) makeDirSync(dir);
  const manager = session.sessionManager;
  const header: SessionHeader = {
    type: "session",
    version: CURRENT_SESSION_VERSION,
    id: manager.getSessionId(),
    timestamp: new Date().toISOString(),
    cwd: manager.getCwd(),
  };
  const lines = [JSON.stringify(header)];
  let previousId: string | null = null;
  for (const entry of manager.getBranch()) {
    lines.push(JSON.stringify({ ...entry, parentId: previousId }));
    previousId = entry.id;
  }
  writeTextFileSync(filePath, `${lines.join("\n")}\n`);
  return filePath;
}
