/**
 * Spawning the real `pi` process for end-to-end tests: ours (`deno run … main.ts`) or the
 * reference (`node …/dist/cli.js`), with an isolated environment (the caller's env only, nothing
 * inherited), optional stdin text, a timeout that kills a hung run, and the collected
 * stdout/stderr/exit code.
 *
 * @module
 */
import { findReference, requireReference } from "../../scripts/reference/locate.ts";
import { denoDir, machineEnv } from "./agent_env.ts";

/** Path of our entry point. */
export const MAIN_TS: string = new URL("../../main.ts", import.meta.url).pathname;

/** What a finished `pi` run produced. */
export interface PiResult {
  code: number;
  /** The signal that ended the process, when one did. */
  signal: Deno.Signal | null;
  stdout: string;
  stderr: string;
  /** True when the timeout killed the process. */
  timedOut: boolean;
}

/** How to run `pi`. */
export interface SpawnPiOptions {
  /** The complete environment of the child (nothing else is inherited). */
  env: Record<string, string>;
  cwd: string;
  /** Text written to stdin, which is then closed; without it stdin is null (not a terminal). */
  stdin?: string;
  /** Kill the process after this many ms (default 60 s). */
  timeoutMs?: number;
  /** Run the reference CLI under node instead of ours. */
  reference?: boolean;
}

/** A running `pi` process, for tests that signal it mid-run. */
export interface RunningPi {
  child: Deno.ChildProcess;
  /** Resolves once the process ended. */
  result: Promise<PiResult>;
}

/** The reference CLI's path (see scripts/reference/locate.ts); undefined when it is not installed. */
export function findReferenceCli(): string | undefined {
  return findReference()?.cli;
}

/**
 * The reference CLI, or an error that says how to install it. Tests that compare against the
 * reference call this so a missing reference is a failure, never a silent skip.
 */
export function requireReferenceCli(): string {
  return requireReference().cli;
}

let warned = false;

/**
 * True when the reference could not be installed (no registry): tests use stored, normalised
 * captures then, and the first caller says so in one loud line.
 */
export function useReferenceFixtures(): boolean {
  if (findReference()) return false;
  if (!warned) {
    warned = true;
    console.error(
      "!!! reference pi is not installed: comparing with stored captures instead of the live reference",
    );
  }
  return true;
}

function commandFor(args: string[], reference: boolean): { cmd: string; args: string[] } {
  if (reference) {
    const ref = requireReference();
    return { cmd: ref.node, args: [ref.cli, ...args] };
  }
  return { cmd: Deno.execPath(), args: ["run", "--allow-all", "--no-prompt", MAIN_TS, ...args] };
}

/** Starts `pi args…`; the caller may signal `child` before awaiting `result`. */
export function startPi(args: string[], options: SpawnPiOptions): RunningPi {
  const { cmd, args: fullArgs } = commandFor(args, options.reference ?? false);
  // Deno's module cache stays where it was: a changed HOME would otherwise move it and make the
  // child download npm metadata (and print "Download …" on stderr).
  const childEnv = { ...machineEnv(), ...options.env };
  if (!options.reference && !childEnv.DENO_DIR) childEnv.DENO_DIR = denoDir();
  const child = new Deno.Command(cmd, {
    args: fullArgs,
    cwd: options.cwd,
    env: childEnv,
    clearEnv: true,
    stdin: options.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (options.stdin !== undefined) {
    const writer = child.stdin.getWriter();
    void writer.write(new TextEncoder().encode(options.stdin)).then(() => writer.close()).catch(() => {});
  }
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    try {
      child.kill("SIGKILL");
    } catch { /* already gone */ }
  }, options.timeoutMs ?? 60_000);
  const result = child.output().then((out) => {
    clearTimeout(timer);
    const decoder = new TextDecoder();
    return {
      code: out.code,
      signal: out.signal,
      stdout: decoder.decode(out.stdout),
      stderr: decoder.decode(out.stderr),
      timedOut,
    };
  });
  return { child, result };
}

/** Runs `pi args…` to completion. */
export function spawnPi(args: string[], options: SpawnPiOptions): Promise<PiResult> {
  return startPi(args, options).result;
}

/** Polling with a deadline (see wait_for.ts); re-exported for the e2e tests that import it from here. */
export { waitFor } from "./wait_for.ts";
