/**
 * `pi --export <session> <out.html>` on a big session: ours (`deno run main.ts`) against the
 * reference pi 1.6.0 (`node dist/cli.js`), alternated round by round after one warm-up each;
 * medians of wall time, CPU time (user + system) and peak RSS (GNU time). The session is
 * session_gen.ts's (≈50 MB: 13,800 messages with big tool results, side branches, one
 * compaction), written once into a temporary folder; both programs run there with their own
 * HOME and agent folder. After the warm-up, the session data embedded in the two pages is
 * compared (it must be the same base64), so the speed compared is that of the same output.
 *
 * Usage: deno run -A scripts/bench/export_html.ts [rounds] [--mb 50] [--min-ratio R]
 *        [--ours-only] [--profile DIR] [--keep]
 *
 * `--min-ratio R` exits 1 when the reference's median wall time is less than R times ours.
 * `--profile DIR` writes a V8 CPU profile of each of our runs into DIR (implies --ours-only).
 * `--keep` leaves the temporary folder (session and pages) and prints where it is.
 * The load average is printed before and after: the machine may be shared, so only the ratios
 * within one run mean much.
 *
 * @module
 */
import { join } from "node:path";
import { type CpuSample, piRunFlags, referenceCommand, reportSamples, timeWithCpu } from "./common.ts";
import { writeBigSession } from "./session_gen.ts";

function flagValue(name: string): string | undefined {
  const i = Deno.args.indexOf(name);
  return i >= 0 ? Deno.args[i + 1] : undefined;
}

const rounds = Number(Deno.args.find((a, i) => /^\d+$/.test(a) && !Deno.args[i - 1]?.startsWith("--")) ?? 5);
const mb = Number(flagValue("--mb") ?? 50);
const minRatio = flagValue("--min-ratio") === undefined ? undefined : Number(flagValue("--min-ratio"));
const profileDir = flagValue("--profile");
const oursOnly = Deno.args.includes("--ours-only") || profileDir !== undefined;
const keep = Deno.args.includes("--keep");
const main = new URL("../../main.ts", import.meta.url).pathname;

const root = await Deno.makeTempDir({ prefix: "pi-export-bench-" });
const home = join(root, "home");
const agentDir = join(home, ".pi", "agent");
await Deno.mkdir(agentDir, { recursive: true });
const env: Record<string, string> = {
  HOME: home,
  PI_CODING_AGENT_DIR: agentDir,
  PI_OFFLINE: "1",
  PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
  DENO_DIR: Deno.env.get("DENO_DIR") ?? `${Deno.env.get("HOME")}/.cache/deno`,
};
const session = join(root, "session.jsonl");

function loadAverage(): string {
  return Deno.readTextFileSync("/proc/loadavg").split(" ").slice(0, 3).join(" ");
}

async function run(label: string, cmd: string[], output: string): Promise<CpuSample> {
  await Deno.remove(output).catch(() => {});
  const sample = await timeWithCpu([...cmd, "--export", session, output], { env, cwd: root });
  if (sample.code !== 0) console.error(`${label}: exited with ${sample.code}`);
  return sample;
}

const profileFlags = profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : [];
const oursCmd = [Deno.execPath(), "run", ...piRunFlags(), ...profileFlags, main];
const oursOut = join(root, "ours.html");
const refOut = join(root, "ref.html");
const ours = () => run("ours", oursCmd, oursOut);
const ref = () => run("ref", referenceCommand(), refOut);

/** The base64 in the page's `<script id="session-data">`. */
async function sessionData(page: string): Promise<string | undefined> {
  const text = await Deno.readTextFile(page);
  const open = '<script id="session-data" type="application/json">';
  const at = text.indexOf(open);
  return at < 0 ? undefined : text.slice(at + open.length, text.indexOf("</script>", at));
}

let exitCode = 0;
try {
  const summary = await writeBigSession(session, {
    messages: Math.round(mb * 276),
    toolBytes: 11_200,
    cwd: root,
    provider: "anthropic",
    model: "claude-sonnet-4-5",
  });
  console.log(
    `pi --export on a ${(summary.bytes / 1e6).toFixed(1)} MB session (${summary.entries} entries), ` +
      `${rounds} alternated rounds after a warm-up, medians; load ${loadAverage()}`,
  );
  await ours();
  if (!oursOnly) {
    await ref();
    const [a, b] = [await sessionData(oursOut), await sessionData(refOut)];
    if (a === undefined || a !== b) {
      console.error("the two pages embed different session data: the comparison is void");
      exitCode = 1;
    } else {console.log(
        `both pages embed the same session data (${(a.length / 1e6).toFixed(1)} MB of base64)`,
      );}
  }
  const as: CpuSample[] = [];
  const bs: CpuSample[] = [];
  for (let i = 0; i < rounds; i++) {
    as.push(await ours());
    if (!oursOnly) bs.push(await ref());
  }
  const o = reportSamples("ours", as);
  if (!oursOnly) {
    const r = reportSamples("reference pi 1.6.0", bs);
    const ratio = r.ms / o.ms;
    console.log(
      `ours is ${ratio.toFixed(1)}x faster (wall), ${(r.cpu / o.cpu).toFixed(1)}x less CPU, ` +
        `${(o.rss / r.rss).toFixed(2)} of the memory`,
    );
    if (minRatio !== undefined && !(ratio >= minRatio)) {
      console.error(`below the required ${minRatio}x`);
      exitCode = 1;
    }
  }
  console.log(`load after: ${loadAverage()}`);
} finally {
  if (keep) console.log(`kept ${root}`);
  else await Deno.remove(root, { recursive: true });
}
Deno.exit(exitCode);
