/**
 * Project trust (pi 1.6.0, security.md): whether pi may load a folder's protected project resources
 * (`.pi/settings.json`, `.pi/mcp.json`, `.pi/{extensions,skills,prompts,themes}`, `.pi/SYSTEM.md`,
 * `.pi/APPEND_SYSTEM.md`, and `.agents/skills` in the folder or an ancestor).
 *
 * Decisions are saved in `<agentDir>/trust.json` as `{ "<canonical folder>": true | false }`; the nearest saved
 * folder (the cwd or an ancestor) applies. {@link resolveProjectTrust} is the one place that decides:
 *
 * 1. a command-line `--approve` / `--no-approve` (`flag`),
 * 2. a folder without protected resources is trusted unless a saved `false` applies,
 * 3. the nearest saved decision,
 * 4. `defaultProjectTrust`: `always` trusts, `never` does not, `ask` asks the caller's `ask` callback
 *    (interactive mode); without one (print, JSON, RPC) `ask` means not trusted, and the protected files are
 *    skipped silently.
 *
 * Extensions' `project_trust` handlers (step 1b in 1.6.0) come with the extensions issue: pass their
 * answer as `extensionDecision`.
 *
 * @module
 */
import { existsSync } from "../util/fs.ts";

import { readEnv } from "../util/env.ts";
import { dirname, join, resolve } from "../util/path.ts";
import { describeJsonError } from "./json_error.ts";
import { lockFileSync } from "./file_lock.ts";
import { CONFIG_DIR_NAME } from "./paths.ts";

/** The `defaultProjectTrust` setting. */
export type DefaultProjectTrust = "ask" | "always" | "never";

/** A saved decision; `null` in a write removes the entry. */
export type TrustDecision = boolean | null;

/** Entries under `<cwd>/.pi` whose presence makes the folder need a trust decision. */
export const TRUST_REQUIRING_PROJECT_RESOURCES: readonly string[] = [
  "settings.json",
  "mcp.json",
  "extensions",
  "skills",
  "prompts",
  "themes",
  "SYSTEM.md",
  "APPEND_SYSTEM.md",
];

/** The canonical form of a folder: absolute, symlinks resolved where the folder exists. */
export function canonicalProjectPath(path: string): string {
  const absolute = resolve(path);
  try {
    return Deno.realPathSync(absolute);
  } catch {
    return absolute;
  }
}

function homeDir(home?: string): string | undefined {
  return home || readEnv("HOME") || undefined;
}

/**
 * True when `cwd` has resources that need a trust decision: a protected entry under `cwd/.pi`, or
 * `.agents/skills` in `cwd` or an ancestor (the user's own `~/.agents/skills` does not count). A bare `.pi`
 * folder (sessions only, keybindings, …) does not.
 */
export function hasTrustRequiringProjectResources(cwd: string, home?: string): boolean {
  const homeValue = homeDir(home);
  const userSkills = homeValue ? join(canonicalProjectPath(homeValue), ".agents", "skills") : undefined;
  let current = canonicalProjectPath(cwd);
  const configDir = join(current, CONFIG_DIR_NAME);
  if (TRUST_REQUIRING_PROJECT_RESOURCES.some((entry) => existsSync(join(configDir, entry)))) return true;
  while (true) {
    const skills = join(current, ".agents", "skills");
    if (skills !== userSkills && existsSync(skills)) return true;
    const parent = dirname(current);
    if (parent === current) return false;
    current = parent;
  }
}

/** Reads trust.json; throws an error naming the file (never its contents beyond the bad key) when broken. */
function readTrustFile(path: string): Record<string, TrustDecision> {
  let text: string;
  try {
    text = Deno.readTextFileSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return {};
    throw new Error(`Cannot read the trust store ${path}: ${error instanceof Error ? error.message : error}`);
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new Error(`Cannot read the trust store ${path}: ${describeJsonError(text, error)}`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new Error(`Invalid trust store ${path}: expected an object`);
  }
  const data: Record<string, TrustDecision> = {};
  for (const [key, value] of Object.entries(parsed)) {
    if (value !== true && value !== false && value !== null) {
      throw new Error(
        `Invalid trust store ${path}: value for ${JSON.stringify(key)} must be true, false, or null`,
      );
    }
    data[key] = value;
  }
  return data;
}

/** Saved trust decisions in `<agentDir>/trust.json`, read and written under the file's lock. */
export class ProjectTrustStore {
  /** The trust.json path. */
  readonly path: string;

  /** A store for the agent dir's `trust.json`. */
  constructor(agentDir: string) {
    this.path = join(resolve(agentDir), "trust.json");
  }

  /** Runs `fn` while holding the file's lock. */
  private withLock<T>(fn: () => T): T {
    // Only when missing: a confined pi (--sandbox) may not write the agent dir itself.
    if (!existsSync(dirname(this.path))) Deno.mkdirSync(dirname(this.path), { recursive: true });
    const release = lockFileSync(this.path);
    try {
      return fn();
    } finally {
      release();
    }
  }

  /** The nearest saved decision for `cwd` (the folder itself or an ancestor), or null. */
  get(cwd: string): boolean | null {
    return this.getEntry(cwd)?.decision ?? null;
  }

  /** The nearest saved decision and the folder it was saved for. */
  getEntry(cwd: string): { path: string; decision: boolean } | null {
    return this.withLock(() => {
      const data = readTrustFile(this.path);
      let current = canonicalProjectPath(cwd);
      while (true) {
        const value = data[current];
        if (value === true || value === false) return { path: current, decision: value };
        const parent = dirname(current);
        if (parent === current) return null;
        current = parent;
      }
    });
  }

  /** Saves (or with null, removes) the decision for one folder. */
  set(cwd: string, decision: TrustDecision): void {
    this.setMany([{ path: cwd, decision }]);
  }

  /** Applies several decisions in one locked write; keys are canonical paths, written sorted. */
  setMany(decisions: readonly { path: string; decision: TrustDecision }[]): void {
    this.withLock(() => {
      const data = readTrustFile(this.path);
      for (const { path, decision } of decisions) {
        const key = canonicalProjectPath(path);
        delete data[key];
        if (decision !== null) data[key] = decision;
      }
      const sorted: Record<string, boolean> = {};
      for (const key of Object.keys(data).sort()) {
        const value = data[key];
        if (value === true || value === false) sorted[key] = value;
      }
      Deno.writeTextFileSync(this.path, `${JSON.stringify(sorted, null, 2)}\n`);
    });
  }
}

/** Inputs to {@link resolveProjectTrust}. */
export interface ProjectTrustOptions {
  /** The folder pi runs in. */
  cwd: string;
  /** Where trust.json lives. */
  agentDir: string;
  /** `true` for `--approve`, `false` for `--no-approve`, undefined when neither was given. */
  flag?: boolean;
  /** The global `defaultProjectTrust` setting (project settings cannot set it); default `ask`. */
  defaultProjectTrust?: DefaultProjectTrust;
  /** Whether a person can be asked (interactive mode). */
  interactive: boolean;
  /** An extension's `project_trust` answer, when one decided (extensions issue). */
  extensionDecision?: { trusted: boolean; remember?: boolean };
  /** Asks the user when `defaultProjectTrust` is `ask` and `interactive`; returns the decision to use. */
  ask?: (
    cwd: string,
  ) => Promise<{ trusted: boolean; save?: readonly { path: string; decision: TrustDecision }[] }>;
  /** HOME for finding the user's own `~/.agents/skills` (defaults to $HOME). */
  home?: string;
}

/**
 * Decides whether `cwd`'s protected project resources load, in 1.6.0's order (see the module comment).
 * Throws when trust.json is broken and a saved decision would be needed (the message names the file).
 *
 * @example
 * ```ts
 * import { getAgentDir, SettingsManager } from "@pi-deno/coding-agent";
 * import { resolveProjectTrust } from "./project_trust.ts";
 *
 * const cwd = Deno.cwd();
 * const agentDir = getAgentDir();
 * // Only the global settings may say how to treat an unknown project.
 * const globalOnly = SettingsManager.create(cwd, agentDir, { projectTrusted: false });
 * const trusted = await resolveProjectTrust({
 *   cwd,
 *   agentDir,
 *   flag: undefined, // true for --approve, false for --no-approve
 *   defaultProjectTrust: globalOnly.getDefaultProjectTrust(),
 *   interactive: false,
 * });
 * const settingsManager = SettingsManager.create(cwd, agentDir, { projectTrusted: trusted });
 * ```
 */
export async function resolveProjectTrust(options: ProjectTrustOptions): Promise<boolean> {
  if (options.flag !== undefined) return options.flag;
  const store = new ProjectTrustStore(options.agentDir);
  if (!hasTrustRequiringProjectResources(options.cwd, options.home)) return store.get(options.cwd) ?? true;
  if (options.extensionDecision) {
    if (options.extensionDecision.remember) store.set(options.cwd, options.extensionDecision.trusted);
    return options.extensionDecision.trusted;
  }
  const saved = store.get(options.cwd);
  if (saved !== null) return saved;
  const mode = options.defaultProjectTrust ?? "ask";
  if (mode === "always") return true;
  if (mode === "never") return false;
  if (!options.interactive || !options.ask) return false;
  const answer = await options.ask(canonicalProjectPath(options.cwd));
  if (answer.save && answer.save.length > 0) store.setMany(answer.save);
  return answer.trusted;
}
