/**
 * `pi -p "hi"` with one text turn against the fake provider: ours (`deno run main.ts`) against
 * the reference (`node dist/cli.js`), alternated round by round after one warm-up each, compared
 * by the medians of wall time and peak RSS (GNU time's %M). Both use the same isolated agent dir,
 * models.json and server; sessions are written (the default), as a user's run would.
 *
 * Usage: deno run -A scripts/bench/print_run.ts [rounds] [--api anthropic-messages|…] [--bundle FILE]
 *
 * `--bundle FILE` runs ours from a `deno bundle` output (e.g. `deno bundle --output /tmp/pi.js main.ts`)
 * instead of main.ts, to see what module loading costs.
 *
 * @module
 */
import {
  createAgentEnv,
  FAKE_MODEL_ID,
  FAKE_PROVIDERS,
  type FakeApi,
} from "../../tests/support/agent_env.ts";
import { startFakeProvider } from "../../tests/support/fake_provider/mod.ts";
import { alternate, median, referenceCli, type RunSample, timeCommand } from "./common.ts";

const apiIndex = Deno.args.indexOf("--api");
const api = (apiIndex >= 0 ? Deno.args[apiIndex + 1] : "anthropic-messages") as FakeApi;
const bundleIndex = Deno.args.indexOf("--bundle");
const bundle = bundleIndex >= 0 ? Deno.args[bundleIndex + 1] : undefined;
const rounds = Number(Deno.args.find((a, i) => /^\d+$/.test(a) && !Deno.args[i - 1]?.startsWith("--")) ?? 15);
const main = bundle ?? new URL("../../main.ts", import.meta.url).pathname;

const server = await startFakeProvider();
const env = await createAgentEnv(server.url);
const childEnv: Record<string, string> = { ...env.env, PI_OFFLINE: "1" };
// Keep Deno's module cache where it is although HOME moves (else every run downloads metadata).
childEnv.DENO_DIR = Deno.env.get("DENO_DIR") ?? `${Deno.env.get("HOME")}/.cache/deno`;
const piArgs = ["-p", "--model", `${FAKE_PROVIDERS[api]}/${FAKE_MODEL_ID}`, "hi"];

async function run(cmd: string[]): Promise<RunSample> {
  server.push({ content: [{ type: "text", text: "Hello! How can I help?" }] });
  const sample = await timeCommand(cmd, { env: childEnv, cwd: env.cwd });
  if (sample.code !== 0) throw new Error(`${cmd.slice(0, 2).join(" ")} … exited with ${sample.code}`);
  return sample;
}

const ours = () => run([Deno.execPath(), "run", "--allow-all", "--no-prompt", main, ...piArgs]);
const ref = () => run(["node", referenceCli(), ...piArgs]);

try {
  const { a, b } = await alternate(ours, ref, rounds);
  const oursMs = median(a.map((s) => s.ms));
  const refMs = median(b.map((s) => s.ms));
  const oursRss = median(a.map((s) => s.maxRssKb ?? 0));
  const refRss = median(b.map((s) => s.maxRssKb ?? 0));
  console.log(
    `pi -p "hi" (${api}${bundle ? `, ours from ${bundle}` : ""}), ${rounds} alternated rounds, medians`,
  );
  console.log(`ours: ${oursMs.toFixed(1)} ms, peak RSS ${(oursRss / 1024).toFixed(1)} MiB`);
  console.log(`ref:  ${refMs.toFixed(1)} ms, peak RSS ${(refRss / 1024).toFixed(1)} MiB`);
  console.log(`wall time: ours is ${(refMs / oursMs).toFixed(2)}x faster (goal >= 8x)`);
  console.log(`memory: ours uses ${(oursRss / refRss).toFixed(2)} of the reference's (goal <= 0.33)`);
} finally {
  await server.close();
  await env.cleanup();
}
