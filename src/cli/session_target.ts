/**
 * Which session a run uses (CLI-13, CLI-20…23): `--no-session`, `--fork <path|id>`,
 * `--session <path|id>`, `--resume` (the picker), `--session-id <id>`, `--continue`, or a new session; plus the check that a
 * stored session's working directory still exists. Problems with the sessions folder or the file
 * named are one clear error line, never a stack trace.
 *
 * @module
 */
import { dirname, join, resolve } from "../util/path.ts";
import { SessionManager } from "../session/session_manager.ts";
import { assertValidSessionId } from "../session/ids.ts";
import type { SessionInfo } from "../session/entries.ts";
import type { CliArgs } from "./args.ts";
import { formatMissingSessionCwdError, getMissingSessionCwdIssue } from "../core/missing_cwd.ts";
import { type SessionListLoaders, sessionListLoaders } from "../core/session_listing.ts";
import { CliExit } from "./cli_error.ts";
import { dim, yellow } from "../util/style.ts";

/** Where a `--session`/`--fork` argument points. */
export type SessionArgResolution =
  | { type: "path"; path: string }
  | { type: "local"; path: string }
  | { type: "global"; path: string; cwd: string }
  | { type: "not_found"; arg: string };

/**
 * The one session an id prefix names: an exact id wins; several prefix matches are an error that
 * lists them (the reference silently takes the newest, which can open the wrong conversation).
 */
function pickByIdPrefix(arg: string, sessions: readonly SessionInfo[]): SessionInfo | undefined {
  const exact = sessions.find((s) => s.id === arg);
  if (exact) return exact;
  const matches = sessions.filter((s) => s.id.startsWith(arg));
  if (matches.length > 1) {
    const list = matches.map((s) => `  ${s.id}  ${s.path}`).join("\n");
    throw new CliExit(
      `Error: Session id prefix '${arg}' is ambiguous; it matches ${matches.length} sessions:\n${list}\nGive more of the id.`,
    );
  }
  return matches[0];
}

/**
 * Resolves a session argument: anything with a slash or ending in `.jsonl` is a path (relative to
 * `cwd`); otherwise it is an id or id prefix, looked up in the current project first, then in all
 * projects.
 */
export async function resolveSessionArg(
  arg: string,
  cwd: string,
  sessionDir: string | undefined,
  sessionsRoot?: string,
): Promise<SessionArgResolution> {
  if (arg.includes("/") || arg.includes("\\") || arg.endsWith(".jsonl")) {
    return { type: "path", path: resolve(cwd, arg) };
  }
  const local = pickByIdPrefix(arg, await SessionManager.list(cwd, sessionDir));
  if (local) return { type: "local", path: local.path };
  const global = pickByIdPrefix(arg, await SessionManager.listAll(undefined, sessionsRoot));
  if (global) return { type: "global", path: global.path, cwd: global.cwd };
  return { type: "not_found", arg };
}

/** `--fork` cannot be combined with other session flags: `Error: --fork cannot be combined with …`. */
export function validateForkFlags(args: CliArgs): void {
  if (!args.fork) return;
  const conflicts = [
    args.session ? "--session" : undefined,
    args.continue ? "--continue" : undefined,
    args.resume ? "--resume" : undefined,
    args.noSession ? "--no-session" : undefined,
  ].filter((flag): flag is string => flag !== undefined);
  if (conflicts.length > 0) {
    throw new CliExit(`Error: --fork cannot be combined with ${conflicts.join(", ")}`);
  }
}

/**
 * `--session-id` takes a valid id and cannot be combined with `--session`, `--continue` or
 * `--resume`.
 */
export function validateSessionIdFlags(args: CliArgs): void {
  if (args.sessionId === undefined) return;
  const conflicts = [
    args.session ? "--session" : undefined,
    args.continue ? "--continue" : undefined,
    args.resume ? "--resume" : undefined,
  ].filter((flag): flag is string => flag !== undefined);
  if (conflicts.length > 0) {
    throw new CliExit(`Error: --session-id cannot be combined with ${conflicts.join(", ")}`);
  }
  try {
    assertValidSessionId(args.sessionId);
  } catch (error) {
    throw new CliExit(`Error: ${(error as Error).message}`);
  }
}

/** What session selection needs from its surroundings. */
export interface SessionTargetContext {
  cwd: string;
  /** `--session-dir` > env > settings; undefined means the per-project default. */
  sessionDir?: string;
  /** The agent dir, whose `sessions/` folder is searched across projects. */
  agentDir?: string;
  /** Writes a line the reference prints with console.log (stdout, or stderr when not interactive). */
  log: (text: string) => void;
  /** Asks a yes/no question; `undefined` when input ended without an answer. */
  confirm: (question: string) => Promise<boolean | undefined>;
  /** Reports a warning (stderr). */
  warn: (message: string) => void;
  /**
   * `--resume`: shows the session picker over this folder's and all projects' sessions; the
   * chosen file, or null when cancelled. Missing where there is no terminal to show it on.
   */
  pickSession?: (loaders: SessionListLoaders) => Promise<string | null>;
}

function forkOrExit(sourcePath: string, ctx: SessionTargetContext, id?: string): SessionManager {
  try {
    return SessionManager.forkFrom(
      sourcePath,
      ctx.cwd,
      ctx.sessionDir,
      id === undefined ? undefined : { id },
    );
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      throw new CliExit(`Error: Session file not found: ${sourcePath}`);
    }
    throw new CliExit(`Error: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Opens a session file named on the command line; a folder or a missing parent is a clear error. */
function openFile(path: string, sessionDir: string | undefined): SessionManager {
  let isDirectory = false;
  try {
    isDirectory = Deno.statSync(path).isDirectory;
  } catch {
    // A missing file is a new session at that path, as in the reference.
  }
  if (isDirectory) throw new CliExit(`Error: --session expects a session file, but ${path} is a folder`);
  return SessionManager.open(path, sessionDir);
}

/** The session of this project with exactly this id, if there is one. */
async function findProjectSessionById(id: string, ctx: SessionTargetContext): Promise<string | undefined> {
  return (await SessionManager.list(ctx.cwd, ctx.sessionDir)).find((s) => s.id === id)?.path;
}

/**
 * Builds the SessionManager the flags ask for; throws {@link CliExit} for the reference's early
 * exits and for a sessions folder that cannot be used (a file in its place, no permission).
 */
export async function createSessionManager(
  args: CliArgs,
  ctx: SessionTargetContext,
): Promise<SessionManager> {
  try {
    return await selectSession(args, ctx);
  } catch (error) {
    if (error instanceof CliExit) throw error;
    const problem = sessionFolderProblem(error, ctx);
    if (problem) throw new CliExit(problem);
    throw error;
  }
}

async function selectSession(args: CliArgs, ctx: SessionTargetContext): Promise<SessionManager> {
  const { cwd, sessionDir } = ctx;
  const sessionsRoot = ctx.agentDir ? join(ctx.agentDir, "sessions") : undefined;
  const id = args.sessionId;
  // --help and --list-models never write a session.
  if (args.noSession || args.help || args.listModels !== undefined) {
    return SessionManager.inMemory(cwd, id === undefined ? undefined : { id });
  }
  if (args.fork) {
    if (id !== undefined && await findProjectSessionById(id, ctx)) {
      throw new CliExit(`Session already exists with id '${id}'`);
    }
    const resolved = await resolveSessionArg(args.fork, cwd, sessionDir, sessionsRoot);
    if (resolved.type === "not_found") throw new CliExit(`No session found matching '${resolved.arg}'`);
    return forkOrExit(resolved.path, ctx, id);
  }
  if (args.session) {
    const resolved = await resolveSessionArg(args.session, cwd, sessionDir, sessionsRoot);
    switch (resolved.type) {
      case "path":
      case "local":
        return openFile(resolved.path, sessionDir);
      case "global": {
        ctx.log(`${yellow(`Session found in different project: ${resolved.cwd}`)}\n`);
        const answer = await ctx.confirm("Fork this session into current directory?");
        // The reference just ends (exit 0) when stdin closes before an answer.
        if (answer === undefined) throw new CliExit("", 0, false);
        if (!answer) throw new CliExit(dim("Aborted."), 0, false);
        return forkOrExit(resolved.path, ctx);
      }
      case "not_found":
        throw new CliExit(`No session found matching '${resolved.arg}'`);
    }
  }
  if (args.resume) {
    if (!ctx.pickSession) {
      throw new CliExit(
        "Error: --resume needs a terminal to show the session picker; use --session <id> or --continue",
      );
    }
    const picked = await ctx.pickSession(sessionListLoaders(cwd, sessionDir, ctx.agentDir));
    if (!picked) throw new CliExit(dim("No session selected"), 0, false);
    return SessionManager.open(picked, sessionDir);
  }
  if (args.continue) return SessionManager.continueRecent(cwd, sessionDir);
  if (id !== undefined) {
    const existing = await findProjectSessionById(id, ctx);
    if (existing) return SessionManager.open(existing, sessionDir);
    ctx.warn(`No project session found with id '${id}'; creating a new session with that id.`);
  }
  return SessionManager.create(cwd, sessionDir, id === undefined ? undefined : { id });
}

/**
 * A one-line explanation when the sessions folder cannot be created or read: a file where a
 * folder should be, or file permissions. Undefined for other errors.
 */
function sessionFolderProblem(error: unknown, ctx: SessionTargetContext): string | undefined {
  const root = ctx.sessionDir ?? (ctx.agentDir ? join(ctx.agentDir, "sessions") : undefined);
  const code = (error as { code?: unknown } | undefined)?.code;
  if (
    error instanceof Deno.errors.NotADirectory || error instanceof Deno.errors.AlreadyExists ||
    code === "ENOTDIR" || code === "EEXIST"
  ) {
    const blocker = root ? firstFileOnPath(root) : undefined;
    return blocker
      ? `Error: Cannot use the sessions folder: ${blocker} is a file, not a folder. Move it away or use --session-dir.`
      : `Error: Cannot use the sessions folder: ${(error as Error).message}`;
  }
  if (error instanceof Deno.errors.PermissionDenied || code === "EACCES" || code === "EPERM") {
    return `Error: Cannot use the sessions folder${
      root ? ` ${root}` : ""
    }: permission denied (check the owner and mode of the folder and its files)`;
  }
  return undefined;
}

/** The first path from `path` upwards that exists as something other than a folder. */
function firstFileOnPath(path: string): string | undefined {
  const chain: string[] = [];
  for (let p = path;; p = dirname(p)) {
    chain.unshift(p);
    if (dirname(p) === p) break;
  }
  for (const p of chain) {
    try {
      if (!Deno.statSync(p).isDirectory) return p;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** The text of the non-interactive error when a stored session's cwd is gone (CLI-23). */
export function missingSessionCwdMessage(manager: SessionManager, fallbackCwd: string): string | undefined {
  const issue = getMissingSessionCwdIssue(manager, fallbackCwd);
  return issue ? formatMissingSessionCwdError(issue) : undefined;
}
