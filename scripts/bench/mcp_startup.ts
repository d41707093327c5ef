/**
 * Issue 14's MCP start-up budget: "a session with 3 configured MCP servers starts (to a `-p` answer)
 * ≥ 5× sooner" than pi 1.6.0. `pi -p hi` against the fake provider, with three stdio servers in
 * `mcp.json`, all run under this Deno: `@modelcontextprotocol/server-everything` (from npm) twice and
 * the SDK fixture server of the MCP tests. Both CLIs get the same configuration, alternating round
 * by round after a warm-up each. Measured: when the answer reaches stdout (what the user waits for),
 * when the process exits, and its CPU time (medians).
 *
 * `--exposure direct` gives every server `direct` exposure, whose tools the first request must
 * declare: then both wait for the servers (up to 10 s) and the servers' own start sets the pace.
 * `--base DIR` adds ours at another checkout (a `git worktree` of the commit before a change, with
 * its node_modules) to the rotation, for an A/B; `--no-mcp` adds ours without an `mcp.json` (the
 * floor). The request's arrival at the fake provider is reported too.
 *
 * Usage: deno run -A scripts/bench/mcp_startup.ts [rounds] [--exposure codemode|direct] [--base DIR] [--no-mcp]
 *
 * @module
 */
import { createAgentEnv, FAKE_MODEL_ID, FAKE_PROVIDERS } from "../../tests/support/agent_env.ts";
import { startFakeProvider } from "../../tests/support/fake_provider/mod.ts";
import { checkoutCommand, median, referenceCommand } from "./common.ts";

const exposureIndex = Deno.args.indexOf("--exposure");
const exposure = exposureIndex >= 0 ? Deno.args[exposureIndex + 1] : "codemode";
const baseIndex = Deno.args.indexOf("--base");
const baseDir = baseIndex >= 0 ? Deno.args[baseIndex + 1].replace(/\/$/, "") : undefined;
const withoutMcp = Deno.args.includes("--no-mcp");
const rounds = Number(
  Deno.args.find((a, i) => /^\d+$/.test(a) && !["--exposure", "--base"].includes(Deno.args[i - 1])) ?? 9,
);

const deno = (args: string[]) => ({
  command: Deno.execPath(),
  args: ["run", "-A", "--no-config", "--quiet", ...args],
});
const EVERYTHING = deno(["npm:@modelcontextprotocol/server-everything@2026.8.31", "stdio"]);
const FIXTURE = deno([new URL("../../tests/fixtures/mcp/test_server.ts", import.meta.url).pathname]);
const SERVERS = {
  everything: { ...EVERYTHING, exposure },
  everything2: { ...EVERYTHING, exposure },
  fixture: { ...FIXTURE, exposure },
};
const ANSWER = "Hello from the fake provider.";

const server = await startFakeProvider();
const env = await createAgentEnv(server.url);
await Deno.writeTextFile(`${env.agentDir}/mcp.json`, JSON.stringify({ mcpServers: SERVERS }, null, 2));
/** The same folders without `mcp.json`, for `--no-mcp`. */
const bare = await createAgentEnv(server.url);
const denoDir = Deno.env.get("DENO_DIR") ?? `${Deno.env.get("HOME")}/.cache/deno`;
const childEnv: Record<string, string> = { ...env.env, PI_OFFLINE: "1", DENO_DIR: denoDir };
const bareEnv: Record<string, string> = { ...bare.env, PI_OFFLINE: "1", DENO_DIR: denoDir };
const piArgs = ["-p", "--model", `${FAKE_PROVIDERS["anthropic-messages"]}/${FAKE_MODEL_ID}`, "hi"];

/**
 * One run: ms until the request reached the fake provider, to the answer on stdout, to exit, and
 * CPU ms (pi and the processes it waited for, from GNU time).
 */
interface StartSample {
  requestMs: number;
  answerMs: number;
  exitMs: number;
  cpuMs: number;
}

async function run(cmd: string[], withMcp = true): Promise<StartSample> {
  server.push({ content: [{ type: "text", text: ANSWER }] });
  const start = performance.now();
  const requestsBefore = server.requests.length;
  let requestMs = NaN;
  const poll = setInterval(() => {
    if (Number.isNaN(requestMs) && server.requests.length > requestsBefore) {
      requestMs = performance.now() - start;
    }
  }, 2);
  const child = new Deno.Command("/usr/bin/time", {
    args: ["-f", "__STATS__%U %S", ...cmd],
    env: withMcp ? childEnv : bareEnv,
    cwd: withMcp ? env.cwd : bare.cwd,
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const stderr = new Response(child.stderr).text();
  let stdout = "";
  let answerMs = NaN;
  for await (const chunk of child.stdout.pipeThrough(new TextDecoderStream())) {
    stdout += chunk;
    if (Number.isNaN(answerMs) && stdout.includes(ANSWER)) answerMs = performance.now() - start;
  }
  const status = await child.status;
  clearInterval(poll);
  const exitMs = performance.now() - start;
  const err = await stderr;
  if (status.code !== 0 || Number.isNaN(answerMs)) {
    throw new Error(
      `${cmd.slice(0, 2).join(" ")} … exited with ${status.code}: ${stdout}\n${err.slice(-1000)}`,
    );
  }
  const stats = err.match(/__STATS__([\d.]+) ([\d.]+)/);
  return { requestMs, answerMs, exitMs, cpuMs: stats ? (Number(stats[1]) + Number(stats[2])) * 1000 : NaN };
}

/** Ours at checkout `dir`, run as the pi task runs main.ts (this checkout, or `--base DIR`). */
const checkout = (dir: string, withMcp = true) => () => run(checkoutCommand(dir, piArgs), withMcp);
const here = new URL("../..", import.meta.url).pathname.replace(/\/$/, "");
const ours = checkout(here);
const ref = () => run([...referenceCommand(), ...piArgs]);
const programs: [string, () => Promise<StartSample>][] = [
  ["ours ", ours],
  ["1.6.0", ref],
  ...(baseDir ? [["base ", checkout(baseDir)] as [string, () => Promise<StartSample>]] : []),
  ...(withoutMcp ? [["no MCP", checkout(here, false)] as [string, () => Promise<StartSample>]] : []),
];

function line(label: string, samples: StartSample[]): string {
  const m = (f: (s: StartSample) => number) => median(samples.map(f)).toFixed(0).padStart(6);
  return `  ${label.padEnd(6)} request ${m((s) => s.requestMs)} ms, answer ${m((s) => s.answerMs)} ms, exit ${
    m((s) => s.exitMs)
  } ms, CPU ${m((s) => s.cpuMs)} ms`;
}

try {
  console.log(
    `load average at start: ${(await Deno.readTextFile("/proc/loadavg")).split(" ").slice(0, 3).join(" ")}`,
  );
  for (const [, program] of programs) await program();
  const samples: StartSample[][] = programs.map(() => []);
  for (let i = 0; i < rounds; i++) {
    for (const [index, [, program]] of programs.entries()) samples[index].push(await program());
  }
  console.log(
    `pi -p hi with 3 stdio MCP servers (${exposure} exposure), ${rounds} alternated rounds, medians`,
  );
  for (const [index, [label]] of programs.entries()) console.log(line(label, samples[index]));
  const [a, b] = samples;
  const ratio = (f: (s: StartSample) => number) => (median(b.map(f)) / median(a.map(f))).toFixed(2);
  console.log(
    `  1.6.0/ours: answer ${ratio((s) => s.answerMs)}× (goal ≥ 5×), exit ${ratio((s) => s.exitMs)}×, CPU ${
      ratio((s) => s.cpuMs)
    }×`,
  );
  if (baseDir) {
    const ab = (f: (s: StartSample) => number) => (median(samples[2].map(f)) / median(a.map(f))).toFixed(2);
    console.log(
      `  base/ours: answer ${ab((s) => s.answerMs)}×, exit ${ab((s) => s.exitMs)}×, CPU ${
        ab((s) => s.cpuMs)
      }×`,
    );
  }
  console.log(
    `load average at end: ${(await Deno.readTextFile("/proc/loadavg")).split(" ").slice(0, 3).join(" ")}`,
  );
} finally {
  await server.close();
  await env.cleanup();
  await bare.cleanup();
}
