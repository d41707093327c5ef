/**
 * Session load benchmark: writes a ~200 MB session with 100,000 entries, loads it with
 * SessionManager.open and builds the context, and reports time and peak RSS (VmHWM).
 * Goal: peak RSS under 2x the file size.
 *
 *   deno run --allow-all scripts/bench/session_load.ts [entries] [bytesPerEntry]
 *
 * @module
 */
import { join } from "node:path";
import { SessionManager } from "../../src/session/session_manager.ts";

function vmHwmBytes(): number {
  try {
    const m = Deno.readTextFileSync("/proc/self/status").match(/VmHWM:\s+(\d+)\s+kB/);
    if (m) return Number(m[1]) * 1024;
  } catch {
    // Not Linux: fall back to the current RSS.
  }
  return Deno.memoryUsage().rss;
}

/** Writes the synthetic session in chunks (the generator never holds the whole file either). */
async function generate(file: string, entries: number, bytesPerEntry: number): Promise<void> {
  const f = await Deno.open(file, { write: true, create: true, truncate: true });
  const enc = new TextEncoder();
  const filler = "lorem ipsum dolor sit amet ".repeat(Math.ceil(bytesPerEntry / 27)).slice(
    0,
    bytesPerEntry - 260,
  );
  let buf = JSON.stringify({
    type: "session",
    version: 3,
    id: "0192aaaa-0000-7000-8000-000000000000",
    timestamp: new Date(0).toISOString(),
    cwd: "/tmp/bench",
  }) + "\n";
  let parent: string | null = null;
  for (let i = 0; i < entries; i++) {
    const id = i.toString(16).padStart(8, "0");
    const message = i % 2 === 0
      ? { role: "user", content: [{ type: "text", text: `${i} ${filler}` }], timestamp: i }
      : {
        role: "assistant",
        content: [{ type: "text", text: `${i} ${filler}` }],
        api: "anthropic-messages",
        provider: "anthropic",
        model: "claude-sonnet-4-5",
        stopReason: "stop",
        timestamp: i,
      };
    buf += JSON.stringify({
      type: "message",
      id,
      parentId: parent,
      timestamp: new Date(i).toISOString(),
      message,
    }) +
      "\n";
    parent = id;
    if (buf.length > 4 << 20) {
      await f.write(enc.encode(buf));
      buf = "";
    }
  }
  await f.write(enc.encode(buf));
  f.close();
}

if (import.meta.main && Deno.args[0] === "--generate") {
  await generate(Deno.args[1], Number(Deno.args[2]), Number(Deno.args[3]));
} else if (import.meta.main) {
  const entries = Number(Deno.args[0] ?? 100_000);
  const bytesPerEntry = Number(Deno.args[1] ?? 2_000);
  const dir = await Deno.makeTempDir({ prefix: "pi-bench-session-" });
  try {
    const file = join(dir, "bench.jsonl");
    // Generate in a child process so the generator's memory does not count toward the load's peak.
    const gen = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--allow-all",
        import.meta.filename!,
        "--generate",
        file,
        String(entries),
        String(bytesPerEntry),
      ],
    }).output();
    if (!gen.success) throw new Error("generation failed");
    const size = Deno.statSync(file).size;
    const baseline = vmHwmBytes();
    const t0 = performance.now();
    const sm = SessionManager.open(file);
    const t1 = performance.now();
    const ctx = sm.buildSessionContext();
    const t2 = performance.now();
    const peak = vmHwmBytes();
    const result = {
      entries: sm.getEntries().length,
      contextMessages: ctx.messages.length,
      fileMB: +(size / 1e6).toFixed(1),
      loadMs: Math.round(t1 - t0),
      contextMs: Math.round(t2 - t1),
      baselineRssMB: +(baseline / 1e6).toFixed(1),
      peakRssMB: +(peak / 1e6).toFixed(1),
      peakOverFile: +(peak / size).toFixed(2),
      underTwiceFileSize: peak < 2 * size,
    };
    console.log(JSON.stringify(result, null, 2));
    if (!result.underTwiceFileSize) Deno.exitCode = 1;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}
