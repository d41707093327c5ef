/**
 * Where pi keeps its per-user state (the "agent dir") and how environment variables move it.
 *
 * @module
 */

import { readEnv } from "../util/env.ts";
import { type EnvSource, homeDir } from "../util/os.ts";
import { join } from "../util/path.ts";

/** Name used for the binary, the config folder and the `<APP>_CODING_AGENT_*` variables. */
export const APP_NAME = "pi";

/** Folder name under the home directory and under a project (`.pi`). */
export const CONFIG_DIR_NAME = ".pi";

/** Environment variable that relocates the agent dir (tests and sandboxes rely on it). */
export const ENV_AGENT_DIR = `${APP_NAME.toUpperCase()}_CODING_AGENT_DIR`;

/** Environment variable that relocates session files without moving the rest of the agent dir. */
export const ENV_SESSION_DIR = `${APP_NAME.toUpperCase()}_CODING_AGENT_SESSION_DIR`;

/** The process environment, read without throwing when `--allow-env` is missing. */
const PROCESS_ENV: EnvSource = { get: readEnv };

/**
 * Expands a leading `~` or `~/` the way a shell would (the home folder of `env`, by default the
 * process's); other paths pass through untouched.
 */
export function expandTildePath(path: string, env?: EnvSource): string {
  if (path === "~") return homeDir(env);
  if (path.startsWith("~/")) return homeDir(env) + path.slice(1);
  return path;
}

/**
 * The agent config directory (`~/.pi/agent` unless `PI_CODING_AGENT_DIR` says otherwise), read
 * from `env` (by default the process environment).
 */
export function getAgentDir(env?: EnvSource): string {
  const envDir = (env ?? PROCESS_ENV).get(ENV_AGENT_DIR);
  if (envDir) return expandTildePath(envDir, env);
  return join(homeDir(env), CONFIG_DIR_NAME, "agent");
}

/** Path of the user's models.json. */
export function getModelsPath(env?: EnvSource): string {
  return join(getAgentDir(env), "models.json");
}

/** Path of the credential store. */
export function getAuthPath(env?: EnvSource): string {
  return join(getAgentDir(env), "auth.json");
}

/** Path of the global settings file. */
export function getSettingsPath(env?: EnvSource): string {
  return join(getAgentDir(env), "settings.json");
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
 * Picks the session directory: `--session-dir` beats `PI_CODING_AGENT_SESSION_DIR` (tilde-expanded;
 * read from `env`, by default the process environment), which beats the `sessionDir` setting.
 * `undefined` means "use the session manager's default".
 */
export function resolveSessionDir(
  cliSessionDir: string | undefined,
  settingsSessionDir: string | undefined,
  env?: EnvSource,
): string | undefined {
  const envSessionDir = (env ?? PROCESS_ENV).get(ENV_SESSION_DIR);
  return cliSessionDir ?? (envSessionDir ? expandTildePath(envSessionDir, env) : undefined) ??
    settingsSessionDir;
}
