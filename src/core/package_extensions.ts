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
import { isPackageSourceEntry } from "../resources/builtin_extensions.ts";
import type { ResolvedResource } from "../resources/resource_discovery.ts";

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

/** What the `-e npm:…` / `-e git:…` one-off packages of a run bring. */
export interface TemporaryPackageExtensions {
  /** Their enabled extension files (scope `temporary`), in `-e` order. */
  paths: PackageExtensionPath[];
  /** Their skills and prompt templates (scope `temporary`), which load before the settings' ones (1.6.0). */
  resources: { skills: ResolvedResource[]; prompts: ResolvedResource[] };
  /** 1.6.0's warning for each package that failed to install. */
  warnings: string[];
}

/**
 * Installs the `-e` package sources into 1.6.0's temporary cache (reusing what is there) and
 * returns their extensions, skills and prompt templates. Nothing of the package code loads when no `-e` entry is a package.
 */
export async function resolveTemporaryPackageExtensions(
  cliPaths: readonly string[] | undefined,
  options: { cwd: string; agentDir: string; npmCommand?: string[] },
): Promise<TemporaryPackageExtensions> {
  const candidates = (cliPaths ?? []).filter(isPackageSourceEntry).map((entry) => entry.trim());
  if (candidates.length === 0) return { paths: [], resources: { skills: [], prompts: [] }, warnings: [] };
  const { isTemporaryPackageSource, resolveTemporaryPackages } = await import(
    "../resources/packages/package_temporary.ts"
  );
  const sources = candidates.filter(isTemporaryPackageSource);
  if (sources.length === 0) return { paths: [], resources: { skills: [], prompts: [] }, warnings: [] };
  const installed = await resolveTemporaryPackages(sources, options);
  const [{ loadResourceDeps }, { resolvePackageResources }] = await Promise.all([
    import("../resources/resource_deps.ts"),
    import("../resources/packages/package_resources.ts"),
  ]);
  await loadResourceDeps();
  const paths: PackageExtensionPath[] = [];
  const resources: TemporaryPackageExtensions["resources"] = { skills: [], prompts: [] };
  for (const { source, root } of installed.roots) {
    // The installed folder is read as a local package; its metadata names the `-e` source.
    const resolved = resolvePackageResources({
      cwd: options.cwd,
      agentDir: options.agentDir,
      globalPackages: [root],
      projectPackages: [],
    });
    for (const resource of resolved.extensions.filter((r) => r.enabled)) {
      paths.push({ path: resource.path, source, scope: "temporary", baseDir: root });
    }
    for (const kind of ["skills", "prompts"] as const) {
      for (const resource of resolved[kind]) {
        resources[kind].push({
          ...resource,
          metadata: { source, scope: "temporary", origin: "package", baseDir: root },
        });
      }
    }
  }
  return { paths, resources, warnings: installed.warnings };
}
