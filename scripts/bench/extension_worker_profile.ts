/**
 * What a sandbox profile costs (issue 15's budget: start-up and one `-p` turn within 1.2× of
 * `full`), both from the same runs: `pi --mode json --no-session "hi"` with one text turn against
 * the fake provider, under `full` (no flag), `--sandbox read-only` and `--sandbox project`, and
 * `full` with a Worker-hosted extension (one `turn_start` handler, its package declaring
 * `pi.permissions`), the variants alternating round by round after one warm-up each. Start-up is
 * the time from spawn to the first JSON record on stdout (the session header, written before the
 * prompt is sent); the turn is spawn to exit. CPU time (user + system, GNU time) counts the
 * confined child too. Prints medians and their ratios to `full`.
 *
 * Run: `deno run -A scripts/bench/extension_worker_profile.ts [rounds]` (default 10).
 *
 * @module
 */
import { createAgentEnv, FAKE_MODEL_ID, FAKE_PROVIDERS } from "../../tests/support/agent_env.ts";
import { startFakeProvider } from "../../tests/support/fake_provider/mod.ts";
import { join } from "../../src/util/path.ts";
import { median, piRunFlags } from "./common.ts";

const rounds = Number(Deno.args[0] ?? 10);
const main = new URL("../../main.ts", import.meta.url).pathname;
const server = await startFakeProvider();
const env = await createAgentEnv(server.url);
const childEnv: Record<string, string> = { ...env.env, PI_OFFLINE: "1" };
// Keep Deno's module cache where it is although HOME moves (else every run downloads metadata).
childEnv.DENO_DIR = Deno.env.get("DENO_DIR") ?? `${Deno.env.get("HOME")}/.cache/deno`;

const extensionDir = join(env.root, "worker-ext");
await Deno.mkdir(extensionDir, { recursive: true });
await Deno.writeTextFile(
  join(extensionDir, "package.json"),
  JSON.stringify({ name: "bench", pi: { permissions: { write: false, run: false, net: false } } }),
);
await Deno.writeTextFile(
  join(extensionDir, "index.ts"),
  `export default function (pi) { let n = 0; pi.on("turn_start", () => { n += 1; }); }\n`,
);

const VARIANTS = {
  "full": [],
  "read-only": ["--sandbox", "read-only"],
  "project": ["--sandbox", "project"],
  "full + Worker extension": ["-e", extensionDir],
} as const;
type Variant = keyof typeof VARIANTS;

/** One run: spawn to first stdout byte, spawn to exit, CPU. */
interface Sample {
  startMs: number;
  totalMs: number;
  cpuMs: number;
}

async function runOnce(variant: Variant): Promise<Sample> {
  server.push({ content: [{ type: "text", text: "ok" }] });
  const args = [
    "-f",
    "__STATS__%U %S",
    Deno.execPath(),
    "run",
    ...piRunFlags(),
    main,
    "--mode",
    "json",
    "--no-session",
    "--model",
    `${FAKE_PROVIDERS["anthropic-messages"]}/${FAKE_MODEL_ID}`,
    ...VARIANTS[variant],
    "hi",
  ];
  const started = performance.now();
  const child = new Deno.Command("/usr/bin/time", {
    args,
    cwd: env.cwd,
    env: childEnv,
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const stderr = new Response(child.stderr).text();
  let startMs = NaN;
  let stdout = "";
  const decoder = new TextDecoder();
  for await (const chunk of child.stdout) {
    if (Number.isNaN(startMs)) startMs = performance.now() - started;
    stdout += decoder.decode(chunk, { stream: true });
  }
  const status = await child.status;
  const totalMs = performance.now() - started;
  const errText = await stderr;
  if (status.code !== 0 || !stdout.includes('"agent_end"')) {
    throw new Error(`${variant}: exit ${status.code}\n${errText}`);
  }
  const match = errText.match(/__STATS__([\d.]+) ([\d.]+)/);
  return { startMs, totalMs, cpuMs: match ? (Number(match[1]) + Number(match[2])) * 1000 : NaN };
}

const samples = Object.fromEntries(Object.keys(VARIANTS).map((v) => [v, [] as Sample[]])) as Record<
  Variant,
  Sample[]
>;
try {
  for (const variant of Object.keys(VARIANTS) as Variant[]) await runOnce(variant); // warm-up
  for (let round = 0; round < rounds; round++) {
    for (const variant of Object.keys(VARIANTS) as Variant[]) samples[variant].push(await runOnce(variant));
  }
} finally {
  await server.close();
  await env.cleanup();
}

const base = {
  start: median(samples.full.map((s) => s.startMs)),
  total: median(samples.full.map((s) => s.totalMs)),
  cpu: median(samples.full.map((s) => s.cpuMs)),
};
console.log(
  `pi --mode json "hi", ${rounds} alternated rounds, medians; load average ${
    Deno.loadavg().map((n) => n.toFixed(1)).join(" ")
  }`,
);
for (const variant of Object.keys(VARIANTS) as Variant[]) {
  const start = median(samples[variant].map((s) => s.startMs));
  const total = median(samples[variant].map((s) => s.totalMs));
  const cpu = median(samples[variant].map((s) => s.cpuMs));
  console.log(
    `${variant.padEnd(24)} start-up ${start.toFixed(0)} ms (${(start / base.start).toFixed(2)}x)  turn ${
      total.toFixed(0)
    } ms (${(total / base.total).toFixed(2)}x)  CPU ${cpu.toFixed(0)} ms (${(cpu / base.cpu).toFixed(2)}x)`,
  );
}
