/**
 * Which files a stretch of conversation touched, as seen from the agent's read/write/edit tool
 * calls. Summaries end with these lists so the model still knows which files matter after the
 * history itself is gone.
 *
 * @module
 */
import type { AgentMessage } from "../session/messages.ts";

/** Paths seen per kind of tool call; insertion order is kept, lists are sorted on output. */
export interface FileOperations {
  /** Files read. */
  read: Set<string>;
  /** Files written. */
  written: Set<string>;
  /** Files edited. */
  edited: Set<string>;
}

/** An empty set of file operations. */
export function createFileOps(): FileOperations {
  return { read: new Set(), written: new Set(), edited: new Set() };
}

/** Records the `path` argument of every read/write/edit tool call in an assistant message. */
export function extractFileOpsFromMessage(message: AgentMessage, fileOps: FileOperations): void {
  if (message.role !== "assistant" || !Array.isArray(message.content)) return;
  for (const block of message.content) {
    if (typeof block !== "object" || block === null || block.type !== "toolCall") continue;
    const args = block.arguments as Record<string, unknown> | undefined;
    const path = args && typeof args.path === "string" ? args.path : undefined;
    if (!path) continue;
    if (block.name === "read") fileOps.read.add(path);
    else if (block.name === "write") fileOps.written.add(path);
    else if (block.name === "edit") fileOps.edited.add(path);
  }
}

/**
 * Sorted file lists: `modifiedFiles` are written or edited; `readFiles` are only read (a file
 * that was also modified is listed once, as modified).
 */
export function computeFileLists(fileOps: FileOperations): { readFiles: string[]; modifiedFiles: string[] } {
  const modified = new Set([...fileOps.edited, ...fileOps.written]);
  const readFiles = [...fileOps.read].filter((f) => !modified.has(f)).sort();
  return { readFiles, modifiedFiles: [...modified].sort() };
}

/** The `<read-files>` / `<modified-files>` blocks appended to a summary ("" when both are empty). */
export function formatFileOperations(readFiles: string[], modifiedFiles: string[]): string {
  const sections: string[] = [];
  if (readFiles.length > 0) sections.push(`<read-files>\n${readFiles.join("\n")}\n</read-files>`);
  if (modifiedFiles.length > 0) {
    sections.push(`<modified-files>\n${modifiedFiles.join("\n")}\n</modified-files>`);
  }
  return sections.length === 0 ? "" : `\n\n${sections.join("\n\n")}`;
}

/**
 * Adds the file lists a previous pi-generated summary stored in its `details`. Summaries written
 * by extensions (`fromHook`) carry their own details shape and are ignored. Modified files go
 * into `edited` so they stay modified after deduplication.
 */
export function addFileOpsFromDetails(
  entry: { details?: unknown; fromHook?: boolean },
  fileOps: FileOperations,
): void {
  if (entry.fromHook || !entry.details || typeof entry.details !== "object") return;
  const details = entry.details as { readFiles?: unknown; modifiedFiles?: unknown };
  if (Array.isArray(details.readFiles)) { for (const f of details.readFiles) fileOps.read.add(f); }
  if (Array.isArray(details.modifiedFiles)) { for (const f of details.modifiedFiles) fileOps.edited.add(f); }
}
