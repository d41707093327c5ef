/**
 * Shell discovery, child environment and process-tree termination for the bash tool.
 *
 * Commands run in their own process group so a timeout or abort can take down every
 * descendant (pipelines, backgrounded jobs, grandchildren) with a single group signal.
 *
 * @module
 */
import { existsSync } from "../util/fs.ts";
import { isWindows } from "../util/os.ts";
import { delimiter } from "../util/path.ts";
import { getBinDir } from "./search_binaries.ts";

/** The program and leading arguments used to run a command string. */
export interface ShellConfig {
  shell: string;
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
 * the reference CLI sets process-wide so scripts can detect they run under the agent.
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
  env.PI_CODING_AGENT = "true";
  return env;
}

/** Pids of detached process groups still running, so shutdown handlers can reap them. */
const trackedDetachedChildPids = new Set<number>();

/** Remembers a detached child so {@link killTrackedDetachedChildren} can reach it. */
export function trackDetachedChildPid(pid: number): void {
  trackedDetachedChildPids.add(pid);
}

/** Forgets a detached child once it has exited. */
export function untrackDetachedChildPid(pid: number): void {
  trackedDetachedChildPids.delete(pid);
}

/** Kills every still-tracked detached process tree (used on SIGHUP/SIGTERM of pi itself). */
export function killTrackedDetachedChildren(): void {
  for (const pid of trackedDetachedChildPids) killProcessTree(pid);
  trackedDetachedChildPids.clear();
}

/**
 * SIGKILLs a whole process group led by `pid`; falls back to the single process when the group
 * is gone or was never created. Errors mean "already dead" and are ignored.
 */
export function killProcessTree(pid: number): void {
  if (isWindows()) {
    try {
      new Deno.Command("taskkill", {
        args: ["/F", "/T", "/PID", String(pid)],
        stdout: "null",
        stderr: "null",
      })
        .spawn();
    } catch {
      // taskkill unavailable: nothing more we can do.
    }
    return;
  }
  try {
    Deno.kill(-pid, "SIGKILL");
  } catch {
    try {
      Deno.kill(pid, "SIGKILL");
    } catch {
      // Already exited.
    }
  }
}

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
  exec: (
    command: string,
    cwd: string,
    options: {
      onData: (data: Uint8Array) => void;
      signal?: AbortSignal;
      timeout?: number;
      env?: Record<string, string>;
    },
  ) => Promise<{ exitCode: number | null }>;
}

/** After the shell exits, wait this long for descendants still holding the pipes. */
const EXIT_STDIO_GRACE_MS = 100;

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
      const child = new Deno.Command(shell, {
        args: [...args, command],
        cwd,
        env: env ?? getShellEnv(),
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
      if (timeout !== undefined && timeout > 0) {
        timer = setTimeout(() => {
          timedOut = true;
          killProcessTree(pid);
        }, timeout * 1000);
      }
      const onAbort = () => killProcessTree(pid);
      if (signal) {
        if (signal.aborted) onAbort();
        else signal.addEventListener("abort", onAbort, { once: true });
      }
      const streams = Promise.all([pump(child.stdout, onData), pump(child.stderr, onData)]);
      try {
        const status = await child.status;
        // Detached grandchildren may keep the pipes open forever; give them a short grace period.
        let grace: ReturnType<typeof setTimeout> | undefined;
        const drained = await Promise.race([
          streams.then(() => true, () => true),
          new Promise<boolean>((resolve) => {
            grace = setTimeout(() => resolve(false), EXIT_STDIO_GRACE_MS);
          }),
        ]);
        clearTimeout(grace);
        if (!drained) {
          await Promise.allSettled([child.stdout.cancel(), child.stderr.cancel()]);
        }
        if (signal?.aborted) throw new Error("aborted");
        if (timedOut) throw new Error(`timeout:${timeout}`);
        return { exitCode: status.signal ? null : status.code };
      } finally {
        untrackDetachedChildPid(pid);
        if (timer !== undefined) clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
      }
    },
  };
}
