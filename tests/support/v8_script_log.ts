/**
 * Runs `pi` from source with V8's script log on, to see which of our modules a run compiled (the
 * lazy-loading tests: a module that is never compiled was never loaded).
 *
 * @module
 */
import { join } from "node:path";
import { denoDir, machineEnv } from "./agent_env.ts";
import { MAIN_TS } from "./spawn_pi.ts";

/** What {@link runWithScriptLog} saw. */
export interface ScriptLogRun {
  /** The file: URLs of the scripts V8 compiled, in order. */
  scripts: string[];
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `deno run … main.ts args` (after `denoArgs`) with V8's script log in a temp folder. */
export async function runWithScriptLog(
  args: string[],
  options: { env?: Record<string, string>; cwd?: string; denoArgs?: string[]; signal?: AbortSignal } = {},
): Promise<ScriptLogRun> {
  const dir = await Deno.makeTempDir({ prefix: "pi_script_log_" });
  const log = join(dir, "v8.log");
  try {
    const out = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--allow-all",
        "--no-prompt",
        ...(options.denoArgs ?? []),
        `--v8-flags=--log-function-events,--logfile=${log},--no-logfile-per-isolate`,
        MAIN_TS,
        ...args,
      ],
      ...(options.cwd ? { cwd: options.cwd } : {}),
      env: { ...machineEnv(), DENO_DIR: denoDir(), ...options.env },
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      ...(options.signal ? { signal: options.signal } : {}),
    }).output();
    const text = await Deno.readTextFile(log);
    const decoder = new TextDecoder();
    return {
      scripts: [...text.matchAll(/^script-details,\d+,(file:\/\/[^,]*),/gm)].map((m) => m[1]),
      code: out.code,
      stdout: decoder.decode(out.stdout),
      stderr: decoder.decode(out.stderr),
    };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** The scripts under `dirUrl`, relative to it, sorted and each once. */
export function scriptsUnder(scripts: readonly string[], dirUrl: string): string[] {
  return [...new Set(scripts.filter((s) => s.startsWith(dirUrl)).map((s) => s.slice(dirUrl.length)))].sort();
}
