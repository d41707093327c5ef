/**
 * Which session a run uses (CLI-13, CLI-20…23): `--no-session`, `--fork <path|id>`,
 * `--session <path|id>`, `--resume`, `--continue`, or a new session; plus the check that a stored
 * session's working directory still exists.
 *
 * @module
 */
import { existsSync } from "../util/fs.ts";
import { join } from "../util/path.ts";
import { SessionManager } from "../session/session_manager.ts";
import type { CliArgs } from "./args.ts";
import { CliExit } from "./cli_error.ts";
import { dim, yellow } from "./style.ts";

/** Where a `--session`/`--fork` argument points. */
export type SessionArgResolution =
  | { type: "path"; path: string }
  | { type: "local"; path: string }
  | { type: "global"; path: string; cwd: string }
  | { type: "not_found"; arg: string };

/**
 * Resolves a session argument: anything with a slash or ending in `.jsonl` is a path; otherwise it
 * is an id prefix, looked up in the current project first (newest first), then in all projects.
 */
export async function resolveSessionArg(
  arg: string,
  cwd: string,
  sessionDir: string | undefined,
  sessionsRoot?: string,
): Promise<SessionArgResolution> {
  if (arg.includes("/") || arg.includes("\\") || arg.endsWith(".jsonl")) return { type: "path", path: arg };
  const local = (await SessionManager.list(cwd, sessionDir)).find((s) => s.id.startsWith(arg));
  if (local) return { type: "local", path: local.path };
  const global = (await SessionManager.listAll(undefined, sessionsRoot)).find((s) => s.id.startsWith(arg));
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
  /** The `--resume` picker; absent when no interactive picker is available. */
  pickSession?: (cwd: string, sessionDir: string | undefined) => Promise<string | null>;
}

function forkOrExit(sourcePath: string, ctx: SessionTargetContext): SessionManager {
  try {
    return SessionManager.forkFrom(sourcePath, ctx.cwd, ctx.sessionDir);
  } catch (error) {
    throw new CliExit(`Error: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Builds the SessionManager the flags ask for; throws {@link CliExit} for the reference's early exits. */
export async function createSessionManager(
  args: CliArgs,
  ctx: SessionTargetContext,
): Promise<SessionManager> {
  const { cwd, sessionDir } = ctx;
  const sessionsRoot = ctx.agentDir ? join(ctx.agentDir, "sessions") : undefined;
  if (args.noSession) return SessionManager.inMemory(cwd);
  if (args.fork) {
    const resolved = await resolveSessionArg(args.fork, cwd, sessionDir, sessionsRoot);
    if (resolved.type === "not_found") throw new CliExit(`No session found matching '${resolved.arg}'`);
    return forkOrExit(resolved.path, ctx);
  }
  if (args.session) {
    const resolved = await resolveSessionArg(args.session, cwd, sessionDir, sessionsRoot);
    switch (resolved.type) {
      case "path":
      case "local":
        return SessionManager.open(resolved.path, sessionDir);
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
    const selected = ctx.pickSession ? await ctx.pickSession(cwd, sessionDir) : null;
    if (!selected) throw new CliExit(dim("No session selected"), 0, false);
    return SessionManager.open(selected, sessionDir);
  }
  if (args.continue) return SessionManager.continueRecent(cwd, sessionDir);
  return SessionManager.create(cwd, sessionDir);
}

/** The text of the non-interactive error when a stored session's cwd is gone (CLI-23). */
export function missingSessionCwdMessage(manager: SessionManager, fallbackCwd: string): string | undefined {
  const sessionFile = manager.getSessionFile();
  if (!sessionFile) return undefined;
  const sessionCwd = manager.getCwd();
  if (!sessionCwd || existsSync(sessionCwd)) return undefined;
  return `Stored session working directory does not exist: ${sessionCwd}\nSession file: ${sessionFile}\nCurrent working directory: ${fallbackCwd}`;
}
