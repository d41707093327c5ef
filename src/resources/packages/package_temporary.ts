/**
 * One-off packages of `-e npm:<pkg>[@version]` and `-e git:…` (pi 1.6.0, docs/packages.md):
 * installed into 1.6.0's temporary cache under the agent dir, never written to settings, reused on
 * the next run. The layout is 1.6.0's, so both share one cache:
 * - npm: `<agentDir>/tmp/extensions/npm/<hash>/node_modules/<name>`, where `<hash>` is the first
 *   8 hex digits of sha256("npm-");
 * - git: `<agentDir>/tmp/extensions/git-<host>/<hash>/<path>`, `<hash>` from
 *   sha256("git-<host>-<path>[@<ref>]"), so each pinned ref has its own checkout.
 * As in 1.6.0, a cached package that is not pinned is refreshed on load (they have no `pi update`):
 * an npm one when the registry has a newer version, a git one by fetching its ref or branch (a
 * commit hash already checked out is kept); a failed refresh keeps the cache. Offline mode
 * (`PI_OFFLINE`) installs and refreshes nothing: a missing one-off package is skipped silently. A
 * failed install is reported with 1.6.0's text and the run goes on without it.
 *
 * @module
 */
import { existsSync } from "../../util/fs.ts";
import { dirname, join, resolve, sep } from "../../util/path.ts";
import { ensureNpmProject, PackageManager } from "./package_manager.ts";
import {
  gitDependencyInstallArgs,
  type NpmClient,
  npmInstallArgs,
  runCaptured,
  runInherited,
} from "./package_process.ts";
import { type GitSource, type NpmSource, parseSource } from "./package_source.ts";
import { compareVersions, isOfflineMode, latestVersion } from "./package_update.ts";

/** Whether an `-e` entry names a one-off package rather than a file. */
export function isTemporaryPackageSource(entry: string): boolean {
  const type = parseSource(entry.trim()).type;
  return type === "npm" || type === "git";
}

/** The outcome for the `-e` package sources of one run. */
export interface TemporaryPackages {
  /** Each installed package's root, with the `-e` source that named it. */
  roots: { source: string; root: string }[];
  /** 1.6.0's warning for each package that failed to install. */
  warnings: string[];
}

async function shortHash(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("").slice(0, 8);
}

function inside(root: string, ...parts: string[]): string {
  const base = resolve(root);
  const path = resolve(base, ...parts);
  if (path !== base && !path.startsWith(base + sep)) {
    throw new Error(`Refusing to use path outside package install root: ${path}`);
  }
  return path;
}

/** 1.6.0's `getTemporaryDir(prefix, suffix, ref)`. */
async function temporaryDir(
  agentDir: string,
  prefix: string,
  suffix?: string,
  ref?: string,
): Promise<string> {
  const tempRoot = join(agentDir, "tmp", "extensions");
  Deno.mkdirSync(tempRoot, { recursive: true, mode: 0o700 });
  Deno.chmodSync(tempRoot, 0o700);
  const root = inside(tempRoot, prefix);
  const hash = await shortHash(`${prefix}-${suffix ?? ""}${ref ? `@${ref}` : ""}`);
  return inside(root, hash, suffix ?? "");
}

/** Where a one-off npm package lives, and the npm project it is installed into. */
async function npmPaths(agentDir: string, source: NpmSource): Promise<{ root: string; path: string }> {
  const root = await temporaryDir(agentDir, "npm");
  return { root, path: join(root, "node_modules", source.name) };
}

/** Where a one-off git package is checked out. */
function gitPath(agentDir: string, source: GitSource): Promise<string> {
  return temporaryDir(agentDir, `git-${source.host}`, source.path, source.ref);
}

/** Whether an installed npm package matches a pinned version of the source. */
function installedVersionMatches(path: string, source: NpmSource): boolean {
  if (!source.pinned || !source.version) return true;
  try {
    return JSON.parse(Deno.readTextFileSync(join(path, "package.json"))).version === source.version;
  } catch {
    return false;
  }
}

/**
 * Installs the `-e` package sources that are not in the cache yet and returns every installed
 * package root. npm's and git's output goes to stderr (stdout may be a JSON or RPC stream).
 */
export async function resolveTemporaryPackages(
  sources: readonly string[],
  options: { agentDir: string; npmCommand?: string[] },
): Promise<TemporaryPackages> {
  const result: TemporaryPackages = { roots: [], warnings: [] };
  const offline = isOfflineMode();
  // One-off installs write no settings; the manager only runs npm and git for us.
  const manager = new PackageManager({
    cwd: options.agentDir,
    agentDir: options.agentDir,
    settingsManager: {
      getGlobalSettings: () => ({}),
      getProjectSettings: () => ({}),
      isProjectTrusted: () => false,
      getNpmCommand: () => options.npmCommand,
      setPackages: () => {},
      setProjectPackages: () => {},
      flush: () => Promise.resolve(),
    },
    childStdoutToStderr: true,
  });
  const client = manager.client();
  for (const raw of sources) {
    const source = raw.trim();
    const parsed = parseSource(source);
    try {
      if (parsed.type === "npm") {
        if (!parsed.name) throw new Error(`Invalid npm source "${source}": no package name after "npm:"`);
        const { root, path } = await npmPaths(options.agentDir, parsed);
        if (!existsSync(path) || !installedVersionMatches(path, parsed)) {
          if (offline) continue;
          await installNpm(client, root, parsed.spec);
        } else if (!offline && !parsed.pinned && await npmHasUpdate(manager, root, path, parsed)) {
          // A bare `npm install name` would keep the range saved in the cache's package.json.
          await installNpm(client, root, parsed.version ? parsed.spec : `${parsed.name}@latest`).catch(
            () => {},
          );
        }
        result.roots.push({ source, root: path });
      } else if (parsed.type === "git") {
        const path = await gitPath(options.agentDir, parsed);
        if (!existsSync(path)) {
          if (offline) continue;
          await cloneGit(client, parsed, path);
        } else if (!offline) {
          await refreshGit(manager, parsed, path);
        }
        result.roots.push({ source, root: path });
      }
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      result.warnings.push(
        `Extension package "${source}": failed to install (${message}). Check the source and try again.`,
      );
    }
  }
  return result;
}

async function installNpm(client: NpmClient, root: string, spec: string): Promise<void> {
  ensureNpmProject(root);
  // npm writes broken nested package-lock.json paths when --prefix goes through a symlink.
  const realRoot = Deno.realPathSync(root);
  await runInherited(
    client.command,
    [...client.args, ...npmInstallArgs(client, [spec], realRoot)],
    undefined,
    true,
  );
}

/** Whether the registry has a newer version than the cached one (false when it cannot tell). */
async function npmHasUpdate(
  manager: PackageManager,
  root: string,
  path: string,
  source: NpmSource,
): Promise<boolean> {
  let installed: string | undefined;
  try {
    installed = JSON.parse(Deno.readTextFileSync(join(path, "package.json"))).version;
  } catch {
    return false;
  }
  if (typeof installed !== "string") return false;
  try {
    const latest = await latestVersion(manager, root, source.version ? source.spec : source.name);
    return compareVersions(latest, installed) > 0;
  } catch {
    return false;
  }
}

/** 1.6.0's refresh of a cached git checkout; a failure keeps the checkout as it is. */
async function refreshGit(manager: PackageManager, source: GitSource, path: string): Promise<void> {
  try {
    if (source.ref && /^[0-9a-f]{7,64}$/i.test(source.ref)) {
      const head = await runCaptured("git", ["rev-parse", "HEAD"], path);
      if (head.toLowerCase().startsWith(source.ref.toLowerCase())) return;
    }
    await manager.refreshCheckout(path, source.ref);
  } catch {
    // Keep the cached checkout.
  }
}

async function cloneGit(client: NpmClient, source: GitSource, target: string): Promise<void> {
  Deno.mkdirSync(dirname(target), { recursive: true });
  try {
    await runInherited("git", ["clone", source.repo, target], undefined, true);
    if (source.ref) await runInherited("git", ["checkout", source.ref], target, true);
    if (existsSync(join(target, "package.json"))) {
      await runInherited(client.command, [...client.args, ...gitDependencyInstallArgs(client)], target, true);
    }
  } catch (error) {
    try {
      Deno.removeSync(target, { recursive: true });
    } catch {
      // Nothing was cloned.
    }
    throw error;
  }
}
