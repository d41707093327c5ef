/**
 * Where pi keeps its per-user state (the "agent dir") and how environment variables move it.
 *
 * @module
 */

import { readEnv } from "../util/env.ts";
import { homeDir } from "../util/os.ts";
import { join } from "../util/path.ts";

/** Name used for the binary, the config folder and the `<APP>_CODING_AGENT_*` variables. */
export const APP_NAME = "pi";

/** Folder name under the home directory and under a project (`.pi`). */
export const CONFIG_DIR_NAME = ".pi";

/** Environment variable that relocates the agent dir (tests and sandboxes rely on it). */
export const ENV_AGENT_DIR = `${APP_NAME.toUpperCase()}_CODING_AGENT_DIR`;

/** Environment variable that relocates session files without moving the rest of the agent dir. */
export const ENV_SESSION_DIR = `${APP_NAME.toUpperCase()}_CODING_AGENT_SESSION_DIR`;

/** Expands a leading `~` or `~/` the way a shell would; other paths pass through untouched. */
export function expandTildePath(path: string): string {
  if (path === "~") return homeDir();
  if (path.startsWith("~/")) return homeDir() + path.slice(1);
  return path;
}

/** The agent config directory (`~/.pi/agent` unless `PI_CODING_AGENT_DIR` says otherwise). */
export function getAgentDir(): string {
  const envDir = readEnv(ENV_AGENT_DIR);
  if (envDir) return expandTildePath(envDir);
  return join(homeDir(), CONFIG_DIR_NAME, "agent");
}

/** Path of the user's models.json. */
export function getModelsPath(): string {
  return join(getAgentDir(), "models.json");
}

/** Path of the credential store. */
export function getAuthPath(): string {
  return join(getAgentDir(), "auth.json");
}

/** Path of the global settings file. */
export function getSettingsPath(): string {
  return join(getAgentDir(), "settings.json");
}

/** Folder for managed helper binaries (fd, rg). */
export function getBinDir(): string {
  return join(getAgentDir(), "bin");
}

/** Whether an environment flag is set to one of the accepted truthy spellings (1, true, yes). */
export function isTruthyEnvFlag(value: string | undefined): boolean {
  if (!value) return false;
  const lower = value.toLowerCase();
  return value === "1" || lower === "true" || lower === "yes";
}

/**
 * Picks the session directory: `--session-dir` beats `PI_CODING_AGENT_SESSION_DIR` (tilde-expanded),
 * which beats the `sessionDir` setting. `undefined` means "use the session manager's default".
 */
export function resolveSessionDir(
  cliSessionDir: string | undefined,
  settingsSessionDir: string | undefined,
): string | undefined {
  const envSessionDir = readEnv(ENV_SESSION_DIR);
  return cliSessionDir ?? (envSessionDir ? expandTildePath(envSessionDir) : undefined) ?? settingsSessionDir;
}
