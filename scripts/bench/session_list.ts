/**
 * Session listing benchmark (issue 12): 2,000 session files of ~1 MB each (2 GB, big tool
 * results, in 20 project folders) listed with `SessionManager.listAll` (what `--resume` and
 * `--session <prefix>` read), each listing in a fresh process: cold (no listing cache; rounds
 * alternate with pi 1.6.0's `SessionManager.listAll` on the same folder when `--reference` is
 * given), warm (the cache from a cold run), and after 20 files grew by an appended turn. Reports
 * the listing's own time, the whole process's wall and CPU time (GNU time) and its peak RSS, and
 * checks that every run lists the same sessions and message total.
 *
 * Usage: deno run -A scripts/bench/session_list.ts [rounds] [--files 2000] [--mb 1]
 *        [--reference] [--dir DIR]
 *
 * `--dir DIR` generates the files there once and keeps them (a later run with the same DIR
 * reuses them); without it a temporary folder is made and removed.
 *
 * @module
 */
import { join } from "node:path";
import { SessionManager } from "../../src/session/session_manager.ts";
import { LISTING_CACHE_NAME } from "../../src/session/listing_cache.ts";
import { median, piRunFlags, timeWithCpu } from "./common.ts";
import { requireReference } from "../reference/locate.ts";
import { writeBigSession } from "./session_gen.ts";

if (Deno.args[0] === "--child") {
  const root = Deno.args[1];
  const t0 = performance.now();
  const infos = await SessionManager.listAll(undefined, root);
  const ms = performance.now() - t0;
  const messages = infos.reduce((n, i) => n + i.messageCount, 0);
  console.log(JSON.stringify({ sessions: infos.length, messages, ms: Math.round(ms) }));
  Deno.exit(0);
}

/** pi 1.6.0's listing of every project folder under PI_CODING_AGENT_DIR/sessions, timed the same way. */
const REFERENCE_CHILD = `
const { SessionManager } = await import(process.env.PI_SESSION_MANAGER_URL);
const t0 = performance.now();
const infos = await SessionManager.listAll();
const ms = performance.now() - t0;
const messages = infos.reduce((n, i) => n + i.messageCount, 0);
console.log(JSON.stringify({ sessions: infos.length, messages, ms: Math.round(ms) }));
`;

function flagValue(name: string): string | undefined {
  const i = Deno.args.indexOf(name);
  return i >= 0 ? Deno.args[i + 1] : undefined;
}

const rounds = Number(Deno.args.find((a, i) => /^\d+$/.test(a) && !Deno.args[i - 1]?.startsWith("--")) ?? 3);
const files = Number(flagValue("--files") ?? 2000);
const mbPerFile = Number(flagValue("--mb") ?? 1);
const withReference = Deno.args.includes("--reference");
const keptDir = flagValue("--dir");
const root = keptDir ?? await Deno.makeTempDir({ prefix: "pi-bench-list-" });
const sessions = join(root, "sessions");

/** Writes the files unless `root` already holds them (a kept folder). */
async function generate(): Promise<number> {
  const marker = join(root, `generated-${files}x${mbPerFile}`);
  try {
    return Number(await Deno.readTextFile(marker));
  } catch {
    // Not generated yet.
  }
  await Deno.mkdir(root, { recursive: true });
  const template = join(root, "template.jsonl");
  const turns = Math.round((mbPerFile * 1e6) / 5100);
  await writeBigSession(template, {
    messages: turns * 4,
    toolBytes: 3000,
    cwd: "/p",
    provider: "p",
    model: "m",
  });
  const body = await Deno.readFile(template);
  const rest = body.subarray(body.indexOf(0x0a) + 1);
  await Deno.remove(template);
  const enc = new TextEncoder();
  let total = 0;
  for (let i = 0; i < files; i++) {
    const dir = join(sessions, `--p-${i % 20}--`);
    if (i < 20) await Deno.mkdir(dir, { recursive: true });
    const id = `019ad000-0000-7000-8000-${i.toString(16).padStart(12, "0")}`;
    const header = enc.encode(
      JSON.stringify({
        type: "session",
        version: 3,
        id,
        timestamp: new Date(Date.UTC(2026, 0, 1) + i).toISOString(),
        cwd: `/p/${i % 20}`,
      }) + "\n",
    );
    const f = await Deno.open(join(dir, `2026-01-01T00-00-00-000Z_${id}.jsonl`), {
      write: true,
      create: true,
      truncate: true,
    });
    await f.write(header);
    await f.write(rest);
    f.close();
    total += header.length + rest.length;
  }
  await Deno.writeTextFile(marker, String(total));
  return total;
}

async function dropCaches(): Promise<void> {
  for await (const d of Deno.readDir(sessions)) {
    await Deno.remove(join(sessions, d.name, LISTING_CACHE_NAME)).catch(() => {});
  }
}

interface Sample {
  sessions: number;
  messages: number;
  /** The listing's own time. */
  ms: number;
  wallMs: number;
  cpuMs: number;
  rssMiB: number;
}

const env = { PATH: Deno.env.get("PATH") ?? "", HOME: root, PI_CODING_AGENT_DIR: root };

async function child(cmd: string[], extraEnv: Record<string, string> = {}): Promise<Sample> {
  // The output is read from a file: timeWithCpu keeps only the exit code and resource figures.
  const out = join(root, "child-output.json");
  const shell = ["/bin/sh", "-c", '"$@" > "$PI_BENCH_OUT"', "sh", ...cmd];
  const s = await timeWithCpu(shell, { env: { ...env, ...extraEnv, PI_BENCH_OUT: out }, cwd: root });
  if (s.code !== 0) throw new Error(`${cmd.join(" ")} exited with ${s.code}`);
  const r = JSON.parse(await Deno.readTextFile(out));
  return { ...r, wallMs: s.ms, cpuMs: s.cpuMs, rssMiB: (s.maxRssKb ?? 0) / 1024 };
}

// The flags pi runs with (deno.json's pi task), so memory is measured as a user would see it.
const ours = () =>
  child([Deno.execPath(), "run", ...piRunFlags(), import.meta.filename!, "--child", sessions]);
const reference = () => {
  const ref = requireReference();
  const url = new URL(`file://${ref.packageDir}/dist/core/session-manager.js`).href;
  return child([ref.node, "--input-type=module", "-e", REFERENCE_CHILD], { PI_SESSION_MANAGER_URL: url });
};

function report(label: string, samples: Sample[]): Sample {
  const m = (f: (s: Sample) => number) => median(samples.map(f));
  const r: Sample = {
    sessions: samples[0].sessions,
    messages: samples[0].messages,
    ms: m((s) => s.ms),
    wallMs: m((s) => s.wallMs),
    cpuMs: m((s) => s.cpuMs),
    rssMiB: m((s) => s.rssMiB),
  };
  console.log(
    `${label}: listing ${r.ms.toFixed(0)} ms; process ${r.wallMs.toFixed(0)} ms wall, ${
      r.cpuMs.toFixed(0)
    } ms CPU, peak RSS ${
      r.rssMiB.toFixed(0)
    } MiB (${r.sessions} sessions, ${r.messages} messages; ${samples.length} runs)`,
  );
  return r;
}

try {
  const total = await generate();
  console.log(`${files} session files, ${(total / 1e9).toFixed(2)} GB; load average ${loadAverage()}`);
  const cold: Sample[] = [];
  const ref: Sample[] = [];
  for (let i = 0; i < rounds; i++) {
    await dropCaches();
    cold.push(await ours());
    if (withReference) ref.push(await reference());
  }
  const c = report("ours, cold (no cache)   ", cold);
  if (withReference) {
    const r = report("pi 1.6.0                ", ref);
    if (r.sessions !== c.sessions || r.messages !== c.messages) {
      throw new Error(
        `pi 1.6.0 listed ${r.sessions} sessions / ${r.messages} messages, ours ${c.sessions} / ${c.messages}`,
      );
    }
    console.log(
      `cold listing: ${(r.ms / c.ms).toFixed(1)}x faster (listing), ${
        (r.wallMs / c.wallMs).toFixed(1)
      }x (process)`,
    );
  }
  const warm: Sample[] = [];
  for (let i = 0; i < rounds; i++) warm.push(await ours());
  report("ours, warm (cache)      ", warm);
  const turn = JSON.stringify({
    type: "message",
    id: "ffffffff",
    parentId: null,
    timestamp: "2026-02-01T00:00:00.000Z",
    message: { role: "user", content: [{ type: "text", text: "appended" }], timestamp: Date.UTC(2026, 1, 1) },
  });
  const grown: Sample[] = [];
  const appended = (await Array.fromAsync(Deno.readDir(join(sessions, "--p-0--"))))
    .filter((d) => d.name.endsWith(".jsonl")).slice(0, 20).map((d) => join(sessions, "--p-0--", d.name));
  const sizes = await Promise.all(appended.map(async (p) => (await Deno.stat(p)).size));
  try {
    for (let i = 0; i < rounds; i++) {
      for (const p of appended) await Deno.writeTextFile(p, turn + "\n", { append: true });
      grown.push(await ours());
    }
  } finally {
    // A kept folder is left as generated.
    for (const [i, p] of appended.entries()) await Deno.truncate(p, sizes[i]);
  }
  report("ours, 20 files appended ", grown);
  console.log(`load average after: ${loadAverage()}`);
} finally {
  if (!keptDir) await Deno.remove(root, { recursive: true });
}

function loadAverage(): string {
  try {
    return Deno.readTextFileSync("/proc/loadavg").split(" ").slice(0, 3).join(" ");
  } catch {
    return "unknown";
  }
}
