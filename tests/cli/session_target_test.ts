/**
 * Session selection: --session/--fork by path or id prefix, the cross-project prompt, flag conflicts
 * and the missing-cwd check — on real session files in temp dirs.
 */
import { join } from "node:path";
import { assertEquals, assertRejects, assertThrows } from "../support/assert.ts";
import { parseArgs } from "../../src/cli/args.ts";
import {
  createSessionManager,
  missingSessionCwdMessage,
  resolveSessionArg,
  type SessionTargetContext,
  validateForkFlags,
} from "../../src/cli/session_target.ts";

// deno-lint-ignore no-control-regex
const ANSI = /\x1b\[\d+m/g;

interface Layout {
  tmp: string;
  agentDir: string;
  cwd: string;
  localDir: string;
  otherFile: string;
  localFile: string;
}

function sessionText(id: string, cwd: string): string {
  const header = { type: "session", version: 3, id, timestamp: "2026-01-01T00:00:00.000Z", cwd };
  const message = {
    type: "message",
    id: "aaaa0001",
    parentId: null,
    timestamp: "2026-01-01T00:00:01.000Z",
    message: { role: "user", content: [{ type: "text", text: "hello" }], timestamp: 1767225601000 },
  };
  return `${JSON.stringify(header)}\n${JSON.stringify(message)}\n`;
}

async function withLayout(fn: (l: Layout) => Promise<void>): Promise<void> {
  const tmp = await Deno.makeTempDir();
  try {
    const agentDir = join(tmp, "agent");
    const cwd = join(tmp, "proj");
    const localDir = join(tmp, "sessions-local");
    const otherDir = join(agentDir, "sessions", "--other--");
    await Deno.mkdir(cwd, { recursive: true });
    await Deno.mkdir(localDir, { recursive: true });
    await Deno.mkdir(otherDir, { recursive: true });
    const localFile = join(localDir, "local.jsonl");
    const otherFile = join(otherDir, "other.jsonl");
    await Deno.writeTextFile(localFile, sessionText("0199aaaa-0000-7000-8000-000000000001", cwd));
    await Deno.writeTextFile(
      otherFile,
      sessionText("0199bbbb-0000-7000-8000-000000000002", join(tmp, "other")),
    );
    await fn({ tmp, agentDir, cwd, localDir, otherFile, localFile });
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
}

function ctx(l: Layout, answer?: boolean, logs: string[] = []): SessionTargetContext {
  return {
    cwd: l.cwd,
    sessionDir: l.localDir,
    agentDir: l.agentDir,
    log: (t) => logs.push(t),
    confirm: (q) => {
      logs.push(`${q} [y/N] `);
      return Promise.resolve(answer);
    },
  };
}

Deno.test("CLI-13 --fork conflicts list every other session flag", () => {
  const error = assertThrows(() => validateForkFlags(parseArgs(["--fork", "x", "-c", "--no-session"])));
  assertEquals(error.message, "Error: --fork cannot be combined with --continue, --no-session");
  validateForkFlags(parseArgs(["--fork", "x"]));
});

Deno.test("CLI-20 --session: slash or .jsonl means a path; otherwise local then global id prefixes", async () => {
  await withLayout(async (l) => {
    assertEquals(await resolveSessionArg("x.jsonl", l.cwd, l.localDir), { type: "path", path: "x.jsonl" });
    assertEquals(await resolveSessionArg("a/b", l.cwd, l.localDir), { type: "path", path: "a/b" });
    assertEquals(await resolveSessionArg("0199aa", l.cwd, l.localDir, join(l.agentDir, "sessions")), {
      type: "local",
      path: l.localFile,
    });
    assertEquals(await resolveSessionArg("0199bb", l.cwd, l.localDir, join(l.agentDir, "sessions")), {
      type: "global",
      path: l.otherFile,
      cwd: join(l.tmp, "other"),
    });
    assertEquals(await resolveSessionArg("zz", l.cwd, l.localDir, join(l.agentDir, "sessions")), {
      type: "not_found",
      arg: "zz",
    });
  });
});

Deno.test("CLI-20 --session with an unknown prefix stops with exit 1", async () => {
  await withLayout(async (l) => {
    const error = await assertRejects(() => createSessionManager(parseArgs(["--session", "zz"]), ctx(l)));
    assertEquals(error.message, "No session found matching 'zz'");
  });
});

Deno.test("CLI-20 --session of another project: declining prints Aborted. and exits 0", async () => {
  await withLayout(async (l) => {
    const logs: string[] = [];
    const error = await assertRejects(() =>
      createSessionManager(parseArgs(["--session", "0199bb"]), ctx(l, false, logs))
    );
    assertEquals((error as unknown as { exitCode: number }).exitCode, 0);
    assertEquals(error.message.replace(ANSI, ""), "Aborted.");
    assertEquals(
      logs.join("").replace(ANSI, ""),
      [
        `Session found in different project: ${join(l.tmp, "other")}\n`,
        "Fork this session into current directory? [y/N] ",
      ].join(""),
    );
  });
});

Deno.test("CLI-20 CLI-21 accepting the cross-project prompt forks into the current project", async () => {
  await withLayout(async (l) => {
    const manager = await createSessionManager(parseArgs(["--session", "0199bb"]), ctx(l, true));
    const file = manager.getSessionFile()!;
    assertEquals(file.startsWith(l.localDir), true);
    const header = JSON.parse((await Deno.readTextFile(file)).split("\n")[0]);
    assertEquals([header.cwd, header.parentSession], [l.cwd, l.otherFile]);
    assertEquals(manager.getCwd(), l.cwd);
  });
});

Deno.test("CLI-20 --session with a path that does not exist starts a session at that path", async () => {
  await withLayout(async (l) => {
    const path = join(l.tmp, "new.jsonl");
    const manager = await createSessionManager(parseArgs(["--session", path]), ctx(l));
    assertEquals(manager.getSessionFile(), path);
    assertEquals(manager.buildSessionContext().messages.length, 0);
  });
});

Deno.test("CLI-21 --fork <id> copies the session with parentSession; unknown ids exit 1", async () => {
  await withLayout(async (l) => {
    const manager = await createSessionManager(parseArgs(["--fork", "0199aa"]), ctx(l));
    const header = JSON.parse((await Deno.readTextFile(manager.getSessionFile()!)).split("\n")[0]);
    assertEquals(header.parentSession, l.localFile);
    assertEquals(manager.buildSessionContext().messages.length, 1);
    const error = await assertRejects(() => createSessionManager(parseArgs(["--fork", "zz"]), ctx(l)));
    assertEquals(error.message, "No session found matching 'zz'");
  });
});

Deno.test("CLI-22 -c opens the newest session of the dir; --no-session stays in memory", async () => {
  await withLayout(async (l) => {
    const cont = await createSessionManager(parseArgs(["-c"]), ctx(l));
    assertEquals(cont.getSessionFile(), l.localFile);
    const mem = await createSessionManager(parseArgs(["--no-session"]), ctx(l));
    assertEquals(mem.isPersisted(), false);
  });
});

Deno.test("CLI-23 a session whose cwd is gone gives the reference's three-line error", async () => {
  await withLayout(async (l) => {
    const manager = await createSessionManager(parseArgs(["--session", l.otherFile]), ctx(l));
    assertEquals(
      missingSessionCwdMessage(manager, l.cwd),
      `Stored session working directory does not exist: ${
        join(l.tmp, "other")
      }\nSession file: ${l.otherFile}\n` +
        `Current working directory: ${l.cwd}`,
    );
    const local = await createSessionManager(parseArgs(["--session", l.localFile]), ctx(l));
    assertEquals(missingSessionCwdMessage(local, l.cwd), undefined);
  });
});
