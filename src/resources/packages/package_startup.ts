/**
 * Packages at start-up (pi 1.6.0, docs/packages.md): a configured npm or git package that is not
 * installed yet is installed before its resources load. A failure (no registry, missing package,
 * bad ref) is a warning naming the package and how to remove it; pi goes on without it and tries
 * again next time. Offline mode installs nothing.
 *
 * @module
 */
import { PackageManager, type PackageSettings } from "./package_manager.ts";
import {
  type PackageResourceOptions,
  type PackageResources,
  resolvePackageResources,
} from "./package_resources.ts";
import { isOfflineMode } from "./package_update.ts";

/** Options of {@link resolvePackagesAtStartup}. */
export interface StartupPackageOptions extends PackageResourceOptions {
  /** The `npmCommand` setting. */
  npmCommand?: string[];
  /** Where install failures are reported. */
  warn: (message: string) => void;
}

/** The configured packages' resources, after installing the missing ones. */
export async function resolvePackagesAtStartup(options: StartupPackageOptions): Promise<PackageResources> {
  const first = resolvePackageResources(options);
  if (first.missing.length === 0 || isOfflineMode()) return first;
  // The entries are already written; only installing is needed, so settings are read-only here.
  const settings: PackageSettings = {
    getGlobalSettings: () => ({}),
    getProjectSettings: () => ({}),
    // Project entries reach this point only when the project is trusted.
    isProjectTrusted: () => true,
    getNpmCommand: () => options.npmCommand,
    setPackages: () => {},
    setProjectPackages: () => {},
    flush: () => Promise.resolve(),
  };
  // npm's and git's output goes to stderr: stdout may be a JSON or RPC stream.
  const manager = new PackageManager({
    cwd: options.cwd,
    agentDir: options.agentDir,
    settingsManager: settings,
    childStdoutToStderr: true,
  });
  for (const { source, scope } of first.missing) {
    try {
      await manager.install(source, scope === "project");
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const remove = `pi remove ${source}${scope === "project" ? " --local" : ""}`;
      options.warn(
        `Warning: Extension package "${source}": failed to install (${message}). ` +
          `Run "${remove}" to remove it from settings.json.`,
      );
    }
  }
  return resolvePackageResources(options);
}
