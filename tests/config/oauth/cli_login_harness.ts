/**
 * Drives `pi auth login …` (our CLI) for the OAuth end-to-end tests: an isolated HOME and agent dir,
 * a PATH whose only program is a fake `xdg-open` that records the URLs pi asks to open, stdin kept
 * open for typed answers, and stdout read while the login runs.
 *
 * @module
 */
import { join } from "node:path";
import { createAgentEnv } from "../../support/agent_env.ts";
import { MAIN_TS, spawnPi } from "../../support/spawn_pi.ts";

/** A login environment: folders, the child environment and the browser-open log. */
export interface LoginEnv {
  home: string;
  agentDir: string;
  cwd: string;
  env: Record<string, string>;
  /** URLs pi handed to `xdg-open`, in order. */
  openedUrls(): Promise<string[]>;
  cleanup(): Promise<void>;
}

/** Creates the environment; `extraEnv` adds variables (e.g. `PI_ANTHROPIC_OAUTH_URL`). */
export async function createLoginEnv(extraEnv: Record<string, string> = {}): Promise<LoginEnv> {
  // No model is called here; the agent env's fake providers point nowhere.
  const base = await createAgentEnv("http://127.0.0.1:9");
  const bin = join(base.root, "bin");
  await Deno.mkdir(bin);
  const log = join(base.root, "opened.txt");
  await Deno.writeTextFile(join(bin, "xdg-open"), `#!/bin/sh\necho "$1" >> '${log}'\n`);
  await Deno.chmod(join(bin, "xdg-open"), 0o755);
  return {
    home: base.home,
    agentDir: base.agentDir,
    cwd: base.cwd,
    env: { ...base.env, PATH: bin, ...extraEnv },
    async openedUrls() {
      // The opener is started and not awaited: give it a moment to write.
      const deadline = Date.now() + 3000;
      for (;;) {
        const text = await Deno.readTextFile(log).catch(() => "");
        if (text || Date.now() > deadline) return text.split("\n").filter(Boolean);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    cleanup: base.cleanup,
  };
}

/** A running `pi auth login`. */
export interface RunningLogin {
  /** Everything written to stdout so far. */
  stdout(): string;
  /** Resolves with stdout once it matches `pattern` (10 s deadline), with the match. */
  waitFor(pattern: RegExp): Promise<RegExpMatchArray>;
  /** Types a line on stdin. */
  type(line: string): Promise<void>;
  /** Closes stdin. */
  closeStdin(): Promise<void>;
  /** The exit code and both outputs, once the process ended (30 s deadline, then killed). */
  done(): Promise<{ code: number; stdout: string; stderr: string }>;
  child: Deno.ChildProcess;
}

/** Starts `pi <args>` in `env` with stdin open. */
export function startLogin(args: string[], env: LoginEnv): RunningLogin {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", "--no-prompt", "--quiet", MAIN_TS, ...args],
    cwd: env.cwd,
    env: env.env,
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  let out = "";
  let err = "";
  const decoder = new TextDecoder();
  const pump = async (stream: ReadableStream<Uint8Array>, add: (text: string) => void) => {
    for await (const chunk of stream) add(decoder.decode(chunk, { stream: true }));
  };
  const reading = Promise.all([pump(child.stdout, (t) => out += t), pump(child.stderr, (t) => err += t)]);
  const timer = setTimeout(() => {
    try {
      child.kill("SIGKILL");
    } catch { /* gone */ }
  }, 30_000);
  const status = child.status.then(async (s) => {
    clearTimeout(timer);
    await reading;
    await writer.close().catch(() => {});
    return { code: s.code, stdout: out, stderr: err };
  });
  return {
    child,
    stdout: () => out,
    async waitFor(pattern) {
      const deadline = Date.now() + 10_000;
      for (;;) {
        const match = out.match(pattern);
        if (match) return match;
        if (Date.now() > deadline) {
          throw new Error(`stdout did not match ${pattern} within 10 s:\n${out}\nstderr:\n${err}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    type: (line) => writer.write(new TextEncoder().encode(`${line}\n`)),
    closeStdin: () => writer.close().catch(() => {}),
    done: () => status,
  };
}

/** Runs `pi <args>` to completion with no stdin. */
export async function runPi(
  args: string[],
  env: LoginEnv,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const { code, stdout, stderr } = await spawnPi(args, { env: env.env, cwd: env.cwd });
  return { code, stdout, stderr };
}
