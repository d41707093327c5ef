/**
 * The extensions installed pi packages bring (pi 1.6.0, docs/packages.md): the enabled
 * `extensions` resources of the packages the settings declare, project packages only in a trusted
 * project. Packages are installed by the resource loader before this runs; a package that is still
 * missing (its install failed and was reported) brings nothing. The package code loads only when a
 * settings scope declares packages.
 *
 * @module
 */
import type { PackageSource } from "../config/settings_types.ts";
import type { PackageExtensionPath } from "../extensions/discovery.ts";

/** Where the packages are declared. */
export interface PackageExtensionOptions {
  cwd: string;
  agentDir: string;
  /** The user's `packages`. */
  globalPackages?: readonly PackageSource[];
  /** The project's `packages` (pass them only when the project is trusted). */
  projectPackages?: readonly PackageSource[];
  /** The home folder `~` names in local package paths. */
  homeDir?: string;
}

/** The enabled extension files of the configured, installed packages, in load order. */
export async function resolvePackageExtensions(
  options: PackageExtensionOptions,
): Promise<PackageExtensionPath[]> {
  const globalPackages = options.globalPackages ?? [];
  const projectPackages = options.projectPackages ?? [];
  if (globalPackages.length === 0 && projectPackages.length === 0) return [];
  const [{ loadResourceDeps }, { resolvePackageResources }] = await Promise.all([
    import("../resources/resource_deps.ts"),
    import("../resources/packages/package_resources.ts"),
  ]);
  await loadResourceDeps();
  const resolved = resolvePackageResources({
    cwd: options.cwd,
    agentDir: options.agentDir,
    globalPackages,
    projectPackages,
    ...(options.homeDir ? { homeDir: options.homeDir } : {}),
  });
  return resolved.extensions.filter((r) => r.enabled).map((r) => ({
    path: r.path,
    source: r.metadata.source,
    scope: r.metadata.scope === "project" ? "project" : "user",
    ...(r.metadata.baseDir ? { baseDir: r.metadata.baseDir } : {}),
  }));
}
