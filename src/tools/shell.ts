/**
 * Shell discovery, child environment and process-tree termination for the bash tool.
 *
 * Commands run in their own process group so a timeout or abort can take down every
 * descendant (pipelines, backgrounded jobs, grandchildren) with a single group signal.
 *
 * @module
 */
import { existsSync } from "../util/fs.ts";
import { delimiter } from "../util/path.ts";
import { getBinDir } from "../config/paths.ts";
import {
  killLiveProcessGroups,
  killProcessTree,
  trackProcessGroup,
  untrackProcessGroup,
} from "./process_registry.ts";
import { sandboxedCommand } from "./sandbox_state.ts";

/** The program and leading arguments used to run a command string. */
export interface ShellConfig {
  /** Path of the shell. */
  shell: string;
  /** Arguments placed before the command. */
  args: string[];
}

function whichSync(name: string): string | null {
  const pathValue = Deno.env.get("PATH") ?? "";
  for (const dir of pathValue.split(delimiter)) {
    if (!dir) continue;
    const candidate = `${dir}/${name}`;
    try {
      const info = Deno.statSync(candidate);
      if (info.isFile && ((info.mode ?? 0o111) & 0o111) !== 0) return candidate;
    } catch {
      // Not in this PATH entry.
    }
  }
  return null;
}

/**
 * Picks the shell the way the reference does on Unix: an explicit path (which must exist),
 * then /bin/bash, then bash on PATH, then plain `sh`.
 */
export function getShellConfig(customShellPath?: string): ShellConfig {
  if (customShellPath) {
    if (existsSync(customShellPath)) return { shell: customShellPath, args: ["-c"] };
    throw new Error(`Custom shell path not found: ${customShellPath}`);
  }
  if (existsSync("/bin/bash")) return { shell: "/bin/bash", args: ["-c"] };
  const onPath = whichSync("bash");
  if (onPath) return { shell: onPath, args: ["-c"] };
  return { shell: "sh", args: ["-c"] };
}

/**
 * Environment for spawned commands: the current environment with pi's managed binary folder
 * prepended to PATH (so downloaded rg/fd are usable from bash) and `PI_CODING_AGENT=true`, which
 * the reference CLI sets process-wide so scripts can detect they run under the agent, plus the
 * generic `AI_AGENT=pi` marker.
 */
export function getShellEnv(): Record<string, string> {
  const env: Record<string, string> = { ...Deno.env.toObject() };
  const binDir = getBinDir();
  const pathKey = Object.keys(env).find((key) => key.toLowerCase() === "path") ?? "PATH";
  const currentPath = env[pathKey] ?? "";
  const entries = currentPath.split(delimiter).filter(Boolean);
  env[pathKey] = entries.includes(binDir)
    ? currentPath
    : [binDir, currentPath].filter(Boolean).join(delimiter);
  // The reference CLI sets both process-wide at start-up, so every child inherits them.
  env.PI_CODING_AGENT = "true";
  env.AI_AGENT = "pi";
  return env;
}

/** Remembers a detached child so {@link killTrackedDetachedChildren} can reach it. */
export const trackDetachedChildPid: (pid: number) => void = trackProcessGroup;

/** Forgets a detached child once it has exited. */
export const untrackDetachedChildPid: (pid: number) => void = untrackProcessGroup;

/** Kills every still-running command's process tree (pi's exit hook; see process_registry.ts). */
export const killTrackedDetachedChildren: () => void = killLiveProcessGroups;

export { killProcessTree };

/**
 * Removes characters that break terminal width computations (C0 controls other than tab,
 * newline and carriage return; U+FFF9..U+FFFB) from text decoded from arbitrary bytes.
 */
export function sanitizeBinaryOutput(text: string): string {
  let out = "";
  for (const char of text) {
    const code = char.codePointAt(0);
    if (code === undefined) continue;
    if (code === 0x09 || code === 0x0a || code === 0x0d) {
      out += char;
      continue;
    }
    if (code <= 0x1f) continue;
    if (code >= 0xfff9 && code <= 0xfffb) continue;
    out += char;
  }
  return out;
}

/**
 * Pluggable command execution, so extensions can run commands elsewhere (SSH, containers).
 * `exec` resolves with the exit code (null when killed by a signal) and rejects with
 * `Error("aborted")` or `Error("timeout:<seconds>")`.
 */
export interface BashOperations {
  /** Runs `command` in `cwd`, passing output chunks to `onData`. */
  exec: (
    command: string,
    cwd: string,
    options: {
      onData: (data: Uint8Array) => void;
      signal?: AbortSignal;
      timeout?: number;
      /** The command's environment (Node's `process.env` shape: unset names may be `undefined`). */
      env?: Record<string, string | undefined>;
    },
  ) => Promise<{ exitCode: number | null }>;
}

/**
 * A timeout of the local backend. Its message keeps the `timeout:<seconds>` form custom backends
 * throw; `shellExit` is set when the shell itself had exited before the deadline and only its
 * background processes, still writing to the inherited pipes, kept the command alive.
 */
export class ShellTimeoutError extends Error {
  constructor(
    timeout: number | undefined,
    readonly shellExit?: { exitCode: number; afterSeconds: number },
  ) {
    super(`timeout:${timeout}`);
  }
}

/** After the shell exits, wait this long for descendants still holding the pipes. */
const EXIT_STDIO_GRACE_MS = 100;

/** Resolves true when both pipes ended, false once they were quiet for the grace period. */
function waitForQuietPipes(streams: Promise<unknown>, lastDataAt: () => number): Promise<boolean> {
  return new Promise((resolve) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const check = () => {
      const quietFor = performance.now() - lastDataAt();
      if (quietFor >= EXIT_STDIO_GRACE_MS) {
        resolve(false);
        return;
      }
      timer = setTimeout(check, EXIT_STDIO_GRACE_MS - quietFor);
    };
    timer = setTimeout(check, EXIT_STDIO_GRACE_MS);
    streams.then(() => true, () => true).then((done) => {
      clearTimeout(timer);
      resolve(done);
    });
  });
}

/** POSIX numbers of the signals a shell can die from, for the 128 + n exit status. */
const SIGNAL_NUMBERS: Partial<Record<Deno.Signal, number>> = {
  SIGHUP: 1,
  SIGINT: 2,
  SIGQUIT: 3,
  SIGILL: 4,
  SIGTRAP: 5,
  SIGABRT: 6,
  SIGBUS: 7,
  SIGFPE: 8,
  SIGKILL: 9,
  SIGUSR1: 10,
  SIGSEGV: 11,
  SIGUSR2: 12,
  SIGPIPE: 13,
  SIGALRM: 14,
  SIGTERM: 15,
};

function signalNumber(signal: Deno.Signal): number {
  return SIGNAL_NUMBERS[signal] ?? 0;
}

async function pump(stream: ReadableStream<Uint8Array>, onData: (d: Uint8Array) => void): Promise<void> {
  const reader = stream.getReader();
  try {
    while (true) {
      const { done, value } = await reader.read();
      if (done) return;
      if (value && value.length > 0) onData(value);
    }
  } finally {
    reader.releaseLock();
  }
}

/** `env` without its `undefined` values (a spawned process gets only set variables). */
function definedEnv(env: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) if (value !== undefined) out[name] = value;
  return out;
}

/**
 * The default backend: spawns the shell detached (own process group), streams stdout and
 * stderr as they arrive, and kills the whole group on timeout or abort.
 */
export function createLocalBashOperations(options?: { shellPath?: string }): BashOperations {
  return {
    exec: async (command, cwd, { onData, signal, timeout, env }) => {
      const { shell, args } = getShellConfig(options?.shellPath);
      if (!existsSync(cwd)) {
        throw new Error(`Working directory does not exist: ${cwd}\nCannot execute bash commands.`);
      }
      // Under a --sandbox profile: through bubblewrap, or refused (sandbox_state.ts).
      const spawn = sandboxedCommand(shell, [...args, command], cwd, env ? definedEnv(env) : getShellEnv());
      const child = new Deno.Command(spawn.program, {
        args: spawn.args,
        cwd,
        env: spawn.env,
        clearEnv: true,
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
        detached: Deno.build.os !== "windows",
      }).spawn();
      const pid = child.pid;
      trackDetachedChildPid(pid);
      let timedOut = false;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const onAbort = () => killProcessTree(pid);
      if (signal) {
        if (signal.aborted) onAbort();
        else signal.addEventListener("abort", onAbort, { once: true });
      }
      const startedAt = performance.now();
      let exitedAfterMs: number | undefined;
      let exitedBeforeDeadlineAfterMs: number | undefined;
      let lastDataAt = 0;
      const streams = Promise.all([
        pump(child.stdout, (d) => {
          lastDataAt = performance.now();
          onData(d);
        }),
        pump(child.stderr, (d) => {
          lastDataAt = performance.now();
          onData(d);
        }),
      ]);
      if (timeout !== undefined && timeout > 0) {
        timer = setTimeout(() => {
          timedOut = true;
          exitedBeforeDeadlineAfterMs = exitedAfterMs;
          // Also after the shell exited: the group kill still reaches background jobs on the pipes.
          killProcessTree(pid);
        }, timeout * 1000);
      }
      try {
        const status = await child.status;
        exitedAfterMs = performance.now() - startedAt;
        // Descendants may hold the pipes open for ever. Read on while they keep writing, and stop
        // once the pipes have been quiet for the grace period (output is never cut mid-stream).
        const drained = await waitForQuietPipes(streams, () => lastDataAt);
        if (!drained) {
          await Promise.allSettled([child.stdout.cancel(), child.stderr.cancel()]);
        }
        if (signal?.aborted) throw new Error("aborted");
        const exitCode = status.signal ? 128 + signalNumber(status.signal) : status.code;
        if (timedOut) {
          throw new ShellTimeoutError(
            timeout,
            exitedBeforeDeadlineAfterMs !== undefined
              ? { exitCode, afterSeconds: Math.round(exitedBeforeDeadlineAfterMs / 100) / 10 }
              : undefined,
          );
        }
        return { exitCode };
      } finally {
        untrackDetachedChildPid(pid);
        if (timer !== undefined) clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
      }
    },
  };
}
