/**
 * Damaged session files through the CLI: malformed and torn lines are skipped with a warning and
 * kept on disk, the session continues; a file whose header is unreadable is refused with a plain
 * error and left byte for byte as it was. IDs: SES-07, SES-08, CLI-20.
 */
import { join } from "node:path";
import { assert, assertEquals, assertStringIncludes } from "../support/assert.ts";
import { createAgentEnv, readSessionLines } from "../support/agent_env.ts";
import { startFakeProvider } from "../support/fake_provider/mod.ts";
import { spawnPi as runPi } from "../support/spawn_pi.ts";

const MODEL = ["--provider", "fake-anthropic", "--model", "test-model"];

Deno.test("SES-07 SES-08 -c continues a file with a malformed line and a torn tail, warning about both", async () => {
  const server = await startFakeProvider([
    { content: [{ type: "text", text: "first" }] },
    { content: [{ type: "text", text: "second" }] },
  ]);
  const env = await createAgentEnv(server.url);
  try {
    const first = await runPi([...MODEL, "-p", "one"], { env: env.env, cwd: env.cwd });
    assertEquals(first.code, 0, first.stderr);
    const [file] = await env.sessionFiles();
    const good = await Deno.readTextFile(file);
    // A malformed line in the middle and a write interrupted at the end.
    const damaged = good + "{this is not json}\n" + '{"type":"message","id":"abc';
    await Deno.writeTextFile(file, damaged);

    const second = await runPi([...MODEL, "-c", "-p", "two"], { env: env.env, cwd: env.cwd });
    assertEquals(second.code, 0, second.stderr);
    assertEquals(second.stdout, "second\n");
    assertStringIncludes(second.stderr, "skipped malformed line");
    assertStringIncludes(second.stderr, "ignored incomplete last line");
    // The second request carried the first exchange: nothing that was written was lost.
    assertStringIncludes(JSON.stringify(server.requests[1].body), "first");

    const text = await Deno.readTextFile(file);
    assert(text.startsWith(damaged), "nothing was deleted or rewritten");
    const appended = text.slice(damaged.length);
    assert(appended.startsWith("\n"), "the next entry starts on a fresh line");
    const lines = await readSessionLines(file).catch(() => undefined);
    assertEquals(lines, undefined, "the damaged lines are still there (strict parsing fails)");
    const roles = appended.trim().split("\n").map((l) => JSON.parse(l).message?.role);
    assertEquals(roles, ["user", "assistant"]);
  } finally {
    await server.close();
    await env.cleanup();
  }
});

Deno.test("SES-08 a session whose header is unreadable is refused plainly and left untouched", async () => {
  const server = await startFakeProvider([]);
  const env = await createAgentEnv(server.url);
  try {
    const path = join(env.cwd, "broken.jsonl");
    const content = 'not a header\n{"type":"message"}\n';
    await Deno.writeTextFile(path, content);
    const run = await runPi([...MODEL, "--session", path, "-p", "hi"], { env: env.env, cwd: env.cwd });
    assertEquals(run.code, 1);
    assertEquals(run.stdout, "");
    assertStringIncludes(run.stderr, "Error: ");
    assertStringIncludes(run.stderr, path);
    assertEquals(run.stderr.includes("    at "), false, run.stderr);
    assertEquals(await Deno.readTextFile(path), content);
    assertEquals(server.requests.length, 0);
  } finally {
    await server.close();
    await env.cleanup();
  }
});
