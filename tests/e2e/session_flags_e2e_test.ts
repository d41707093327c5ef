/**
 * Session selection by the real `pi` in print mode (CLI-20, CLI-21, CLI-22, SESS flags): `-c`
 * appends to the newest session, `--session <8-char id prefix>` and `--session <new path>` pick
 * the file, `--fork <prefix>` copies a session into a new file with `parentSession`, and
 * `--no-session` writes nothing. The expected files and texts were checked against the reference
 * running the same sequence on the same fake server (identical results).
 */
import { join } from "node:path";
import { assert, assertEquals } from "../support/assert.ts";
import { createAgentEnv, readSessionLines } from "../support/agent_env.ts";
import { startFakeProvider } from "../support/fake_provider/mod.ts";
import { spawnPi } from "../support/spawn_pi.ts";
import { SessionManager } from "../../src/session/session_manager.ts";

type Json = Record<string, unknown>;

/** Entry kinds of a session file: the type, or the role for messages. */
function kinds(lines: Json[]): string[] {
  return lines.map((l) => l.type === "message" ? String((l.message as Json).role) : String(l.type));
}

/** The user/assistant texts a request sent, in order (OpenAI completions format). */
function sentTexts(body: unknown): string[] {
  const messages = (body as { messages: { role: string; content: unknown }[] }).messages;
  return messages.filter((m) => m.role !== "system").map((m) =>
    typeof m.content === "string"
      ? m.content
      : (m.content as { text?: string }[]).map((c) => c.text ?? "").join("")
  );
}

async function withEnv(
  answers: number,
  fn: (
    run: (args: string[]) => Promise<{ code: number; stdout: string; stderr: string }>,
    ctx: { env: Awaited<ReturnType<typeof createAgentEnv>>; requests: () => unknown[] },
  ) => Promise<void>,
): Promise<void> {
  const turns = Array.from({ length: answers }, (_, i) => ({
    content: [{ type: "text" as const, text: `answer ${i + 1}` }],
  }));
  const server = await startFakeProvider(turns);
  const env = await createAgentEnv(server.url);
  env.env.PI_OFFLINE = "1";
  try {
    const run = async (args: string[]) => {
      const r = await spawnPi([...args, "--model", "fake-openai/test-model"], { env: env.env, cwd: env.cwd });
      return { code: r.code, stdout: r.stdout, stderr: r.stderr };
    };
    await fn(run, { env, requests: () => server.requests.map((r) => r.body) });
  } finally {
    await server.close();
    await env.cleanup();
  }
}

Deno.test("CLI-22 CLI-20 CLI-21 e2e: -c, --session <prefix>, --fork <prefix> and --no-session", async () => {
  await withEnv(5, async (run, { env, requests }) => {
    assertEquals(await run(["-p", "one"]), { code: 0, stdout: "answer 1\n", stderr: "" });
    const [first] = await env.sessionFiles();
    assertEquals(kinds(await readSessionLines(first)), [
      "session",
      "model_change",
      "thinking_level_change",
      // pi 1.6.0 saves the system prompt as a message before the first user message.
      "system",
      "user",
      "assistant",
    ]);

    // -c appends to the same file and sends the earlier turn along.
    assertEquals(await run(["-c", "-p", "two"]), { code: 0, stdout: "answer 2\n", stderr: "" });
    assertEquals(await env.sessionFiles(), [first]);
    assertEquals(sentTexts(requests()[1]), ["one", "answer 1", "two"]);

    // --session with the first 8 characters of the id opens that file.
    const id = String((await readSessionLines(first))[0].id);
    assertEquals(await run(["--session", id.slice(0, 8), "-p", "three"]), {
      code: 0,
      stdout: "answer 3\n",
      stderr: "",
    });
    assertEquals(await env.sessionFiles(), [first]);
    const beforeFork = await Deno.readTextFile(first);
    assertEquals(kinds(await readSessionLines(first)).slice(4), [
      "user",
      "assistant",
      "user",
      "assistant",
      "user",
      "assistant",
    ]);
    assertEquals(sentTexts(requests()[2]), ["one", "answer 1", "two", "answer 2", "three"]);

    // --fork copies every entry into a new file whose header names the source; the source stays.
    assertEquals(await run(["--fork", id.slice(0, 8), "-p", "four"]), {
      code: 0,
      stdout: "answer 4\n",
      stderr: "",
    });
    const files = await env.sessionFiles();
    assertEquals(files.length, 2);
    const forked = files.find((f) => f !== first)!;
    assertEquals(await Deno.readTextFile(first), beforeFork);
    const sourceLines = await readSessionLines(first);
    const forkLines = await readSessionLines(forked);
    const header = forkLines[0];
    assertEquals(header.parentSession, first);
    assertEquals(header.cwd, env.cwd);
    assert(header.id !== id, "the fork has a new id");
    assert(forked.endsWith(`_${header.id}.jsonl`), forked);
    assertEquals(forkLines.slice(1, sourceLines.length), sourceLines.slice(1));
    assertEquals(kinds(forkLines.slice(sourceLines.length)), ["user", "assistant"]);
    assertEquals(sentTexts(requests()[3]).at(-1), "four");
    assertEquals(sentTexts(requests()[3]).length, 7);

    // --no-session runs without history and writes nothing.
    const snapshot = await Promise.all(files.map((f) => Deno.readTextFile(f)));
    assertEquals(await run(["--no-session", "-p", "five"]), { code: 0, stdout: "answer 5\n", stderr: "" });
    assertEquals(await env.sessionFiles(), files);
    assertEquals(await Promise.all(files.map((f) => Deno.readTextFile(f))), snapshot);
    assertEquals(sentTexts(requests()[4]), ["five"]);

    // Both files load (the saved system prompt counts as a message).
    assertEquals(SessionManager.open(first).buildSessionContext().messages.length, 7);
    assertEquals(SessionManager.open(forked).buildSessionContext().messages.length, 9);
  });
});

Deno.test("CLI-20 CLI-21 e2e: an unknown id prefix is an error for --session and --fork", async () => {
  await withEnv(0, async (run, { env }) => {
    for (const flag of ["--session", "--fork"]) {
      assertEquals(await run([flag, "zzzzzzzz", "-p", "hi"]), {
        code: 1,
        stdout: "",
        stderr: "No session found matching 'zzzzzzzz'\n",
      });
    }
    assertEquals(await env.sessionFiles(), []);
  });
});

Deno.test("CLI-20 e2e: --session <path> to a missing file starts a session written to that path", async () => {
  await withEnv(2, async (run, { env, requests }) => {
    const path = join(env.root, "custom", "mine.jsonl");
    await Deno.mkdir(join(env.root, "custom"));
    assertEquals(await run(["--session", path, "-p", "one"]), { code: 0, stdout: "answer 1\n", stderr: "" });
    assertEquals(kinds(await readSessionLines(path)).slice(-2), ["user", "assistant"]);
    assertEquals(await run(["--session", path, "-p", "two"]), { code: 0, stdout: "answer 2\n", stderr: "" });
    assertEquals(sentTexts(requests()[1]), ["one", "answer 1", "two"]);
    assertEquals(await env.sessionFiles(), []);
  });
});
