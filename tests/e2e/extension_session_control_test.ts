/**
 * EXT-SES (EXT-06 of reference-features.md, issue 16): an extension command drives 1.6.0's session control — `ctx.newSession()` with
 * `setup` and `withSession`, `ctx.navigateTree()`, `ctx.fork()` (a clone), `ctx.switchSession()` and
 * `ctx.shutdown()` — over RPC, with ours and with pi 1.6.0 run the same way. Compared: the extension's
 * log (what `withSession` saw, the stale-context error of a captured `ctx` and `pi`), the session files
 * on disk (a new file, the clone's parent link, the label and moved leaf), the RPC records and the exit.
 */
import { join } from "node:path";
import { assert, assertEquals } from "../support/assert.ts";
import { sessionFilesOf } from "../support/agent_env.ts";
import { requireReferenceCli } from "../support/spawn_pi.ts";
import { comparableRpc, fixture, MODEL, runExtensionCase, startRpc } from "./extensions_harness.ts";
import { makeNormalizer, packageDirs } from "./scenario.ts";

const STALE =
  "This extension ctx is stale after session replacement or reload. Do not use a captured pi or command ctx after ctx.newSession(), ctx.fork(), ctx.switchSession(), or ctx.reload(). For newSession, fork, and switchSession, move post-replacement work into withSession and use the ctx passed to withSession. For reload, do not use the old ctx after await ctx.reload().";

/**
 * Beyond the harness's normaliser: session file paths (their folder names the run's temp dir; their
 * names hold a time-ordered UUID) become the names given in `named` (by absolute path); the fake
 * server's port goes. A fresh normaliser numbers entry ids from `$ID1`.
 */
function runNormalizer(root: string, named: Record<string, string>): (value: unknown) => unknown {
  const base = makeNormalizer(root, packageDirs());
  const strings = (value: unknown): unknown => {
    if (typeof value === "string") {
      let out = value;
      for (const [path, name] of Object.entries(named)) out = out.split(path).join(name);
      return out.replace(/127\.0\.0\.1:\d+/g, "127.0.0.1:$PORT");
    }
    if (Array.isArray(value)) return value.map(strings);
    if (value && typeof value === "object") {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, strings(v)]));
    }
    return value;
  };
  return (value) => base(strings(value));
}

/** A session file's lines, normalised on their own (ids from `$ID1`, label targets as positions). */
async function sessionLines(path: string, root: string, named: Record<string, string>): Promise<unknown[]> {
  const normalize = runNormalizer(root, named);
  return labelTargets((await Deno.readTextFile(path)).trim().split("\n").map((l) => JSON.parse(l))).map(
    normalize,
  );
}

/** A label entry's `targetId` as the index of the entry it names (ids are random). */
function labelTargets(lines: Record<string, unknown>[]): Record<string, unknown>[] {
  return lines.map((line) =>
    line.type === "label" ? { ...line, targetId: `#${lines.findIndex((l) => l.id === line.targetId)}` } : line
  );
}

/** One RPC run: Hello, /ses-new, /ses-tree, /ses-fork at, /ses-switch <first file>, /ses-quit. */
async function observe(reference: boolean) {
  const who = reference ? "pi 1.6.0" : "ours";
  const rpc = await startRpc(
    ["-e", fixture("ours/session-control.ts"), ...MODEL],
    [
      { content: [{ type: "text", text: "Hello back." }] },
      { content: [{ type: "text", text: "Kicked off." }] },
    ],
    reference,
  );
  const response = async (id: string, command: Record<string, unknown>) => {
    await rpc.send({ id, ...command });
    const record = await rpc.waitFor((r) => r.type === "response" && r.id === id, `response ${id}`);
    assertEquals(record.success, true, `${who} ${id}: ${JSON.stringify(record)}`);
    return record.data as Record<string, unknown>;
  };
  const settled = async (n: number, what: string) => {
    await rpc.waitFor(() => rpc.records.filter((r) => r.type === "agent_settled").length >= n, what);
  };
  try {
    await response("hello", { type: "prompt", message: "Hello" });
    await settled(1, "the first reply");
    const first = (await response("state-1", { type: "get_state" })).sessionFile as string;
    await response("new", { type: "prompt", message: "/ses-new" });
    await settled(2, "the kickoff reply");
    const afterNew = (await response("state-2", { type: "get_state" })).sessionFile as string;
    await response("tree", { type: "prompt", message: "/ses-tree" });
    await response("fork", { type: "prompt", message: "/ses-fork at" });
    const afterFork = (await response("state-3", { type: "get_state" })).sessionFile as string;
    await response("switch", { type: "prompt", message: `/ses-switch ${first}` });
    const afterSwitch = (await response("state-4", { type: "get_state" })).sessionFile as string;
    await response("quit", { type: "prompt", message: "/ses-quit" });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const ended = await Promise.race([
      rpc.exited.then((status) => status.code),
      new Promise<string>((resolve) => timer = setTimeout(() => resolve("still running after 30 s"), 30_000)),
    ]);
    clearTimeout(timer);
    const named = { [first]: "$FIRST", [afterNew]: "$NEW", [afterFork]: "$FORK" };
    const files = await sessionFilesOf(rpc.agentDir);
    const header = async (path: string) =>
      (await sessionLines(path, rpc.root, named))[0] as { parentSession?: string };
    return {
      ended,
      log: await Deno.readTextFile(join(rpc.cwd, "session-control.log")),
      files: files.length,
      distinct: new Set([first, afterNew, afterFork]).size,
      switchedBack: afterSwitch === first,
      firstFile: await sessionLines(first, rpc.root, named),
      newFile: await sessionLines(afterNew, rpc.root, named),
      forkFile: await sessionLines(afterFork, rpc.root, named),
      forkParentIsNewFile: (await header(afterFork)).parentSession === "$NEW",
      newParentIsFirstFile: (await header(afterNew)).parentSession === "$FIRST",
      records: comparableRpc(
        rpc.records.map(runNormalizer(rpc.root, named)) as Record<string, unknown>[],
        rpc.root,
      ),
      requests: rpc.requests(),
    };
  } finally {
    await rpc.close();
  }
}

let runs: Promise<[Awaited<ReturnType<typeof observe>>, Awaited<ReturnType<typeof observe>>]> | undefined;
/** Ours, then 1.6.0, once for all the tests below. */
function both() {
  requireReferenceCli();
  runs ??= (async () => {
    const ours = await observe(false);
    const reference = await observe(true);
    return [ours, reference];
  })();
  return runs;
}

/** The log lines from the one starting with `from` up to (not including) the one starting with `to`. */
function section(log: string, from: string, to?: string): string[] {
  const lines = log.split("\n");
  const start = lines.findIndex((l) => l.startsWith(from));
  const end = to === undefined ? lines.length : lines.findIndex((l, i) => i > start && l.startsWith(to));
  return lines.slice(start, end);
}

Deno.test("EXT-SES-01 RPC: a command's ctx.newSession() with parentSession, setup and withSession; a captured ctx and pi are stale after, as in pi 1.6.0", async () => {
  const [ours, reference] = await both();
  assertEquals(section(ours.log, "session_start startup", "navigateTree"), [
    "session_start startup",
    "session_shutdown new",
    "session_start new",
    "withSession: new file differs",
    `old ctx.cwd throws: ${STALE}`,
    `old pi.getSessionName() throws: ${STALE}`,
    "withSession: 6 entries",
    "newSession cancelled=false",
    `old ctx.isIdle() throws: ${STALE}`,
  ]);
  assertEquals(
    section(ours.log, "session_start startup", "navigateTree"),
    section(reference.log, "session_start startup", "navigateTree"),
  );
  assert(ours.newParentIsFirstFile, "the new session's header names the first file as its parent");
  assertEquals(
    ours.newFile,
    reference.newFile,
    "the new session's file: setup message, kickoff, reply, label",
  );
  // The command's own use of its stale ctx after the replacement is reported as its error.
  const errors = (records: unknown[]) =>
    records.filter((r) => (r as { type: string }).type === "extension_error");
  assertEquals(errors(ours.records), [{
    type: "extension_error",
    extensionPath: "command:ses-new",
    event: "command",
    error: STALE,
  }]);
  assertEquals(errors(ours.records), errors(reference.records));
  assertEquals(
    ours.requests,
    reference.requests,
    "the kickoff went to the new session, after the setup message",
  );
  assertEquals(ours.requests[1], ["user: Context from before", "user: kickoff"]);
});

Deno.test("EXT-SES-02 RPC: ctx.navigateTree() moves the leaf and labels the target, through session_before_tree (relabels, cancels) and session_tree; a missing entry rejects, as in pi 1.6.0", async () => {
  const [ours, reference] = await both();
  assertEquals(section(ours.log, "navigateTree", "session_shutdown fork"), [
    "navigateTree event: session_before_tree label=checkpoint summary=false abandoned=3 common=true",
    "navigateTree event: session_tree moved=true summary=false",
    "navigateTree cancelled=false moved=true leafIsTarget=false",
    "missing target: Entry no-such-entry not found",
    "navigateTree event: session_before_tree label=cancel-me summary=false abandoned=1 common=true",
    "navigateTree again cancelled=true",
  ]);
  assertEquals(
    section(ours.log, "navigateTree", "session_shutdown fork"),
    section(reference.log, "navigateTree", "session_shutdown fork"),
  );
  // Appended where the leaf moved: the target's parent ($ID2, the thinking-level entry), naming the
  // target (entry #3 of the file, the setup message), with the label session_before_tree gave.
  const label = ours.newFile?.find((l) => (l as { type: string }).type === "label");
  assertEquals(label, {
    type: "label",
    id: "$ID7",
    parentId: "$ID2",
    timestamp: "$TS",
    targetId: "#3",
    label: "renamed",
  });
});

Deno.test("EXT-SES-03 RPC: ctx.fork() at an entry writes a new file whose header links the old one; withSession sees it, as in pi 1.6.0", async () => {
  const [ours, reference] = await both();
  assertEquals(section(ours.log, "session_shutdown fork", "session_shutdown resume"), [
    "session_shutdown fork",
    "session_start fork",
    "withSession: parent is the old file true",
    "withSession: 4 entries on the branch",
    "fork cancelled=false",
    `old ctx.model throws: ${STALE}`,
  ]);
  assertEquals(
    section(ours.log, "session_shutdown fork", "session_shutdown resume"),
    section(reference.log, "session_shutdown fork", "session_shutdown resume"),
  );
  assert(ours.forkParentIsNewFile, "the clone's header names the file it came from");
  assertEquals(ours.forkFile, reference.forkFile, "the clone's file");
  assertEquals([ours.files, ours.distinct], [3, 3], "three session files, one per session");
});

Deno.test("EXT-SES-04 RPC: ctx.switchSession() opens another file and withSession's sendMessage lands there; ctx.shutdown() ends pi, as in pi 1.6.0", async () => {
  const [ours, reference] = await both();
  assertEquals(section(ours.log, "session_shutdown resume"), [
    "session_shutdown resume",
    "session_start resume",
    "withSession: switched true",
    "switchSession cancelled=false",
    `old ctx.hasUI throws: ${STALE}`,
    "quit",
    "session_shutdown quit",
    "",
  ]);
  assertEquals(ours.log, reference.log, "the whole log");
  assert(ours.switchedBack, "get_state names the file switched to");
  const note = ours.firstFile?.at(-1) as { type: string; customType: string; content: string };
  assertEquals([note.type, note.customType, note.content], ["custom_message", "note", "after switch"]);
  assertEquals(ours.firstFile, reference.firstFile, "the first file, with the note appended");
  assertEquals([ours.ended, reference.ended], [0, 0], "ctx.shutdown() ended pi with exit 0");
  assertEquals(ours.records, reference.records, "every RPC record");
});

/** A print or JSON run of `/ses-new`, then a prompt, with ours or 1.6.0. */
async function printRun(mode: string[], reference: boolean) {
  return await runExtensionCase({
    args: [...mode, "-e", fixture("ours/session-control.ts"), ...MODEL, "/ses-new", "And now?"],
    turns: [
      { content: [{ type: "text", text: "Kicked off." }] },
      { content: [{ type: "text", text: "Still here." }] },
    ],
    readFiles: ["session-control.log"],
    // The files the sessions left (sorted by their user messages): whether the header names a
    // parent, and the messages.
    inspect: async (cwd) => {
      const files = await Promise.all(
        (await sessionFilesOf(join(cwd, "..", "agent"))).map(async (path) => {
          const lines = (await Deno.readTextFile(path)).trim().split("\n").map((l) => JSON.parse(l));
          return {
            parent: typeof lines[0].parentSession === "string",
            messages: lines.filter((l) => l.type === "message" && l.message.role !== "system").map((l) =>
              `${l.message.role}: ${l.message.content.map((c: { text?: string }) => c.text).join("")}`
            ),
          };
        }),
      );
      return JSON.stringify(files.sort((a, b) => a.messages.join().localeCompare(b.messages.join())));
    },
  }, reference);
}

Deno.test("EXT-SES-05 print mode: a command's ctx.newSession() with withSession; the next prompt and the printed answer belong to the new session; the stale ctx's error on stderr, as in pi 1.6.0", async () => {
  requireReferenceCli();
  const ours = await printRun(["-p"], false);
  const reference = await printRun(["-p"], true);
  assertEquals(ours.stdout, "Still here.\n");
  assertEquals(ours.stderr, [`Extension error (command:ses-new): ${STALE}`]);
  assertEquals(JSON.parse(ours.inspected!), [{
    parent: true,
    messages: [
      "user: Context from before",
      "user: kickoff",
      "assistant: Kicked off.",
      "user: And now?",
      "assistant: Still here.",
    ],
  }]);
  assertEquals(ours.requests, [
    ["user: Context from before", "user: kickoff"],
    ["user: Context from before", "user: kickoff", "user: And now?"],
  ]);
  assertEquals(
    {
      code: ours.code,
      stdout: ours.stdout,
      stderr: ours.stderr,
      log: ours.files,
      sessions: ours.inspected,
      requests: ours.requests,
    },
    {
      code: reference.code,
      stdout: reference.stdout,
      stderr: reference.stderr,
      log: reference.files,
      sessions: reference.inspected,
      requests: reference.requests,
    },
  );
});

Deno.test("EXT-SES-06 JSON mode: the new session's events follow the old one's after ctx.newSession(), with no second header, as in pi 1.6.0", async () => {
  requireReferenceCli();
  const ours = await printRun(["--mode", "json"], false);
  const reference = await printRun(["--mode", "json"], true);
  assertEquals(ours.json.filter((r) => (r as { type: string }).type === "session").length, 1, "one header");
  assertEquals(ours.json, reference.json);
  assertEquals([ours.code, ours.stderr], [reference.code, reference.stderr]);
});
