/**
 * A terminal for end-to-end tests of the interactive mode: one tmux server of its own (its own
 * socket, no user configuration), one pane of a fixed size running a plain shell. Tests type
 * into it (send-keys) and read the screen (capture-pane), always polling with a deadline.
 *
 * @module
 */
import { join } from "node:path";

/** Options of {@link TmuxPane.start}. */
export interface TmuxPaneOptions {
  width?: number;
  height?: number;
  /** The shell's environment (complete: nothing else is inherited). */
  env: Record<string, string>;
  /** The shell's working folder. */
  cwd: string;
  /** tmux's extended-keys option (default on). */
  extendedKeys?: boolean;
}

async function run(args: string[], check = true): Promise<string> {
  const out = await new Deno.Command("tmux", { args, stdout: "piped", stderr: "piped" }).output();
  const text = new TextDecoder().decode(out.stdout);
  if (check && !out.success) {
    throw new Error(`tmux ${args.join(" ")} failed: ${new TextDecoder().decode(out.stderr)}`);
  }
  return text;
}

let counter = 0;

/** How a test's command line asks for a clean screen (see {@link TmuxPane.command}). */
const CLEAR_PREFIX = "clear; ";

/** One tmux pane with a shell in it. */
export class TmuxPane {
  private constructor(private readonly socket: string, private readonly dir: string) {}

  /** Starts a server and a `width`×`height` pane running `bash --norc` with a `$ ` prompt. */
  static async start(options: TmuxPaneOptions): Promise<TmuxPane> {
    const dir = await Deno.makeTempDir({ prefix: "pi_tmux_" });
    const socket = join(dir, "socket");
    const conf = join(dir, "tmux.conf");
    // No escape delay (a lone Escape reaches the app at once), extended keys on (pi 1.6.0 warns
    // without them), a big scrollback for the regular screen.
    await Deno.writeTextFile(
      conf,
      `set -g escape-time 0\nset -g extended-keys ${options.extendedKeys === false ? "off" : "on"}\n` +
        "set -g history-limit 5000\nset -g status off\n",
    );
    const pane = new TmuxPane(socket, dir);
    const env = { ...options.env, PS1: "$ ", TERM: "xterm-256color" };
    const envArgs = Object.entries(env).flatMap(([k, v]) => ["-e", `${k}=${v}`]);
    await run([
      "-S",
      socket,
      "-f",
      conf,
      "new-session",
      "-d",
      "-x",
      String(options.width ?? 100),
      "-y",
      String(options.height ?? 30),
      "-s",
      `pi${counter++}`,
      "-c",
      options.cwd,
      ...envArgs,
      "env",
      "-i",
      ...Object.entries(env).map(([k, v]) => `${k}=${v}`),
      "bash",
      "--norc",
      "--noprofile",
    ]);
    await pane.waitFor((s) => s.includes("$"), 10_000, "the shell prompt");
    return pane;
  }

  /**
   * The TMUX value a program in the pane would see (socket,pid,session); the pane's shell runs
   * without it so that pi does not ask tmux about its settings unless a test says so.
   */
  get tmuxVariable(): string {
    return `${this.socket},0,0`;
  }

  /** Runs a tmux command against this server. */
  tmux(...args: string[]): Promise<string> {
    return run(["-S", this.socket, ...args]);
  }

  /** Types `text` literally. */
  async type(text: string): Promise<void> {
    await this.tmux("send-keys", "-l", text);
  }

  /** Sends keys by tmux name (`Enter`, `Escape`, `C-c`, `C-d`, `M-Enter`). */
  async keys(...keys: string[]): Promise<void> {
    await this.tmux("send-keys", ...keys);
  }

  /**
   * Types a shell command line and Enter. A line that starts with `clear; ` (a test starting a
   * program on a clean screen) clears first and waits for the bare prompt: otherwise a wait for the
   * program's first screen may match what the previous program left, and keys sent then reach the
   * terminal before the new program has made it raw (they arrive as one cooked line).
   */
  async command(line: string): Promise<void> {
    if (line.startsWith(CLEAR_PREFIX)) {
      await this.type("clear");
      await this.keys("Enter");
      await this.waitFor((s) => s.trim() === "$", 30_000, "a cleared screen");
    }
    await this.type(line);
    await this.keys("Enter");
  }

  /** The visible screen, lines right-trimmed, trailing empty lines dropped. */
  async screen(): Promise<string> {
    const text = await this.tmux("capture-pane", "-p");
    return text.split("\n").map((l) => l.trimEnd()).join("\n").replace(/\n+$/, "");
  }

  /** The pane's whole history and screen (regular mode leaves the transcript in scrollback). */
  async history(): Promise<string> {
    const text = await this.tmux("capture-pane", "-p", "-S", "-");
    return text.split("\n").map((l) => l.trimEnd()).join("\n").replace(/\n+$/, "");
  }

  /** Polls the screen until `test` holds; returns that screen or throws with the last one seen. */
  async waitFor(test: (screen: string) => boolean, timeoutMs: number, what: string): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    let last = "";
    while (Date.now() < deadline) {
      last = await this.screen();
      if (test(last)) return last;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; the screen was:\n${last}`);
  }

  /** Waits until the screen has shown no change for `quietMs` (a finished frame), within `timeoutMs`. */
  async settle(quietMs = 600, timeoutMs = 15_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    let last = await this.screen();
    let since = Date.now();
    while (Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      const now = await this.screen();
      if (now !== last) {
        last = now;
        since = Date.now();
      } else if (Date.now() - since >= quietMs) {
        return now;
      }
    }
    return last;
  }

  /** The pid of the process in the foreground of the pane (the shell when nothing runs). */
  async panePid(): Promise<number> {
    return Number((await this.tmux("display-message", "-p", "#{pane_pid}")).trim());
  }

  /** Ends the server and removes its folder. */
  async close(): Promise<void> {
    await run(["-S", this.socket, "kill-server"], false);
    await Deno.remove(this.dir, { recursive: true }).catch(() => {});
  }
}
