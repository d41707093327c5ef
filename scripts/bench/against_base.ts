/**
 * Did a change make us slower? `pi --version` and `pi -p "hi"` (one text turn against the fake
 * provider) — and with `--cases`, also `tools` (`-p` whose model writes a file, reads it back and
 * answers: 3 requests) and `rpc` (spawn, 200 sequential `get_state`, end of input) — for three
 * programs in one run, round-robin: ours at this checkout, ours at an older
 * checkout (`--base DIR`, e.g. a `git worktree` of the commit before the change, with its
 * `deno install` done), and the reference. Medians of wall time, CPU time and peak RSS; on a
 * shared machine only the ratios mean something.
 *
 * Usage: deno run -A scripts/bench/against_base.ts --base DIR [rounds] [--cases version,print,tools,rpc]
 *
 * @module
 */
import { createAgentEnv, FAKE_MODEL_ID, FAKE_PROVIDERS } from "../../tests/support/agent_env.ts";
import { startFakeProvider } from "../../tests/support/fake_provider/mod.ts";
import {
  checkoutCommand,
  type CpuSample,
  median,
  piRunFlags,
  referenceCommand,
  rpcGetStateSample,
  timeWithCpu,
} from "./common.ts";

const baseIndex = Deno.args.indexOf("--base");
if (baseIndex < 0 || !Deno.args[baseIndex + 1]) {
  console.error("usage: deno run -A scripts/bench/against_base.ts --base DIR [rounds]");
  Deno.exit(2);
}
const baseDir = Deno.args[baseIndex + 1].replace(/\/$/, "");
const rounds = Number(Deno.args.find((a, i) => /^\d+$/.test(a) && Deno.args[i - 1] !== "--base") ?? 11);
const casesIndex = Deno.args.indexOf("--cases");
const cases = new Set(casesIndex >= 0 ? Deno.args[casesIndex + 1].split(",") : ["version", "print"]);

const server = await startFakeProvider();
const env = await createAgentEnv(server.url);
const childEnv: Record<string, string> = { ...env.env, PI_OFFLINE: "1" };
childEnv.DENO_DIR = Deno.env.get("DENO_DIR") ?? `${Deno.env.get("HOME")}/.cache/deno`;
const promptArgs = ["-p", "--model", `${FAKE_PROVIDERS["anthropic-messages"]}/${FAKE_MODEL_ID}`, "hi"];

const programs: Record<string, (args: string[]) => string[]> = {
  head: (args) => [
    Deno.execPath(),
    "run",
    ...piRunFlags(),
    "--config",
    new URL("../../deno.json", import.meta.url).pathname,
    new URL("../../main.ts", import.meta.url).pathname,
    ...args,
  ],
  base: (args) => checkoutCommand(baseDir, args),
  reference: (args) => [...referenceCommand(), ...args],
};

type Case = "version" | "print" | "tools" | "rpc";

let toolRun = 0;
async function sample(cmd: string[], kind: Case): Promise<CpuSample> {
  if (kind === "rpc") return await rpcGetStateSample(cmd, { cwd: env.cwd, env: childEnv, count: 200 });
  const before = server.requests.length;
  if (kind === "print") server.push({ content: [{ type: "text", text: "Hello! How can I help?" }] });
  if (kind === "tools") {
    const path = `note-${toolRun++}.txt`;
    server.push(
      { content: [{ type: "toolCall", name: "write", arguments: { path, content: "alpha\nbeta\n" } }] },
      { content: [{ type: "toolCall", name: "read", arguments: { path } }] },
      { content: [{ type: "text", text: "The file says alpha and beta." }] },
    );
  }
  const result = await timeWithCpu(cmd, { env: childEnv, cwd: env.cwd });
  if (result.code !== 0) throw new Error(`${cmd.slice(0, 4).join(" ")} … exited with ${result.code}`);
  if (kind === "tools" && server.requests.length - before !== 3) {
    throw new Error("the tool run did not send 3 requests");
  }
  return result;
}

function summary(samples: CpuSample[]): { ms: number; cpu: number; mib: number } {
  return {
    ms: median(samples.map((s) => s.ms)),
    cpu: median(samples.map((s) => s.cpuMs)),
    mib: median(samples.map((s) => s.maxRssKb ?? 0)) / 1024,
  };
}

try {
  const all: [string, string[], Case][] = [
    ["--version", ["--version"], "version"],
    ["-p one turn", promptArgs, "print"],
    ["-p write → read → answer", [...promptArgs.slice(0, -1), "write then read a note"], "tools"],
    ["RPC spawn + 200 get_state", [], "rpc"],
  ];
  for (const [label, args, turn] of all.filter(([, , kind]) => cases.has(kind))) {
    const samples: Record<string, CpuSample[]> = { head: [], base: [], reference: [] };
    for (const name of Object.keys(programs)) await sample(programs[name]([...args]), turn); // warm-up
    for (let i = 0; i < rounds; i++) {
      for (const name of Object.keys(programs)) {
        samples[name].push(await sample(programs[name]([...args]), turn));
      }
    }
    const s = Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, summary(v)]));
    console.log(`${label} (${rounds} rounds, medians)`);
    for (const [name, v] of Object.entries(s)) {
      console.log(
        `  ${name.padEnd(9)} ${v.ms.toFixed(0).padStart(6)} ms wall ${v.cpu.toFixed(0).padStart(6)} ms CPU ${
          v.mib.toFixed(1).padStart(6)
        } MiB`,
      );
    }
    console.log(
      `  head/base: wall ${(s.head.ms / s.base.ms).toFixed(2)}, CPU ${
        (s.head.cpu / s.base.cpu).toFixed(2)
      }, ` +
        `RSS ${(s.head.mib / s.base.mib).toFixed(2)}; reference/head: wall ${
          (s.reference.ms / s.head.ms).toFixed(1)
        }×, ` +
        `CPU ${(s.reference.cpu / s.head.cpu).toFixed(1)}×`,
    );
  }
} finally {
  await server.close();
  await env.cleanup();
}
