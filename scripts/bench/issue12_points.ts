/**
 * Issue 12's start-up and streaming acceptance points in one alternated run, as one table against
 * pi 1.6.0 (`node dist/cli.js`): `--version`, `--help`, `-p` one text turn, `-p` write → read →
 * answer (3 requests), `-p` and `--mode json` with a 2 MiB answer in 16-character deltas (plus the
 * fake server's floor: the same stream read by `curl -N` and by a minimal Deno fetch reader), and
 * an RPC process answering 200 sequential `get_state`. Every round runs each case for ours and the reference back
 * to back (ours first), after one warm-up of each; medians of wall time, CPU time (user + system
 * from GNU time, steadier than wall time on a busy machine) and peak RSS. Ours runs with the pi
 * task's flags (deno.json), both with the same isolated agent dir and models.json. The load
 * average before and after is printed: on a shared machine wall times measure the neighbours too.
 *
 * Usage: deno run -A scripts/bench/issue12_points.ts [rounds] [--only name,name]
 *
 * @module
 */
import { createAgentEnv, FAKE_MODEL_ID, FAKE_PROVIDERS } from "../../tests/support/agent_env.ts";
import { startFakeProvider } from "../../tests/support/fake_provider/mod.ts";
import { startBulkSseServer } from "../../tests/e2e/json_deltas_server.ts";
import {
  type CpuSample,
  median,
  piRunFlags,
  referenceCommand,
  rpcGetStateSample,
  timeWithCpu,
} from "./common.ts";

const rounds = Number(Deno.args.find((a, i) => /^\d+$/.test(a) && !Deno.args[i - 1]?.startsWith("--")) ?? 5);
const onlyIndex = Deno.args.indexOf("--only");
const only = onlyIndex >= 0 ? new Set(Deno.args[onlyIndex + 1].split(",")) : undefined;
const main = new URL("../../main.ts", import.meta.url).pathname;
const STREAM_BYTES = 2 * 1024 * 1024;
const DELTA = 16;
const GET_STATES = 200;

const scripted = await startFakeProvider();
const bulk = startBulkSseServer("x".repeat(STREAM_BYTES), DELTA);
const env = await createAgentEnv(scripted.url);
// The bulk server speaks Chat Completions; point a provider of its own at it.
const models = JSON.parse(await Deno.readTextFile(`${env.agentDir}/models.json`));
models.providers["bulk-openai"] = {
  ...models.providers[FAKE_PROVIDERS["openai-completions"]],
  baseUrl: `${bulk.url}/v1`,
};
await Deno.writeTextFile(`${env.agentDir}/models.json`, JSON.stringify(models, null, 2));
const childEnv: Record<string, string> = { ...env.env, PI_OFFLINE: "1" };
const anthropic = `${FAKE_PROVIDERS["anthropic-messages"]}/${FAKE_MODEL_ID}`;

const oursCmd = [Deno.execPath(), "run", ...piRunFlags(), main];
const refCmd = referenceCommand();

function shQuote(words: string[]): string {
  return words.map((word) => `'${word.replaceAll("'", "'\\''")}'`).join(" ");
}

/**
 * Runs through `sh -c '… | wc -c'`: stdout is a pipe drained by a consumer, as in real use. The
 * command's own exit code and stderr are kept (the pipe's status would be wc's).
 */
async function drained(cmd: string[], minBytes: number): Promise<CpuSample> {
  const dir = await Deno.makeTempDir({ prefix: "pi-bench-" });
  try {
    const script = `{ ${shQuote(cmd)} 2> '${dir}/err'; echo $? > '${dir}/code'; } | wc -c > '${dir}/count'`;
    const sample = await timeWithCpu(["sh", "-c", script], { env: childEnv, cwd: env.cwd });
    const bytes = Number((await Deno.readTextFile(`${dir}/count`)).trim());
    const code = Number((await Deno.readTextFile(`${dir}/code`)).trim());
    if (sample.code !== 0 || code !== 0 || bytes < minBytes) {
      const err = (await Deno.readTextFile(`${dir}/err`)).slice(-800);
      throw new Error(`${cmd.slice(0, 3).join(" ")} … exited ${code} after ${bytes} bytes:\n${err}`);
    }
    return sample;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

let toolRun = 0;
/** A `-p` run whose model writes a file, reads it back and answers: 3 requests. */
async function toolTurns(cmd: string[]): Promise<CpuSample> {
  const path = `note-${toolRun++}.txt`;
  scripted.push(
    { content: [{ type: "toolCall", name: "write", arguments: { path, content: "alpha\nbeta\n" } }] },
    { content: [{ type: "toolCall", name: "read", arguments: { path } }] },
    { content: [{ type: "text", text: "The file says alpha and beta." }] },
  );
  const before = scripted.requests.length;
  const sample = await drained([...cmd, "-p", "--model", anthropic, "write then read a note"], 10);
  if (scripted.requests.length - before !== 3) throw new Error("the tool run did not send 3 requests");
  return sample;
}

const FLOOR_READER = `const r = await fetch(Deno.args[0], { method: "POST", body: "{}" });
let n = 0; for await (const c of r.body!) n += c.length; if (n < ${STREAM_BYTES}) Deno.exit(1);`;

/** The Deno reader that also parses each event's JSON, as any client of this wire must. */
const PARSE_READER = `const r = await fetch(Deno.args[0], { method: "POST", body: "{}" });
const d = new TextDecoder(); let rest = ""; let n = 0;
for await (const c of r.body!) {
  const lines = (rest + d.decode(c, { stream: true })).split("\\n"); rest = lines.pop()!;
  for (const l of lines) if (l.startsWith("data: {")) { JSON.parse(l.slice(6)); n++; }
}
if (n < ${STREAM_BYTES / DELTA}) Deno.exit(1);`;

interface Case {
  name: string;
  label: string;
  ours: () => Promise<CpuSample>;
  ref?: () => Promise<CpuSample>;
}

const cases: Case[] = [
  {
    name: "version",
    label: "`pi --version`",
    ours: () => drained([...oursCmd, "--version"], 1),
    ref: () => drained([...refCmd, "--version"], 1),
  },
  {
    name: "help",
    label: "`pi --help`",
    ours: () => drained([...oursCmd, "--help"], 1000),
    ref: () => drained([...refCmd, "--help"], 1000),
  },
  {
    name: "print",
    label: '`pi -p "hi"`, one text turn',
    ours: () => {
      scripted.push({ content: [{ type: "text", text: "Hello! How can I help?" }] });
      return drained([...oursCmd, "-p", "--model", anthropic, "hi"], 10);
    },
    ref: () => {
      scripted.push({ content: [{ type: "text", text: "Hello! How can I help?" }] });
      return drained([...refCmd, "-p", "--model", anthropic, "hi"], 10);
    },
  },
  {
    name: "tools",
    label: "`pi -p`, write → read → answer (3 requests)",
    ours: () => toolTurns(oursCmd),
    ref: () => toolTurns(refCmd),
  },
  {
    name: "stream",
    label: "`pi -p --no-session`, 2 MiB answer in 16-char deltas",
    ours: () =>
      drained(
        [...oursCmd, "-p", "--no-session", "--model", `bulk-openai/${FAKE_MODEL_ID}`, "go"],
        STREAM_BYTES,
      ),
    ref: () =>
      drained(
        [...refCmd, "-p", "--no-session", "--model", `bulk-openai/${FAKE_MODEL_ID}`, "go"],
        STREAM_BYTES,
      ),
  },
  {
    name: "json",
    label: "`pi --mode json --no-session`, the same stream",
    // One record per delta: at least 60 bytes each.
    ours: () =>
      drained(
        [...oursCmd, "--mode", "json", "--no-session", "--model", `bulk-openai/${FAKE_MODEL_ID}`, "go"],
        (STREAM_BYTES / DELTA) * 60,
      ),
    ref: () =>
      drained(
        [...refCmd, "--mode", "json", "--no-session", "--model", `bulk-openai/${FAKE_MODEL_ID}`, "go"],
        (STREAM_BYTES / DELTA) * 60,
      ),
  },
  {
    name: "floor-curl",
    label: "floor: the same stream to `curl -N`",
    ours: () =>
      drained(
        ["curl", "-sN", "-X", "POST", "-d", "{}", `${bulk.url}/v1/chat/completions`],
        STREAM_BYTES,
      ),
  },
  {
    name: "floor-deno",
    label: "floor: the same stream to a minimal Deno fetch reader",
    ours: () =>
      drained(
        [Deno.execPath(), "eval", "--quiet", FLOOR_READER, `${bulk.url}/v1/chat/completions`],
        0,
      ),
  },
  {
    name: "floor-parse",
    label: "floor: the same stream to a Deno fetch reader that parses each event's JSON",
    ours: () =>
      drained(
        [Deno.execPath(), "eval", "--quiet", PARSE_READER, `${bulk.url}/v1/chat/completions`],
        0,
      ),
  },
  {
    name: "rpc",
    label: `RPC: spawn, ${GET_STATES} sequential \`get_state\`, stop`,
    ours: () => rpcGetStateSample(oursCmd, { cwd: env.cwd, env: childEnv, count: GET_STATES }),
    ref: () => rpcGetStateSample(refCmd, { cwd: env.cwd, env: childEnv, count: GET_STATES }),
  },
].filter((c) => !only || only.has(c.name));

const load = async () => (await Deno.readTextFile("/proc/loadavg")).split(" ").slice(0, 3).join(" ");
const loadBefore = await load();
const samples = new Map<string, { a: CpuSample[]; b: CpuSample[] }>();
try {
  for (const c of cases) {
    samples.set(c.name, { a: [], b: [] });
    await c.ours(); // warm-up
    await c.ref?.();
  }
  for (let round = 0; round < rounds; round++) {
    for (const c of cases) {
      const s = samples.get(c.name)!;
      s.a.push(await c.ours());
      if (c.ref) s.b.push(await c.ref());
    }
    console.error(`round ${round + 1}/${rounds} done (load ${await load()})`);
  }
} finally {
  await scripted.close();
  await bulk.close();
  await env.cleanup();
}

const stat = (list: CpuSample[]) => ({
  ms: median(list.map((s) => s.ms)),
  cpu: median(list.map((s) => s.cpuMs)),
  mib: median(list.map((s) => s.maxRssKb ?? 0)) / 1024,
});
const fmt = (s: ReturnType<typeof stat>) =>
  `${s.ms.toFixed(0)} ms wall, ${s.cpu.toFixed(0)} ms CPU, ${s.mib.toFixed(1)} MiB`;
console.log(
  `issue 12 points: ${rounds} alternated rounds, medians; load average before ${loadBefore}, after ${await load()}`,
);
console.log(`ours: deno run ${piRunFlags().join(" ")} main.ts; reference: pi 1.6.0 under Node`);
console.log("");
console.log("| What | Ours | pi 1.6.0 | Ratio (wall / CPU / memory) |");
console.log("| --- | --- | --- | --- |");
const stats = new Map<string, ReturnType<typeof stat>>();
for (const c of cases) {
  const s = samples.get(c.name)!;
  const o = stat(s.a);
  stats.set(c.name, o);
  if (!c.ref) {
    console.log(`| ${c.label} | ${fmt(o)} | | |`);
    continue;
  }
  const r = stat(s.b);
  console.log(
    `| ${c.label} | ${fmt(o)} | ${fmt(r)} | ${(r.ms / o.ms).toFixed(1)}× faster / ${
      (r.cpu / o.cpu).toFixed(1)
    }× less CPU / ${(o.mib / r.mib).toFixed(2)} of the memory |`,
  );
}
const ratio = (a: string, b: string, key: "ms" | "cpu") => {
  const x = stats.get(a);
  const y = stats.get(b);
  return x && y ? `${(x[key] / y[key]).toFixed(2)}×` : "n/a";
};
console.log("");
console.log(
  `--help / --version: ${ratio("help", "version", "ms")} wall, ${ratio("help", "version", "cpu")} CPU`,
);
console.log(
  `2 MiB stream / curl floor: ${ratio("stream", "floor-curl", "ms")} wall, ${
    ratio("stream", "floor-curl", "cpu")
  } CPU; / Deno reader floor: ${ratio("stream", "floor-deno", "ms")} wall, ${
    ratio("stream", "floor-deno", "cpu")
  } CPU; / parsing reader: ${ratio("stream", "floor-parse", "ms")} wall, ${
    ratio("stream", "floor-parse", "cpu")
  } CPU`,
);
console.log(
  `--mode json stream / curl floor: ${ratio("json", "floor-curl", "ms")} wall, ${
    ratio("json", "floor-curl", "cpu")
  } CPU; / parsing reader: ${ratio("json", "floor-parse", "ms")} wall, ${
    ratio("json", "floor-parse", "cpu")
  } CPU`,
);
