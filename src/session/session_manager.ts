/**
 * SessionManager: a conversation as an append-only tree stored in a JSONL file (format v3).
 * Same public names and behaviour as the reference's `SessionManager`, with safer file handling:
 * loads stream line by line, appends are single writes of whole lines, a torn tail from a crash is
 * skipped and never glued to the next entry, and a file without a readable header is refused
 * instead of being replaced.
 *
 * @module
 */
import { existsSync, makeDirSync } from "../util/fs.ts";
import { join, resolve } from "../util/path.ts";
import type { ImageContent, Message, TextContent, Usage } from "../ai/types.ts";
import { buildContextEntries, buildSessionProjection, pathToRoot } from "./context.ts";
import {
  type BranchSummaryEntry,
  type CompactionEntry,
  type ContextEditEntry,
  type ContextEditReplacement,
  CURRENT_SESSION_VERSION,
  type CustomEntry,
  type CustomMessageEntry,
  type FileEntry,
  type LabelEntry,
  type ModelChangeEntry,
  type NewSessionOptions,
  type SessionContext,
  type SessionEntry,
  type SessionHeader,
  type SessionInfo,
  type SessionInfoEntry,
  type SessionListProgress,
  type SessionMessageEntry,
  type SessionProjection,
  type SessionTreeNode,
  type ThinkingLevelChangeEntry,
  type UsageEntry,
} from "./entries.ts";
import { assertValidSessionId, createSessionId, generateEntryId } from "./ids.ts";
import {
  findMostRecentSession,
  findSessionById,
  listSessionsInDir,
  listSessionsUnder,
  readSessionHeader,
} from "./listing.ts";
import type { BashExecutionMessage, CustomMessage } from "./messages.ts";
import { getCurrentSystemMessage, type SystemMessage } from "./system_message.ts";
import { migrateToCurrentVersion } from "./migrations.ts";
import {
  getDefaultSessionDir,
  getSessionsRoot,
  isSharedSessionDir,
  sessionCwdMatches,
  sessionFileName,
} from "./paths.ts";
import {
  appendText,
  InvalidSessionFileError,
  readSessionFile,
  replaceFileAtomically,
  sessionLoadMode,
  toJsonl,
  writeNewFile,
} from "./session_file.ts";
import { buildTree, recreateLabels, withoutLabels } from "./tree.ts";
import { checkContextEdit } from "./context_edit.ts";
import { messageRole } from "./entry_stubs.ts";

/** The read-only part of a SessionManager handed to extensions and UIs. */
export type ReadonlySessionManager = Pick<
  SessionManager,
  | "getCwd"
  | "getSessionDir"
  | "getSessionId"
  | "getSessionFile"
  | "getLeafId"
  | "getLeafEntry"
  | "getEntry"
  | "getLabel"
  | "getBranch"
  | "getHeader"
  | "getEntries"
  | "getTree"
  | "getSessionName"
>;

function now(): string {
  return new Date().toISOString();
}

/** The first line of a new session file. */
function sessionHeader(id: string, timestamp: string, cwd: string, parentSession?: string): SessionHeader {
  return { type: "session", version: CURRENT_SESSION_VERSION, id, timestamp, cwd, parentSession };
}

/** A user or assistant message: the entries whose arrival creates the session file. */
function isConversation(entry: SessionEntry): boolean {
  if (entry.type !== "message") return false;
  const role = messageRole(entry);
  return role === "user" || role === "assistant";
}

/**
 * Manages one session at a time. The leaf pointer marks the current position: appends create
 * children of the leaf, `branch()` moves it back so new entries start a sibling branch.
 *
 * @example
 * ```ts
 * import { SessionManager } from "@pi-deno/coding-agent";
 *
 * // A session that never touches the disk; `SessionManager.create(cwd)` writes a JSONL file instead.
 * const sessions = SessionManager.inMemory(Deno.cwd());
 * const firstId = sessions.appendMessage({ role: "user", content: "Hello", timestamp: Date.now() });
 * sessions.appendMessage({ role: "user", content: "Hello again", timestamp: Date.now() });
 *
 * // Go back to the first message: the next append starts a sibling branch.
 * sessions.branch(firstId);
 * const { messages } = sessions.buildSessionContext();
 * console.log(sessions.getSessionId(), messages.length); // 1 message on this branch
 * ```
 */
export class SessionManager {
  private sessionId = "";
  private sessionFile: string | undefined;
  private sessionDir: string;
  private cwd: string;
  private persist: boolean;
  private fileEntries: FileEntry[] = [];
  private byId = new Map<string, SessionEntry>();
  private labelsById = new Map<string, string>();
  private labelTimestampsById = new Map<string, string>();
  private leafId: string | null = null;
  /** How many of `fileEntries` are on disk; the rest are pending. */
  private writtenCount = 0;
  /** The session holds a user or assistant message: from then on the file exists. */
  private hasConversation = false;
  /** The file's last line has no `\n` (torn write): prefix the next append with one. */
  private needsNewline = false;
  private loadWarnings: string[] = [];
  /** The current leaf's root-first path, reused while leaf and entries stay the same. */
  private pathCache: { leafId: string; count: number; generation: number; path: SessionEntry[] } | undefined;
  /** Bumped whenever the entries are replaced (load, new session, branched session). */
  private generation = 0;

  private constructor(
    cwd: string,
    sessionDir: string,
    sessionFile: string | undefined,
    persist: boolean,
    options?: NewSessionOptions,
  ) {
    this.cwd = cwd;
    this.sessionDir = sessionDir;
    this.persist = persist;
    if (persist && sessionDir && !existsSync(sessionDir)) makeDirSync(sessionDir);
    if (sessionFile) this.setSessionFile(sessionFile);
    else this.newSession(options);
  }

  /**
   * Switches to `sessionFile` (resume, fork). A missing or blank file starts a new session at
   * that path; a file with data but no valid header throws {@link InvalidSessionFileError}.
   */
  setSessionFile(sessionFile: string): void {
    const path = resolve(sessionFile);
    if (!existsSync(path)) {
      this.newSession();
      this.sessionFile = path;
      return;
    }
    const mode = sessionLoadMode();
    let loaded = readSessionFile(path, mode.lazy, mode.index);
    if (loaded.header && loaded.header.version !== CURRENT_SESSION_VERSION) {
      // Old formats are migrated in place and rewritten: that needs every entry in full.
      loaded = readSessionFile(path);
    }
    if (loaded.blank) {
      this.newSession();
      this.sessionFile = path;
      this.loadWarnings = loaded.warnings;
      replaceFileAtomically(path, toJsonl(this.fileEntries));
      this.writtenCount = this.fileEntries.length;
      return;
    }
    if (!loaded.header) {
      throw new InvalidSessionFileError(path, "the first line is not a session header with an id");
    }
    this.sessionFile = path;
    this.fileEntries = loaded.entries;
    this.loadWarnings = loaded.warnings;
    this.sessionId = loaded.header.id;
    this.needsNewline = !loaded.endsWithNewline;
    if (migrateToCurrentVersion(this.fileEntries)) {
      if (loaded.warnings.length > 0) {
        // Rewriting drops skipped lines; keep the original so nothing is lost.
        Deno.copyFileSync(path, `${path}.pre-v${CURRENT_SESSION_VERSION}.bak`);
      }
      replaceFileAtomically(path, toJsonl(this.fileEntries));
      this.needsNewline = false;
    }
    this.buildIndex();
    this.writtenCount = this.fileEntries.length;
  }

  /**
   * Starts an empty session. Nothing is written until the first user or assistant message, so
   * opening and closing pi without chatting leaves no file; a chosen `id` must pass
   * {@link assertValidSessionId}.
   */
  newSession(options?: NewSessionOptions): string | undefined {
    if (options?.id !== undefined) assertValidSessionId(options.id);
    this.sessionId = options?.id ?? createSessionId();
    const timestamp = now();
    this.fileEntries = [sessionHeader(this.sessionId, timestamp, this.cwd, options?.parentSession)];
    this.generation++;
    this.byId.clear();
    this.labelsById.clear();
    this.labelTimestampsById.clear();
    this.leafId = null;
    this.writtenCount = 0;
    this.hasConversation = false;
    this.needsNewline = false;
    this.loadWarnings = [];
    if (this.persist) {
      this.sessionFile = join(this.getSessionDir(), sessionFileName(timestamp, this.sessionId));
    }
    return this.sessionFile;
  }

  /** Rebuilds the id, label and leaf indexes from the loaded entries. */
  private buildIndex(): void {
    this.generation++;
    this.byId.clear();
    this.labelsById.clear();
    this.labelTimestampsById.clear();
    this.leafId = null;
    this.hasConversation = false;
    for (const entry of this.fileEntries) {
      if (entry.type === "session") continue;
      this.byId.set(entry.id, entry);
      this.leafId = entry.id;
      if (!this.hasConversation && isConversation(entry)) this.hasConversation = true;
      if (entry.type === "label") this.applyLabel(entry);
    }
  }

  /** Records or clears the label an entry names. */
  private applyLabel(entry: LabelEntry): void {
    if (entry.label) {
      this.labelsById.set(entry.targetId, entry.label);
      this.labelTimestampsById.set(entry.targetId, entry.timestamp);
    } else {
      this.labelsById.delete(entry.targetId);
      this.labelTimestampsById.delete(entry.targetId);
    }
  }

  /** Warnings from the last load (skipped malformed lines, an ignored torn last line). */
  getLoadWarnings(): string[] {
    return [...this.loadWarnings];
  }

  /** False for in-memory sessions. */
  isPersisted(): boolean {
    return this.persist;
  }

  /** Working directory of the session. */
  getCwd(): string {
    return this.cwd;
  }

  /** Folder new session files (new, branch) go to. */
  getSessionDir(): string {
    return this.sessionDir;
  }

  /** Whether the session folder is `cwd`'s default one under the agent dir. */
  usesDefaultSessionDir(): boolean {
    return !isSharedSessionDir(this.sessionDir, this.cwd);
  }

  /** The session's UUIDv7. */
  getSessionId(): string {
    return this.sessionId;
  }

  /** Path of the session file (it may not exist yet: writing is lazy). */
  getSessionFile(): string | undefined {
    return this.sessionFile;
  }

  /**
   * Writes pending entries. Setup entries alone (model, thinking level, system prompt) stay in
   * memory; the first user or assistant message writes the file (so a prompt whose first turn
   * never completes is still on disk), and from then on every entry is appended at once.
   */
  private flush(): void {
    if (!this.persist || !this.sessionFile) return;
    if (this.writtenCount === 0 && !this.hasConversation) return;
    if (this.writtenCount >= this.fileEntries.length) return;
    let text = toJsonl(this.fileEntries.slice(this.writtenCount));
    if (this.needsNewline) text = `\n${text}`;
    appendText(this.sessionFile, text);
    this.needsNewline = false;
    this.writtenCount = this.fileEntries.length;
  }

  /**
   * 1.6.0's public persistence step, which its `_appendEntry` calls after adding `entry`: writes
   * what is pending (here every entry not yet on disk, `entry` among them), under the same rule as
   * {@link flush}.
   */
  _persist(_entry: SessionEntry): void {
    this.flush();
  }

  /** Adds an entry as the new leaf and writes it; a failed write takes the entry back. */
  private appendEntry(entry: SessionEntry): void {
    const previous = { leafId: this.leafId, hasConversation: this.hasConversation };
    this.fileEntries.push(entry);
    this.byId.set(entry.id, entry);
    this.leafId = entry.id;
    if (isConversation(entry)) this.hasConversation = true;
    try {
      this.flush();
    } catch (error) {
      // An entry that is not on disk must not become the parent of later ones.
      this.fileEntries.pop();
      this.byId.delete(entry.id);
      this.leafId = previous.leafId;
      this.hasConversation = previous.hasConversation;
      throw error;
    }
  }

  /** Appends a new entry (see {@link appendEntry}) and returns its id. */
  private add<E extends SessionEntry>(entry: E): string {
    this.appendEntry(entry);
    return entry.id;
  }

  /** A new entry id, unique within the session. */
  private nextId(): string {
    return generateEntryId(this.byId);
  }

  /** The fields every new entry starts with (in the reference's key order): a child of the leaf. */
  private stamp<T extends string>(
    type: T,
  ): { type: T; id: string; parentId: string | null; timestamp: string } {
    return { type, id: this.nextId(), parentId: this.leafId, timestamp: now() };
  }

  /**
   * Appends a message as a child of the leaf and returns its id. A system message records the
   * prompt and tool loadout (see system_message.ts). Compaction and branch summaries are not
   * messages here: use appendCompaction() / branchWithSummary().
   */
  appendMessage(message: Message | SystemMessage | CustomMessage | BashExecutionMessage): string {
    return this.add<SessionMessageEntry>({
      ...this.stamp("message"),
      message,
    });
  }

  /** Records a thinking level change; returns the entry id. */
  appendThinkingLevelChange(thinkingLevel: string): string {
    return this.add<ThinkingLevelChangeEntry>({
      ...this.stamp("thinking_level_change"),
      thinkingLevel,
    });
  }

  /** Records a model change; returns the entry id. */
  appendModelChange(provider: string, modelId: string): string {
    return this.add<ModelChangeEntry>({
      ...this.stamp("model_change"),
      provider,
      modelId,
    });
  }

  /**
   * Records a compaction: history before `firstKeptEntryId` becomes `summary` (undefined keeps
   * nothing: the entry then names itself). The prompt and tools in force are stored with it as
   * `systemMessage`, the checkpoint that leads the compacted context. Returns its id.
   */
  appendCompaction<T = unknown>(
    summary: string,
    firstKeptEntryId: string | null | undefined,
    tokensBefore: number,
    details?: T,
    fromHook?: boolean,
    usage?: Usage,
  ): string {
    const timestamp = now();
    const checkpoint = getCurrentSystemMessage(this.buildSessionProjection().messages);
    const id = this.nextId();
    const entry: CompactionEntry<T> = {
      type: "compaction",
      id,
      parentId: this.leafId,
      timestamp,
      summary,
      firstKeptEntryId: firstKeptEntryId ?? id,
      tokensBefore,
      details,
      usage,
      fromHook,
      ...(checkpoint ? { systemMessage: { ...checkpoint, timestamp: new Date(timestamp).getTime() } } : {}),
    };
    this.appendEntry(entry as CompactionEntry);
    return entry.id;
  }

  /**
   * Records model usage that is not an assistant message (e.g. `"cache_warm"`); it counts in
   * session totals and never enters the context. Returns the entry (not just its id).
   */
  appendUsage(kind: string, provider: string, model: string, usage: Usage, note?: string): UsageEntry {
    const entry: UsageEntry = {
      ...this.stamp("usage"),
      kind,
      provider,
      model,
      usage,
      ...(note ? { note } : {}),
    };
    this.appendEntry(entry);
    return entry;
  }

  /**
   * Changes what the model sees of an earlier user, assistant, tool-result or custom-message
   * entry on the current branch: `null` omits it (a failed attempt before a retry), a
   * replacement swaps its content (a string becomes one text block for assistant and tool
   * results). The target itself is not modified. Returns the edit's id.
   */
  appendContextEdit(targetId: string, replacement: ContextEditReplacement | null): string {
    const normalized = checkContextEdit(this.byId.get(targetId), targetId, this.getBranch(), replacement);
    return this.add<ContextEditEntry>({
      ...this.stamp("context_edit"),
      targetId,
      replacement: normalized,
    });
  }

  /** Stores extension state (not part of the LLM context); returns the entry id. */
  appendCustomEntry(customType: string, data?: unknown): string {
    return this.add<CustomEntry>({
      type: "custom",
      customType,
      data,
      id: this.nextId(),
      parentId: this.leafId,
      timestamp: now(),
    });
  }

  /** Sets the session's display name (line breaks become spaces, trimmed; empty clears it); returns the entry id. */
  appendSessionInfo(name: string): string {
    return this.add<SessionInfoEntry>({
      ...this.stamp("session_info"),
      name: name.replace(/[\r\n]+/g, " ").trim(),
    });
  }

  /** The name from the latest session_info entry, if any and not cleared. */
  getSessionName(): string | undefined {
    for (let i = this.fileEntries.length - 1; i >= 0; i--) {
      const e = this.fileEntries[i];
      if (e.type === "session_info") return e.name?.trim() || undefined;
    }
    return undefined;
  }

  /** Appends an extension message that joins the LLM context; returns the entry id. */
  appendCustomMessageEntry<T = unknown>(
    customType: string,
    content: string | (TextContent | ImageContent)[],
    display: boolean,
    details?: T,
  ): string {
    const entry: CustomMessageEntry<T> = {
      type: "custom_message",
      customType,
      content,
      display,
      details,
      id: this.nextId(),
      parentId: this.leafId,
      timestamp: now(),
    };
    this.appendEntry(entry as CustomMessageEntry);
    return entry.id;
  }

  /** Id of the current leaf, or null before the first entry. */
  getLeafId(): string | null {
    return this.leafId;
  }

  /** The current leaf entry. */
  getLeafEntry(): SessionEntry | undefined {
    return this.leafId ? this.byId.get(this.leafId) : undefined;
  }

  /** Entry by id. */
  getEntry(id: string): SessionEntry | undefined {
    return this.byId.get(id);
  }

  /** Direct children of an entry, in file order. */
  getChildren(parentId: string): SessionEntry[] {
    const out: SessionEntry[] = [];
    for (const e of this.byId.values()) if (e.parentId === parentId) out.push(e);
    return out;
  }

  /** The label currently on an entry. */
  getLabel(id: string): string | undefined {
    return this.labelsById.get(id);
  }

  /** Sets (or with undefined/"" clears) the label of an existing entry; returns the entry id. */
  appendLabelChange(targetId: string, label: string | undefined): string {
    if (!this.byId.has(targetId)) throw new Error(`Entry ${targetId} not found`);
    const entry: LabelEntry = {
      ...this.stamp("label"),
      targetId,
      label,
    };
    this.appendEntry(entry);
    this.applyLabel(entry);
    return entry.id;
  }

  /** Root-first path to `fromId` (default: the leaf), all entry types included. */
  getBranch(fromId?: string): SessionEntry[] {
    const start = fromId ?? this.leafId;
    if (start !== null && start === this.leafId) return this.leafPath().slice();
    return pathToRoot(start ? this.byId.get(start) : undefined, this.byId);
  }

  /**
   * The current leaf's path, computed once per leaf and entry count (a resumed session's path
   * can hold 100,000 entries and several start-up steps ask for it). Callers must not modify it.
   */
  private leafPath(): SessionEntry[] {
    const leafId = this.leafId;
    if (leafId === null) return [];
    const c = this.pathCache;
    if (c && c.leafId === leafId && c.count === this.byId.size && c.generation === this.generation) {
      return c.path;
    }
    const path = (c && c.generation === this.generation && this.extendedPath(c, leafId)) ||
      pathToRoot(this.byId.get(leafId), this.byId);
    this.pathCache = { leafId, count: this.byId.size, generation: this.generation, path };
    return path;
  }

  /**
   * The cached path extended to `leafId` when the leaf descends from the cached leaf through entries
   * appended since (the usual case: a turn appends to the leaf), else undefined. Entries never
   * change once added, so the cached part still holds.
   */
  private extendedPath(
    c: { leafId: string; count: number; path: SessionEntry[] },
    leafId: string,
  ): SessionEntry[] | undefined {
    const added = this.byId.size - c.count;
    if (added <= 0) return undefined;
    const tail: SessionEntry[] = [];
    let current = this.byId.get(leafId);
    while (current && tail.length < added) {
      tail.push(current);
      if (current.parentId === c.leafId) return c.path.concat(tail.reverse());
      current = current.parentId ? this.byId.get(current.parentId) : undefined;
    }
    return undefined;
  }

  /** The compaction-aware entries of the current branch (see context.ts), for context and rendering. */
  buildContextEntries(): SessionEntry[] {
    return buildContextEntries([], this.leafId, this.byId, this.leafPath());
  }

  /**
   * The model context from the current leaf with each message's source entry: path, then
   * compaction, then context edits. This is the canonical model context of the session.
   */
  buildSessionProjection(): SessionProjection {
    return buildSessionProjection([], this.leafId, this.byId, this.leafPath());
  }

  /** What the LLM sees from the current leaf (the projection's messages and settings). */
  buildSessionContext(): SessionContext {
    const { messages, thinkingLevel, model } = this.buildSessionProjection();
    return { messages, thinkingLevel, model };
  }

  /** The system message in force on the current branch (all system messages replayed), if any. */
  getCurrentSystemMessage(): SystemMessage | undefined {
    return getCurrentSystemMessage(this.buildSessionProjection().messages);
  }

  /** Number of entries (header excluded), without copying them. */
  getEntryCount(): number {
    return this.byId.size;
  }

  /** The session header. */
  getHeader(): SessionHeader | null {
    const h = this.fileEntries.find((e) => e.type === "session");
    return h ? (h as SessionHeader) : null;
  }

  /** All entries except the header, in file order (a copy of the list). */
  getEntries(): SessionEntry[] {
    return this.fileEntries.filter((e): e is SessionEntry => e.type !== "session");
  }

  /** The whole session as a tree (children oldest first, labels resolved). */
  getTree(): SessionTreeNode[] {
    return buildTree(this.getEntries(), this.labelsById, this.labelTimestampsById);
  }

  /** Moves the leaf to an existing entry; the next append starts a new branch there. */
  branch(branchFromId: string): void {
    if (!this.byId.has(branchFromId)) throw new Error(`Entry ${branchFromId} not found`);
    this.leafId = branchFromId;
  }

  /** Moves the leaf before the first entry; the next append creates a new root. */
  resetLeaf(): void {
    this.leafId = null;
  }

  /** Like branch(), then records a summary of the abandoned path there; returns its id. */
  branchWithSummary(
    branchFromId: string | null,
    summary: string,
    details?: unknown,
    fromHook?: boolean,
    usage?: Usage,
  ): string {
    if (branchFromId !== null && !this.byId.has(branchFromId)) {
      throw new Error(`Entry ${branchFromId} not found`);
    }
    // `fromId` is the leaf being left: the end of the path the summary describes.
    const fromId = this.leafId ?? "root";
    this.leafId = branchFromId;
    return this.add<BranchSummaryEntry>({
      type: "branch_summary",
      id: this.nextId(),
      parentId: branchFromId,
      timestamp: now(),
      fromId,
      summary,
      details,
      usage,
      fromHook,
    });
  }

  /**
   * Makes a new session holding only the root→`leafId` path (labels on it re-created at the end)
   * and switches to it. Returns the new file path, or undefined in memory.
   */
  createBranchedSession(leafId: string): string | undefined {
    const previousFile = this.sessionFile;
    const path = this.getBranch(leafId);
    if (path.length === 0) throw new Error(`Entry ${leafId} not found`);
    const kept = withoutLabels(path);
    const newId = createSessionId();
    const timestamp = now();
    const header = sessionHeader(newId, timestamp, this.cwd, this.persist ? previousFile : undefined);
    const labels = recreateLabels(kept, this.labelsById, this.labelTimestampsById);
    this.fileEntries = [header, ...kept, ...labels];
    this.sessionId = newId;
    this.needsNewline = false;
    this.loadWarnings = [];
    this.buildIndex();
    this.writtenCount = 0;
    if (!this.persist) return undefined;
    const newFile = join(this.getSessionDir(), sessionFileName(timestamp, newId));
    this.sessionFile = newFile;
    // Same lazy rule as new sessions: only a path with a conversation is written now.
    if (this.hasConversation) {
      writeNewFile(newFile, toJsonl(this.fileEntries));
      this.writtenCount = this.fileEntries.length;
    }
    return newFile;
  }

  /** New session for `cwd` in `sessionDir` (default `<agentDir>/sessions/--cwd--/`). */
  static create(cwd: string, sessionDir?: string, options?: NewSessionOptions): SessionManager {
    return new SessionManager(cwd, sessionDir ?? getDefaultSessionDir(cwd), undefined, true, options);
  }

  /**
   * Opens a session file. `sessionDir` defaults to the file's folder; the cwd comes from the
   * header unless `cwdOverride` is given.
   */
  static open(path: string, sessionDir?: string, cwdOverride?: string): SessionManager {
    const header = existsSync(path) ? readSessionHeader(path) : null;
    const cwd = cwdOverride ?? (typeof header?.cwd === "string" ? header.cwd : undefined) ?? Deno.cwd();
    return new SessionManager(cwd, sessionDir ?? resolve(path, ".."), path, true);
  }

  /**
   * Opens the most recently modified session of `cwd`, or creates a new one. In a shared
   * `sessionDir` (not `cwd`'s default folder) only sessions started in `cwd` count.
   */
  static continueRecent(cwd: string, sessionDir?: string): SessionManager {
    const dir = sessionDir ?? getDefaultSessionDir(cwd);
    const recent = findMostRecentSession(dir, isSharedSessionDir(sessionDir, cwd) ? cwd : undefined);
    return new SessionManager(cwd, dir, recent ?? undefined, true);
  }

  /** A session that never touches the disk. */
  static inMemory(cwd: string = Deno.cwd(), options?: NewSessionOptions): SessionManager {
    return new SessionManager(cwd, "", undefined, false, options);
  }

  /**
   * Copies a session (possibly of another project) into a new file for `targetCwd`, with a new
   * id and `parentSession` pointing at the source. Old formats are migrated in the copy.
   */
  static forkFrom(
    sourcePath: string,
    targetCwd: string,
    sessionDir?: string,
    options?: Pick<NewSessionOptions, "id">,
  ): SessionManager {
    if (options?.id !== undefined) assertValidSessionId(options.id);
    const source = existsSync(sourcePath) ? readSessionFile(sourcePath) : undefined;
    if (!source || source.entries.length === 0) {
      throw new Error(`Cannot fork: source session file is empty or invalid: ${sourcePath}`);
    }
    if (!source.header) throw new Error(`Cannot fork: source session has no header: ${sourcePath}`);
    migrateToCurrentVersion(source.entries);
    const dir = sessionDir ?? getDefaultSessionDir(targetCwd);
    if (!existsSync(dir)) makeDirSync(dir);
    const id = options?.id ?? createSessionId();
    const timestamp = now();
    const file = join(dir, sessionFileName(timestamp, id));
    const header = sessionHeader(id, timestamp, targetCwd, sourcePath);
    writeNewFile(file, toJsonl([header, ...source.entries.filter((e) => e.type !== "session")]));
    return new SessionManager(targetCwd, dir, file, true);
  }

  /**
   * The file of the session with exactly this id (`--session-id`), reading only headers; in a
   * shared `sessionDir` only sessions started in `cwd` count. Undefined when there is none.
   */
  static findById(cwd: string, id: string, sessionDir?: string): string | undefined {
    const dir = sessionDir ?? getDefaultSessionDir(cwd);
    return findSessionById(dir, id, isSharedSessionDir(sessionDir, cwd) ? cwd : undefined);
  }

  /**
   * Sessions of one project folder, newest first. In a shared `sessionDir` (not `cwd`'s default
   * folder) only sessions started in `cwd` are listed.
   */
  static async list(
    cwd: string,
    sessionDir?: string,
    onProgress?: SessionListProgress,
  ): Promise<SessionInfo[]> {
    const all = await listSessionsInDir(sessionDir ?? getDefaultSessionDir(cwd), onProgress);
    return isSharedSessionDir(sessionDir, cwd) ? all.filter((s) => sessionCwdMatches(s.cwd, cwd)) : all;
  }

  /**
   * Sessions of all projects, newest first: every project folder under `<agentDir>/sessions`.
   * As in pi 1.6.0, a folder path as first argument lists that one folder's sessions instead.
   * A folder path as second argument is the sessions root to scan (our addition, so callers
   * need not rely on the environment).
   */
  static listAll(
    sessionDirOrOnProgress?: string | SessionListProgress,
    sessionsRoot?: string | SessionListProgress,
  ): Promise<SessionInfo[]> {
    if (typeof sessionDirOrOnProgress === "string") {
      return listSessionsInDir(
        sessionDirOrOnProgress,
        typeof sessionsRoot === "function" ? sessionsRoot : undefined,
      );
    }
    const root = typeof sessionsRoot === "string" ? sessionsRoot : getSessionsRoot();
    return listSessionsUnder(root, sessionDirOrOnProgress);
  }
}
