/**
 * pi 1.6.0's built-in extensions (`builtin:<name>`) as this build knows them, and the rule that
 * decides whether one runs. Kept apart from src/extensions so the start-up path can ask whether MCP
 * (or llama.cpp) is on without loading the extension system.
 *
 * @module
 */

/** The built-in extensions of pi 1.6.0 this build has. */
export const AVAILABLE_BUILTINS: readonly string[] = ["mcp", "tool-search", "codemode", "llama.cpp"];
/** 1.6.0's other built-in extensions, not in this build yet (none left). */
export const UNAVAILABLE_BUILTINS: readonly string[] = [];
/** The prefix of built-in extension paths. */
export const BUILTIN_PREFIX = "builtin:";

/** Whether an `-e` entry names a package source (`npm:`, `git:`, a git URL) rather than a file. */
export function isPackageSourceEntry(entry: string): boolean {
  return /^(npm:|git:|github:|https?:\/\/|ssh:\/\/|git@)/.test(entry.trim());
}

/** What {@link isBuiltinEnabled} reads. */
export interface BuiltinEnableOptions {
  projectTrusted: boolean;
  noExtensions?: boolean;
  cliPaths?: readonly string[];
  globalSettingsPaths?: readonly string[];
  projectSettingsPaths?: readonly string[];
}

/** The last `+`/`-`/`!`/plain entry of `list` naming `path`: true (load), false (unload), or undefined. */
function overrideFor(list: readonly string[] | undefined, path: string): boolean | undefined {
  let state: boolean | undefined;
  for (const raw of list ?? []) {
    const entry = raw.trim();
    const sign = /^[+\-!]/.test(entry) ? entry[0] : "";
    if ((sign ? entry.slice(1) : entry) !== path) continue;
    state = sign !== "-" && sign !== "!";
  }
  return state;
}

/**
 * Whether the built-in extension `name` runs, as 1.6.0 decides: enabled by default; the user's
 * settings `extensions` can turn it off (`-builtin:mcp` or `!builtin:mcp`); a matching `+`, `-` or
 * `!` entry of a trusted project's settings overrides that; `--no-extensions` drops it unless an
 * `-e builtin:<name>` asks for it.
 */
export function isBuiltinEnabled(name: string, options: BuiltinEnableOptions): boolean {
  const path = `${BUILTIN_PREFIX}${name}`;
  if ((options.cliPaths ?? []).some((entry) => entry.trim() === path)) return true;
  if (options.noExtensions) return false;
  const project = options.projectTrusted ? overrideFor(options.projectSettingsPaths, path) : undefined;
  return project ?? overrideFor(options.globalSettingsPaths, path) ?? true;
}

const llamaSessions = new WeakSet<object>();

/**
 * Records that `builtin:llama.cpp` is on for `session`, so the interactive mode offers `/llama`
 * (1.6.0 has the command only while the built-in runs). Kept here, not in the extension, so
 * start-up loads none of its code.
 */
export function markLlamaEnabled(session: object): void {
  llamaSessions.add(session);
}

/** Whether `builtin:llama.cpp` is on for `session` (see {@link markLlamaEnabled}). */
export function isLlamaEnabled(session: object): boolean {
  return llamaSessions.has(session);
}
