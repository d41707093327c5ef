/**
 * `pi --mode rpc` shut down by signals while a prompt streams (RPC-28, CLI-27), ours beside pi
 * 1.6.0 run live (the stored capture tests/fixtures/e2e/rpc_shutdown.json must equal that run and
 * stands in for it only when the reference is not installed; `deno run -A` this file refreshes it).
 *
 * What 1.6.0 does, and ours with it:
 * - SIGTERM: the running reply is aborted and saved (`assistant:aborted` in the session), the
 *   runtime is disposed, exit 143. (Ours also writes the run's end records, `message_end` …
 *   `agent_settled`, before it exits; 1.6.0 stops writing events first: docs/differences.md.)
 * - SIGINT: not handled in RPC mode; the process dies by the signal and the reply is not saved.
 * - During shutdown only a second signal forces exit: a first SIGTERM/SIGHUP waits for a slow
 *   `session_shutdown` (its marker file is written before exit); a second one during it exits at
 *   once with the signal's code (no marker). For 1.6.0 the slow step is an extension loaded with
 *   `-e`; ours cannot load extensions from the CLI yet, so an SDK script runs `runRpcMode` on a
 *   runtime host whose dispose is that slow step, through the same signal handlers as the CLI.
 */
import { join } from "node:path";
import { assert, assertEquals } from "../support/assert.ts";
import { type AgentEnv, createAgentEnv, denoDir, machineEnv } from "../support/agent_env.ts";
import { type FakeProvider, startFakeProvider } from "../support/fake_provider/mod.ts";
import { MAIN_TS, useReferenceFixtures, waitFor } from "../support/spawn_pi.ts";
import { requireReference } from "../../scripts/reference/locate.ts";
import { fixturePath } from "./scenario.ts";

const MOD = new URL("../../mod.ts", import.meta.url).href;
const FIXTURE = fixturePath("rpc_shutdown.json");
/** How long the slow shutdown step takes: far longer than the gap between two signals. */
const SLOW_SHUTDOWN_MS = 5_000;
/** The gap between the first and the second signal. */
const SECOND_SIGNAL_AFTER_MS = 700;

/** What one signalled run showed; compared whole with 1.6.0's. */
interface ShutdownOutcome {
  code: number;
  signal: string | null;
  /** stdout record types up to the signal (message_update runs left out: their count varies). */
  stdoutBeforeSignal: string[];
  /** stdout record types written after the signal. */
  stdoutAfterSignal: string[];
  stderr: string;
  /** Entry kinds of the session file (`role:stopReason` for an assistant message). */
  sessionKinds: string[];
  /** Whether the slow shutdown step finished (its marker file exists). */
  shutdownFinished: boolean;
}

/** The cases: the signals sent, in order, and whether a slow shutdown step is installed. */
const CASES = {
  sigterm: { signals: ["SIGTERM"], slow: false },
  sigint: { signals: ["SIGINT"], slow: false },
  slow_sigterm_once: { signals: ["SIGTERM"], slow: true },
  slow_sigterm_twice: { signals: ["SIGTERM", "SIGTERM"], slow: true },
  slow_sighup_twice: { signals: ["SIGHUP", "SIGHUP"], slow: true },
} satisfies Record<string, { signals: Deno.Signal[]; slow: boolean }>;
type CaseName = keyof typeof CASES;

/** 1.6.0's slow step: an extension whose session_shutdown handler waits, then writes the marker. */
function slowExtension(marker: string): string {
  return `import { writeFileSync } from "node:fs";
export default function (pi) {
  pi.on("session_shutdown", async () => {
    await new Promise((resolve) => setTimeout(resolve, ${SLOW_SHUTDOWN_MS}));
    writeFileSync(${JSON.stringify(marker)}, "done");
  });
}
`;
}

/** Ours: RPC mode from the SDK on a host whose dispose takes the slow step before the real one. */
function slowHostScript(marker: string): string {
  return `import { createAgentSession, ModelRuntime, runRpcMode } from ${JSON.stringify(MOD)};
const { session } = await createAgentSession({ modelRuntime: await ModelRuntime.create() });
const refuse = () => Promise.reject(new Error("not in this test"));
const host = {
  get session() { return session; },
  newSession: refuse,
  switchSession: refuse,
  fork: refuse,
  async dispose() {
    await new Promise((resolve) => setTimeout(resolve, ${SLOW_SHUTDOWN_MS}));
    await Deno.writeTextFile(${JSON.stringify(marker)}, "done");
    session.dispose();
  },
};
Deno.exit(await runRpcMode(host));
`;
}

function recordTypes(text: string): string[] {
  return text.split("\n").filter((l) => l).map((l) => String(JSON.parse(l).type)).filter((t) =>
    t !== "message_update"
  );
}

function sessionKinds(text: string): string[] {
  return text.trim().split("\n").filter((l) => l).map((l) => {
    const entry = JSON.parse(l);
    if (entry.type !== "message") return entry.type;
    return entry.message.stopReason
      ? `${entry.message.role}:${entry.message.stopReason}`
      : entry.message.role;
  });
}

async function command(env: AgentEnv, reference: boolean, slow: boolean, marker: string) {
  const args = ["--mode", "rpc", "--model", "fake-anthropic/test-model"];
  if (reference) {
    const ref = requireReference();
    if (slow) {
      await Deno.writeTextFile(join(env.root, "slow.mjs"), slowExtension(marker));
      args.push("-e", join(env.root, "slow.mjs"));
    }
    return { cmd: ref.node, args: [ref.cli, ...args] };
  }
  if (!slow) return { cmd: Deno.execPath(), args: ["run", "--allow-all", "--no-prompt", MAIN_TS, ...args] };
  await Deno.writeTextFile(join(env.root, "host.ts"), slowHostScript(marker));
  return {
    cmd: Deno.execPath(),
    args: ["run", "--allow-all", "--no-prompt", "--no-config", join(env.root, "host.ts")],
  };
}

/** Starts a prompt whose answer stalls, sends the case's signals while it streams, collects the outcome. */
async function runCase(name: CaseName, reference: boolean): Promise<ShutdownOutcome> {
  const { signals, slow } = CASES[name];
  const server: FakeProvider = await startFakeProvider([
    {
      content: [{ type: "text", text: "this answer never finishes" }],
      fault: { kind: "stall", afterChunks: 3 },
    },
  ]);
  const env = await createAgentEnv(server.url, {
    settings: { defaultProvider: "fake-anthropic", defaultModel: "test-model" },
  });
  const marker = join(env.root, "shutdown-finished");
  try {
    const { cmd, args } = await command(env, reference, slow, marker);
    const childEnv: Record<string, string> = { ...machineEnv(), ...env.env, PI_OFFLINE: "1" };
    if (!reference) childEnv.DENO_DIR ??= denoDir();
    const child = new Deno.Command(cmd, {
      args,
      cwd: env.cwd,
      env: childEnv,
      clearEnv: true,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    // stdin stays open: its end would start a shutdown of its own.
    const writer = child.stdin.getWriter();
    let stdout = "";
    const decoder = new TextDecoder();
    const reading = child.stdout.pipeTo(
      new WritableStream({ write: (chunk) => void (stdout += decoder.decode(chunk, { stream: true })) }),
    );
    const stderr = new Response(child.stderr).text();
    const killer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    try {
      await writer.write(
        new TextEncoder().encode(`${JSON.stringify({ id: "1", type: "prompt", message: "hi" })}\n`),
      );
      await waitFor(
        () => server.requests.length === 1 && stdout.includes('"message_update"'),
        30_000,
        "the reply streaming",
      );
      const before = stdout;
      child.kill(signals[0]);
      for (const signal of signals.slice(1)) {
        await new Promise((resolve) => setTimeout(resolve, SECOND_SIGNAL_AFTER_MS));
        child.kill(signal);
      }
      const status = await child.status;
      await reading;
      const files = await env.sessionFiles();
      let shutdownFinished = true;
      try {
        await Deno.stat(marker);
      } catch {
        shutdownFinished = false;
      }
      return {
        code: status.code,
        signal: status.signal,
        stdoutBeforeSignal: recordTypes(before.slice(0, before.lastIndexOf("\n") + 1)),
        stdoutAfterSignal: recordTypes(stdout.slice(before.lastIndexOf("\n") + 1)),
        stderr: await stderr,
        sessionKinds: files.length === 1 ? sessionKinds(await Deno.readTextFile(files[0])) : [],
        shutdownFinished: slow ? shutdownFinished : false,
      };
    } finally {
      clearTimeout(killer);
      await writer.close().catch(() => {});
    }
  } finally {
    await server.close();
    await env.cleanup();
  }
}

/** pi 1.6.0's outcome: live when installed (the stored capture must equal it), else stored. */
async function referenceOutcome(name: CaseName): Promise<ShutdownOutcome> {
  const stored: ShutdownOutcome = JSON.parse(await Deno.readTextFile(FIXTURE))[name];
  if (useReferenceFixtures()) return stored;
  const live = await runCase(name, true);
  assertEquals(
    stored,
    live,
    `${FIXTURE} (${name}) is stale: re-run \`deno run -A tests/e2e/rpc_shutdown_test.ts\``,
  );
  return live;
}

/** The records ours adds after SIGTERM: the aborted run's end (1.6.0 writes none). */
const OURS_RUN_END = ["message_end", "turn_end", "agent_end", "agent_settled"];

Deno.test("RPC-28 CLI-27 SIGTERM while a prompt streams: reply aborted and saved, exit 143 (as pi 1.6.0)", async () => {
  const [ours, ref] = await Promise.all([runCase("sigterm", false), referenceOutcome("sigterm")]);
  assertEquals([ref.code, ref.signal, ref.stdoutAfterSignal], [143, null, []]);
  assertEquals(ref.sessionKinds.at(-1), "assistant:aborted");
  // Deliberate difference (docs/differences.md, RPC mode): ours ends the run on stdout first.
  assertEquals(ours.stdoutAfterSignal, OURS_RUN_END);
  assertEquals({ ...ours, stdoutAfterSignal: [] }, ref);
});

Deno.test("RPC-28 CLI-27 SIGINT while a prompt streams: killed by the signal, reply not saved (as pi 1.6.0)", async () => {
  const [ours, ref] = await Promise.all([runCase("sigint", false), referenceOutcome("sigint")]);
  assertEquals([ref.code, ref.signal], [130, "SIGINT"]);
  assertEquals(ref.sessionKinds.at(-1), "user");
  assertEquals(ours, ref);
});

Deno.test("RPC-28 one SIGTERM during a slow shutdown waits for it to finish, then exits 143 (as pi 1.6.0)", async () => {
  const [ours, ref] = await Promise.all([
    runCase("slow_sigterm_once", false),
    referenceOutcome("slow_sigterm_once"),
  ]);
  assertEquals([ref.code, ref.shutdownFinished], [143, true]);
  assertEquals([ours.code, ours.signal, ours.shutdownFinished, ours.stderr], [143, null, true, ""]);
  assertEquals(ours.sessionKinds.at(-1), "assistant:aborted");
  assertEquals(ours.stdoutAfterSignal, OURS_RUN_END);
});

for (
  const [name, signal, code] of [["slow_sigterm_twice", "SIGTERM", 143], [
    "slow_sighup_twice",
    "SIGHUP",
    129,
  ]] as const
) {
  Deno.test(`RPC-28 a second ${signal} during a slow shutdown forces exit ${code} at once (as pi 1.6.0)`, async () => {
    const [ours, ref] = await Promise.all([runCase(name, false), referenceOutcome(name)]);
    assertEquals([ref.code, ref.signal, ref.shutdownFinished], [code, null, false]);
    assertEquals([ours.code, ours.signal, ours.shutdownFinished, ours.stderr], [code, null, false, ""]);
    // The abort came before the slow step, so the reply is saved either way.
    assertEquals(ours.sessionKinds.at(-1), "assistant:aborted");
    assert(ref.sessionKinds.includes("user"));
  });
}

if (import.meta.main) {
  const out: Record<string, ShutdownOutcome> = {};
  for (const name of Object.keys(CASES) as CaseName[]) out[name] = await runCase(name, true);
  await Deno.writeTextFile(FIXTURE, `${JSON.stringify(out, null, 1)}\n`);
  console.log(`wrote ${FIXTURE}`);
}
