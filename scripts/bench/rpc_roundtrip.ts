/**
 * RPC round trips: `pi --mode rpc` answering commands one at a time, ours (`deno run main.ts`, the pi
 * task's flags) against the reference (`node dist/cli.js`), both against the fake provider with the
 * same isolated agent dir. Measures the time from spawn to the first answer (`get_state`), the
 * median round trip of `get_state` and of `get_session_stats`, and a one-turn `prompt` until
 * `agent_settled`. Rounds alternate between the two after one warm-up each; medians are reported.
 *
 * Usage: deno run -A scripts/bench/rpc_roundtrip.ts [rounds] [--commands N]
 *
 * @module
 */
import { createAgentEnv, FAKE_MODEL_ID, FAKE_PROVIDERS } from "../../tests/support/agent_env.ts";
import { startFakeProvider } from "../../tests/support/fake_provider/mod.ts";
import { RpcClient } from "../../src/modes/rpc/rpc_client.ts";
import { median, piRunFlags, referenceCommand } from "./common.ts";

const commandsIndex = Deno.args.indexOf("--commands");
const commands = commandsIndex >= 0 ? Number(Deno.args[commandsIndex + 1]) : 50;
const rounds = Number(Deno.args.find((a, i) => /^\d+$/.test(a) && !Deno.args[i - 1]?.startsWith("--")) ?? 5);
const main = new URL("../../main.ts", import.meta.url).pathname;

const server = await startFakeProvider();
const env = await createAgentEnv(server.url);
const childEnv: Record<string, string> = { ...env.env, PI_OFFLINE: "1" };

interface Sample {
  firstAnswerMs: number;
  getStateMs: number;
  statsMs: number;
  promptMs: number;
}

async function run(command: string[]): Promise<Sample> {
  const client = new RpcClient({
    command,
    cwd: env.cwd,
    env: childEnv,
    provider: FAKE_PROVIDERS["anthropic-messages"],
    model: FAKE_MODEL_ID,
  });
  const spawned = performance.now();
  await client.start();
  try {
    await client.getState();
    const firstAnswerMs = performance.now() - spawned;
    const time = async (send: () => Promise<unknown>) => {
      const samples: number[] = [];
      for (let i = 0; i < commands; i++) {
        const start = performance.now();
        await send();
        samples.push(performance.now() - start);
      }
      return median(samples);
    };
    const getStateMs = await time(() => client.getState());
    const statsMs = await time(() => client.getSessionStats());
    server.push({ content: [{ type: "text", text: "Hello! How can I help?" }] });
    const start = performance.now();
    await client.promptAndWait("hi");
    const promptMs = performance.now() - start;
    return { firstAnswerMs, getStateMs, statsMs, promptMs };
  } finally {
    await client.stop();
  }
}

const ours = () => run([Deno.execPath(), "run", ...piRunFlags(), main]);
const ref = () => run(referenceCommand());

try {
  await ours();
  await ref();
  const a: Sample[] = [];
  const b: Sample[] = [];
  for (let i = 0; i < rounds; i++) {
    a.push(await ours());
    b.push(await ref());
  }
  const med = (samples: Sample[], key: keyof Sample) => median(samples.map((s) => s[key]));
  console.log(`pi --mode rpc, ${rounds} alternated rounds of ${commands} commands each, medians`);
  for (const key of ["firstAnswerMs", "getStateMs", "statsMs", "promptMs"] as const) {
    const o = med(a, key);
    const r = med(b, key);
    console.log(
      `${key.padEnd(14)} ours ${o.toFixed(2)} ms, ref ${r.toFixed(2)} ms: ours ${(r / o).toFixed(2)}x faster`,
    );
  }
} finally {
  await server.close();
  await env.cleanup();
}
