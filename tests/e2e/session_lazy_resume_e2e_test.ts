/**
 * Lazy resume by the real `pi` (issue 12, SES-08): resuming a session lazily must send the
 * provider byte-identical requests to a full load. Every fixture session (branched, compacted,
 * edits, labels, torn tail, v1, v2, 0.73.1- and 1.6.0-written, ours) is resumed with
 * `--session <file> -p hi` three ways — a full load (`PI_SESSION_LOAD=eager`), everything through
 * the lazy path (`lazy-all`) and the default thresholds — and a generated session with big tool
 * results, side branches and a compaction is continued with `-c -p hi` the same three ways.
 * Each is also resumed through the session index (`<file>.idx`), whose entries are stubs read from
 * the file on use: once without one (the run writes it) and once from it, also after another
 * process appended to the session in between, and with every entry a stub (`lazy-all`).
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
    resume: (args: string[], mode: string, index?: string) => Promise<Outcome>,
    env: Awaited<ReturnType<typeof createAgentEnv>>,
  ) => Promise<void>,
): Promise<void> {
  const server = await startFakeProvider();
  const env = await createAgentEnv(server.url);
  try {
    const resume = async (args: string[], mode: string, index = "off"): Promise<Outcome> => {
      server.push({ content: [{ type: "text", text: "hello" }] });
      const before = server.requests.length;
      const r = await spawnPi([...args, "--model", "fake-anthropic/test-model", "-p", "hi"], {
        env: { ...env.env, PI_OFFLINE: "1", PI_SESSION_LOAD: mode, PI_SESSION_INDEX: index },
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
      // Through the session index (written after any scan with `always`): without it, then from it.
      const copy = join(env.root, "resumed.jsonl");
      const original = withCwd(await Deno.readTextFile(fixture), env.cwd);
      await Deno.remove(`${copy}.idx`).catch(() => {});
      await Deno.writeTextFile(copy, original);
      assertEquals(
        await resume(["--session", copy], "default", "always"),
        eager,
        `${fixture} (writing the index)`,
      );
      if (JSON.parse(original.slice(0, original.indexOf("\n"))).version !== 3) {
        // Migrated and rewritten: the index of the old bytes is gone with them.
        assertEquals(await Deno.stat(`${copy}.idx`).then(() => true, () => false), false, fixture);
        continue;
      }
      const index = await Deno.readFile(`${copy}.idx`);
      await Deno.writeTextFile(copy, original);
      assertEquals(
        await resume(["--session", copy], "default", "always"),
        eager,
        `${fixture} (from the index)`,
      );
      // The index was used: a run that had to scan would have written a new one.
      assertEquals(await Deno.readFile(`${copy}.idx`), index, fixture);
      // Every entry that can be a stub made one (header, labels and settings too), cold and warm.
      await Deno.remove(`${copy}.idx`);
      for (const step of ["writing the index", "from the index"]) {
        await Deno.writeTextFile(copy, original);
        assertEquals(
          await resume(["--session", copy], "lazy-all", "always"),
          eager,
          `${fixture} (all stubs, ${step})`,
        );
      }
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

    // With the index, as pi runs by default: the first resume writes it, later ones read it.
    const live = join(dir, "2026-01-01T00-00-00-000Z_019ad000-0000-7000-8000-000000000001.jsonl");
    await Deno.remove(`${live}.idx`).catch(() => {});
    await Deno.copyFile(pristine, live);
    assertEquals(await resume(["-c"], "default", ""), eager, "writing the index");
    const index = await Deno.readFile(`${live}.idx`);
    await Deno.copyFile(pristine, live);
    assertEquals(await resume(["-c"], "default", ""), eager, "from the index");
    assertEquals(await Deno.readFile(`${live}.idx`), index);

    // Another process appends a turn between the index and its use: both loads send it.
    const lines = (await Deno.readTextFile(pristine)).trimEnd().split("\n");
    const lastId = JSON.parse(lines[lines.length - 1]).id;
    const turn = JSON.stringify({
      type: "message",
      id: "aaaa0001",
      parentId: lastId,
      timestamp: "2026-01-02T00:00:00.000Z",
      message: {
        role: "user",
        content: [{ type: "text", text: "appended by another pi" }],
        timestamp: 1767312000000,
      },
    });
    const appended: Outcome[] = [];
    for (const mode of ["eager", "default"]) {
      await Deno.copyFile(pristine, live);
      await Deno.writeFile(`${live}.idx`, index);
      const sh = await new Deno.Command("sh", {
        args: ["-c", 'printf "%s\\n" "$TURN" >> "$FILE"'],
        env: { TURN: turn, FILE: live },
      }).output();
      assertEquals(sh.code, 0);
      appended.push(await resume(["-c"], mode, ""));
    }
    assertEquals(appended[0].body.includes("appended by another pi"), true);
    assertEquals(appended[1], appended[0]);
  });
});
