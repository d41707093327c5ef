/**
 * Builds standalone `pi` binaries with `deno compile` for every supported target: `deno task
 * compile [target...]` (default: all targets). The release workflow (.github/workflows/release.yml)
 * runs exactly this, one target per runner, so this file is the one place the compile command is
 * written.
 *
 * The runtime flags are not written here: they are the flags of the `pi` task in deno.json
 * (`scripts/release/pi_task.ts`), so the binary runs like `deno task pi` and the two cannot drift
 * (`tests/scripts/build_test.ts`). One unstable feature is left out, with its reason below
 * (lazy dynamic imports): deno compile is run with a copy of deno.json without it, written next to
 * deno.json for the build and removed after.
 *
 * Needs the internet: deno downloads a `denort` runtime per target (DENORT_BIN names a local one).
 *
 * Usage: deno run -A scripts/build.ts [--dry-run] [--out-dir DIR] [target...]
 *   --dry-run    print the commands, run nothing
 *   --out-dir    where the binaries go (default: dist/ of the repository)
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { type PiTask, readPiTask, REPO_ROOT } from "./release/pi_task.ts";

/** Targets we ship, with the binary's file name (the release asset name; install.sh relies on them). */
export const TARGETS: Readonly<Record<string, string>> = {
  "x86_64-unknown-linux-gnu": "pi-linux-x64",
  "aarch64-unknown-linux-gnu": "pi-linux-arm64",
  "x86_64-apple-darwin": "pi-darwin-x64",
  "aarch64-apple-darwin": "pi-darwin-arm64",
  "x86_64-pc-windows-msvc": "pi-windows-x64.exe",
};

/**
 * Flags of the `pi` task that deno compile must not get:
 * - `--quiet` only silences deno's own messages while it runs a script (kept out so that deno
 *   compile reports what it embeds);
 * - `--unstable-lazy-dynamic-imports` makes deno build the module graph without following
 *   `import()`, and pi loads everything past `--version` with `import()`: deno compile then embeds
 *   main.ts and src/version.ts only (measured with Deno 2.9.6, tests/scripts/build_test.ts). A
 *   binary carries all its modules, so there is nothing to load lazily anyway.
 */
export const TASK_ONLY_FLAGS: readonly string[] = ["--quiet", "--unstable-lazy-dynamic-imports"];

/** The unstable feature of deno.json that the compile config leaves out (see {@link TASK_ONLY_FLAGS}). */
const LAZY_IMPORTS_FEATURE = "lazy-dynamic-imports";

/** deno.json as deno compile gets it: the same, without the lazy dynamic imports feature. */
export function compileConfig(config: Record<string, unknown>): Record<string, unknown> {
  const unstable = Array.isArray(config.unstable) ? config.unstable : [];
  return { ...config, unstable: unstable.filter((feature) => feature !== LAZY_IMPORTS_FEATURE) };
}

/** Modules a Worker loads by URL, which deno compile cannot see and must be told to embed (`--include`). */
export const WORKER_MODULES: readonly string[] = ["src/extensions/worker_runtime.ts"];

/**
 * The arguments of `deno compile` for `target`, writing `<outDir>/<asset name>`, with the config
 * file `configPath` (from {@link compileConfig}).
 */
export function compileArgs(
  task: PiTask,
  target: string,
  outDir: string,
  root: string,
  configPath: string,
): string[] {
  const name = TARGETS[target];
  if (!name) throw new Error(`unknown target: ${target} (known: ${Object.keys(TARGETS).join(", ")})`);
  return [
    "compile",
    "--config",
    configPath,
    ...task.flags.filter((flag) => !TASK_ONLY_FLAGS.includes(flag)),
    // Modules only a Worker imports, by a URL deno compile cannot follow: an extension that declares
    // permissions runs in a Worker whose first module imports this one (src/extensions/worker_host.ts).
    ...WORKER_MODULES.flatMap((module) => ["--include", joinPath(root, module)]),
    "--target",
    target,
    "--output",
    joinPath(outDir, name),
    joinPath(root, task.entry),
  ];
}

function joinPath(dir: string, name: string): string {
  return `${dir.replace(/[\\/]+$/, "")}/${name}`;
}

async function main(args: string[]): Promise<number> {
  const root = fileURLToPath(REPO_ROOT).replace(/[\\/]+$/, "");
  let dryRun = false;
  let outDir = `${root}/dist`;
  const wanted: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "--dry-run") dryRun = true;
    else if (args[i] === "--out-dir" && args[i + 1] !== undefined) outDir = args[++i];
    else if (args[i].startsWith("-")) {
      console.error(`unknown option: ${args[i]} (usage: build.ts [--dry-run] [--out-dir DIR] [target...])`);
      return 2;
    } else wanted.push(args[i]);
  }
  const targets = wanted.length ? wanted : Object.keys(TARGETS);
  const unknown = targets.find((target) => !TARGETS[target]);
  if (unknown) {
    console.error(`unknown target: ${unknown} (known: ${Object.keys(TARGETS).join(", ")})`);
    return 2;
  }
  const task = await readPiTask();
  // Next to deno.json, so that its relative paths (workspace, lockfile) mean the same.
  const configPath = `${root}/deno.compile.json`;
  const config = JSON.parse(await Deno.readTextFile(`${root}/deno.json`));
  if (!dryRun) await Deno.writeTextFile(configPath, JSON.stringify(compileConfig(config), null, 2) + "\n");
  try {
    for (const target of targets) {
      const compile = compileArgs(task, target, outDir, root, configPath);
      console.log(`deno ${compile.join(" ")}`);
      if (dryRun) continue;
      const { code } = await new Deno.Command(Deno.execPath(), {
        args: compile,
        cwd: root,
        stdout: "inherit",
        stderr: "inherit",
      }).output();
      if (code !== 0) {
        console.error(`build failed for ${target}`);
        return code;
      }
    }
  } finally {
    if (!dryRun) await Deno.remove(configPath).catch(() => {});
  }
  return 0;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
