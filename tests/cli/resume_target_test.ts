/**
 * `--resume` in session selection: the picker gets loaders over this folder's sessions and every
 * project's; the chosen file is opened; cancelling is "No session selected" with exit 0; without
 * a picker (no terminal) it is an error. Real session files in a temp agent dir.
 */
import { join } from "node:path";
import { assertEquals, assertRejects } from "../support/assert.ts";
import { parseArgs } from "../../src/cli/args.ts";
import { CliExit } from "../../src/cli/cli_error.ts";
import { createSessionManager, type SessionTargetContext } from "../../src/cli/session_target.ts";
import type { SessionListLoaders } from "../../src/core/session_listing.ts";
import { encodeCwd } from "../../src/session/paths.ts";

// deno-lint-ignore no-control-regex
const ANSI = /\x1b\[\d+m/g;

async function layout() {
  const tmp = await Deno.realPath(await Deno.makeTempDir({ prefix: "pi-resume-target-" }));
  const agentDir = join(tmp, "agent");
  const cwd = join(tmp, "project");
  const other = join(tmp, "other");
  const write = async (dir: string, id: string, text: string, at: string) => {
    const folder = join(agentDir, "sessions", encodeCwd(dir));
    await Deno.mkdir(folder, { recursive: true });
    const header = { type: "session", version: 3, id, timestamp: at, cwd: dir };
    const message = {
      type: "message",
      id: `${id}-1`,
      parentId: null,
      timestamp: at,
      message: { role: "user", content: text, timestamp: Date.parse(at) },
    };
    const file = join(folder, `${id}.jsonl`);
    await Deno.writeTextFile(file, `${JSON.stringify(header)}\n${JSON.stringify(message)}\n`);
    return file;
  };
  await Deno.mkdir(cwd, { recursive: true });
  await Deno.mkdir(other, { recursive: true });
  const older = await write(cwd, "older", "first here", "2026-01-01T00:00:00.000Z");
  const newer = await write(cwd, "newer", "second here", "2026-01-02T00:00:00.000Z");
  const far = await write(other, "far", "elsewhere", "2026-01-03T00:00:00.000Z");
  return { tmp, agentDir, cwd, older, newer, far };
}

/** The CliExit `fn` rejects with. */
async function exitOf(fn: () => Promise<unknown>): Promise<CliExit> {
  const error = await assertRejects(fn);
  if (!(error instanceof CliExit)) throw error;
  return error;
}

function context(
  l: Awaited<ReturnType<typeof layout>>,
  pickSession?: SessionTargetContext["pickSession"],
): SessionTargetContext {
  return {
    cwd: l.cwd,
    agentDir: l.agentDir,
    log: () => {},
    warn: () => {},
    confirm: () => Promise.resolve(false),
    pickSession,
  };
}

Deno.test("CLI-resume: --resume hands the picker this folder's and all projects' sessions and opens the chosen one", async () => {
  const l = await layout();
  try {
    let seen: { current: string[]; all: string[] } | undefined;
    const manager = await createSessionManager(
      parseArgs(["--resume"]),
      context(l, async (loaders: SessionListLoaders) => {
        seen = {
          current: (await loaders.current()).map((s) => s.firstMessage),
          all: (await loaders.all()).map((s) => s.firstMessage),
        };
        return l.older;
      }),
    );
    assertEquals(seen, {
      current: ["second here", "first here"],
      all: ["elsewhere", "second here", "first here"],
    });
    assertEquals(manager.getSessionFile(), l.older);
    assertEquals(manager.getCwd(), l.cwd);
  } finally {
    await Deno.remove(l.tmp, { recursive: true });
  }
});

Deno.test("CLI-resume: a cancelled picker is 'No session selected' (dim, exit 0); no picker (no terminal) is an error", async () => {
  const l = await layout();
  try {
    const cancelled = await exitOf(() =>
      createSessionManager(parseArgs(["-r"]), context(l, () => Promise.resolve(null)))
    );
    assertEquals([cancelled.message.replace(ANSI, ""), cancelled.exitCode, cancelled.isError], [
      "No session selected",
      0,
      false,
    ]);
    const refused = await exitOf(() => createSessionManager(parseArgs(["-r"]), context(l)));
    assertEquals([refused.message, refused.exitCode], [
      "Error: --resume needs a terminal to show the session picker; use --session <id> or --continue",
      1,
    ]);
  } finally {
    await Deno.remove(l.tmp, { recursive: true });
  }
});
