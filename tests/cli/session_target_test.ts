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
  validateSessionIdFlags,
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
    warn: (m) => logs.push(`Warning: ${m}\n`),
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
    // Paths are relative to the directory pi started in.
    assertEquals(await resolveSessionArg("x.jsonl", l.cwd, l.localDir), {
      type: "path",
      path: join(l.cwd, "x.jsonl"),
    });
    assertEquals(await resolveSessionArg("a/b", l.cwd, l.localDir), {
      type: "path",
      path: join(l.cwd, "a/b"),
    });
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

Deno.test("CLI-20 an id prefix that matches several sessions is an error listing them (pi 1.6.0 takes the newest)", async () => {
  await withLayout(async (l) => {
    const second = join(l.localDir, "2026-01-02T00-00-00-000Z_0199aaaa-0000-7000-8000-00000000000f.jsonl");
    await Deno.writeTextFile(second, sessionText("0199aaaa-0000-7000-8000-00000000000f", l.cwd));
    const error = await assertRejects(() => createSessionManager(parseArgs(["--session", "0199aa"]), ctx(l)));
    const lines = error.message.split("\n");
    assertEquals(lines[0], "Error: Session id prefix '0199aa' is ambiguous; it matches 2 sessions:");
    assertEquals(
      lines.slice(1, 3).sort(),
      [
        `  0199aaaa-0000-7000-8000-000000000001  ${l.localFile}`,
        `  0199aaaa-0000-7000-8000-00000000000f  ${second}`,
      ].sort(),
    );
    assertEquals(lines[3], "Give more of the id.");
    // The full id still opens exactly that one.
    const exact = await createSessionManager(
      parseArgs(["--session", "0199aaaa-0000-7000-8000-00000000000f"]),
      ctx(l),
    );
    assertEquals(exact.getSessionFile(), second);
  });
});

Deno.test("CLI-20 --session <a folder> is a clear error", async () => {
  await withLayout(async (l) => {
    const error = await assertRejects(() =>
      createSessionManager(parseArgs(["--session", l.tmp + "/"]), ctx(l))
    );
    assertEquals(error.message, `Error: --session expects a session file, but ${l.tmp} is a folder`);
  });
});

Deno.test("CLI-20 --session-id opens the project's session with that id, or warns and creates it", async () => {
  await withLayout(async (l) => {
    const id = "0199aaaa-0000-7000-8000-000000000001";
    const existing = await createSessionManager(parseArgs(["--session-id", id]), ctx(l));
    assertEquals(existing.getSessionFile(), l.localFile);
    const logs: string[] = [];
    const created = await createSessionManager(
      parseArgs(["--session-id", "my-id.1"]),
      ctx(l, undefined, logs),
    );
    assertEquals(created.getSessionId(), "my-id.1");
    assertEquals(logs, [
      "Warning: No project session found with id 'my-id.1'; creating a new session with that id.\n",
    ]);
    const forkError = await assertRejects(() =>
      createSessionManager(parseArgs(["--fork", "0199bb", "--session-id", id]), ctx(l))
    );
    assertEquals(forkError.message, `Session already exists with id '${id}'`);
  });
});

Deno.test("CLI-20 --session-id: invalid ids and conflicting flags are errors", () => {
  const invalid = assertThrows(() => validateSessionIdFlags(parseArgs(["--session-id", "bad id!"])));
  assertEquals(invalid.message.startsWith("Error: Session id must be non-empty"), true);
  const conflict = assertThrows(() => validateSessionIdFlags(parseArgs(["--session-id", "a", "-c", "-r"])));
  assertEquals(conflict.message, "Error: --session-id cannot be combined with --continue, --resume");
});

Deno.test("CLI-20 a file where the sessions folder should be is one clear error", async () => {
  await withLayout(async (l) => {
    const blocker = join(l.tmp, "blocker");
    await Deno.writeTextFile(blocker, "x");
    const error = await assertRejects(() =>
      createSessionManager(parseArgs([]), { ...ctx(l), sessionDir: join(blocker, "sessions") })
    );
    assertEquals(
      error.message,
      `Error: Cannot use the sessions folder: ${blocker} is a file, not a folder. Move it away or use --session-dir.`,
    );
  });
});
