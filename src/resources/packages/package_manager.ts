/**
 * Installing, removing and listing pi packages (pi 1.6.0, docs/packages.md) with the real `npm` and
 * `git`: npm packages go to `<agentDir>/npm` (project: `<cwd>/.pi/npm`), git packages are cloned to
 * `<agentDir>/git/<host>/<owner>/<repo>` (project: `<cwd>/.pi/git/…`), local paths are used where
 * they are. The settings entry is written only after the install succeeded, through the settings
 * manager's locked read-modify-write, so a failed install leaves settings.json as it was.
 *
 * @module
 */
import type { SettingsManager } from "../../config/settings_manager.ts";
import type { PackageSource } from "../../config/settings_types.ts";
import { existsSync } from "../../util/fs.ts";
import { basename, dirname, join, relative, resolve, sep } from "../../util/path.ts";
import {
  entrySource,
  type GitSource,
  type NpmSource,
  packageIdentity,
  parseSource,
  resolveLocalPath,
} from "./package_source.ts";
import {
  gitDependencyInstallArgs,
  type NpmClient,
  npmClient,
  npmInstallArgs,
  npmUninstallArgs,
  runCaptured,
  runInherited,
} from "./package_process.ts";

/** Where a package is declared: the user's settings or the project's. */
export type PackageScope = "user" | "project";

/** One configured package, as `pi list` shows it. */
export interface ConfiguredPackage {
  source: string;
  scope: PackageScope;
  /** True for the object form (resource filters). */
  filtered: boolean;
  /** Where it is installed, when it is. */
  installedPath?: string;
}

/** What the manager reads and writes of the settings (a SettingsManager has all of it). */
export type PackageSettings = Pick<
  SettingsManager,
  | "getGlobalSettings"
  | "getProjectSettings"
  | "isProjectTrusted"
  | "getNpmCommand"
  | "setPackages"
  | "setProjectPackages"
  | "flush"
>;

/** What the manager needs. */
export interface PackageManagerOptions {
  cwd: string;
  agentDir: string;
  settingsManager: PackageSettings;
  /** Called with "Installing <source>..." and the like before each step. */
  onProgress?: (message: string) => void;
  /** Send npm's and git's stdout to stderr (a run whose stdout is JSON or RPC). */
  childStdoutToStderr?: boolean;
}

const CONFIG_DIR_NAME = ".pi";

/** Package operations on one settings manager (its project trust decides the project scope). */
export class PackageManager {
  private readonly cwd: string;
  private readonly agentDir: string;
  private readonly settings: PackageSettings;
  private readonly onProgress: (message: string) => void;
  private readonly quietStdout: boolean;

  /** A manager for `cwd` and `agentDir`. */
  constructor(options: PackageManagerOptions) {
    this.cwd = resolve(options.cwd);
    this.agentDir = resolve(options.agentDir);
    this.settings = options.settingsManager;
    this.onProgress = options.onProgress ?? (() => {});
    this.quietStdout = options.childStdoutToStderr ?? false;
  }

  private run(command: string, args: string[], cwd?: string): Promise<void> {
    return runInherited(command, args, cwd, this.quietStdout);
  }

  /** Installs `source`, then adds it to the scope's settings (replacing an entry of the same package). */
  async installAndPersist(source: string, local: boolean): Promise<void> {
    await this.install(source, local);
    this.addSourceToSettings(source, local ? "project" : "user");
    await this.settings.flush();
  }

  /** Uninstalls `source` and removes its entry; false when no entry matched. */
  async removeAndPersist(source: string, local: boolean): Promise<boolean> {
    const scope: PackageScope = local ? "project" : "user";
    this.assertTrusted(scope);
    const parsed = parseSource(source);
    this.onProgress(`Removing ${source}...`);
    if (parsed.type === "npm") await this.uninstallNpm(parsed, scope);
    else if (parsed.type === "git") this.removeGit(parsed, scope);
    const removed = this.removeSourceFromSettings(source, scope);
    await this.settings.flush();
    return removed;
  }

  /** Installs `source` into the scope's folders without touching settings. */
  async install(source: string, local: boolean): Promise<void> {
    const scope: PackageScope = local ? "project" : "user";
    this.assertTrusted(scope);
    const parsed = parseSource(source);
    this.onProgress(`Installing ${source}...`);
    if (parsed.type === "npm") {
      if (!parsed.name) throw new Error(`Invalid npm source "${source}": no package name after "npm:"`);
      await this.installNpm(parsed, scope);
    } else if (parsed.type === "git") {
      await this.installGit(parsed, scope);
    } else {
      const path = resolveLocalPath(parsed.path, this.cwd);
      if (!existsSync(path)) throw new Error(`Path does not exist: ${path}`);
    }
  }

  /** The configured packages of both scopes (user first), with where each is installed. */
  listConfiguredPackages(): ConfiguredPackage[] {
    const out: ConfiguredPackage[] = [];
    const scopes: [PackageScope, PackageSource[]][] = [
      ["user", this.settings.getGlobalSettings().packages ?? []],
      ["project", this.settings.getProjectSettings().packages ?? []],
    ];
    for (const [scope, entries] of scopes) {
      for (const entry of entries) {
        const source = entrySource(entry);
        out.push({
          source,
          scope,
          filtered: typeof entry === "object",
          installedPath: this.installedPath(source, scope),
        });
      }
    }
    return out;
  }

  /** Where `source` of `scope` is installed; undefined when it is not there. */
  installedPath(source: string, scope: PackageScope): string | undefined {
    const parsed = parseSource(source);
    let path: string;
    if (parsed.type === "npm") path = this.npmInstallPath(parsed, scope);
    else if (parsed.type === "git") path = this.gitInstallPath(parsed, scope);
    else path = resolveLocalPath(parsed.path, this.baseDir(scope));
    return existsSync(path) ? path : undefined;
  }

  /** The folder a scope's relative local sources resolve from (the settings file's folder). */
  baseDir(scope: PackageScope): string {
    return scope === "project" ? join(this.cwd, CONFIG_DIR_NAME) : this.agentDir;
  }

  private assertTrusted(scope: PackageScope): void {
    if (scope === "project" && !this.settings.isProjectTrusted()) {
      throw new Error("Project is not trusted; refusing to access project package storage");
    }
  }

  private entries(scope: PackageScope): PackageSource[] {
    const settings = scope === "project"
      ? this.settings.getProjectSettings()
      : this.settings.getGlobalSettings();
    return settings.packages ?? [];
  }

  private store(scope: PackageScope, packages: PackageSource[]): void {
    if (scope === "project") this.settings.setProjectPackages(packages);
    else this.settings.setPackages(packages);
  }

  /** A local source as settings store it: relative to the settings file's folder. */
  private normalizeForSettings(source: string, scope: PackageScope): string {
    const parsed = parseSource(source);
    if (parsed.type !== "local") return source;
    return relative(this.baseDir(scope), resolveLocalPath(parsed.path, this.cwd)) || ".";
  }

  private matches(entry: PackageSource, input: string, scope: PackageScope): boolean {
    return packageIdentity(entrySource(entry), this.baseDir(scope)) === packageIdentity(input, this.cwd);
  }

  /** Adds (or re-points) the scope's entry for `source`; false when it was already there as written. */
  addSourceToSettings(source: string, scope: PackageScope): boolean {
    const current = this.entries(scope);
    const normalized = this.normalizeForSettings(source, scope);
    const index = current.findIndex((entry) => this.matches(entry, source, scope));
    if (index >= 0) {
      const existing = current[index];
      if (entrySource(existing) === normalized) return false;
      const next = [...current];
      next[index] = typeof existing === "string" ? normalized : { ...existing, source: normalized };
      this.store(scope, next);
      return true;
    }
    this.store(scope, [...current, normalized]);
    return true;
  }

  /** Removes the scope's entries for `source`; false when none matched. */
  removeSourceFromSettings(source: string, scope: PackageScope): boolean {
    const current = this.entries(scope);
    const next = current.filter((entry) => !this.matches(entry, source, scope));
    if (next.length === current.length) return false;
    this.store(scope, next);
    return true;
  }

  /** The npm client settings name (`npmCommand`), else `npm`. */
  client(): NpmClient {
    return npmClient(this.settings.getNpmCommand());
  }

  private npmRoot(scope: PackageScope): string {
    return scope === "project" ? join(this.cwd, CONFIG_DIR_NAME, "npm") : join(this.agentDir, "npm");
  }

  /** Where an npm package of `scope` is installed. */
  npmInstallPath(source: NpmSource, scope: PackageScope): string {
    return join(this.npmRoot(scope), "node_modules", source.name);
  }

  private gitRoot(scope: PackageScope): string {
    return scope === "project" ? join(this.cwd, CONFIG_DIR_NAME, "git") : join(this.agentDir, "git");
  }

  /** Where a git package of `scope` is cloned. */
  gitInstallPath(source: GitSource, scope: PackageScope): string {
    const root = resolve(this.gitRoot(scope));
    const path = resolve(root, source.host, source.path);
    if (!path.startsWith(root + sep)) {
      throw new Error(`Refusing to use path outside package install root: ${path}`);
    }
    return path;
  }

  private async installNpm(source: NpmSource, scope: PackageScope): Promise<void> {
    await this.installNpmSpecs([source.spec], scope);
  }

  /** Runs one `npm install <specs…>` in the scope's managed npm folder. */
  async installNpmSpecs(specs: string[], scope: PackageScope): Promise<void> {
    const root = this.npmRoot(scope);
    ensureNpmProject(root);
    const client = this.client();
    // npm writes broken nested package-lock.json paths when --prefix goes through a symlink.
    const realRoot = Deno.realPathSync(root);
    await this.run(client.command, [...client.args, ...npmInstallArgs(client, specs, realRoot)]);
  }

  /** Clones a missing git package, or brings an existing checkout to its ref or upstream branch. */
  async updateGit(source: GitSource, scope: PackageScope): Promise<void> {
    const target = this.gitInstallPath(source, scope);
    if (existsSync(target)) await this.reconcileGit(target, source.ref);
    else await this.installGit(source, scope);
  }

  /** Brings the checkout at `target` to `ref` (or its upstream branch): the refresh of a one-off git package. */
  async refreshCheckout(target: string, ref: string | undefined): Promise<void> {
    await this.reconcileGit(target, ref);
  }

  private async uninstallNpm(source: NpmSource, scope: PackageScope): Promise<void> {
    const root = this.npmRoot(scope);
    if (!existsSync(root)) return;
    const client = this.client();
    const realRoot = Deno.realPathSync(root);
    await this.run(client.command, [...client.args, ...npmUninstallArgs(client, source.name, realRoot)]);
  }

  private async installGit(source: GitSource, scope: PackageScope): Promise<void> {
    const target = this.gitInstallPath(source, scope);
    if (existsSync(target)) {
      await this.reconcileGit(target, source.ref);
      return;
    }
    const root = this.gitRoot(scope);
    ensureGitIgnore(root);
    Deno.mkdirSync(dirname(target), { recursive: true });
    removeIfPresent(updateMarkerPath(target));
    try {
      await this.run("git", ["clone", source.repo, target]);
      if (source.ref) await this.run("git", ["checkout", source.ref], target);
      if (existsSync(join(target, "package.json"))) {
        const client = this.client();
        await this.run(client.command, [...client.args, ...gitDependencyInstallArgs(client)], target);
      }
    } catch (error) {
      removeIfPresent(target);
      pruneEmptyParents(target, root);
      throw error;
    }
  }

  /** Brings an existing checkout to `ref` (or its upstream branch), then installs its dependencies. */
  private async reconcileGit(target: string, ref: string | undefined): Promise<void> {
    let fetchArgs: string[];
    let targetRef: string;
    if (ref) {
      fetchArgs = ["fetch", "origin", ref];
      targetRef = "FETCH_HEAD";
    } else {
      ({ fetchArgs, ref: targetRef } = await upstreamTarget(target));
    }
    await this.run("git", fetchArgs, target);
    const localHead = await runCaptured("git", ["rev-parse", "HEAD"], target);
    const commitRef = `${targetRef}^{commit}`;
    const targetHead = await runCaptured("git", ["rev-parse", commitRef], target);
    const marker = updateMarkerPath(target);
    if (localHead === targetHead && !existsSync(marker)) return;
    if (localHead !== targetHead) {
      Deno.writeTextFileSync(marker, "");
      await this.run("git", ["reset", "--hard", commitRef], target);
    }
    await this.run("git", ["clean", "-fdx"], target);
    if (existsSync(join(target, "package.json"))) {
      const client = this.client();
      await this.run(client.command, [...client.args, ...gitDependencyInstallArgs(client)], target);
    }
    removeIfPresent(marker);
  }

  private removeGit(source: GitSource, scope: PackageScope): void {
    const target = this.gitInstallPath(source, scope);
    removeIfPresent(target);
    removeIfPresent(updateMarkerPath(target));
    pruneEmptyParents(target, this.gitRoot(scope));
  }
}

/** The branch an unpinned checkout follows and how to fetch just it. */
async function upstreamTarget(target: string): Promise<{ ref: string; fetchArgs: string[] }> {
  const fetchBranch = (branch: string) => [
    "fetch",
    "--prune",
    "--no-tags",
    "origin",
    `+refs/heads/${branch}:refs/remotes/origin/${branch}`,
  ];
  try {
    const upstream = await runCaptured("git", ["rev-parse", "--abbrev-ref", "@{upstream}"], target);
    if (!upstream.startsWith("origin/") || upstream === "origin/") throw new Error("no origin upstream");
    return { ref: "@{upstream}", fetchArgs: fetchBranch(upstream.slice("origin/".length)) };
  } catch {
    await runCaptured("git", ["remote", "set-head", "origin", "-a"], target).catch(() => "");
    const head = await runCaptured("git", ["symbolic-ref", "refs/remotes/origin/HEAD"], target).catch(() =>
      ""
    );
    const branch = head.replace(/^refs\/remotes\/origin\//, "");
    if (branch) return { ref: "origin/HEAD", fetchArgs: fetchBranch(branch) };
    return {
      ref: "origin/HEAD",
      fetchArgs: ["fetch", "--prune", "--no-tags", "origin", "+HEAD:refs/remotes/origin/HEAD"],
    };
  }
}

/** Marks a git update that has not finished (its clean and dependency install are retried). */
function updateMarkerPath(target: string): string {
  return join(dirname(target), `.${basename(target)}.pi-update-incomplete`);
}

function removeIfPresent(path: string): void {
  try {
    Deno.removeSync(path, { recursive: true });
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
}

/** Removes the now-empty owner and host folders left by a removed checkout, up to `root`. */
function pruneEmptyParents(target: string, root: string): void {
  const resolvedRoot = resolve(root);
  let current = dirname(target);
  while (current.startsWith(resolvedRoot) && current !== resolvedRoot) {
    if (existsSync(current)) {
      if ([...Deno.readDirSync(current)].length > 0) break;
      try {
        Deno.removeSync(current);
      } catch {
        break;
      }
    }
    current = dirname(current);
  }
}

/** A `.gitignore` that keeps installed packages out of the user's repositories. */
function ensureGitIgnore(dir: string): void {
  Deno.mkdirSync(dir, { recursive: true });
  const path = join(dir, ".gitignore");
  if (!existsSync(path)) Deno.writeTextFileSync(path, "*\n!.gitignore\n");
}

/** The managed npm folder: a private package.json npm installs into. */
export function ensureNpmProject(root: string): void {
  Deno.mkdirSync(root, { recursive: true });
  ensureGitIgnore(root);
  const path = join(root, "package.json");
  if (!existsSync(path)) {
    Deno.writeTextFileSync(path, JSON.stringify({ name: "pi-extensions", private: true }, null, 2));
  }
}
