/**
 * Issue 14's codemode budget: "a codemode script making 100 tool calls finishes ≥ 3× sooner" than
 * in pi 1.6.0. Both CLIs run `-p` against the fake provider with `@modelcontextprotocol/server-everything`
 * (from npm, under this Deno over stdio, the default `codemode` exposure) in `mcp.json`. The model asks
 * for a first script (one echo call, so the server is connected and the first worker used), then the
 * measured script, then answers.
 *
 * The script's time is the gap between the provider receiving the request that carries the
 * measured script's call (the model's answer is then streamed) and the request that carries its
 * result: the script's run plus the agent's handling of one tool call, the same work on both sides.
 * Also the whole run's wall and CPU time. Ours and 1.6.0 alternate round by round after a warm-up
 * each; medians.
 *
 * Usage: deno run -A scripts/bench/codemode_calls.ts [rounds] [--case mcp-parallel|mcp-sequential|read-parallel|first-read]
 *
 * `first-read` measures a session's first script (100 `read` calls, naming no server), which in
 * 1.6.0 does not wait for the servers to connect.
 *
 * @module
 */
import { createAgentEnv, FAKE_MODEL_ID, FAKE_PROVIDERS } from "../../tests/support/agent_env.ts";
import { type ScriptedTurn, startFakeProvider } from "../../tests/support/fake_provider/mod.ts";
import { type CpuSample, median, oursCommand, referenceCommand, timeWithCpu } from "./common.ts";

/** The scripts measured: 100 calls each. */
const CASES: Record<string, string> = {
  "mcp-parallel":
    `const r = await Promise.all(Array.from({ length: 100 }, (_, i) => tools.mcp__everything__echo({ message: "m" + i })));\nreturn r.length;`,
  "mcp-sequential":
    `let n = 0;\nfor (let i = 0; i < 100; i++) n += (await tools.mcp__everything__echo({ message: "m" + i })).content.length;\nreturn n;`,
  "read-parallel":
    `const r = await Promise.all(Array.from({ length: 100 }, () => tools.read({ path: "a.txt" })));\nreturn r.length;`,
  "first-read":
    `const r = await Promise.all(Array.from({ length: 100 }, () => tools.read({ path: "a.txt" })));\nreturn r.length;`,
};

const caseIndex = Deno.args.indexOf("--case");
const selected = caseIndex >= 0 ? [Deno.args[caseIndex + 1]] : Object.keys(CASES);
for (const name of selected) {
  if (!(name in CASES)) throw new Error(`unknown case ${name}; one of ${Object.keys(CASES).join(", ")}`);
}
const rounds = Number(Deno.args.find((a, i) => /^\d+$/.test(a) && Deno.args[i - 1] !== "--case") ?? 7);

const EVERYTHING = {
  command: Deno.execPath(),
  args: [
    "run",
    "-A",
    "--no-config",
    "--quiet",
    "npm:@modelcontextprotocol/server-everything@2026.8.31",
    "stdio",
  ],
};

function script(id: string, code: string): ScriptedTurn {
  return { content: [{ type: "toolCall", id, name: "codemode", arguments: { code } }] };
}

const server = await startFakeProvider();
const arrivals: number[] = [];
const push = server.requests.push.bind(server.requests);
server.requests.push = (...items) => {
  arrivals.push(performance.now());
  return push(...items);
};
const env = await createAgentEnv(server.url);
await Deno.writeTextFile(
  `${env.agentDir}/mcp.json`,
  JSON.stringify({ mcpServers: { everything: EVERYTHING } }),
);
await Deno.writeTextFile(`${env.cwd}/a.txt`, "one\ntwo\nthree\n");
const childEnv: Record<string, string> = { ...env.env, PI_OFFLINE: "1" };
childEnv.DENO_DIR = Deno.env.get("DENO_DIR") ?? `${Deno.env.get("HOME")}/.cache/deno`;
const piArgs = [
  "-p",
  "--model",
  `${FAKE_PROVIDERS["anthropic-messages"]}/${FAKE_MODEL_ID}`,
  "Run the scripts.",
];

/** One run: the whole process and the measured script's gap. */
interface CodemodeSample extends CpuSample {
  scriptMs: number;
}

async function run(cmd: string[], name: string): Promise<CodemodeSample> {
  const first = name === "first-read";
  const turns = [
    ...(first
      ? []
      : [script("warm", `return (await tools.mcp__everything__echo({ message: "w" })).content.length;`)]),
    script("measured", CASES[name]),
    { content: [{ type: "text", text: "done" }] } as ScriptedTurn,
  ];
  server.push(...turns);
  const from = server.requests.length + (first ? 0 : 1);
  const before = arrivals.length;
  const sample = await timeWithCpu(cmd, { env: childEnv, cwd: env.cwd });
  if (sample.code !== 0) throw new Error(`${cmd.slice(0, 2).join(" ")} … exited with ${sample.code}`);
  const body = JSON.stringify(server.requests[from + 1]?.body ?? {});
  if (!body.includes("Script completed")) {
    throw new Error(`the measured script did not complete: ${body.slice(-400)}`);
  }
  if (server.pending() !== 0) throw new Error("not every scripted turn was used");
  const offset = before + (first ? 0 : 1);
  return { ...sample, scriptMs: arrivals[offset + 1] - arrivals[offset] };
}

const ours = (name: string) => run(oursCommand(piArgs), name);
const ref = (name: string) => run([...referenceCommand(), ...piArgs], name);

try {
  console.log(
    `load average at start: ${(await Deno.readTextFile("/proc/loadavg")).split(" ").slice(0, 3).join(" ")}`,
  );
  for (const name of selected) {
    await ours(name);
    await ref(name);
    const a: CodemodeSample[] = [];
    const b: CodemodeSample[] = [];
    for (let i = 0; i < rounds; i++) {
      a.push(await ours(name));
      b.push(await ref(name));
    }
    const line = (label: string, s: CodemodeSample[]) =>
      `  ${label} script ${median(s.map((x) => x.scriptMs)).toFixed(0).padStart(5)} ms; run ${
        median(s.map((x) => x.ms)).toFixed(0).padStart(5)
      } ms wall, ${median(s.map((x) => x.cpuMs)).toFixed(0).padStart(5)} ms CPU`;
    console.log(`${name} (${rounds} alternated rounds, medians)`);
    console.log(line("ours ", a));
    console.log(line("1.6.0", b));
    const ratio = (f: (x: CodemodeSample) => number) => (median(b.map(f)) / median(a.map(f))).toFixed(2);
    console.log(
      `  1.6.0/ours: script ${ratio((x) => x.scriptMs)}× (goal ≥ 3×), run wall ${
        ratio((x) => x.ms)
      }×, run CPU ${ratio((x) => x.cpuMs)}×`,
    );
  }
  console.log(
    `load average at end: ${(await Deno.readTextFile("/proc/loadavg")).split(" ").slice(0, 3).join(" ")}`,
  );
} finally {
  await server.close();
  await env.cleanup();
}
