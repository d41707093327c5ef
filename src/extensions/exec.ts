/**
 * `pi.exec(command, args, options)`: runs a program without a shell and collects its output,
 * with 1.6.0's result shape and rules — a program that cannot start is exit code 1 with the
 * reason on stderr, a signal-killed one is 128 + signal, a timeout or abort kills it (SIGTERM,
 * then SIGKILL after 5 s), and output past `maxBuffer` bytes is cut and never reads as success.
 *
 * @module
 */

/** Options of {@link execCommand}. */
export interface ExecOptions {
  signal?: AbortSignal;
  /** Milliseconds before the process is killed. */
  timeout?: number;
  /** Working directory (default: the session's cwd). */
  cwd?: string;
  /** Combined stdout + stderr byte limit (default 256 MiB). */
  maxBuffer?: number;
}

/** What {@link execCommand} resolves with. */
export interface ExecResult {
  stdout: string;
  stderr: string;
  code: number;
  killed: boolean;
  truncated: boolean;
}

const DEFAULT_MAX_BUFFER = 256 * 1024 * 1024;
const FORCE_KILL_DELAY_MS = 5000;
const SIGNAL_NUMBERS: Record<string, number> = { SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15, SIGSEGV: 11 };

/** Runs `command args…` in `cwd`. */
export async function execCommand(
  command: string,
  args: string[],
  cwd: string,
  options: ExecOptions = {},
): Promise<ExecResult> {
  const maxBuffer = options.maxBuffer ?? DEFAULT_MAX_BUFFER;
  if (!Number.isInteger(maxBuffer) || maxBuffer < 0) {
    throw new RangeError(`maxBuffer must be a non-negative integer (bytes)`);
  }
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(command, { args, cwd, stdin: "null", stdout: "piped", stderr: "piped" }).spawn();
  } catch (error) {
    return { stdout: "", stderr: (error as Error).message, code: 1, killed: false, truncated: false };
  }
  let killed = false;
  let truncated = false;
  let bytes = 0;
  let forceKill: ReturnType<typeof setTimeout> | undefined;
  const kill = () => {
    if (killed) return;
    killed = true;
    try {
      child.kill("SIGTERM");
    } catch { /* already gone */ }
    forceKill = setTimeout(() => {
      try {
        child.kill("SIGKILL");
      } catch { /* already gone */ }
    }, FORCE_KILL_DELAY_MS);
  };
  if (options.signal?.aborted) kill();
  options.signal?.addEventListener("abort", kill, { once: true });
  const timer = options.timeout && options.timeout > 0 ? setTimeout(kill, options.timeout) : undefined;
  const collect = async (stream: ReadableStream<Uint8Array>): Promise<string> => {
    const decoder = new TextDecoder();
    let text = "";
    for await (const chunk of stream) {
      if (truncated) continue;
      const room = maxBuffer - bytes;
      if (chunk.length <= room) {
        bytes += chunk.length;
        text += decoder.decode(chunk, { stream: true });
      } else {
        truncated = true;
        if (room > 0) text += decoder.decode(chunk.subarray(0, room), { stream: true });
        kill();
      }
    }
    return truncated ? text : text + decoder.decode();
  };
  const [stdout, stderr, status] = await Promise.all([
    collect(child.stdout),
    collect(child.stderr),
    child.status,
  ]);
  clearTimeout(timer);
  clearTimeout(forceKill);
  options.signal?.removeEventListener("abort", kill);
  const exitCode = status.signal ? 128 + (SIGNAL_NUMBERS[status.signal] ?? 0) : status.code;
  return { stdout, stderr, code: truncated && exitCode === 0 ? 1 : exitCode, killed, truncated };
}
