/**
 * The JSON event stream: `pi --mode json` answering with one long reply (default 2 MiB in
 * 16-character deltas, 131,072 `message_update` records) from a server that sends a pre-built
 * Chat Completions stream, so the clients are what is measured. Ours (`deno run main.ts`, the pi
 * task's flags) against the reference (`node dist/cli.js`), alternated round by round after one
 * warm-up each; stdout is read through a pipe as a consumer would. Reports medians of wall time,
 * CPU time (user + system, steadier on a busy machine) and peak RSS, and checks that both wrote
 * every delta.
 *
 * With `--budget-ms N` it also checks issue 9's figure ("a 2 MiB answer in 16-character deltas in
 * under 1 s here"): it exits 1 when our median wall time is over N ms. Run it on a quiet machine;
 * on a busy one the wall time measures the neighbours.
 *
 * Usage: deno run -A scripts/bench/json_stream.ts [rounds] [--bytes N] [--delta N] [--budget-ms N]
 *
 * @module
 */
import { createAgentEnv } from "../../tests/support/agent_env.ts";
import { startBulkSseServer } from "../../tests/e2e/json_deltas_server.ts";
import { alternate, type CpuSample, median, piRunFlags, referenceCommand, timeWithCpu } from "./common.ts";

function option(name: string, fallback: number): number {
  const index = Deno.args.indexOf(name);
  return index >= 0 ? Number(Deno.args[index + 1]) : fallback;
}

const bytes = option("--bytes", 2 * 1024 * 1024);
const deltaSize = option("--delta", 16);
const budgetMs = option("--budget-ms", 0);
const rounds = Number(Deno.args.find((a, i) => /^\d+$/.test(a) && !Deno.args[i - 1]?.startsWith("--")) ?? 3);
const deltas = Math.ceil(bytes / deltaSize);
const main = new URL("../../main.ts", import.meta.url).pathname;

const server = startBulkSseServer("x".repeat(bytes), deltaSize);
const env = await createAgentEnv(server.url);
const childEnv: Record<string, string> = { ...env.env, PI_OFFLINE: "1" };
const piArgs = ["--mode", "json", "--no-session", "--model", "fake-openai/test-model", "go"];

/** Runs through `sh -c '… | wc -l'`, so stdout is a pipe drained by a consumer, as in real use. */
async function run(cmd: string[]): Promise<CpuSample> {
  const quoted = cmd.map((word) => `'${word.replaceAll("'", "'\\''")}'`).join(" ");
  const lines = await Deno.makeTempFile({ prefix: "pi-json-bench-" });
  try {
    const sample = await timeWithCpu(["sh", "-c", `${quoted} | wc -l > '${lines}'`], {
      env: childEnv,
      cwd: env.cwd,
    });
    const count = Number((await Deno.readTextFile(lines)).trim());
    if (sample.code !== 0 || count < deltas) {
      throw new Error(`${cmd.slice(0, 2).join(" ")} … exited with ${sample.code} after ${count} lines`);
    }
    return sample;
  } finally {
    await Deno.remove(lines);
  }
}

const ours = () => run([Deno.execPath(), "run", ...piRunFlags(), main, ...piArgs]);
const ref = () => run([...referenceCommand(), ...piArgs]);

try {
  const { a, b } = await alternate(ours, ref, rounds) as { a: CpuSample[]; b: CpuSample[] };
  const stat = (samples: CpuSample[]) => ({
    ms: median(samples.map((s) => s.ms)),
    cpu: median(samples.map((s) => s.cpuMs)),
    rss: median(samples.map((s) => s.maxRssKb ?? 0)) / 1024,
  });
  const o = stat(a);
  const r = stat(b);
  console.log(
    `pi --mode json, ${
      (bytes / 1024 / 1024).toFixed(2)
    } MiB in ${deltaSize}-character deltas (${deltas} records), ${rounds} alternated rounds, medians`,
  );
  console.log(
    `ours: ${o.ms.toFixed(0)} ms wall, ${o.cpu.toFixed(0)} ms CPU, peak RSS ${o.rss.toFixed(1)} MiB`,
  );
  console.log(
    `ref:  ${r.ms.toFixed(0)} ms wall, ${r.cpu.toFixed(0)} ms CPU, peak RSS ${r.rss.toFixed(1)} MiB`,
  );
  console.log(
    `wall time: ours is ${(r.ms / o.ms).toFixed(2)}x faster; CPU: ${(r.cpu / o.cpu).toFixed(2)}x less`,
  );
  if (budgetMs > 0) {
    const within = o.ms <= budgetMs;
    console.log(`budget: ${o.ms.toFixed(0)} ms against ${budgetMs} ms: ${within ? "within" : "OVER"}`);
    if (!within) Deno.exitCode = 1;
  }
} finally {
  await server.close();
  await env.cleanup();
}
