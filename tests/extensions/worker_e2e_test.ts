/**
 * Extensions in Workers, end to end (issue 15): the real CLI against the fake provider, with an
 * isolated HOME and agent dir holding two extensions that declare permissions in their
 * package.json. The one granted no write, run or network access tries all three and gets a
 * permission error for each, reported as the extension's error (a stderr line in print mode, an
 * `extension_error` record in RPC mode); the permitted one does the same in the same session and
 * succeeds. Nothing the confined one tried to write exists afterwards.
 */
import { join } from "../../src/util/path.ts";
import { assertEquals } from "../support/assert.ts";
import { type ExtensionCase, MODEL, runExtensionCase, startRpc } from "../e2e/extensions_harness.ts";

// The extensions spawn with a cleared environment: Deno refuses any subprocess whose environment holds
// LD_PRELOAD unless run access is unlimited (the fresh-machine check runs under libfaketime's LD_PRELOAD),
// and these tests are about the permissions an extension declares, not that rule (docs/security.md).
const CONFINED = `
import { join } from "node:path";
export default function (pi) {
  pi.on("before_agent_start", async (_event, ctx) => {
    await Deno.writeTextFile(join(ctx.cwd, "confined.txt"), "should not exist");
  });
  pi.on("before_agent_start", async () => {
    await new Deno.Command("echo", { args: ["confined"], clearEnv: true }).output();
  });
  pi.on("before_agent_start", () => {
    Deno.listen({ hostname: "127.0.0.1", port: 0 }).close();
  });
}
`;

const PERMITTED = `
export default function (pi) {
  pi.on("before_agent_start", async (_event, ctx) => {
    const out = await new Deno.Command("echo", { args: ["ran"], clearEnv: true }).output();
    const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const listening = listener.addr.port > 0;
    listener.close();
    const text = new TextDecoder().decode(out.stdout).trim() + ", listened: " + listening;
    await Deno.writeTextFile(ctx.cwd + "/permitted.txt", text);
  });
}
`;

const AGENT_FILES = {
  "extensions/confined/package.json": JSON.stringify({
    name: "confined",
    pi: { permissions: { write: false, run: false, net: false } },
  }),
  "extensions/confined/index.ts": CONFINED,
  "extensions/permitted/package.json": JSON.stringify({
    name: "permitted",
    pi: { permissions: { write: true, run: ["echo"], net: ["127.0.0.1"] } },
  }),
  "extensions/permitted/index.ts": PERMITTED,
};

/** EXT-WORKER-01's run; `env` may point pi at another Deno cache. */
async function printModeCase(env?: Record<string, string>): Promise<void> {
  const c: ExtensionCase = {
    ...(env ? { env } : {}),
    args: ["-p", ...MODEL, "hello"],
    turns: [{ content: [{ type: "text", text: "Hi." }] }],
    agentFiles: AGENT_FILES,
    readFiles: ["confined.txt", "permitted.txt"],
    // Everything in the project folder afterwards: only the permitted extension's file.
    inspect: async (cwd) => (await Array.fromAsync(Deno.readDir(cwd))).map((e) => e.name).sort().join(","),
    timeoutMs: 90_000,
  };
  const run = await runExtensionCase(c);
  assertEquals(run.code, 0, run.stderr.join("\n"));
  assertEquals(run.stdout, "Hi.\n");
  const path = "$ROOT/agent/extensions/confined/index.ts";
  // A cold cache makes Deno fetch npm metadata for pi's lazily imported packages and say so.
  assertEquals(run.stderr.filter((line) => !line.startsWith("Download https://")), [
    `Extension error (${path}): permission denied: write $ROOT/project/confined.txt (not granted to the extension)`,
    `Extension error (${path}): permission denied: run echo (not granted to the extension)`,
    `Extension error (${path}): permission denied: net 127.0.0.1:0 (not granted to the extension)`,
  ]);
  assertEquals(run.files, { "confined.txt": undefined, "permitted.txt": "ran, listened: true" });
  assertEquals(run.inspected, "permitted.txt");
}

Deno.test("EXT-WORKER-01 print mode: a Worker-hosted extension without write/run/net gets three permission errors; a permitted one in the same session works", async () => {
  await printModeCase();
});

// With an empty Deno cache the Worker spends seconds compiling pi's modules before it listens; a
// "load" message posted in that time was dropped and the factory "did not finish within 30000 ms"
// (seen on CI's first Worker). pi now waits for the Worker's "ready".
Deno.test("EXT-WORKER-05 a Worker-hosted extension loads when Deno's cache is empty (the Worker compiles pi's modules first)", async () => {
  const denoDir = await Deno.makeTempDir({ prefix: "pi_worker_cold_cache_" });
  try {
    await printModeCase({ DENO_DIR: denoDir });
  } finally {
    await Deno.remove(denoDir, { recursive: true });
  }
});

Deno.test("EXT-WORKER-02 RPC mode: the three refusals are extension_error records; the permitted extension (loaded with -e) writes its file", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pi_worker_rpc_" });
  try {
    for (const [path, text] of Object.entries(AGENT_FILES)) {
      await Deno.mkdir(join(dir, path, ".."), { recursive: true });
      await Deno.writeTextFile(join(dir, path), text);
    }
    const confined = join(dir, "extensions", "confined");
    const rpc = await startRpc(
      [...MODEL, "-e", confined, "-e", join(dir, "extensions", "permitted")],
      [{ content: [{ type: "text", text: "Hi." }] }],
    );
    let stderr = "";
    let permitted: string | undefined;
    let confinedWritten = true;
    try {
      await rpc.send({ id: "1", type: "prompt", message: "hello" });
      await rpc.waitFor((r) => r.type === "agent_end", "agent_end");
      permitted = await Deno.readTextFile(join(rpc.cwd, "permitted.txt"));
      confinedWritten = await exists(join(rpc.cwd, "confined.txt"));
    } finally {
      stderr = (await rpc.close()).stderr;
    }
    assertEquals(stderr, "");
    assertEquals(permitted, "ran, listened: true");
    assertEquals(confinedWritten, false);
    const entry = join(confined, "index.ts");
    assertEquals(rpc.records.filter((r) => r.type === "extension_error"), [
      {
        type: "extension_error",
        extensionPath: entry,
        event: "before_agent_start",
        error: `permission denied: write ${join(rpc.cwd, "confined.txt")} (not granted to the extension)`,
      },
      {
        type: "extension_error",
        extensionPath: entry,
        event: "before_agent_start",
        error: "permission denied: run echo (not granted to the extension)",
      },
      {
        type: "extension_error",
        extensionPath: entry,
        event: "before_agent_start",
        error: "permission denied: net 127.0.0.1:0 (not granted to the extension)",
      },
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

Deno.test("EXT-WORKER-04 under --sandbox read-only an extension granted write fails to load with the reason; the confined one loads and is refused as before", async () => {
  const run = await runExtensionCase({
    args: ["--sandbox", "read-only", "-p", ...MODEL, "hello"],
    turns: [{ content: [{ type: "text", text: "Hi." }] }],
    agentFiles: AGENT_FILES,
    inspect: async (cwd) => (await Array.fromAsync(Deno.readDir(cwd))).map((e) => e.name).sort().join(","),
    timeoutMs: 90_000,
  });
  assertEquals(run.code, 0, run.stderr.join("\n"));
  assertEquals(run.stdout, "Hi.\n");
  const path = "$ROOT/agent/extensions/confined/index.ts";
  // Only the extensions' lines: what else a confined run warns about is the profile's business.
  const extensionLines = run.stderr.filter((line) => line.includes("extension"));
  assertEquals(extensionLines, [
    `Error: Failed to load extension "$ROOT/agent/extensions/permitted/index.ts": Failed to load extension: it is granted permissions this pi process does not have (a sandbox profile withholds them): Can't escalate parent thread permissions`,
    `Extension error (${path}): permission denied: write $ROOT/project/confined.txt (not granted to the extension)`,
    `Extension error (${path}): permission denied: run echo (not granted to the extension)`,
    `Extension error (${path}): permission denied: net 127.0.0.1:0 (not granted to the extension)`,
  ]);
  assertEquals(run.inspected, "");
});
