/**
 * The `pi` task of deno.json as data: the Deno flags `deno task pi` runs `main.ts` with. The
 * release build (`scripts/build.ts`) and the smoke test (`scripts/smoke/smoke.ts`) take their flags
 * from here, so a compiled binary runs with exactly the permissions, unstable features and V8
 * tuning of the source form, and changing the task changes both (issue 18).
 *
 * @module
 */

/** Where the repository is (this file lives in `scripts/release/`). */
export const REPO_ROOT: URL = new URL("../../", import.meta.url);

/** The parts of the `pi` task: `deno run <flags> <entry>`. */
export interface PiTask {
  /** The task's command line as written in deno.json. */
  command: string;
  /** The flags between `deno run` and the entry, in order. */
  flags: string[];
  /** The entry module, relative to the repository (`main.ts`). */
  entry: string;
}

/**
 * Splits the `pi` task of `config` (deno.json's parsed contents) into its flags and entry.
 * Throws a message naming what is wrong when the task is not `deno run <flags> <entry.ts>` with
 * plain words (no quotes, no shell operators): then the flags could not be reused safely.
 */
export function parsePiTask(config: unknown): PiTask {
  const tasks = (config as { tasks?: Record<string, unknown> } | null)?.tasks;
  const task = tasks?.pi;
  const command = typeof task === "string" ? task : (task as { command?: unknown } | undefined)?.command;
  if (typeof command !== "string") {
    throw new Error('deno.json: tasks.pi is missing (expected "deno run … main.ts")');
  }
  if (/["'`$|&;<>()\\]/.test(command)) {
    throw new Error(`deno.json: tasks.pi must be plain words without quotes or shell operators: ${command}`);
  }
  const words = command.trim().split(/\s+/);
  const [deno, run, ...rest] = words;
  const entry = rest.pop();
  if (deno !== "deno" || run !== "run" || entry === undefined || !/\.[cm]?[jt]s$/.test(entry)) {
    throw new Error(`deno.json: tasks.pi must be "deno run <flags> <entry>.ts": ${command}`);
  }
  const stray = rest.find((word) => !word.startsWith("-"));
  if (stray !== undefined) {
    throw new Error(
      `deno.json: tasks.pi has "${stray}" before its entry; only flags may stand there: ${command}`,
    );
  }
  return { command, flags: rest, entry };
}

/** Reads deno.json at the repository root and parses its `pi` task. */
export async function readPiTask(root: URL = REPO_ROOT): Promise<PiTask> {
  const path = new URL("deno.json", root);
  return parsePiTask(JSON.parse(await Deno.readTextFile(path)));
}
