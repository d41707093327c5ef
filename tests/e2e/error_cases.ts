/**
 * The error-path scenarios shared by errors_e2e_test.ts and capture_reference.ts: HTTP 400, 401,
 * 429 and 500 answers (auto-retry off), a 500 followed by success (auto-retry on, one quick
 * retry), and a stream whose socket drops midway, each run as `pi -p` against every wire API.
 * pi 1.6.0 makes one request per attempt (its provider clients no longer retry 429/500 on their
 * own), so each fault is scripted once (with `retry-after: 0` to keep any retry fast).
 *
 * @module
 */
import { assertEquals } from "../support/assert.ts";
import { createAgentEnv, type FakeApi } from "../support/agent_env.ts";
import { type ScriptedTurn, startFakeProvider } from "../support/fake_provider/mod.ts";
import { spawnPi, startPi, useReferenceFixtures, waitFor } from "../support/spawn_pi.ts";
import { fixturePath, modelArg } from "./scenario.ts";

/** One error scenario. */
export interface ErrorCase {
  name: string;
  turns: ScriptedTurn[];
  settings: Record<string, unknown>;
}

const NO_RETRY = { retry: { enabled: false } };

function httpFault(status: number, message: string, times: number): ScriptedTurn[] {
  return Array.from(
    { length: times },
    () => ({ fault: { kind: "http" as const, status, message, retryAfter: 0 } }),
  );
}

/** The scenarios, in a fixed order. */
export const ERROR_CASES: ErrorCase[] = [
  { name: "http_400", turns: httpFault(400, "bad request here", 1), settings: NO_RETRY },
  { name: "http_401", turns: httpFault(401, "invalid x-api-key", 1), settings: NO_RETRY },
  { name: "http_429", turns: httpFault(429, "rate limited", 1), settings: NO_RETRY },
  { name: "http_500", turns: httpFault(500, "internal boom", 1), settings: NO_RETRY },
  {
    name: "http_500_then_retry",
    turns: [...httpFault(500, "internal boom", 1), { content: [{ type: "text", text: "recovered" }] }],
    settings: { retry: { enabled: true, maxRetries: 1, baseDelayMs: 10 } },
  },
  {
    name: "dropped_stream",
    turns: [{
      content: [{ type: "text", text: "a partial answer that is long enough to split" }],
      fault: { kind: "drop", afterChunks: 3 },
    }],
    settings: NO_RETRY,
  },
];

/** What one error run produced; compared whole with the reference's capture. */
export interface ErrorOutcome {
  code: number;
  stdout: string;
  stderr: string;
  requests: number;
  /** Entry kinds of the session file (`role:stopReason` for messages). */
  sessionKinds: string[];
}

/** Entry kinds of session lines: the type, or the role (and stop reason) of a message. */
export function entryKinds(text: string): string[] {
  return text.trim().split("\n").filter((l) => l).map((l) => {
    const entry = JSON.parse(l);
    if (entry.type !== "message") return entry.type;
    return entry.message.stopReason
      ? `${entry.message.role}:${entry.message.stopReason}`
      : entry.message.role;
  });
}

/** Runs one error case for one API; `inspect` may look at the session file before cleanup. */
export async function runErrorCase(
  api: FakeApi,
  c: ErrorCase,
  options: { reference?: boolean; inspect?: (sessionFile: string | undefined) => Promise<void> } = {},
): Promise<ErrorOutcome> {
  const server = await startFakeProvider(structuredClone(c.turns));
  const env = await createAgentEnv(server.url, { settings: c.settings });
  env.env.PI_OFFLINE = "1";
  try {
    const r = await spawnPi(["-p", "--model", modelArg(api), "hi"], {
      env: env.env,
      cwd: env.cwd,
      reference: options.reference,
    });
    const files = await env.sessionFiles();
    await options.inspect?.(files[0]);
    return {
      code: r.code,
      stdout: r.stdout,
      stderr: r.stderr,
      requests: server.requests.length,
      sessionKinds: files.length === 1 ? entryKinds(await Deno.readTextFile(files[0])) : [],
    };
  } finally {
    await server.close();
    await env.cleanup();
  }
}

/** What a SIGINT mid-stream produced. */
export interface SigintOutcome {
  code: number;
  signal: string | null;
  stdout: string;
  stderr: string;
  sessionKinds: string[];
}

/**
 * JSON mode: the event types up to the second `turn_start`, which was written before the second
 * request (the test waits for that request). What follows depends on how much of the stalled
 * answer arrived before the signal, which varies with machine load.
 */
function jsonTypesUntilSecondTurn(lines: string[]): string {
  const types = lines.map((l) => String(JSON.parse(l).type));
  const second = types.indexOf("turn_start", types.indexOf("turn_start") + 1);
  return (second === -1 ? types : types.slice(0, second + 1)).join(",");
}

/**
 * A run whose first turn writes a file and whose second turn stalls after a few chunks; SIGINT
 * arrives while the second answer streams. Neither pi handles SIGINT in print/JSON mode, so the
 * default action ends the process; what was persisted before must still load.
 */
export async function runSigintCase(
  mode: "text" | "json",
  options: { reference?: boolean; inspect?: (sessionFile: string | undefined) => Promise<void> } = {},
): Promise<SigintOutcome> {
  const server = await startFakeProvider([
    { content: [{ type: "toolCall", id: "c1", name: "write", arguments: { path: "a.txt", content: "A" } }] },
    {
      content: [{ type: "text", text: "this answer stalls midway through" }],
      fault: { kind: "stall", afterChunks: 3 },
    },
  ]);
  const env = await createAgentEnv(server.url);
  env.env.PI_OFFLINE = "1";
  try {
    const args = mode === "json" ? ["--mode", "json"] : ["-p"];
    const pi = startPi([...args, "--model", modelArg("anthropic-messages"), "go"], {
      env: env.env,
      cwd: env.cwd,
      reference: options.reference,
    });
    await waitFor(() => server.requests.length === 2, 30_000, "the second request");
    // Let the first chunks of the stalled answer arrive.
    await new Promise((resolve) => setTimeout(resolve, 300));
    pi.child.kill("SIGINT");
    const r = await pi.result;
    const files = await env.sessionFiles();
    await options.inspect?.(files[0]);
    const lines = r.stdout.split("\n").filter((l) => l);
    return {
      code: r.code,
      signal: r.signal,
      stdout: mode === "json" ? jsonTypesUntilSecondTurn(lines) : r.stdout,
      stderr: r.stderr,
      sessionKinds: files.length === 1 ? entryKinds(await Deno.readTextFile(files[0])) : [],
    };
  } finally {
    await server.close();
    await env.cleanup();
  }
}

const STALE =
  "is stale: the live reference now differs from it (re-run `deno run -A tests/e2e/capture_reference.ts errors`)";

/**
 * pi 1.6.0's outcome of error case `c` on `api`: run live when the reference is installed (the
 * stored capture in tests/fixtures/e2e/errors.json must equal that run, so it cannot go stale
 * unnoticed), else the stored capture (with one loud line, from useReferenceFixtures).
 */
export async function referenceErrorOutcome(api: FakeApi, c: ErrorCase): Promise<ErrorOutcome> {
  const stored: ErrorOutcome = JSON.parse(Deno.readTextFileSync(fixturePath("errors.json")))[api][c.name];
  if (useReferenceFixtures()) return stored;
  const live = await runErrorCase(api, c, { reference: true });
  assertEquals(stored, live, `tests/fixtures/e2e/errors.json (${api} ${c.name}) ${STALE}`);
  return live;
}

/** pi 1.6.0's outcome of the SIGINT case in `mode`, live or stored as referenceErrorOutcome. */
export async function referenceSigintOutcome(mode: "text" | "json"): Promise<SigintOutcome> {
  const stored: SigintOutcome = JSON.parse(Deno.readTextFileSync(fixturePath("sigint.json")))[mode];
  if (useReferenceFixtures()) return stored;
  const live = await runSigintCase(mode, { reference: true });
  assertEquals(stored, live, `tests/fixtures/e2e/sigint.json (${mode}) ${STALE}`);
  return live;
}
