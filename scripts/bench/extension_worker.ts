/**
 * A Worker-hosted extension's event round trip (issue 15's budget: under 1 ms median): the same
 * extension loaded twice, once in the pi process and once in a Deno Worker (its package declares
 * `pi.permissions`), and `runner.emit` of a small event with one handler that returns a result,
 * timed call by call after a warm-up. Also a `tool_call` (whose handler edits `event.input`,
 * which travels back) and a tool execution. Prints the medians and 95th percentiles.
 *
 * Run: `deno run -A scripts/bench/extension_worker.ts [calls]` (default 2000).
 *
 * @module
 */
import { join } from "../../src/util/path.ts";
import { loadExtensions } from "../../src/extensions/loader.ts";
import { ExtensionRunner } from "../../src/extensions/runner.ts";
import type { ExtensionContext } from "../../src/extensions/types.ts";

/** The extension both variants load. */
const SOURCE = `
export default function (pi) {
  let turns = 0;
  pi.on("turn_start", (event) => { turns += 1; return { seen: event.turnIndex, turns }; });
  pi.on("tool_call", (event) => { event.input.checked = true; });
  pi.registerTool({
    name: "noop",
    description: "Does nothing",
    parameters: { type: "object", properties: {} },
    execute: async () => ({ content: [{ type: "text", text: "ok" }], details: {} }),
  });
}
`;

/** A `ctx` with nothing behind it. */
function benchContext(cwd: string): ExtensionContext {
  return {
    ui: {} as ExtensionContext["ui"],
    hasUI: false,
    cwd,
    sessionManager: undefined,
    modelRegistry: undefined,
    model: { provider: "fake", id: "test-model" },
    isIdle: () => false,
    signal: undefined,
    abort: () => {},
    hasPendingMessages: () => false,
    shutdown: () => {},
    getContextUsage: () => undefined,
    compact: () => {},
    getSystemPrompt: () => "You are a benchmark.",
  };
}

/** Median and 95th percentile of `samples` (milliseconds). */
export function summarize(samples: number[]): { median: number; p95: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    median: sorted[Math.floor(sorted.length / 2)],
    p95: sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))],
  };
}

/** Timings of one variant: event, tool_call and tool execution round trips, in milliseconds. */
export interface RoundTrips {
  event: number[];
  toolCall: number[];
  tool: number[];
}

/** Loads the bench extension (in a Worker when `inWorker`) and times `calls` round trips of each kind. */
export async function measureRoundTrips(inWorker: boolean, calls: number): Promise<RoundTrips> {
  const dir = await Deno.makeTempDir({ prefix: "pi_bench_worker_" });
  try {
    const pkg = join(dir, "ext");
    await Deno.mkdir(pkg);
    await Deno.writeTextFile(join(pkg, "index.ts"), SOURCE);
    if (inWorker) {
      await Deno.writeTextFile(
        join(pkg, "package.json"),
        JSON.stringify({ name: "bench", pi: { permissions: { write: false, run: false, net: false } } }),
      );
    }
    const entry = join(pkg, "index.ts");
    const loaded = await loadExtensions([{ path: entry, resolvedPath: entry }], {
      cwd: dir,
      cacheDir: join(dir, "cache"),
    });
    if (loaded.errors.length > 0) throw new Error(loaded.errors.map((e) => e.error).join("\n"));
    const ctx = benchContext(dir);
    const runner = new ExtensionRunner(loaded.extensions, () => ctx);
    const tool = loaded.extensions[0].tools.get("noop")!;
    const out: RoundTrips = { event: [], toolCall: [], tool: [] };
    const warmUp = Math.min(200, calls);
    for (let i = 0; i < calls + warmUp; i++) {
      let start = performance.now();
      await runner.emit({ type: "turn_start", turnIndex: i, timestamp: 0 });
      const event = performance.now() - start;
      start = performance.now();
      const input: Record<string, unknown> = { path: "README.md" };
      await runner.emitToolCall({ toolName: "read", toolCallId: `c${i}`, input });
      const toolCall = performance.now() - start;
      if (input.checked !== true) throw new Error("tool_call's edit of event.input did not come back");
      start = performance.now();
      await tool.execute(`t${i}`, {}, undefined, undefined, ctx);
      const toolRun = performance.now() - start;
      if (i >= warmUp) {
        out.event.push(event);
        out.toolCall.push(toolCall);
        out.tool.push(toolRun);
      }
    }
    return out;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

if (import.meta.main) {
  const calls = Number(Deno.args[0] ?? 2000);
  const rows: string[] = [];
  for (const inWorker of [false, true]) {
    const result = await measureRoundTrips(inWorker, calls);
    for (const [kind, samples] of Object.entries(result)) {
      const { median, p95 } = summarize(samples);
      rows.push(
        `${inWorker ? "worker " : "process"}  ${kind.padEnd(9)} median ${median.toFixed(3)} ms  p95 ${
          p95.toFixed(3)
        } ms`,
      );
    }
  }
  console.log(
    `${calls} calls each, after a warm-up; load average ${Deno.loadavg().map((n) => n.toFixed(1)).join(" ")}`,
  );
  for (const row of rows) console.log(row);
}
