/**
 * Where a resource (skill, prompt template, theme, extension) came from, for listings and
 * collision reports.
 *
 * @module
 */

/** Scope of a resource: the user's, the project's, or only this run's. */
export type ResourceScope = "user" | "project" | "temporary";

/** Provenance of one loaded resource. */
export interface SourceInfo {
  /** Path of the file. */
  path: string;
  /** "local", "cli", or a package source such as "npm:name". */
  source: string;
  /** User, project or temporary. */
  scope: ResourceScope;
  /** Listed directly, or from a package. */
  origin: "top-level" | "package";
  /** Folder relative paths resolve against. */
  baseDir?: string;
}

/** Provenance for a resource found outside any package. */
export function createSyntheticSourceInfo(
  path: string,
  options: { source: string; scope?: ResourceScope; origin?: "top-level" | "package"; baseDir?: string },
): SourceInfo {
  return {
    path,
    source: options.source,
    scope: options.scope ?? "temporary",
    origin: options.origin ?? "top-level",
    baseDir: options.baseDir,
  };
}
