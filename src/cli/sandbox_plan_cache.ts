/**
 * The installed `pi` launcher's cache of sandbox plans (issue 15: a profile within 1.2× of `full`).
 *
 * A confining profile normally costs a second Deno process: the unconfined pi computes the
 * profile's `--allow-*` flags and starts itself again under them (src/cli/sandbox.ts). The launcher
 * that `deno task install` writes (scripts/install.ts) can start Deno with those flags in the first
 * place, from a plan that an earlier unconfined pi recorded for the same inputs:
 *
 * - the launcher names an entry `<agentDir>/sandbox-plans/<sha256 of the inputs>` (the folder, the
 *   `--sandbox` value, the environment variables the plan reads, the bubblewrap it would find, the
 *   contents of settings.json and models.json). When it has no entry it starts pi the normal way
 *   with {@link PLAN_FILE_ENV} set, and the unconfined pi writes the flags there before it re-runs
 *   itself confined ({@link recordPlan});
 * - when the entry exists (and holds only permission flags), the launcher execs Deno with them and
 *   passes the same text in {@link PLAN_FLAGS_ENV}; the confined pi computes its plan again and goes
 *   on only when the flags are exactly the current ones. Anything else (a tampered or stale entry)
 *   stops the run before it does anything, and marks the entry for the launcher to drop
 *   ({@link markPlanStale}): a cached plan never widens what the current plan grants.
 *
 * Every confined run is denied writing the plans folder (`--deny-write`, see
 * src/config/sandbox_profile.ts), so no confined run can choose the permissions of a later one.
 *
 * @module
 */
import { readEnv } from "../util/env.ts";
import { basename, dirname, join, resolve } from "../util/path.ts";
import { SANDBOX_PLANS_DIR } from "../config/sandbox_profile.ts";

/** Set by the launcher on a normal start: it reads cached plans, so record them. */
export const LAUNCHER_ENV = "PI_SANDBOX_LAUNCHER";
/** The plan entry the launcher looked up: where to record the plan, or the one it started with. */
export const PLAN_FILE_ENV = "PI_SANDBOX_PLAN_FILE";
/** The permission flags (one per line) the launcher started this Deno with, from the cached plan. */
export const PLAN_FLAGS_ENV = "PI_SANDBOX_FLAGS";

/** How many plans the folder keeps (one per project, profile and settings): the oldest go first. */
const MAX_PLANS = 64;

/** The cached plan this process was started with, as the launcher said. */
export interface LaunchedPlan {
  /** The permission flags, one per line. */
  flags: string;
  /** The entry they came from (for the message and the stale mark). */
  file: string;
}

/** What the launcher said to this process, read once. */
interface LaunchEnv {
  launcher: boolean;
  file?: string;
  flags?: string;
}

let launchEnv: LaunchEnv | undefined;

/**
 * Reads the launcher's variables once and removes them from the environment, so that nothing this
 * process starts (a re-run, a pi that bash runs elsewhere) mistakes them for its own. Called first
 * thing by the CLI (src/cli/sandbox.ts).
 */
export function takeLaunchEnv(): LaunchEnv {
  if (launchEnv) return launchEnv;
  launchEnv = {
    launcher: readEnv(LAUNCHER_ENV) === "1",
    file: readEnv(PLAN_FILE_ENV),
    flags: readEnv(PLAN_FLAGS_ENV),
  };
  for (const name of [LAUNCHER_ENV, PLAN_FILE_ENV, PLAN_FLAGS_ENV]) Deno.env.delete(name);
  return launchEnv;
}

/** The cached plan the launcher started this process with, if it did. */
export function launchedPlan(): LaunchedPlan | undefined {
  const { flags, file } = takeLaunchEnv();
  return flags === undefined ? undefined : { flags, file: file ?? "" };
}

/** The entry file the launcher asked for, when it is `<agentDir>/sandbox-plans/<64 hex digits>`. */
function planFileIn(agentDir: string, file: string | undefined): string | undefined {
  if (!file) return undefined;
  const path = resolve(file);
  if (dirname(path) !== resolve(agentDir, SANDBOX_PLANS_DIR)) return undefined;
  return /^[0-9a-f]{64}$/.test(basename(path)) ? path : undefined;
}

/**
 * Records `flags` for the launcher, when it started this (unconfined) pi: creates the plans folder
 * (the launcher looks entries up only once it exists) and writes the entry it named, atomically.
 * A failure only costs the next start its speed, so it is ignored.
 */
export function recordPlan(agentDir: string, flags: readonly string[]): void {
  const launch = takeLaunchEnv();
  const file = planFileIn(agentDir, launch.file);
  if (!launch.launcher) return;
  const dir = resolve(agentDir, SANDBOX_PLANS_DIR);
  try {
    Deno.mkdirSync(dir, { recursive: true, mode: 0o700 });
    // The launcher splits the entry at line ends: a flag holding one cannot be cached.
    if (!file || flags.some((flag) => flag.includes("\n"))) return;
    const temp = `${file}.${Deno.pid}.tmp`;
    Deno.writeTextFileSync(temp, `${flags.join("\n")}\n`, { mode: 0o600 });
    Deno.renameSync(temp, file);
    prune(dir);
  } catch {
    // Not cached: the next start re-runs pi as this one did.
  }
}

/** Keeps the newest {@link MAX_PLANS} entries (stale ones pile up as settings change). */
function prune(dir: string): void {
  const entries: { path: string; mtime: number }[] = [];
  for (const entry of Deno.readDirSync(dir)) {
    if (!entry.isFile) continue;
    const path = join(dir, entry.name);
    entries.push({ path, mtime: Deno.statSync(path).mtime?.getTime() ?? 0 });
  }
  if (entries.length <= MAX_PLANS) return;
  entries.sort((a, b) => b.mtime - a.mtime);
  for (const { path } of entries.slice(MAX_PLANS)) Deno.removeSync(path);
}

/**
 * Marks the entry a confined run was started with as not matching its plan, for the launcher to
 * drop at the next start (this run cannot delete it: it may not write the plans folder). The mark
 * lives in the agent dir's cache folder, which every profile may write; a mark planted there only
 * makes the next start take the slow way. Resolves the entry's path, for the message.
 */
export function markPlanStale(agentDir: string, launched: LaunchedPlan): string {
  const file = planFileIn(agentDir, launched.file);
  if (!file) return launched.file;
  try {
    const marks = join(agentDir, "cache", SANDBOX_PLANS_DIR);
    Deno.mkdirSync(marks, { recursive: true });
    Deno.writeTextFileSync(join(marks, `${basename(file)}.stale`), "");
  } catch {
    // The message says to delete the entry by hand.
  }
  return file;
}
