/**
 * Running the real `npm` (or the configured `npmCommand`) and `git` for packages, as pi 1.6.0 does:
 * install commands write to the terminal (the user sees npm's and git's own progress), queries are
 * captured; a failure is an error naming the command line and its exit code.
 *
 * @module
 */
import { basename } from "../../util/path.ts";

/** How long a captured git query may take before it is abandoned. */
export const NETWORK_TIMEOUT_MS = 10_000;

/**
 * Runs a command with the terminal's streams; rejects with `<cmd> <args> failed with code N`. With
 * `stdoutToStderr` its stdout goes to stderr, for runs whose stdout is a protocol (JSON, RPC).
 */
export async function runInherited(
  command: string,
  args: string[],
  cwd?: string,
  stdoutToStderr = false,
): Promise<void> {
  let status: Deno.CommandStatus;
  try {
    const child = new Deno.Command(command, {
      args,
      cwd,
      stdin: "null",
      stdout: stdoutToStderr ? "piped" : "inherit",
      stderr: "inherit",
    }).spawn();
    if (stdoutToStderr) {
      await child.stdout.pipeTo(Deno.stderr.writable, { preventClose: true }).catch(() => {});
    }
    status = await child.status;
  } catch (error) {
    throw spawnError(command, error);
  }
  if (!status.success) throw new Error(`${command} ${args.join(" ")} failed with code ${status.code}`);
}

/** Runs a command and returns its trimmed stdout; rejects with its output on failure or timeout. */
export async function runCaptured(
  command: string,
  args: string[],
  cwd?: string,
  timeoutMs = NETWORK_TIMEOUT_MS,
): Promise<string> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  let output: Deno.CommandOutput;
  try {
    output = await new Deno.Command(command, {
      args,
      cwd,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      signal: controller.signal,
      env: { GIT_TERMINAL_PROMPT: "0" },
    }).output();
  } catch (error) {
    throw spawnError(command, error);
  } finally {
    clearTimeout(timer);
  }
  const decoder = new TextDecoder();
  const stdout = decoder.decode(output.stdout);
  if (output.success) return stdout.trim();
  if (controller.signal.aborted) {
    throw new Error(`${command} ${args.join(" ")} timed out after ${timeoutMs}ms`);
  }
  const stderr = decoder.decode(output.stderr);
  throw new Error(`${command} ${args.join(" ")} failed with code ${output.code}: ${stderr || stdout}`);
}

function spawnError(command: string, error: unknown): Error {
  if (error instanceof Deno.errors.NotFound) {
    return new Error(`${command} is not installed or not on PATH (needed for packages)`);
  }
  return error instanceof Error ? error : new Error(String(error));
}

/** The package client: `npmCommand` from settings, else plain `npm`. */
export interface NpmClient {
  command: string;
  args: string[];
  /** `npm`, `pnpm`, `bun`, or the command's own name. */
  name: string;
}

/** Builds the client from the `npmCommand` setting (an argv array). */
export function npmClient(configured: string[] | undefined): NpmClient {
  if (!configured || configured.length === 0) return { command: "npm", args: [], name: "npm" };
  const [command, ...args] = configured;
  if (!command) throw new Error("Invalid npmCommand: first array entry must be a non-empty command");
  const normalize = (value: string) => basename(value).replace(/\.(cmd|exe)$/i, "");
  const supported = new Set(["npm", "pnpm", "bun"]);
  const separator = args.lastIndexOf("--");
  if (separator >= 0) {
    const wrapped = args[separator + 1];
    return { command, args, name: wrapped ? normalize(wrapped) : normalize(command) };
  }
  if (supported.has(normalize(command))) return { command, args, name: normalize(command) };
  const wrapped = [...new Set(args.map(normalize).filter((value) => supported.has(value)))];
  if (wrapped.length > 1) throw new Error(`Ambiguous npmCommand package managers: ${wrapped.join(", ")}`);
  return { command, args, name: wrapped[0] ?? normalize(command) };
}

/**
 * Arguments that install `specs` into the managed folder `root`. Peer dependencies are not
 * installed: pi provides its own packages to extensions.
 */
export function npmInstallArgs(client: NpmClient, specs: string[], root: string): string[] {
  if (client.name === "bun") return ["install", ...specs, "--cwd", root, "--omit=peer"];
  if (client.name === "pnpm") {
    return [
      "install",
      ...specs,
      "--prefix",
      root,
      "--config.auto-install-peers=false",
      "--config.strict-peer-dependencies=false",
      "--config.strict-dep-builds=false",
    ];
  }
  return ["install", ...specs, "--prefix", root, "--legacy-peer-deps", "--no-audit", "--no-fund"];
}

/** Arguments that remove package `name` from the managed folder `root`. */
export function npmUninstallArgs(client: NpmClient, name: string, root: string): string[] {
  if (client.name === "bun") return ["uninstall", name, "--cwd", root];
  const args = ["uninstall", name, "--prefix", root];
  if (client.name !== "pnpm") args.push("--legacy-peer-deps", "--no-audit", "--no-fund");
  return args;
}

/** Arguments that install a cloned git package's own dependencies, in its folder. */
export function gitDependencyInstallArgs(client: NpmClient): string[] {
  switch (client.name) {
    case "bun":
      return ["install", "--omit=dev", "--omit=peer"];
    case "pnpm":
      return [
        "install",
        "--prod",
        "--config.auto-install-peers=false",
        "--config.strict-peer-dependencies=false",
        "--config.strict-dep-builds=false",
      ];
    case "npm":
      return ["install", "--omit=dev", "--legacy-peer-deps", "--no-audit", "--no-fund"];
    default:
      return ["install"];
  }
}
