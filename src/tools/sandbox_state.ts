/**
 * What the tools need to know when pi runs confined (`--sandbox read-only|project`): the profile,
 * the project folder and the folders a command may see. Deno's permissions confine the pi process
 * itself; they cannot confine a child process, so the shell is refused under `read-only` and run
 * through bubblewrap under `project`, and never runs unconfined. Set once by the CLI in the
 * confined process; unset (the `full` profile) everything behaves as without a sandbox.
 *
 * @module
 */

/** The confinement of this process, as the tools see it. */
export interface ToolSandbox {
  /** The confining profile in force. */
  profile: "read-only" | "project";
  /** The project folder (where writes are allowed under `project`). */
  projectDir: string;
  /** Folders a sandboxed command may read (bound read-only). */
  readable: string[];
  /** Folders a sandboxed command may write (bound read-write). */
  writable: string[];
  /** The bubblewrap executable, when one was found. */
  bwrap?: string;
}

let current: ToolSandbox | undefined;

/** Records the process's confinement (the CLI calls this once, in the confined process). */
export function setToolSandbox(sandbox: ToolSandbox | undefined): void {
  current = sandbox;
}

/** The process's confinement; undefined when pi is not confined. */
export function getToolSandbox(): ToolSandbox | undefined {
  return current;
}

/** System folders a command needs to start at all (programs, libraries, /etc for name lookups). */
const SYSTEM_DIRS = ["/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/etc"];

/**
 * The program, arguments and environment that run `program args…` in `cwd` under the current
 * confinement: unchanged without a sandbox; through bubblewrap under `project` (system folders and
 * `readable` read-only, `writable` read-write, no network, nothing else of the file system); refused
 * with an error the model reads under `read-only` or when no bubblewrap was found.
 *
 * Deno refuses to spawn a program with an `LD_*` or `DYLD_*` variable in its environment unless
 * every program may be run, and a confined pi may run only bubblewrap; so those variables are
 * handed to bubblewrap as `--setenv` arguments: the command inside still sees them (libfaketime,
 * a user's LD_LIBRARY_PATH), bubblewrap itself starts without them.
 */
export function sandboxedCommand(
  program: string,
  args: string[],
  cwd: string,
  env: Record<string, string> = {},
): { program: string; args: string[]; env: Record<string, string> } {
  const sandbox = current;
  if (!sandbox) return { program, args, env };
  if (sandbox.profile === "read-only") {
    throw new Error(
      'permission denied: run commands (sandbox profile "read-only" runs no subprocesses; use read, grep, find and ls)',
    );
  }
  if (!sandbox.bwrap) {
    throw new Error(
      'permission denied: run commands (sandbox profile "project" runs commands only through bubblewrap (bwrap), ' +
        "which was not found on PATH; install it (Debian: apt-get install bubblewrap) or use --sandbox full)",
    );
  }
  const bwrapArgs = [
    "--die-with-parent",
    "--unshare-net",
    "--unshare-ipc",
    "--dev",
    "/dev",
    "--proc",
    "/proc",
  ];
  for (const dir of SYSTEM_DIRS) bwrapArgs.push("--ro-bind-try", dir, dir);
  for (const dir of sandbox.readable) bwrapArgs.push("--ro-bind-try", dir, dir);
  for (const dir of sandbox.writable) bwrapArgs.push("--bind-try", dir, dir);
  const outer: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (/^(LD_|DYLD_)/.test(name)) bwrapArgs.push("--setenv", name, value);
    else outer[name] = value;
  }
  bwrapArgs.push("--chdir", cwd, "--", program, ...args);
  return { program: sandbox.bwrap, args: bwrapArgs, env: outer };
}
