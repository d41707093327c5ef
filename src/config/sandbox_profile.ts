/**
 * Sandbox profiles (`--sandbox <profile>`, `"sandbox"` in settings.json): what each one lets the pi
 * process read, write, reach over the network and run, as a plan of Deno permission flags. The
 * runtime enforces the plan (the CLI re-runs pi with these flags); nothing here checks a path.
 *
 * Only the user's own settings (`<agentDir>/settings.json`) may choose a profile: a project's
 * `.pi/settings.json` could otherwise turn its own confinement off.
 *
 * @module
 */

/** The profiles, from the most confined to today's behaviour. */
export type SandboxProfile = "read-only" | "project" | "full";

/** Every profile name, in the order help and errors list them. */
export const SANDBOX_PROFILES: readonly SandboxProfile[] = ["read-only", "project", "full"];

/** Whether `name` is a profile. */
export function isSandboxProfile(name: string): name is SandboxProfile {
  return (SANDBOX_PROFILES as readonly string[]).includes(name);
}

/** The `sandbox` setting, normalised: a profile and the user's additions to it. */
export interface SandboxSetting {
  /** The profile; absent when the setting only lists additions. */
  profile?: SandboxProfile;
  /** Hosts (`host` or `host:port`) reachable besides the provider hosts. */
  allowNet: string[];
  /** Extra folders the process may read (absolute, or `~/`). */
  allowRead: string[];
  /** Extra folders the process may write under `project` (absolute, or `~/`). */
  allowWrite: string[];
}

/**
 * Reads the `sandbox` value of the user's settings: a profile name, or
 * `{ "profile": …, "allowNet": [...], "allowRead": [...], "allowWrite": [...] }`. Throws an error
 * naming the setting and what is wrong; an absent value is an empty setting.
 */
export function parseSandboxSetting(value: unknown, source: string): SandboxSetting {
  const empty: SandboxSetting = { allowNet: [], allowRead: [], allowWrite: [] };
  if (value === undefined || value === null) return empty;
  const problem = (what: string) => new Error(`${source}: "sandbox" ${what}`);
  const profileOf = (name: unknown): SandboxProfile => {
    if (typeof name === "string" && isSandboxProfile(name)) return name;
    throw problem(`profile must be one of ${SANDBOX_PROFILES.join(", ")} (got ${JSON.stringify(name)})`);
  };
  if (typeof value === "string") return { ...empty, profile: profileOf(value) };
  if (typeof value !== "object" || Array.isArray(value)) {
    throw problem("must be a profile name or an object with profile, allowNet, allowRead, allowWrite");
  }
  const record = value as Record<string, unknown>;
  const list = (key: "allowNet" | "allowRead" | "allowWrite"): string[] => {
    const entries = record[key];
    if (entries === undefined) return [];
    if (!Array.isArray(entries) || entries.some((e) => typeof e !== "string" || e.trim() === "")) {
      throw problem(`${key} must be a list of non-empty strings`);
    }
    return entries as string[];
  };
  for (const key of Object.keys(record)) {
    if (!["profile", "allowNet", "allowRead", "allowWrite"].includes(key)) {
      throw problem(`has an unknown key "${key}"`);
    }
  }
  return {
    profile: record.profile === undefined ? undefined : profileOf(record.profile),
    allowNet: list("allowNet"),
    allowRead: list("allowRead"),
    allowWrite: list("allowWrite"),
  };
}

/** The folders and hosts one run of a confining profile works with. */
export interface SandboxPlaces {
  /** The project folder (pi's working folder). */
  projectDir: string;
  /** The agent dir (settings, models, sessions). */
  agentDir: string;
  /** Where this run's session files go. */
  sessionDir: string;
  /** The system temp folder. */
  tempDir: string;
  /** Folders holding pi's own code and its npm packages (read to load modules on demand). */
  codeDirs: string[];
  /** Provider hosts (`host` or `host:port`) from the catalogue and models.json. */
  providerHosts: string[];
  /** The bubblewrap executable, when one was found (project profile only). */
  bwrap?: string;
}

/** The Deno permissions of a confined pi process, as lists (empty list = nothing granted). */
export interface SandboxPlan {
  profile: Exclude<SandboxProfile, "full">;
  read: string[];
  write: string[];
  net: string[];
  run: string[];
  /** Folders no write may reach even inside a granted one (Deno's deny flags win over allow flags). */
  denyWrite: string[];
}

/**
 * The agent dir's folder where the installed `pi` launcher keeps the plans it starts confined runs
 * with (src/cli/sandbox_plan_cache.ts). Every confined run is denied writing it: a run that could
 * change a plan could choose the permissions of the next one.
 */
export const SANDBOX_PLANS_DIR = "sandbox-plans";

function unique(values: string[]): string[] {
  return [...new Set(values.filter((v) => v.length > 0))];
}

/**
 * The permissions of `profile` for `places` plus the user's additions:
 *
 * - `read-only`: reads the project, the agent dir, pi's code and the temp folder; writes only the
 *   session folder, the agent dir's build cache (extensions are built there) and the lock folders
 *   pi reads its settings under; runs nothing.
 * - `project`: as read-only, and writes the project and the temp folder too; runs only bubblewrap.
 *
 * Both reach only the provider hosts and `allowNet`, and neither writes the launcher's cached plans
 * ({@link SANDBOX_PLANS_DIR}). The agent dir's `settings.json`, `auth.json`,
 * `models.json` and extension folders stay unwritable: a confined model that could change them
 * would run unconfined code at the next plain start.
 */
export function sandboxPlan(
  profile: Exclude<SandboxProfile, "full">,
  places: SandboxPlaces,
  setting: SandboxSetting,
  expandPath: (path: string) => string,
): SandboxPlan {
  const extraRead = setting.allowRead.map(expandPath);
  const extraWrite = profile === "project" ? setting.allowWrite.map(expandPath) : [];
  const read = unique([
    places.projectDir,
    places.agentDir,
    places.sessionDir,
    places.tempDir,
    ...places.codeDirs,
    ...extraRead,
    ...extraWrite,
  ]);
  // pi reads settings, credentials and trust decisions under a lock: a `<file>.lock` folder.
  const locks = [
    ...["settings.json", "auth.json", "trust.json"].map((name) => `${places.agentDir}/${name}.lock`),
    `${places.projectDir}/.pi/settings.json.lock`,
  ];
  const cache = `${places.agentDir}/cache`;
  const write = profile === "project"
    ? unique([places.projectDir, places.tempDir, places.sessionDir, cache, ...locks, ...extraWrite])
    : unique([places.sessionDir, cache, ...locks]);
  return {
    profile,
    read,
    write,
    net: unique([...places.providerHosts, ...setting.allowNet]),
    run: profile === "project" && places.bwrap ? [places.bwrap] : [],
    denyWrite: [`${places.agentDir}/${SANDBOX_PLANS_DIR}`],
  };
}

/**
 * Deno's command-line flags for `plan` (always `--no-prompt`: a denied call fails, never asks).
 * Throws when an entry contains a comma, which Deno's flag syntax cannot carry.
 */
export function sandboxDenoFlags(plan: SandboxPlan): string[] {
  const flags = ["--no-prompt", "--allow-env", "--allow-sys"];
  const flag = (name: string, values: string[]) => {
    if (values.length === 0) return;
    // Deno separates the entries of one flag with commas and has no escape for them.
    const bad = values.find((value) => value.includes(","));
    if (bad !== undefined) {
      throw new Error(`cannot confine pi with the path or host "${bad}": it contains a comma`);
    }
    flags.push(`--${name}=${values.join(",")}`);
  };
  flag("allow-read", plan.read);
  flag("allow-write", plan.write);
  flag("allow-net", plan.net);
  flag("allow-run", plan.run);
  flag("deny-write", plan.denyWrite);
  return flags;
}
