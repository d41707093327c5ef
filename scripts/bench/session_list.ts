/**
 * Session listing benchmark (issue 12): 2,000 session files of ~1 MB each (2 GB, big tool
 * results, in 20 project folders) listed with `SessionManager.listAll` (what `--resume` and
 * `--session <prefix>` read), each listing in a fresh process: cold (no listing cache), warm (the
 * cache from the cold run), and after 20 files grew by an appended turn. Reports wall time of the
 * listing and the process's peak RSS (VmHWM).
 *
 * Usage: deno run -A scripts/bench/session_list.ts [files] [mbPerFile]
 *
 * @module
 */
import { join } from "node:path";
import { SessionManager } from "../../src/session/session_manager.ts";
import { piRunFlags } from "./common.ts";
import { writeBigSession } from "./session_gen.ts";

if (Deno.args[0] === "--child") {
  const root = Deno.args[1];
  const t0 = performance.now();
  const infos = await SessionManager.listAll(undefined, root);
  const ms = performance.now() - t0;
  const hwm = Number(Deno.readTextFileSync("/proc/self/status").match(/VmHWM:\s+(\d+)/)![1]) / 1024;
  const messages = infos.reduce((n, i) => n + i.messageCount, 0);
  console.log(
    JSON.stringify({ sessions: infos.length, messages, ms: Math.round(ms), peakRssMiB: Math.round(hwm) }),
  );
  Deno.exit(0);
}

const files = Number(Deno.args[0] ?? 2000);
const mbPerFile = Number(Deno.args[1] ?? 1);
const root = await Deno.makeTempDir({ prefix: "pi-bench-list-" });
try {
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
  const paths: string[] = [];
  for (let i = 0; i < files; i++) {
    const dir = join(root, "sessions", `--p-${i % 20}--`);
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
    const path = join(dir, `2026-01-01T00-00-00-000Z_${id}.jsonl`);
    const f = await Deno.open(path, { write: true, create: true, truncate: true });
    await f.write(header);
    await f.write(rest);
    f.close();
    total += header.length + rest.length;
    paths.push(path);
  }
  console.log(`${files} session files, ${(total / 1e9).toFixed(2)} GB (${turns * 4} messages each)`);
  const run = async (label: string) => {
    const out = await new Deno.Command(Deno.execPath(), {
      // The flags pi runs with (deno.json's pi task), so memory is measured as a user would see it.
      args: ["run", ...piRunFlags(), import.meta.filename!, "--child", join(root, "sessions")],
      stdout: "piped",
      stderr: "inherit",
    }).output();
    console.log(`${label}: ${new TextDecoder().decode(out.stdout).trim()}`);
  };
  await run("cold (no cache)   ");
  await run("warm (cache)      ");
  const turn = JSON.stringify({
    type: "message",
    id: "ffffffff",
    parentId: null,
    timestamp: "2026-02-01T00:00:00.000Z",
    message: { role: "user", content: [{ type: "text", text: "appended" }], timestamp: Date.UTC(2026, 1, 1) },
  });
  for (const p of paths.slice(0, 20)) await Deno.writeTextFile(p, turn + "\n", { append: true });
  await run("20 files appended ");
} finally {
  await Deno.remove(root, { recursive: true });
}
