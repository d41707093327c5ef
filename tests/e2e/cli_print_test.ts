/**
 * The real `pi` process in print mode against the fake provider: the answer on stdout, piped stdin
 * prepended to the first message with no separator (G2), the session file written, remaining
 * messages sent in order, and SIGTERM / SIGHUP during a run ending with exit code 143 / 129 (CLI-27).
 */
import { join } from "node:path";
import { assertEquals } from "../support/assert.ts";
import { startFakeProvider } from "../support/fake_provider/mod.ts";

const MAIN = new URL("../../main.ts", import.meta.url).pathname;

async function setup(url: string): Promise<{ tmp: string; env: Record<string, string>; cwd: string }> {
  const tmp = await Deno.makeTempDir({ prefix: "picli-print-" });
  const agent = join(tmp, "home", "agent");
  const cwd = join(tmp, "proj");
  await Deno.mkdir(agent, { recursive: true });
  await Deno.mkdir(cwd, { recursive: true });
  const models = {
    providers: {
      fake: {
        baseUrl: `${url}/v1`,
        api: "openai-completions",
        apiKey: "sk-test",
        models: [{ id: "fake-model" }],
      },
    },
  };
  await Deno.writeTextFile(join(agent, "models.json"), JSON.stringify(models));
  const env = {
    PATH: Deno.env.get("PATH") ?? "",
    HOME: join(tmp, "home"),
    PI_CODING_AGENT_DIR: agent,
    PI_OFFLINE: "1",
    DENO_DIR: Deno.env.get("DENO_DIR") ?? join(Deno.env.get("HOME") ?? "", ".cache", "deno"),
  };
  return { tmp, env, cwd };
}

function userTexts(body: unknown): string[] {
  const messages = (body as { messages: { role: string; content: unknown }[] }).messages;
  return messages.filter((m) => m.role === "user").map((m) =>
    typeof m.content === "string"
      ? m.content
      : (m.content as { type: string; text?: string }[]).map((c) => c.text ?? "").join("")
  );
}

Deno.test("CLI-19 G2 print mode: piped stdin + @file + messages, answer on stdout, session written", async () => {
  const server = await startFakeProvider([
    { content: [{ type: "text", text: "first answer" }] },
    { content: [{ type: "text", text: "second answer" }] },
  ]);
  const { tmp, env, cwd } = await setup(server.url);
  try {
    await Deno.writeTextFile(join(cwd, "note.txt"), "NOTE");
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--no-prompt", MAIN, "--model", "fake/fake-model", "@note.txt", "one", "two"],
      cwd,
      env,
      clearEnv: true,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode("  from stdin \n"));
    await writer.close();
    const out = await child.output();
    const stderr = new TextDecoder().decode(out.stderr);
    assertEquals(out.code, 0, stderr);
    assertEquals(new TextDecoder().decode(out.stdout), "second answer\n");
    assertEquals(userTexts(server.requests[0].body), [
      `from stdin<file name="${join(cwd, "note.txt")}">\nNOTE\n</file>\none`,
    ]);
    assertEquals(userTexts(server.requests[1].body).at(-1), "two");
    const sessionsRoot = join(env.PI_CODING_AGENT_DIR, "sessions");
    const dirs = [...Deno.readDirSync(sessionsRoot)];
    assertEquals(dirs.length, 1);
    const files = [...Deno.readDirSync(join(sessionsRoot, dirs[0].name))];
    assertEquals(files.length, 1);
  } finally {
    await server.close();
    await Deno.remove(tmp, { recursive: true });
  }
});

for (const [signal, code] of [["SIGTERM", 143], ["SIGHUP", 129]] as const) {
  Deno.test(`CLI-27 ${signal} during a print-mode run exits with ${code}`, async () => {
    const server = await startFakeProvider([
      {
        content: [{ type: "text", text: "slow answer that never finishes" }],
        fault: { kind: "stall", afterChunks: 1 },
      },
    ]);
    const { tmp, env, cwd } = await setup(server.url);
    try {
      const child = new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", "--no-prompt", MAIN, "--model", "fake/fake-model", "-p", "hello"],
        cwd,
        env,
        clearEnv: true,
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
      }).spawn();
      const deadline = Date.now() + 30_000;
      while (server.requests.length === 0 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 50));
      }
      assertEquals(server.requests.length, 1);
      child.kill(signal);
      const out = await child.output();
      assertEquals(out.code, code);
      assertEquals(new TextDecoder().decode(out.stdout), "");
    } finally {
      await server.close();
      await Deno.remove(tmp, { recursive: true });
    }
  });
}
