/**
 * The cost of a sandbox profile through the installed `pi` command (issue 15: start-up and one
 * `-p` turn within 1.2× of `full`). Installs the launcher into a temp root
 * (`scripts/install.ts --root`), then runs `pi -p hi` (one text turn against the fake provider, no
 * session file) without a profile, under `--sandbox read-only` and under `--sandbox project`,
 * alternating round by round. The profiles' plans are recorded before the rounds, so each profiled
 * start is one Deno process (src/cli/sandbox_plan_cache.ts); the fourth variant, `read-only
 * re-run`, removes the plan first, which is what a start without the launcher costs (the
 * unconfined pi re-runs itself confined, and records the plan again).
 *
 * Each round also times start-up: `pi --mode json --no-session hi` from spawn to its first JSON
 * record. Prints medians of the turn's wall time and CPU time (GNU time: the launcher, Deno and
 * any child) and of start-up, with their ratios to `full`, and the load average before and after.
 *
 * Run: `deno run -A scripts/bench/sandbox_overhead.ts [rounds]` (default 10). Not a test: the
 * figures go into docs/performance.md.
 *
 * @module
 */
import { createAgentEnv } from "../../tests/support/agent_env.ts";
import { startFakeProvider } from "../../tests/support/fake_provider/mod.ts";
import { join } from "../../src/util/path.ts";
import { type CpuSample, median, timeWithCpu } from "./common.ts";

const rounds = Number(Deno.args[0] ?? 10);
const repo = new URL("../../", import.meta.url).pathname;
const loadAverage = () => Deno.readTextFileSync("/proc/loadavg").split(" ").slice(0, 3).join(" ");

const root = await Deno.makeTempDir({ prefix: "pi-sandbox-bench-" });
const install = await new Deno.Command(Deno.execPath(), {
  args: ["run", "--allow-all", `${repo}scripts/install.ts`, "--root", root],
  stdin: "null",
  stdout: "piped",
  stderr: "piped",
}).output();
if (!install.success) throw new Error(new TextDecoder().decode(install.stderr));
const bin = join(root, "bin");
await Deno.symlink(Deno.execPath(), join(bin, "deno"));

const server = await startFakeProvider();
const env = await createAgentEnv(server.url);
const tmp = join(env.root, "tmp");
await Deno.mkdir(tmp);
const userEnv = { ...env.env, TMPDIR: tmp, PATH: `${bin}:${env.env.PATH}` };
const plans = join(env.agentDir, "sandbox-plans");

const variants = {
  "full": [],
  "read-only": ["--sandbox", "read-only"],
  "project": ["--sandbox", "project"],
  "read-only re-run": ["--sandbox", "read-only"],
} as const;
type Variant = keyof typeof variants;

/** The read-only plan's entry, once recorded. */
let readOnlyPlan: string | undefined;

async function once(variant: Variant): Promise<CpuSample> {
  // The read-only plan goes; this run records it again, so the next read-only run is one process.
  if (variant === "read-only re-run" && readOnlyPlan) await Deno.remove(readOnlyPlan);
  server.push({ content: [{ type: "text", text: "ok" }] });
  const args = ["--provider", "fake-anthropic", "--model", "test-model", "--no-session"];
  const sample = await timeWithCpu(["pi", ...args, ...variants[variant], "-p", "hi"], {
    env: userEnv,
    cwd: env.cwd,
  });
  if (sample.code !== 0) throw new Error(`${variant}: exit ${sample.code}`);
  return sample;
}

/**
 * Start-up: `pi --mode json --no-session hi`, from spawn to its first JSON record (the session
 * header, written before the request), in ms.
 */
async function startup(variant: Variant): Promise<number> {
  if (variant === "read-only re-run" && readOnlyPlan) await Deno.remove(readOnlyPlan);
  server.push({ content: [{ type: "text", text: "ok" }] });
  const args = ["--provider", "fake-anthropic", "--model", "test-model", "--no-session"];
  const startedAt = performance.now();
  const child = new Deno.Command("pi", {
    args: [...args, ...variants[variant], "--mode", "json", "hi"],
    env: userEnv,
    cwd: env.cwd,
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  let first = NaN;
  for await (const chunk of child.stdout) {
    if (Number.isNaN(first) && chunk.includes(10)) first = performance.now() - startedAt;
  }
  const status = await child.status;
  if (status.code !== 0 || Number.isNaN(first)) throw new Error(`${variant} start-up: exit ${status.code}`);
  return first;
}

const starts: Record<Variant, number[]> = {
  "full": [],
  "read-only": [],
  "project": [],
  "read-only re-run": [],
};
const samples: Record<Variant, CpuSample[]> = {
  "full": [],
  "read-only": [],
  "project": [],
  "read-only re-run": [],
};
const order = Object.keys(variants) as Variant[];
const loadBefore = loadAverage();
try {
  // Warm-up, and the plans: read-only's first, to know its entry.
  await once("read-only");
  for await (const entry of Deno.readDir(plans)) readOnlyPlan = join(plans, entry.name);
  for (const variant of order) await once(variant);
  for (let i = 0; i < rounds; i++) {
    // Each round starts with another variant, so none always runs right after the same one.
    for (let j = 0; j < order.length; j++) {
      const variant = order[(i + j) % order.length];
      samples[variant].push(await once(variant));
      starts[variant].push(await startup(variant));
    }
  }
} finally {
  await server.close();
  await env.cleanup();
  await Deno.remove(root, { recursive: true });
}
const loadAfter = loadAverage();
const full = {
  ms: median(samples.full.map((s) => s.ms)),
  cpu: median(samples.full.map((s) => s.cpuMs)),
  start: median(starts.full),
};
console.log(`pi -p hi through the installed launcher, ${rounds} alternated rounds, medians`);
for (const variant of order) {
  const ms = median(samples[variant].map((s) => s.ms));
  const cpu = median(samples[variant].map((s) => s.cpuMs));
  const start = median(starts[variant]);
  const ratios = variant === "full"
    ? ""
    : ` (${(ms / full.ms).toFixed(2)}x wall, ${(cpu / full.cpu).toFixed(2)}x CPU, ${
      (start / full.start).toFixed(2)
    }x start-up of full)`;
  console.log(
    `${variant.padEnd(17)} -p turn wall ${ms.toFixed(0)} ms, CPU ${cpu.toFixed(0)} ms; start-up ${
      start.toFixed(0)
    } ms${ratios}`,
  );
}
console.log(`load average before ${loadBefore}, after ${loadAfter}`);
