/**
 * Start-up cost of a sandbox profile (issue 15): `pi -p "hi"` with one text turn against the fake
 * provider, without a profile and under `--sandbox read-only` and `--sandbox project`, alternating
 * round by round; plus an empty `deno run` (one process start, what the re-run adds at least).
 * Prints the medians of wall time and of CPU time (GNU time, /usr/bin/time, counts the confined
 * child too) and their ratios to `full`.
 *
 * This is the cost without the installed launcher (`deno run … main.ts`, two processes); through
 * the launcher, which starts a recorded plan in one process, see scripts/bench/sandbox_overhead.ts.
 *
 * Run: `deno run -A tests/e2e/sandbox_bench.ts [rounds]` (default 10). Not a test: its figures
 * go into docs/performance.md.
 *
 * @module
 */
import { createAgentEnv } from "../support/agent_env.ts";
import { startFakeProvider } from "../support/fake_provider/mod.ts";

const rounds = Number(Deno.args[0] ?? 10);
const server = await startFakeProvider();
const env = await createAgentEnv(server.url);
const main = new URL("../../main.ts", import.meta.url).pathname;
const config = new URL("../../deno.json", import.meta.url).pathname;
const empty = await Deno.makeTempFile({ suffix: ".ts" });
const variants = ["empty deno run", "full", "read-only", "project"] as const;
const times: Record<string, number[]> = Object.fromEntries(variants.map((v) => [v, []]));
// CPU time of the process and its children (the confined pi included), from GNU time's last line.
const cpu: Record<string, number[]> = Object.fromEntries(variants.map((v) => [v, []]));
try {
  for (let i = 0; i < rounds; i++) {
    for (const variant of variants) {
      const args = variant === "empty deno run" ? ["run", empty] : [
        "run",
        "--quiet",
        "--allow-all",
        "--no-prompt",
        "--config",
        config,
        main,
        "--provider",
        "fake-anthropic",
        "--model",
        "test-model",
        "--no-session",
        ...(variant === "full" ? [] : ["--sandbox", variant]),
        "-p",
        "hi",
      ];
      if (variant !== "empty deno run") server.push({ content: [{ type: "text", text: "ok" }] });
      const startedAt = performance.now();
      const out = await new Deno.Command("/usr/bin/time", {
        args: ["-f", "cpu %U %S", Deno.execPath(), ...args],
        cwd: env.cwd,
        env: env.env,
        clearEnv: true,
        stdout: "piped",
        stderr: "piped",
      }).output();
      const ms = performance.now() - startedAt;
      const stdout = new TextDecoder().decode(out.stdout).trim();
      if (out.code !== 0 || (variant !== "empty deno run" && stdout !== "ok")) {
        throw new Error(`${variant}: exit ${out.code}\n${new TextDecoder().decode(out.stderr)}`);
      }
      times[variant].push(ms);
      const stderr = new TextDecoder().decode(out.stderr).trim().split("\n");
      const [, user, sys] = stderr[stderr.length - 1].split(" ");
      cpu[variant].push((Number(user) + Number(sys)) * 1000);
    }
  }
} finally {
  await server.close();
  await env.cleanup();
  await Deno.remove(empty);
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
for (const variant of variants) {
  const m = median(times[variant]);
  const ratio = variant === "empty deno run" ? "" : ` (${(m / median(times.full)).toFixed(2)}x full)`;
  const c = median(cpu[variant]);
  const cpuRatio = variant === "empty deno run" ? "" : ` (${(c / median(cpu.full)).toFixed(2)}x full)`;
  const min = Math.min(...times[variant]).toFixed(0);
  console.log(
    `${variant.padEnd(15)} wall ${m.toFixed(0)} ms (min ${min})${ratio}; CPU ${c.toFixed(0)} ms${cpuRatio}`,
  );
}
