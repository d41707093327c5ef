/**
 * `pi -c -p hi` on a big session against the fake provider: ours (`deno run main.ts`) against the
 * reference (`node dist/cli.js`), alternated round by round after one warm-up each; medians of
 * wall time, CPU time and peak RSS (GNU time). The session (see session_gen.ts: ~13,800 messages
 * with big tool results, side branches, one compaction) is restored before every run so each run
 * resumes the same file. Ours runs twice per round: "cold" without a session index (the first
 * resume of a file: a scan of its bytes, which writes the index) and "warm" with the index the
 * warm-up wrote (every later resume: only the index and the appended part are read).
 *
 * Usage: deno run -A scripts/bench/session_resume.ts [rounds] [--mb 50] [--ours-only] [--ref-only]
 *        [--profile DIR] [--ref-timeout SECONDS] [--base DIR]
 *
 * `--profile DIR` writes a V8 CPU profile of each of our runs into DIR (`deno run --cpu-prof`).
 * `--deno-flag F` (repeatable) adds F to our `deno run` flags, after pi's own (to try V8 flags).
 * `--ref-timeout S` ends a reference run after S seconds (default 600; it is reported as failed).
 * `--base DIR` also runs an older checkout (e.g. a `git worktree` of the commit before a change, with
 * its `deno install` done) in every round, with the index and as the floor: an A/B within one run.
 *
 * `--mb N` scales the session (50 → ≈50 MB, 13,800 messages; 500 → ≈500 MB, 138,000 messages).
 * The load average (/proc/loadavg) is printed before and after: the machine may be shared.
 *
 * @module
 */
import { join } from "node:path";
import { createAgentEnv, FAKE_MODEL_ID, FAKE_PROVIDERS } from "../../tests/support/agent_env.ts";
import { startFakeProvider } from "../../tests/support/fake_provider/mod.ts";
import { encodeCwd } from "../../src/session/paths.ts";
import {
  checkoutCommand,
  type CpuSample,
  piRunFlags,
  referenceCommand,
  reportSamples,
  timeWithCpu,
} from "./common.ts";
import { writeBigSession } from "./session_gen.ts";

function flagValue(name: string): string | undefined {
  const i = Deno.args.indexOf(name);
  return i >= 0 ? Deno.args[i + 1] : undefined;
}

const rounds = Number(Deno.args.find((a, i) => /^\d+$/.test(a) && !Deno.args[i - 1]?.startsWith("--")) ?? 5);
const mb = Number(flagValue("--mb") ?? 50);
const profileDir = flagValue("--profile");
const oursOnly = Deno.args.includes("--ours-only") || profileDir !== undefined;
const refOnly = Deno.args.includes("--ref-only");
const refTimeout = Number(flagValue("--ref-timeout") ?? 600);
const baseDir = flagValue("--base")?.replace(/\/$/, "");
const main = new URL("../../main.ts", import.meta.url).pathname;

const server = await startFakeProvider();
const env = await createAgentEnv(server.url);
const childEnv: Record<string, string> = { ...env.env, PI_OFFLINE: "1" };
childEnv.DENO_DIR = Deno.env.get("DENO_DIR") ?? `${Deno.env.get("HOME")}/.cache/deno`;
const provider = FAKE_PROVIDERS["anthropic-messages"];
const piArgs = ["-c", "-p", "--model", `${provider}/${FAKE_MODEL_ID}`, "hi"];

const sessionDir = join(env.agentDir, "sessions", encodeCwd(env.cwd));
await Deno.mkdir(sessionDir, { recursive: true });
const pristine = join(env.root, "pristine.jsonl");
const live = join(sessionDir, "2026-01-01T00-00-00-000Z_019ad000-0000-7000-8000-000000000001.jsonl");
const summary = await writeBigSession(pristine, {
  messages: Math.round(mb * 276),
  toolBytes: 11_200,
  cwd: env.cwd,
  provider,
  model: FAKE_MODEL_ID,
});

const pristineIndex = join(env.root, "pristine.jsonl.idx");

/**
 * Puts the pristine session back (and nothing else) so every run resumes the same file; with
 * `index`, also the session index a first run wrote for it.
 */
async function restore(index: boolean): Promise<void> {
  for await (const e of Deno.readDir(sessionDir)) {
    await Deno.remove(join(sessionDir, e.name), { recursive: true });
  }
  await Deno.copyFile(pristine, live);
  if (index) await Deno.copyFile(pristineIndex, `${live}.idx`);
}

function loadAverage(): string {
  return Deno.readTextFileSync("/proc/loadavg").split(" ").slice(0, 3).join(" ");
}

async function run(label: string, cmd: string[], index = false): Promise<CpuSample> {
  await restore(index);
  const before = server.requests.length;
  server.push({ content: [{ type: "text", text: "Hello! How can I help?" }] });
  const sample = await timeWithCpu(cmd, { env: childEnv, cwd: env.cwd });
  if (sample.code === 124 && label === "ref") console.error(`ref: timed out after ${refTimeout} s`);
  else if (sample.code !== 0) console.error(`${label}: exited with ${sample.code}`);
  else if (server.requests.length !== before + 1) {
    console.error(`${label}: made ${server.requests.length - before} requests`);
  }
  return sample;
}

const profileFlags = profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : [];
for (const [i, a] of Deno.args.entries()) if (a === "--deno-flag") profileFlags.push(Deno.args[i + 1]);
const oursCmd = [Deno.execPath(), "run", ...piRunFlags(), ...profileFlags, main, ...piArgs];
const oursCold = async () => {
  const sample = await run("ours (cold)", oursCmd);
  // The index the cold run wrote describes the pristine file (appends came after it).
  await Deno.copyFile(`${live}.idx`, pristineIndex);
  return sample;
};
const oursWarm = () => run("ours (warm)", oursCmd, true);
const ref = () => run("ref", ["timeout", String(refTimeout), ...referenceCommand(), ...piArgs]);
/** The floor: the same one-turn answer without any session (`--no-session`), ours. */
const floorArgs = ["--no-session", ...piArgs.filter((a) => a !== "-c")];
const oursFloor = () =>
  run("ours (no session)", [Deno.execPath(), "run", ...piRunFlags(), ...profileFlags, main, ...floorArgs]);

/** The older checkout's pi (`--base`), with its own deno.json. */
const baseCmd = (args: string[]) => baseDir ? checkoutCommand(baseDir, args) : [];
const baseWarm = () => run("base (warm)", baseCmd(piArgs), true);
const baseFloor = () => run("base (no session)", baseCmd(floorArgs));

const report = reportSamples;

try {
  console.log(
    `pi -c -p hi on a ${(summary.bytes / 1e6).toFixed(1)} MB session (${summary.messages} messages, ` +
      `${summary.entries} entries), ${rounds} alternated rounds after a warm-up, medians; load ${loadAverage()}`,
  );
  const cold: CpuSample[] = [];
  const warm: CpuSample[] = [];
  const b: CpuSample[] = [];
  const floor: CpuSample[] = [];
  const bWarm: CpuSample[] = [];
  const bFloor: CpuSample[] = [];
  if (!refOnly) await oursCold();
  if (!refOnly) await oursWarm();
  if (!oursOnly) await ref();
  if (baseDir) await baseWarm();
  for (let i = 0; i < rounds; i++) {
    if (!refOnly) cold.push(await oursCold());
    if (!refOnly) warm.push(await oursWarm());
    if (!oursOnly) b.push(await ref());
    if (!refOnly) floor.push(await oursFloor());
    if (baseDir) bWarm.push(await baseWarm());
    if (baseDir) bFloor.push(await baseFloor());
  }
  if (baseDir) {
    const bw = report(`base ${baseDir}, with index`, bWarm);
    const bf = report(`base ${baseDir}, -p hi --no-session`, bFloor);
    const w = report("ours, with index (again, for the A/B)", warm);
    const f = report("ours, -p hi --no-session (again)", floor);
    console.log(
      `A/B with index: ours/base wall ${(w.ms / bw.ms).toFixed(2)}, CPU ${(w.cpu / bw.cpu).toFixed(2)}; ` +
        `above the floor: ours ${(w.cpu - f.cpu).toFixed(0)} ms CPU, base ${
          (bw.cpu - bf.cpu).toFixed(0)
        } ms CPU`,
    );
  }
  if (!refOnly) report("ours, -p hi --no-session (the floor: start-up and one turn)", floor);
  const c = refOnly ? undefined : report("ours, no index (first resume)", cold);
  const w = refOnly ? undefined : report("ours, with index (later resumes)", warm);
  const r = oursOnly ? undefined : report("reference pi 1.6.0", b);
  if (c && w && r) {
    for (const [label, o] of [["no index", c], ["with index", w]] as const) {
      console.log(
        `ours (${label}) is ${(r.ms / o.ms).toFixed(1)}x faster (wall), ${
          (r.cpu / o.cpu).toFixed(1)
        }x less CPU, ` +
          `${(o.rss / r.rss).toFixed(2)} of the memory`,
      );
    }
  }
  console.log(`load after: ${loadAverage()}`);
} finally {
  await server.close();
  await env.cleanup();
}
