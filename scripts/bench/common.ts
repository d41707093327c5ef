/**
 * Helpers shared by the benchmark scripts: timing whole commands with A/B alternation, and
 * summarising by medians (timings here are noisy, so only ratios in one run mean anything).
 *
 * @module
 */
import { requireReference } from "../reference/locate.ts";
import { parsePiTask } from "../release/pi_task.ts";
import { RpcClient } from "../../src/modes/rpc/rpc_client.ts";
import { FAKE_MODEL_ID, FAKE_PROVIDERS } from "../../tests/support/agent_env.ts";

/** One timed command run: wall time in ms and peak RSS in KiB (from GNU time when available). */
export interface RunSample {
  ms: number;
  maxRssKb?: number;
  code: number;
}

/** Runs a command once, measuring wall time and, through /usr/bin/time, peak RSS. */
export async function timeCommand(
  cmd: string[],
  options: { env?: Record<string, string>; cwd?: string } = {},
): Promise<RunSample> {
  const useTime = await exists("/usr/bin/time");
  const argv = useTime ? ["/usr/bin/time", "-f", "__RSS__%M", ...cmd] : cmd;
  const start = performance.now();
  const out = await new Deno.Command(argv[0], {
    args: argv.slice(1),
    env: options.env,
    cwd: options.cwd,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const ms = performance.now() - start;
  const err = new TextDecoder().decode(out.stderr);
  const match = err.match(/__RSS__(\d+)/);
  return { ms, maxRssKb: match ? Number(match[1]) : undefined, code: out.code };
}

/** The median of a list of numbers. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Runs two commands alternately `rounds` times (after one warm-up each) and returns both sample sets. */
export async function alternate(
  a: () => Promise<RunSample>,
  b: () => Promise<RunSample>,
  rounds: number,
): Promise<{ a: RunSample[]; b: RunSample[] }> {
  await a();
  await b();
  const as: RunSample[] = [];
  const bs: RunSample[] = [];
  for (let i = 0; i < rounds; i++) {
    as.push(await a());
    bs.push(await b());
  }
  return { a: as, b: bs };
}

/** The reference's command prefix: its Node and CLI script (see scripts/reference/locate.ts). */
export function referenceCommand(): string[] {
  const ref = requireReference();
  return [ref.node, ref.cli];
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * The `deno run` flags the `pi` task uses (deno.json), so benchmarks run pi exactly as users do.
 */
export function piRunFlags(): string[] {
  return parsePiTask(JSON.parse(Deno.readTextFileSync(new URL("../../deno.json", import.meta.url)))).flags;
}

/** Our pi from source as users run it (`deno run <the pi task's flags> main.ts`), with `args`. */
export function oursCommand(args: string[]): string[] {
  return [
    Deno.execPath(),
    "run",
    ...piRunFlags(),
    new URL("../../main.ts", import.meta.url).pathname,
    ...args,
  ];
}

/** A run with CPU seconds (user + system) besides wall time and peak RSS. */
export interface CpuSample extends RunSample {
  cpuMs: number;
}

/** Like {@link timeCommand}, also reading CPU time: steadier than wall time on a busy machine. */
export async function timeWithCpu(
  cmd: string[],
  options: { env: Record<string, string>; cwd: string },
): Promise<CpuSample> {
  const start = performance.now();
  const out = await new Deno.Command("/usr/bin/time", {
    args: ["-f", "__STATS__%M %U %S", ...cmd],
    env: options.env,
    cwd: options.cwd,
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const ms = performance.now() - start;
  const match = new TextDecoder().decode(out.stderr).match(/__STATS__(\d+) ([\d.]+) ([\d.]+)/);
  return {
    ms,
    code: out.code,
    maxRssKb: match ? Number(match[1]) : undefined,
    cpuMs: match ? (Number(match[2]) + Number(match[3])) * 1000 : NaN,
  };
}

/** Medians of a sample set: wall ms, CPU ms, peak RSS MiB. */
export interface SampleSummary {
  ms: number;
  cpu: number;
  rss: number;
}

/** Prints `label: W s wall, C s CPU, peak RSS R MiB` (medians; failed runs counted) and returns the medians. */
export function reportSamples(label: string, samples: CpuSample[]): SampleSummary {
  const ms = median(samples.map((s) => s.ms));
  const cpu = median(samples.map((s) => s.cpuMs));
  const rss = median(samples.map((s) => s.maxRssKb ?? 0)) / 1024;
  const failed = samples.filter((s) => s.code !== 0).length;
  console.log(
    `${label}: ${(ms / 1000).toFixed(2)} s wall, ${(cpu / 1000).toFixed(2)} s CPU, peak RSS ${
      rss.toFixed(0)
    } MiB` +
      (failed ? ` (${failed} of ${samples.length} runs failed)` : ""),
  );
  return { ms, cpu, rss };
}

/**
 * Ours at another checkout `dir` (a `git worktree` of an older commit, its `deno install` done), run as
 * the pi task runs main.ts, with that checkout's deno.json.
 */
export function checkoutCommand(dir: string, args: string[]): string[] {
  return [Deno.execPath(), "run", ...piRunFlags(), "--config", `${dir}/deno.json`, `${dir}/main.ts`, ...args];
}

/**
 * An RPC process: spawn `cmd`, `count` sequential `get_state`, end of input; CPU and RSS through GNU
 * time, wall time from spawn to exit.
 */
export async function rpcGetStateSample(
  cmd: string[],
  options: { cwd: string; env: Record<string, string>; count: number },
): Promise<CpuSample> {
  const stats = await Deno.makeTempFile({ prefix: "pi-bench-rpc-" });
  const client = new RpcClient({
    command: ["/usr/bin/time", "-o", stats, "-f", "%M %U %S", ...cmd],
    cwd: options.cwd,
    env: options.env,
    provider: FAKE_PROVIDERS["anthropic-messages"],
    model: FAKE_MODEL_ID,
  });
  const start = performance.now();
  await client.start();
  try {
    for (let i = 0; i < options.count; i++) await client.getState();
  } catch (error) {
    await client.stop();
    throw error;
  }
  // Closing stdin lets pi exit by itself, so GNU time (killed, it would report nothing) writes its figures.
  const code = await client.endInput();
  const ms = performance.now() - start;
  if (code !== 0) throw new Error(`${cmd.slice(0, 2).join(" ")} … RPC exited with ${code}`);
  const [rss, user, system] = (await Deno.readTextFile(stats)).trim().split(/\s+/).slice(-3).map(Number);
  await Deno.remove(stats);
  return { ms, code: 0, maxRssKb: rss, cpuMs: (user + system) * 1000 };
}
