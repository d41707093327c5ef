/**
 * What loading 20 extensions adds to a `pi -p "hi"` run: 20 of 1.6.0's single-file examples that
 * behave as in 1.6.0 (tests/e2e/extensions_examples_parity_test.ts), each passed with `-e`, against the same run without them. Ours and the reference alternate
 * round by round with the same agent dir and fake provider; the added wall and CPU time are the
 * differences of the medians. Warm: both have run once before (our build cache and jiti's are
 * filled). Cold (`--cold`): every run with extensions starts with an empty transpile cache, ours
 * (`<agentDir>/cache/extensions`) and jiti's (`$TMPDIR/jiti`, TMPDIR being this run's own folder).
 *
 * Usage: deno run -A scripts/bench/extension_load.ts [rounds] [--cold] [--budget-ms N] [--bundle FILE]
 *
 * `--bundle FILE` runs ours from a `deno bundle` output (`deno task bundle` writes dist/pi.js), the
 * form a distributed build has: one file, so loading our modules costs no per-module work.
 *
 * Exits 1 when `--budget-ms` is given and ours adds more than N ms.
 *
 * @module
 */
import { join, resolve } from "node:path";
import { createAgentEnv, FAKE_MODEL_ID, FAKE_PROVIDERS } from "../../tests/support/agent_env.ts";
import { startFakeProvider } from "../../tests/support/fake_provider/mod.ts";
import { requireReference } from "../reference/locate.ts";
import { type CpuSample, median, piRunFlags, referenceCommand, timeWithCpu } from "./common.ts";

/**
 * The first 20 (by name) of the examples that match 1.6.0 record for record and do no work of
 * their own when a session starts: examples that run git, gh or a shell, or watch files, are left
 * out, since that time (the same in both) is the extension's work, not its loading.
 */
const EXAMPLES = [
  "bookmark.ts",
  "claude-rules.ts",
  "commands.ts",
  "confirm-destructive.ts",
  "custom-footer.ts",
  "custom-header.ts",
  "debug-provider.ts",
  "dynamic-tools.ts",
  "entry-renderer.ts",
  "event-bus.ts",
  "hello.ts",
  "hidden-thinking-label.ts",
  "input-transform.ts",
  "message-renderer.ts",
  "model-status.ts",
  "overlay-test.ts",
  "permission-gate.ts",
  "pirate.ts",
  "project-trust.ts",
  "protected-paths.ts",
];

const args = Deno.args;
const rounds = Number(args.find((a, i) => /^\d+$/.test(a) && !args[i - 1]?.startsWith("--")) ?? 7);
const cold = args.includes("--cold");
const budgetIndex = args.indexOf("--budget-ms");
const budget = budgetIndex >= 0 ? Number(args[budgetIndex + 1]) : undefined;
const bundleIndex = args.indexOf("--bundle");
const bundle = bundleIndex >= 0 ? resolve(args[bundleIndex + 1]) : undefined;

const reference = requireReference();
const exampleDir = join(reference.packageDir, "examples/extensions");
const extensionArgs = EXAMPLES.flatMap((name) => ["-e", join(exampleDir, name)]);

const server = await startFakeProvider();
const env = await createAgentEnv(server.url);
const childEnv: Record<string, string> = { ...env.env, PI_OFFLINE: "1" };
// Keep Deno's module cache where it is although HOME moves (else every run downloads metadata).
childEnv.DENO_DIR = Deno.env.get("DENO_DIR") ?? `${Deno.env.get("HOME")}/.cache/deno`;
// jiti (the reference's loader) caches transpiled extensions in `<os.tmpdir()>/jiti`: give it a
// folder of this run's own, emptied before each of its cold runs as ours is.
const refTmp = join(env.root, "tmp");
await Deno.mkdir(refTmp, { recursive: true });
const refEnv: Record<string, string> = { ...childEnv, TMPDIR: refTmp };
const piArgs = ["-p", "--model", `${FAKE_PROVIDERS["anthropic-messages"]}/${FAKE_MODEL_ID}`, "hi"];
const main = bundle ?? new URL("../../main.ts", import.meta.url).pathname;
const ourCache = join(env.agentDir, "cache/extensions");

async function run(cmd: string[], runEnv = childEnv): Promise<CpuSample> {
  server.push({ content: [{ type: "text", text: "Hello! How can I help?" }] });
  const sample = await timeWithCpu(cmd, { env: runEnv, cwd: env.cwd });
  if (sample.code !== 0) {
    // Run it again to show why (timeWithCpu keeps only its statistics).
    const again = await new Deno.Command(cmd[0], {
      args: cmd.slice(1),
      env: runEnv,
      clearEnv: true,
      cwd: env.cwd,
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    }).output();
    throw new Error(
      `${cmd.join(" ")} exited with ${sample.code}: ${new TextDecoder().decode(again.stderr).slice(0, 2000)}`,
    );
  }
  return sample;
}

const ours = (withExtensions: boolean) => async () => {
  if (cold && withExtensions) await Deno.remove(ourCache, { recursive: true }).catch(() => {});
  return await run([
    Deno.execPath(),
    "run",
    ...piRunFlags(),
    ...(bundle ? ["--no-config"] : []),
    main,
    ...(withExtensions ? extensionArgs : []),
    ...piArgs,
  ]);
};
const ref = (withExtensions: boolean) => async () => {
  if (cold && withExtensions) await Deno.remove(join(refTmp, "jiti"), { recursive: true }).catch(() => {});
  return await run([...referenceCommand(), ...(withExtensions ? extensionArgs : []), ...piArgs], refEnv);
};

const variants = {
  oursBase: ours(false),
  oursExt: ours(true),
  refBase: ref(false),
  refExt: ref(true),
};
const samples: Record<keyof typeof variants, CpuSample[]> = {
  oursBase: [],
  oursExt: [],
  refBase: [],
  refExt: [],
};
let failed = false;
/** The machine's 1-minute load average (these runs share it with other work). */
const loadAverage = () => Deno.loadavg()[0].toFixed(1);
const loadAtStart = loadAverage();
try {
  for (const fn of Object.values(variants)) await fn(); // warm-up: fills caches
  for (let i = 0; i < rounds; i++) {
    for (const [name, fn] of Object.entries(variants)) {
      samples[name as keyof typeof variants].push(await fn());
    }
  }
  const wall = (k: keyof typeof variants) => median(samples[k].map((s) => s.ms));
  const cpu = (k: keyof typeof variants) => median(samples[k].map((s) => s.cpuMs));
  const oursAdded = wall("oursExt") - wall("oursBase");
  const refAdded = wall("refExt") - wall("refBase");
  console.log(
    `20 extensions with -e, pi -p "hi", ${rounds} alternated rounds, medians (${
      cold ? "ours cold: empty extension cache each run" : "warm"
    }${bundle ? `, ours from ${bundle}` : ""})`,
  );
  console.log(
    `ours: ${wall("oursBase").toFixed(0)} ms without, ${wall("oursExt").toFixed(0)} ms with: +${
      oursAdded.toFixed(0)
    } ms wall, +${(cpu("oursExt") - cpu("oursBase")).toFixed(0)} ms CPU`,
  );
  console.log(
    `ref:  ${wall("refBase").toFixed(0)} ms without, ${wall("refExt").toFixed(0)} ms with: +${
      refAdded.toFixed(0)
    } ms wall, +${(cpu("refExt") - cpu("refBase")).toFixed(0)} ms CPU`,
  );
  const oursCpu = cpu("oursExt") - cpu("oursBase");
  const refCpu = cpu("refExt") - cpu("refBase");
  console.log(
    `added time: ours is ${(refAdded / oursAdded).toFixed(1)}x smaller (wall), ${
      (refCpu / oursCpu).toFixed(1)
    }x smaller (CPU); load average ${loadAtStart} at the start, ${loadAverage()} at the end`,
  );
  if (budget !== undefined) {
    failed = oursAdded > budget;
    console.log(failed ? `OVER the ${budget} ms budget` : `within the ${budget} ms budget`);
  }
} finally {
  await server.close();
  await env.cleanup();
}
if (failed) Deno.exit(1);
