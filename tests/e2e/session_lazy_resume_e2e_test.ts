/**
 * Lazy resume by the real `pi` (issue 12, SES-08): resuming a session lazily must send the
 * provider byte-identical requests to a full load. Every fixture session (branched, compacted,
 * edits, labels, torn tail, v1, v2, 0.73.1- and 1.6.0-written, ours) is resumed with
 * `--session <file> -p hi` three ways — a full load (`PI_SESSION_LOAD=eager`), everything through
 * the lazy path (`lazy-all`) and the default thresholds — and a generated session with big tool
 * results, side branches and a compaction is continued with `-c -p hi` the same three ways.
 */
import { join } from "node:path";
import { assertEquals } from "../support/assert.ts";
import { createAgentEnv } from "../support/agent_env.ts";
import { startFakeProvider } from "../support/fake_provider/mod.ts";
import { spawnPi } from "../support/spawn_pi.ts";
import { encodeCwd } from "../../src/session/paths.ts";
import { writeBigSession } from "../../scripts/bench/session_gen.ts";

const FIXTURES = new URL("../fixtures/sessions/", import.meta.url).pathname;
const MODES = ["eager", "lazy-all", "default"] as const;

async function fixtureFiles(dir = FIXTURES): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(dir)) {
    const path = join(dir, e.name);
    if (e.isDirectory) out.push(...await fixtureFiles(path));
    else if (e.name.endsWith(".jsonl")) out.push(path);
  }
  return out.sort();
}

/** The file's text with its header line's `cwd` set to `cwd` (other lines unchanged). */
function withCwd(text: string, cwd: string): string {
  const nl = text.indexOf("\n");
  const header = JSON.parse(text.slice(0, nl));
  return JSON.stringify({ ...header, cwd }) + text.slice(nl);
}

/** One resume per mode: what pi printed and the body of the request it sent. */
interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
  body: string;
}

async function withServer(
  fn: (
    resume: (args: string[], mode: string) => Promise<Outcome>,
    env: Awaited<ReturnType<typeof createAgentEnv>>,
  ) => Promise<void>,
): Promise<void> {
  const server = await startFakeProvider();
  const env = await createAgentEnv(server.url);
  try {
    const resume = async (args: string[], mode: string): Promise<Outcome> => {
      server.push({ content: [{ type: "text", text: "hello" }] });
      const before = server.requests.length;
      const r = await spawnPi([...args, "--model", "fake-anthropic/test-model", "-p", "hi"], {
        env: { ...env.env, PI_OFFLINE: "1", PI_SESSION_LOAD: mode },
        cwd: env.cwd,
      });
      const sent = server.requests.slice(before).map((q) => JSON.stringify(q.body));
      return { code: r.code, stdout: r.stdout, stderr: r.stderr, body: sent.join("\n") };
    };
    await fn(resume, env);
  } finally {
    await server.close();
    await env.cleanup();
  }
}

Deno.test("SES-08 issue 12 e2e: --session <fixture> -p hi sends the same request lazily as after a full load", async () => {
  await withServer(async (resume, env) => {
    const files = await fixtureFiles();
    assertEquals(files.length > 20, true);
    for (const fixture of files) {
      const outcomes: Outcome[] = [];
      for (const mode of MODES) {
        // A fresh copy each time (the run appends, and migrates old formats), its header's cwd
        // pointed at the test's project folder (pi refuses a stored cwd that does not exist).
        const copy = join(env.root, "resumed.jsonl");
        await Deno.writeTextFile(copy, withCwd(await Deno.readTextFile(fixture), env.cwd));
        outcomes.push(await resume(["--session", copy], mode));
      }
      const [eager, ...lazy] = outcomes;
      assertEquals(eager.code, 0, `${fixture}: ${eager.stderr}`);
      assertEquals(eager.body.length > 0, true, fixture);
      for (const outcome of lazy) assertEquals(outcome, eager, fixture);
    }
  });
});

Deno.test("SES-08 issue 12 e2e: -c -p hi on a session with big tool results, branches and a compaction", async () => {
  await withServer(async (resume, env) => {
    const dir = join(env.agentDir, "sessions", encodeCwd(env.cwd));
    await Deno.mkdir(dir, { recursive: true });
    const pristine = join(env.root, "pristine.jsonl");
    // 4,400 messages: four side branches and a compaction 150 turns from the end.
    await writeBigSession(pristine, {
      messages: 4400,
      toolBytes: 3000,
      cwd: env.cwd,
      provider: "fake-anthropic",
      model: "test-model",
    });
    const outcomes: Outcome[] = [];
    for (const mode of MODES) {
      const live = join(dir, "2026-01-01T00-00-00-000Z_019ad000-0000-7000-8000-000000000001.jsonl");
      await Deno.copyFile(pristine, live);
      outcomes.push(await resume(["-c"], mode));
    }
    const [eager, ...lazy] = outcomes;
    assertEquals([eager.code, eager.stdout], [0, "hello\n"], eager.stderr);
    // The kept turns after the compaction are in the request, with their tool results.
    assertEquals(eager.body.includes("Turn 1099: read file 1099.ts"), true);
    assertEquals(eager.body.includes("Turn 900: read file 900.ts"), false);
    for (const outcome of lazy) assertEquals(outcome, eager);
  });
});
