/**
 * The parsers and matchers resource loading needs (YAML frontmatter, .gitignore rules, glob
 * patterns). They are npm modules that cost tens of milliseconds each to load, and a run with no
 * skills or prompt templates needs none of them — so they load on demand through
 * {@link loadResourceDeps}, which the resource loader awaits before it reads any resource file.
 * The SDK entry (`mod.ts`) loads them eagerly, so its synchronous functions always work.
 *
 * @module
 */
import type { Ignore } from "npm:ignore@7.0.17";

/** The modules, once loaded. */
export interface ResourceDeps {
  parseYaml: (text: string) => unknown;
  createIgnore: () => Ignore;
  minimatch: (path: string, pattern: string) => boolean;
}

let deps: ResourceDeps | undefined;
let loading: Promise<ResourceDeps> | undefined;

/** Loads the modules (once). */
export function loadResourceDeps(): Promise<ResourceDeps> {
  loading ??= Promise.all([
    import("npm:yaml@2.9.1"),
    import("npm:ignore@7.0.17"),
    import("npm:minimatch@10.2.6"),
  ]).then(([yaml, ig, mm]) => {
    deps = {
      parseYaml: (text) => yaml.parse(text),
      createIgnore: () => ig.default(),
      minimatch: (path, pattern) => mm.minimatch(path, pattern),
    };
    return deps;
  });
  return loading;
}

/** Installs already-imported modules (the SDK entry does this at import). */
export function setResourceDeps(loaded: ResourceDeps): void {
  deps = loaded;
}

/** The loaded modules; throws a clear error when a caller skipped {@link loadResourceDeps}. */
export function resourceDeps(): ResourceDeps {
  if (!deps) {
    throw new Error(
      "Resource parsers are not loaded: await loadResourceDeps() before reading skills or templates",
    );
  }
  return deps;
}
