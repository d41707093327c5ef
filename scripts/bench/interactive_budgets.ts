/**
 * Issue 11's budgets for the interactive mode, ours against pi 1.6.0 in one run, each `pi` on a real
 * pseudo-terminal (util-linux `script`, 100×30) that answers terminal queries as a dark terminal emulator would:
 *
 * - **first frame**: from spawning `pi` (a new session) to the first write that draws the editor's border;
 * - **idle memory**: that `pi` process's resident set two seconds after its first frame, nothing typed;
 * - **typing**: `pi -c` with a resumed session of 2,000 messages on screen, each key typed into the editor
 *   until the terminal has received the redrawn frame (median and 95th percentile over the keys); the
 *   resumed session's first frame is reported too.
 *
 * Usage: deno run -A scripts/bench/interactive_budgets.ts [rounds] [--keys N] [--messages N]
 *
 * @module
 */
import { join } from "../../src/util/path.ts";
import { encodeCwd } from "../../src/session/paths.ts";
import { createAgentEnv, FAKE_MODEL_ID, FAKE_PROVIDERS } from "../../tests/support/agent_env.ts";
import { startFakeProvider } from "../../tests/support/fake_provider/mod.ts";
import { median, piRunFlags, referenceCommand } from "./common.ts";
import { writeBigSession } from "./session_gen.ts";

function option(name: string, fallback: number): number {
  const index = Deno.args.indexOf(name);
  return index >= 0 ? Number(Deno.args[index + 1]) : fallback;
}

const rounds = Number(Deno.args.find((a, i) => /^\d+$/.test(a) && !Deno.args[i - 1]?.startsWith("--")) ?? 3);
const keyCount = option("--keys", 40);
const messageCount = option("--messages", 2000);
const main = new URL("../../main.ts", import.meta.url).pathname;

const server = await startFakeProvider();
const provider = FAKE_PROVIDERS["anthropic-messages"];
const env = await createAgentEnv(server.url, {
  settings: { defaultProvider: provider, defaultModel: FAKE_MODEL_ID },
});
const childEnv: Record<string, string> = { ...env.env, PI_OFFLINE: "1", TERM: "xterm-256color" };
delete childEnv.NO_COLOR;

const sessionDir = join(env.agentDir, "sessions", encodeCwd(env.cwd));
await Deno.mkdir(sessionDir, { recursive: true });
const pristine = join(env.root, "pristine.jsonl");
await writeBigSession(pristine, {
  messages: messageCount,
  toolBytes: 400,
  cwd: env.cwd,
  provider,
  model: FAKE_MODEL_ID,
});
const live = join(sessionDir, "2026-01-01T00-00-00-000Z_019ad000-0000-7000-8000-000000000001.jsonl");

async function restoreSession(): Promise<void> {
  for await (const e of Deno.readDir(sessionDir)) {
    await Deno.remove(join(sessionDir, e.name), { recursive: true });
  }
  await Deno.copyFile(pristine, live);
}

const quote = (w: string) => `'${w.replaceAll("'", `'\\''`)}'`;

/** A `pi` on a pseudo-terminal: its output with arrival times, and its input. */
class PtyRun {
  readonly child: Deno.ChildProcess;
  readonly #writer: WritableStreamDefaultWriter<Uint8Array>;
  #text = "";
  #waiters: { test: (text: string) => boolean; resolve: () => void }[] = [];
  readonly started = performance.now();
  #done: Promise<void>;

  constructor(cmd: string[]) {
    const shell = `stty cols 100 rows 30; exec ${cmd.map(quote).join(" ")}`;
    this.child = new Deno.Command("script", {
      args: ["-qfec", shell, "/dev/null"],
      env: childEnv,
      cwd: env.cwd,
      stdin: "piped",
      stdout: "piped",
      stderr: "null",
    }).spawn();
    this.#writer = this.child.stdin.getWriter();
    const decoder = new TextDecoder();
    const stdout = this.child.stdout;
    this.#done = (async () => {
      for await (const chunk of stdout) {
        const text = decoder.decode(chunk, { stream: true });
        this.#text += text;
        this.#answerQueries(text);
        this.#waiters = this.#waiters.filter((w) => {
          if (!w.test(this.#text)) return true;
          w.resolve();
          return false;
        });
      }
    })();
  }

  /**
   * Answers what a terminal emulator answers, so neither pi waits for a timeout that a real terminal would
   * not make it wait for: device attributes (DA1), the foreground/background colours (OSC 10/11) and the
   * palette (OSC 4), as a dark 256-colour terminal without the kitty keyboard protocol.
   */
  #answerQueries(text: string): void {
    let reply = "";
    // deno-lint-ignore no-control-regex -- terminal queries are escape sequences
    for (const m of text.matchAll(/\x1b\](10|11);\?(?:\x07|\x1b\\)/g)) {
      reply += `\x1b]${m[1]};rgb:${m[1] === "10" ? "d0d0/d0d0/d0d0" : "1e1e/1e1e/2e2e"}\x1b\\`;
    }
    // deno-lint-ignore no-control-regex -- terminal queries are escape sequences
    for (const m of text.matchAll(/\x1b\]4;(\d+);\?(?:\x07|\x1b\\)/g)) {
      const v = (Number(m[1]) * 37 % 256).toString(16).padStart(2, "0").repeat(2);
      reply += `\x1b]4;${m[1]};rgb:${v}/${v}/${v}\x1b\\`;
    }
    if (text.includes("\x1b[c")) reply += "\x1b[?62;22c";
    if (reply) void this.write(reply).catch(() => {});
  }

  /** Output so far. */
  get text(): string {
    return this.#text;
  }

  /** Resolves when the output so far passes `test`; rejects after `ms`. */
  waitFor(test: (text: string) => boolean, ms: number, what: string): Promise<void> {
    if (test(this.#text)) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), ms);
      this.#waiters.push({
        test,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      });
    });
  }

  async write(text: string): Promise<void> {
    await this.#writer.write(new TextEncoder().encode(text));
  }

  /** The resident set of the program `script` runs (its only child), in MiB. */
  rssMiB(): number {
    const children = Deno.readTextFileSync(`/proc/${this.child.pid}/task/${this.child.pid}/children`).trim();
    const pid = children.split(/\s+/)[0];
    const status = Deno.readTextFileSync(`/proc/${pid}/status`);
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    return kb / 1024;
  }

  async close(): Promise<void> {
    try {
      this.child.kill("SIGTERM");
    } catch { /* gone */ }
    await this.child.status;
    await this.#done.catch(() => {});
  }
}

/** The editor's border: a full row of `─` in either pi. */
const EDITOR_DRAWN = (text: string) => text.includes("─".repeat(60));

interface Sample {
  firstFrameMs: number;
  idleMiB: number;
  resumedFirstFrameMs: number;
  keyMs: number[];
}

async function sample(cmd: string[]): Promise<Sample> {
  await restoreSession();
  const fresh = new PtyRun(cmd);
  let firstFrameMs: number;
  let idleMiB: number;
  try {
    await fresh.waitFor(EDITOR_DRAWN, 60_000, "the first frame");
    firstFrameMs = performance.now() - fresh.started;
    // Let the start-up settle (timers, background checks), then measure memory at rest.
    await new Promise((r) => setTimeout(r, 2000));
    idleMiB = fresh.rssMiB();
  } finally {
    await fresh.close();
  }
  await restoreSession();
  const run = new PtyRun([...cmd, "-c"]);
  try {
    await run.waitFor(EDITOR_DRAWN, 120_000, "the resumed session's first frame");
    const resumedFirstFrameMs = performance.now() - run.started;
    await new Promise((r) => setTimeout(r, 2000));
    const keyMs: number[] = [];
    for (let i = 0; i < keyCount; i++) {
      const before = run.text.length;
      const t = performance.now();
      await run.write(i % 2 === 0 ? "a" : "b");
      await run.waitFor((text) => text.length > before, 5_000, `key ${i}`);
      // The frame is one synchronized-output block: wait for its end.
      await run.waitFor(
        (text) => text.lastIndexOf("\x1b[?2026l") > before || !text.includes("\x1b[?2026h", before),
        5_000,
        `frame ${i}`,
      );
      keyMs.push(performance.now() - t);
      await new Promise((r) => setTimeout(r, 30));
    }
    return { firstFrameMs, idleMiB, resumedFirstFrameMs, keyMs };
  } finally {
    await run.close();
  }
}

const ours = [Deno.execPath(), "run", ...piRunFlags(), main];
const ref = referenceCommand();
const a: Sample[] = [];
const b: Sample[] = [];
try {
  for (let i = 0; i < rounds; i++) {
    a.push(await sample(ours));
    b.push(await sample(ref));
  }
} finally {
  await server.close();
  await env.cleanup();
}

const p95 = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length * 0.95)];
function summary(samples: Sample[]) {
  const keys = samples.flatMap((s) => s.keyMs);
  return {
    first: median(samples.map((s) => s.firstFrameMs)),
    resumed: median(samples.map((s) => s.resumedFirstFrameMs)),
    idle: median(samples.map((s) => s.idleMiB)),
    key: median(keys),
    key95: p95(keys),
  };
}
const o = summary(a);
const r = summary(b);
const load = Deno.readTextFileSync("/proc/loadavg").split(" ").slice(0, 3).join(" ");
console.log(
  `interactive, ${messageCount} resumed messages, ${rounds} alternated rounds, ${keyCount} keys each, load ${load}`,
);
console.log(
  `first frame: ours ${o.first.toFixed(0)} ms, 1.6.0 ${r.first.toFixed(0)} ms: ${
    (r.first / o.first).toFixed(2)
  }x sooner (budget 5x)`,
);
console.log(
  `first frame of -c (${messageCount} messages): ours ${o.resumed.toFixed(0)} ms, 1.6.0 ${
    r.resumed.toFixed(0)
  } ms`,
);
console.log(
  `typing: ours median ${o.key.toFixed(1)} ms (p95 ${o.key95.toFixed(1)}), 1.6.0 ${
    r.key.toFixed(1)
  } ms (p95 ${r.key95.toFixed(1)}) (budget 16 ms)`,
);
console.log(
  `idle memory: ours ${o.idle.toFixed(1)} MiB, 1.6.0 ${r.idle.toFixed(1)} MiB: ${
    (o.idle / r.idle).toFixed(2)
  } of it (budget 1/3)`,
);
