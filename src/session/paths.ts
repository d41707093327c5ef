/**
 * Where session files live. Kept free of `src/config` so sessions work standalone; the config
 * layer passes its own directories in.
 *
 * @module
 */
import { existsSync, makeDirSync } from "../util/fs.ts";
import { homeDir } from "../util/os.ts";
import { join } from "../util/path.ts";

/** The agent directory: `$PI_CODING_AGENT_DIR` (with `~` expanded) or `~/.pi/agent`. */
export function getDefaultAgentDir(): string {
  const env = Deno.env.get("PI_CODING_AGENT_DIR");
  if (env) {
    if (env === "~") return homeDir();
    if (env.startsWith("~/")) return homeDir() + env.slice(1);
    return env;
  }
  return join(homeDir(), ".pi", "agent");
}

/** The root holding one folder per project: `<agentDir>/sessions`. */
export function getSessionsRoot(agentDir: string = getDefaultAgentDir()): string {
  return join(agentDir, "sessions");
}

/**
 * Folder name for a project: the cwd without its leading separator, with `/`, `\` and `:`
 * turned into `-`, wrapped in `--` (`/tmp/proj` → `--tmp-proj--`).
 */
export function encodeCwd(cwd: string): string {
  return `--${cwd.replace(/^[/\\]/, "").replace(/[/\\:]/g, "-")}--`;
}

/** The session folder for `cwd`, created if missing (the reference creates it eagerly too). */
export function getDefaultSessionDir(cwd: string, agentDir: string = getDefaultAgentDir()): string {
  const dir = join(getSessionsRoot(agentDir), encodeCwd(cwd));
  if (!existsSync(dir)) makeDirSync(dir);
  return dir;
}

/** File name for a new session: ISO time with `:` and `.` as `-`, then `_<id>.jsonl`. */
export function sessionFileName(isoTimestamp: string, sessionId: string): string {
  return `${isoTimestamp.replace(/[:.]/g, "-")}_${sessionId}.jsonl`;
}
