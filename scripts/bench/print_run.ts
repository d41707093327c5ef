/**
 * `pi -p "hi"` with one text turn against the fake provider: ours (`deno run main.ts`) against
 * the reference (`node dist/cli.js`), alternated round by round after one warm-up each, compared
 * by the medians of wall time and peak RSS (GNU time's %M). Both use the same isolated agent dir,
 * models.json and server; sessions are written (the default), as a user's run would.
 *
 * Usage: deno run -A scripts/bench/print_run.ts [rounds] [--api anthropic-messages|…] [--bundle FILE]
 *
 * `--bundle FILE` runs ours from a `deno bundle` output (e.g. `deno bundle --output /tmp/pi.js main.ts`)
 * instead of main.ts, to see what module loading costs.
 *
 * @module
 */
import {
  createAgentEnv,
  FAKE_MODEL_ID,
  FAKE_PROVIDERS,
  type FakeApi,
} from "../../tests/support/agent_env.ts";
import { startFakeProvider } from "../../tests/support/fake_provider/mod.ts";
import { alternate, type CpuSample, median, piRunFlags, referenceCommand, timeWithCpu } from "./common.ts";

const apiIndex = Deno.args.indexOf("--api");
const api = (apiIndex >= 0 ? Deno.args[apiIndex + 1] : "anthropic-messages") as FakeApi;
const bundleIndex = Deno.args.indexOf("--bundle");
const bundle = bundleIndex >= 0 ? Deno.args[bundleIndex + 1] : undefined;
const rounds = Number(Deno.args.find((a, i) => /^\d+$/.test(a) && !Deno.args[i - 1]?.startsWith("--")) ?? 15);
const main = bundle ?? new URL("../../main.ts", import.meta.url).pathname;

const server = await startFakeProvider();
const env = await createAgentEnv(server.url);
const childEnv: Record<string, string> = { ...env.env, PI_OFFLINE: "1" };
// Keep Deno's module cache where it is although HOME moves (else every run downloads metadata).
childEnv.DENO_DIR = Deno.env.get("DENO_DIR") ?? `${Deno.env.get("HOME")}/.cache/deno`;
const piArgs = ["-p", "--model", `${FAKE_PROVIDERS[api]}/${FAKE_MODEL_ID}`, "hi"];

async function run(cmd: string[]): Promise<CpuSample> {
  server.push({ content: [{ type: "text", text: "Hello! How can I help?" }] });
  const sample = await timeWithCpu(cmd, { env: childEnv, cwd: env.cwd });
  if (sample.code !== 0) throw new Error(`${cmd.slice(0, 2).join(" ")} … exited with ${sample.code}`);
  return sample;
}

const ours = () =>
  run([Deno.execPath(), "run", ...piRunFlags(), ...(bundle ? ["--no-config"] : []), main, ...piArgs]);
const ref = () => run([...referenceCommand(), ...piArgs]);

try {
  const { a: aRuns, b: bRuns } = await alternate(ours, ref, rounds);
  const a = aRuns as CpuSample[];
  const b = bRuns as CpuSample[];
  const oursCpu = median(a.map((s) => s.cpuMs));
  const refCpu = median(b.map((s) => s.cpuMs));
  const oursMs = median(a.map((s) => s.ms));
  const refMs = median(b.map((s) => s.ms));
  const oursRss = median(a.map((s) => s.maxRssKb ?? 0));
  const refRss = median(b.map((s) => s.maxRssKb ?? 0));
  console.log(
    `pi -p "hi" (${api}${bundle ? `, ours from ${bundle}` : ""}), ${rounds} alternated rounds, medians`,
  );
  console.log(
    `ours: ${oursMs.toFixed(1)} ms wall, ${oursCpu.toFixed(0)} ms CPU, peak RSS ${
      (oursRss / 1024).toFixed(1)
    } MiB`,
  );
  console.log(
    `ref:  ${refMs.toFixed(1)} ms wall, ${refCpu.toFixed(0)} ms CPU, peak RSS ${
      (refRss / 1024).toFixed(1)
    } MiB`,
  );
  console.log(`ours runs as: deno run ${piRunFlags().join(" ")} main.ts (the pi task's flags)`);
  console.log(`wall time: ours is ${(refMs / oursMs).toFixed(2)}x faster (goal >= 8x)`);
  console.log(
    `CPU time: ours uses ${(refCpu / oursCpu).toFixed(2)}x less (steadier than wall time under load)`,
  );
  console.log(`memory: ours uses ${(oursRss / refRss).toFixed(3)} of the reference's (goal <= 1/3)`);
} finally {
  await server.close();
  await env.cleanup();
}
