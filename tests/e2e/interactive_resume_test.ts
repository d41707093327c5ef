/**
 * The session picker end to end in tmux (issue 11): `pi -r` lists the current folder's sessions
 * (Tab: all projects), search as you type, Enter resumes (the chat shows the old messages, the
 * next prompt is appended to that file and sends its history), Escape prints "No session
 * selected"; `/resume` in a running session switches to another one; deleting and renaming in
 * the picker. Sessions are real session files in the isolated agent dir, their ages chosen in
 * the middle of the picker's buckets (2h, 3d, 1mo...) so that a slow run cannot change a row.
 * The scripts run in our `pi` and in pi 1.6.0 at the same terminal size; screens must be equal.
 */
import { assert, assertEquals } from "../support/assert.ts";
import { readSessionLines } from "../support/agent_env.ts";
import type { ScriptedTurn } from "../support/fake_provider/mod.ts";
import {
  cursorVisible,
  type InteractiveScenario,
  startInteractiveScenario,
  sttyAfterExit,
} from "../support/interactive_scenario.ts";
import { assertSameScreens, collectScreens, type ScriptStep } from "../support/interactive_script.ts";
import { spawnPi } from "../support/spawn_pi.ts";
import { encodeCwd } from "../../src/session/paths.ts";
import { join } from "node:path";

const TIMEOUTS = { start: 90_000, step: 30_000 };
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const answer = (text: string): ScriptedTurn => ({ content: [{ type: "text", text }] });

/** One stored session: who said what, how long ago the last message was, its name. */
interface StoredSession {
  id: string;
  ago: number;
  messages: ["user" | "assistant", string][];
  name?: string;
  /** The project folder (default: the scenario's cwd). */
  cwd?: string;
}

const LOGIN: StoredSession = {
  id: "01900000-0000-7000-8000-000000000001",
  ago: 2.5 * HOUR,
  messages: [["user", "fix the login bug"], ["assistant", "Fixed the login bug."]],
};
const NOTES: StoredSession = {
  id: "01900000-0000-7000-8000-000000000002",
  ago: 3.5 * DAY,
  messages: [
    ["user", "write the release notes"],
    ["assistant", "Notes written."],
    ["user", "shorter please"],
    ["assistant", "Shorter notes."],
  ],
  name: "release notes",
};
const PARSER: StoredSession = {
  id: "01900000-0000-7000-8000-000000000003",
  ago: 5.5 * HOUR,
  messages: [["user", "refactor the parser"], ["assistant", "Parser refactored."]],
};
const ELSEWHERE: StoredSession = {
  id: "01900000-0000-7000-8000-000000000004",
  ago: 40 * DAY,
  messages: [["user", "an old question elsewhere"], ["assistant", "Old answer."]],
};

/** Writes `session` as pi writes a session file, under the agent dir's folder for its cwd; returns its path. */
async function writeSession(s: InteractiveScenario, session: StoredSession, now: number): Promise<string> {
  const cwd = session.cwd ?? s.agent.cwd;
  const last = now - session.ago;
  const start = new Date(last - 60_000).toISOString();
  const lines: Record<string, unknown>[] = [{
    type: "session",
    version: 3,
    id: session.id,
    timestamp: start,
    cwd,
  }];
  let parentId: string | null = null;
  const add = (entry: Record<string, unknown>) => {
    const id = `${session.id.slice(-4)}${String(lines.length).padStart(4, "0")}`;
    lines.push({ ...entry, id, parentId });
    parentId = id;
  };
  if (session.name) add({ type: "session_info", timestamp: start, name: session.name });
  session.messages.forEach(([role, text], i) => {
    const at = last - (session.messages.length - 1 - i) * 1000;
    const message = role === "user" ? { role, content: text, timestamp: at } : {
      role,
      content: [{ type: "text", text }],
      api: "anthropic-messages",
      provider: "fake-anthropic",
      model: "test-model",
      usage: {
        input: 10,
        output: 5,
        cacheRead: 0,
        cacheWrite: 0,
        totalTokens: 15,
        cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
      },
      stopReason: "stop",
      timestamp: at,
    };
    add({ type: "message", timestamp: new Date(at).toISOString(), message });
  });
  const dir = join(s.agent.agentDir, "sessions", encodeCwd(cwd));
  await Deno.mkdir(dir, { recursive: true });
  const file = join(dir, `${start.replace(/[:.]/g, "-")}_${session.id}.jsonl`);
  await Deno.writeTextFile(file, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
  return file;
}

/** Writes the four sessions (three here, one in another project); their paths by id. */
async function writeSessions(s: InteractiveScenario): Promise<Map<string, string>> {
  const now = Date.now();
  const other = join(s.agent.root, "other");
  await Deno.mkdir(other, { recursive: true });
  const paths = new Map<string, string>();
  for (const session of [LOGIN, NOTES, PARSER, { ...ELSEWHERE, cwd: other }]) {
    paths.set(session.id, await writeSession(s, session, now));
  }
  return paths;
}

const rule = "─".repeat(100);

/** The picker's rows as the screen shows them at 100 columns, under its heading. */
function pickerLines(
  rows: string[],
  options: { all?: boolean; query?: string; rename?: boolean } = {},
): string[] {
  return [
    rule,
    "",
    options.all
      ? "Resume Session (All)                             ○ Current Folder | ◉ All  Name: All  Sort: Threaded"
      : "Resume Session (Current Folder)                  ◉ Current Folder | ○ All  Name: All  Sort: Threaded",
    'tab scope · re:<pattern> regex · "phrase" exact',
    `ctrl+s sort · ctrl+n named · ctrl+d delete · ctrl+p path (off)${
      options.rename ? " · ctrl+r rename" : ""
    }`,
    "",
    `>${options.query ? ` ${options.query}` : ""}`,
    "",
    ...rows,
    "",
    rule,
  ];
}

const ROWS = [
  "› fix the login bug                                                                             2 2h",
  "  refactor the parser                                                                           2 5h",
  "  release notes                                                                                 4 3d",
];

/**
 * Rows of the "all" scope right-align the session's folder, so the gap before `<root>` depends on
 * the temp root's length, which varies from run to run: it is written as two spaces.
 */
function closeRootGap(screen: string): string {
  return screen.replace(/(\S) {2,}<root>/g, "$1  <root>");
}

/** Whether `lines` appear in `screen` one after another. */
function hasLines(screen: string, lines: string[]): boolean {
  return `\n${screen}\n`.includes(`\n${lines.join("\n")}\n`);
}

const PICK_STEPS: ScriptStep[] = [
  {
    name: "picker",
    act: async () => {},
    ready: (t) => t.includes("release notes") && t.includes("Sort: Threaded"),
  },
  {
    name: "all projects",
    act: (s) => s.pane.keys("Tab"),
    ready: (t) => t.includes("an old question elsewhere"),
  },
  {
    name: "search",
    act: (s) => s.pane.type("elsew"),
    ready: (t) => t.includes("\n> elsew\n") && !t.includes("fix the login bug"),
  },
  { name: "search cleared", act: (s) => s.pane.keys("C-u"), ready: (t) => t.includes("fix the login bug") },
  { name: "current folder", act: (s) => s.pane.keys("Tab"), ready: (t) => !t.includes("elsewhere") },
  { name: "named only", act: (s) => s.pane.keys("C-n"), ready: (t) => t.includes("Name: Named") },
  { name: "all names", act: (s) => s.pane.keys("C-n"), ready: (t) => t.includes("Name: All") },
  { name: "moved", act: (s) => s.pane.keys("Down"), ready: (t) => t.includes("› refactor the parser") },
  {
    name: "typed",
    act: (s) => s.pane.type("login"),
    ready: (t) => t.includes("\n> login\n") && !t.includes("refactor the parser"),
  },
  { name: "resumed", act: (s) => s.pane.keys("Enter"), ready: (t) => t.includes(" Fixed the login bug.") },
  { name: "prompted", act: (s) => s.pane.command("and now?"), ready: (t) => t.includes(" Answer again.") },
];

async function runPick(reference: boolean) {
  const s = await startInteractiveScenario([answer("Answer again.")], { reference });
  try {
    const paths = await writeSessions(s);
    await s.pane.command(`clear; ${s.piCommand(["-r"])}`);
    const screens = (await collectScreens(s, PICK_STEPS, TIMEOUTS)).map(closeRootGap);
    await s.pane.command("/quit");
    await s.pane.waitFor((t) => /\$ ?$/.test(t), TIMEOUTS.step, "the shell after exit");
    const login = await readSessionLines(paths.get(LOGIN.id)!);
    const bodies = s.server.requests.map((r) => r.body as { messages: unknown });
    return {
      screens,
      login,
      files: (await s.agent.sessionFiles()).length,
      sent: bodies.map((b) => b.messages),
    };
  } finally {
    await s.close();
  }
}

Deno.test("INT-RESUME: pi -r lists this folder's sessions (Tab: all), filters as you type, Enter resumes; the next prompt goes to that file with its history; as pi 1.6.0 does", async () => {
  const ours = await runPick(false);
  const [start, all, search] = ours.screens;
  assert(hasLines(start, pickerLines(ROWS)), start);
  assert(
    hasLines(all, [
      "› fix the login bug  <root>/project 2 2h",
      "  refactor the parser  <root>/project 2 5h",
      "  release notes  <root>/project 4 3d",
      "  an old question elsewhere  <root>/other 2 1mo",
    ]),
    all,
  );
  assert(
    hasLines(
      search,
      pickerLines(["› an old question elsewhere  <root>/other 2 1mo"], {
        all: true,
        query: "elsew",
      }),
    ),
    search,
  );
  const resumed = ours.screens[PICK_STEPS.findIndex((step) => step.name === "resumed")];
  assert(hasLines(resumed, [" fix the login bug", "", "", " Fixed the login bug."]), resumed);
  // The prompt went to the resumed file (no new session file), after its history.
  assertEquals(ours.files, 4);
  const tail = ours.login.slice(-2).map((l) => l.message as { role: string; content: unknown });
  assertEquals(tail[0].role, "user");
  assertEquals(JSON.stringify(tail[0].content).includes("and now?"), true);
  assertEquals(tail[1].role, "assistant");
  assertEquals(
    ours.login.map(kindOf),
    [
      "session",
      "message user",
      "message assistant",
      "thinking_level_change",
      "message system",
      "message user",
      "message assistant",
    ],
    "the old lines kept, then the thinking level, the system prompt, the prompt and its answer",
  );
  assertEquals(ours.sent.length, 1);
  const sent = JSON.stringify(ours.sent[0]);
  assert(
    sent.includes("fix the login bug") && sent.includes("Fixed the login bug.") && sent.includes("and now?"),
    sent,
  );

  const reference = await runPick(true);
  assertSameScreens(PICK_STEPS, ours.screens, reference.screens);
  assertEquals(ours.sent, reference.sent);
  assertEquals(ours.files, reference.files);
  assertEquals(ours.login.map(kindOf), reference.login.map(kindOf));
});

/** A session line's type, and a message's role. */
function kindOf(line: Record<string, unknown>): string {
  const role = (line.message as { role?: string } | undefined)?.role;
  return role ? `${line.type} ${role}` : String(line.type);
}

async function runEscape(reference: boolean) {
  const s = await startInteractiveScenario([], { reference });
  try {
    await writeSessions(s);
    await s.pane.command(`clear; ${s.piCommand(["-r"])}; echo "exit=$?"`);
    await s.pane.waitFor((t) => t.includes("release notes"), TIMEOUTS.start, "the picker");
    await s.pane.keys("Escape");
    const screen = await s.pane.waitFor((t) => t.includes("exit="), TIMEOUTS.step, "the exit");
    const stty = await sttyAfterExit(s.pane);
    return {
      screen: s.normalized(screen),
      files: (await s.agent.sessionFiles()).length,
      stty: stty.split("\n").filter((l) => /^-?(icanon|echo)$/.test(l)),
      cursor: await cursorVisible(s.pane),
    };
  } finally {
    await s.close();
  }
}

Deno.test("INT-RESUME: Escape in the pi -r picker prints 'No session selected', exits 0, opens no session and gives the terminal back; as pi 1.6.0 does", async () => {
  const ours = await runEscape(false);
  assert(hasLines(ours.screen, [...pickerLines(ROWS), "", "No session selected", "exit=0"]), ours.screen);
  assertEquals(ours.files, 4, "no session file was added");
  assertEquals(ours.stty, ["icanon", "echo"]);
  assert(ours.cursor, "the cursor is visible");
  const reference = await runEscape(true);
  assertEquals(ours.screen, reference.screen);
});

const SWITCH_STEPS: ScriptStep[] = [
  { name: "start-up", act: async () => {}, ready: (t) => t.includes("(auto)") },
  { name: "first", act: (s) => s.pane.command("hello there"), ready: (t) => t.includes(" Answer one.") },
  {
    name: "picker",
    act: (s) => s.pane.command("/resume"),
    ready: (t) => t.includes("release notes") && t.includes("ctrl+r rename"),
  },
  {
    name: "cannot delete",
    act: (s) => s.pane.keys("C-d"),
    ready: (t) => t.includes("Cannot delete the currently active session"),
  },
  { name: "closed", act: (s) => s.pane.keys("Escape"), ready: (t) => !t.includes("Resume Session") },
  {
    name: "picker again",
    act: (s) => s.pane.command("/resume"),
    ready: (t) => t.includes("release notes") && t.includes("ctrl+r rename"),
  },
  {
    name: "typed",
    act: (s) => s.pane.type("notes"),
    ready: (t) => t.includes("\n> notes\n") && !t.includes("fix the login bug"),
  },
  { name: "switched", act: (s) => s.pane.keys("Enter"), ready: (t) => t.includes("Resumed session") },
  { name: "prompted", act: (s) => s.pane.command("one more"), ready: (t) => t.includes(" Answer two.") },
];

async function runSwitch(reference: boolean) {
  const s = await startInteractiveScenario([answer("Answer one."), answer("Answer two.")], { reference });
  try {
    const paths = await writeSessions(s);
    await s.pane.command(`clear; ${s.piCommand()}`);
    const screens = await collectScreens(s, SWITCH_STEPS, TIMEOUTS);
    await s.pane.command("/quit");
    await s.pane.waitFor((t) => /\$ ?$/.test(t), TIMEOUTS.step, "the shell after exit");
    const notes = await readSessionLines(paths.get(NOTES.id)!);
    const bodies = s.server.requests.map((r) => r.body as { messages: unknown });
    return {
      screens,
      notes,
      files: (await s.agent.sessionFiles()).length,
      sent: bodies.map((b) => b.messages),
    };
  } finally {
    await s.close();
  }
}

Deno.test("INT-RESUME: /resume in a running session lists it first (not deletable), switches to the chosen session and continues it; as pi 1.6.0 does", async () => {
  const ours = await runSwitch(false);
  const picker = ours.screens[SWITCH_STEPS.findIndex((step) => step.name === "picker")];
  assert(
    hasLines(
      picker,
      pickerLines([
        "› hello there                                                                                  3 now",
        ...ROWS.map((r) => r.replace("›", " ")),
      ], { rename: true }),
    ),
    picker,
  );
  const switched = ours.screens[SWITCH_STEPS.findIndex((step) => step.name === "switched")];
  assert(!switched.includes("hello there"), switched);
  assert(
    hasLines(switched, [
      " write the release notes",
      "",
      "",
      " Notes written.",
      "",
      "",
      " shorter please",
      "",
      "",
      " Shorter notes.",
      "",
      " Resumed session",
    ]),
    switched,
  );
  assertEquals(ours.files, 5, "the four stored sessions and the one started");
  const last = ours.notes.slice(-2).map((l) => (l.message as { role: string }).role);
  assertEquals(last, ["user", "assistant"]);
  assert(JSON.stringify(ours.notes.at(-2)).includes("one more"));
  const sent = JSON.stringify(ours.sent[1]);
  assert(
    sent.includes("write the release notes") && sent.includes("Shorter notes.") && sent.includes("one more"),
    sent,
  );
  assert(!sent.includes("hello there"), sent);

  const reference = await runSwitch(true);
  assertSameScreens(SWITCH_STEPS, ours.screens, reference.screens);
  assertEquals(ours.sent, reference.sent);
  assertEquals(ours.files, reference.files);
});

Deno.test("INT-RESUME: in the /resume picker Ctrl+D asks, then deletes the session file; Ctrl+R renames a session", async () => {
  const s = await startInteractiveScenario([answer("Answer one.")]);
  try {
    const paths = await writeSessions(s);
    await s.pane.command(`clear; ${s.piCommand()}`);
    await s.pane.waitFor((t) => t.includes("(auto)"), TIMEOUTS.start, "pi's footer");
    await s.pane.command("/resume");
    await s.pane.waitFor((t) => t.includes("release notes"), TIMEOUTS.step, "the picker");
    await s.pane.keys("Down");
    let screen = await s.pane.waitFor(
      (t) => t.includes("› refactor the parser"),
      TIMEOUTS.step,
      "the selection",
    );
    await s.pane.keys("C-d");
    screen = await s.pane.waitFor((t) => t.includes("Delete session?"), TIMEOUTS.step, "the question");
    assert(hasLines(screen, ["Delete session? enter confirm · escape/ctrl+c cancel", "", "", ">"]), screen);
    await s.pane.keys("Enter");
    screen = await s.pane.waitFor((t) => t.includes("Session deleted"), TIMEOUTS.step, "the deletion");
    assert(!screen.includes("refactor the parser"), screen);
    assertEquals(await exists(paths.get(PARSER.id)!), false);

    // The selection stays on the row: now "release notes".
    await s.pane.keys("C-r");
    screen = await s.pane.waitFor((t) => t.includes("Rename Session"), TIMEOUTS.step, "the rename field");
    assert(
      hasLines(screen, [
        "",
        rule,
        "",
        " Rename Session",
        "",
        "> release notes",
        "",
        " enter to save · escape/ctrl+c to cancel",
        "",
        rule,
      ]),
      screen,
    );
    // The cursor starts at the beginning of the old name (pi-tui's Input keeps it where it was).
    await s.pane.keys("End", "C-u");
    await s.pane.type("short notes");
    await s.pane.keys("Enter");
    screen = await s.pane.waitFor((t) => t.includes("› short notes  "), TIMEOUTS.step, "the new name");
    assert(screen.includes("Resume Session (Current Folder)"), screen);
    const named = (await readSessionLines(paths.get(NOTES.id)!)).filter((l) => l.type === "session_info");
    assertEquals(named.map((l) => l.name), ["release notes", "short notes"]);
    await s.pane.keys("Escape");
    await s.pane.waitFor((t) => !t.includes("Resume Session"), TIMEOUTS.step, "the closed picker");
    await s.pane.command("/quit");
    await s.pane.waitFor((t) => /\$ ?$/.test(t), TIMEOUTS.step, "the shell after exit");
  } finally {
    await s.close();
  }
});

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

Deno.test("INT-RESUME: pi -r without a terminal is a clear error (exit 1) and writes nothing", async () => {
  const s = await startInteractiveScenario([]);
  try {
    const r = await spawnPi(["-r", "-p", "hi"], { env: s.agent.env, cwd: s.agent.cwd });
    assertEquals({ code: r.code, stdout: r.stdout, stderr: r.stderr }, {
      code: 1,
      stdout: "",
      stderr:
        "Error: --resume needs a terminal to show the session picker; use --session <id> or --continue\n",
    });
    assertEquals(await s.agent.sessionFiles(), []);
    assertEquals(s.server.requests.length, 0);
  } finally {
    await s.close();
  }
});

const IMPORT_STEPS: ScriptStep[] = [
  { name: "start-up", act: async () => {}, ready: (t) => t.includes("(auto)") },
  {
    name: "usage",
    act: (s) => s.pane.command("/import"),
    ready: (t) => t.includes("Usage: /import <path.jsonl>"),
  },
  {
    name: "question",
    act: (s) => s.pane.command("/import ../import/none.jsonl"),
    ready: (t) => t.includes("Replace current session with ../import/none.jsonl?"),
  },
  {
    name: "missing file",
    act: (s) => s.pane.keys("Enter"),
    ready: (t) => t.includes("Failed to import session: File not found:"),
  },
  {
    name: "asked again",
    act: (s) => s.pane.command("/import ../import/old.jsonl"),
    ready: (t) => t.includes("Replace current session with ../import/old.jsonl?"),
  },
  { name: "cancelled", act: (s) => s.pane.keys("Escape"), ready: (t) => t.includes("Import cancelled") },
  {
    name: "asked a third time",
    act: (s) => s.pane.command("/import ../import/old.jsonl"),
    ready: (t) => t.includes("Replace current session with ../import/old.jsonl?"),
  },
  {
    name: "imported",
    act: (s) => s.pane.keys("Enter"),
    ready: (t) => t.includes("Session imported from: ../import/old.jsonl"),
  },
  { name: "prompted", act: (s) => s.pane.command("and this?"), ready: (t) => t.includes(" Answer again.") },
];

async function runImport(reference: boolean) {
  const s = await startInteractiveScenario([answer("Answer again.")], { reference });
  try {
    const paths = await writeSessions(s);
    const source = join(s.agent.root, "import", "old.jsonl");
    await Deno.mkdir(join(s.agent.root, "import"));
    await Deno.copyFile(paths.get(ELSEWHERE.id)!, source);
    const before = await Deno.readTextFile(source);
    await s.pane.command(`clear; ${s.piCommand()}`);
    const screens = await collectScreens(s, IMPORT_STEPS, TIMEOUTS);
    await s.pane.command("/quit");
    await s.pane.waitFor((t) => /\$ ?$/.test(t), TIMEOUTS.step, "the shell after exit");
    const copy = join(s.agent.agentDir, "sessions", encodeCwd(s.agent.cwd), "old.jsonl");
    const bodies = s.server.requests.map((r) => r.body as { messages: unknown });
    return {
      screens,
      copy: (await readSessionLines(copy)).map(kindOf),
      header: (await readSessionLines(copy))[0],
      sourceKept: (await Deno.readTextFile(source)) === before,
      files: (await s.agent.sessionFiles()).length,
      sent: bodies.map((b) => b.messages),
      other: join(s.agent.root, "other"),
    };
  } finally {
    await s.close();
  }
}

Deno.test("INT-RESUME: /import <path.jsonl> asks, then copies the session (same id and cwd) into the session folder and continues it; usage, missing file and No as pi 1.6.0", async () => {
  const ours = await runImport(false);
  const imported = ours.screens[IMPORT_STEPS.findIndex((step) => step.name === "imported")];
  assert(
    hasLines(imported, [
      " an old question elsewhere",
      "",
      "",
      " Old answer.",
      "",
      " Session imported from: ../import/old.jsonl",
    ]),
    imported,
  );
  assert(imported.includes("\n<root>/other\n"), imported);
  const question = ours.screens[IMPORT_STEPS.findIndex((step) => step.name === "asked again")];
  assert(
    hasLines(question.split("\n").filter((l) => l !== "").join("\n"), [
      rule,
      " Import session",
      " Replace current session with ../import/old.jsonl?",
      " → Yes",
      "   No",
      " ↑↓ navigate  enter select  escape/ctrl+c cancel",
      rule,
    ]),
    question,
  );
  assertEquals([ours.header.id, ours.header.cwd], [ELSEWHERE.id, ours.other], "the id and cwd are kept");
  assertEquals(ours.copy.slice(0, 3), ["session", "message user", "message assistant"]);
  assertEquals(ours.copy.slice(-2), ["message user", "message assistant"]);
  assert(ours.sourceKept, "the imported file is left as it was");
  const sent = JSON.stringify(ours.sent[0]);
  assert(sent.includes("an old question elsewhere") && sent.includes("and this?"), sent);

  const reference = await runImport(true);
  assertSameScreens(IMPORT_STEPS, ours.screens, reference.screens);
  assertEquals(ours.copy, reference.copy);
  assertEquals(ours.sent, reference.sent);
  assertEquals(ours.files, reference.files);
});

const VANISHED: StoredSession = {
  id: "01900000-0000-7000-8000-000000000005",
  ago: 8.5 * HOUR,
  messages: [["user", "from a vanished folder"], ["assistant", "Still here."]],
};

const pickVanished = async (s: InteractiveScenario) => {
  await s.pane.command("/resume");
  await s.pane.waitFor((t) => t.includes("release notes"), TIMEOUTS.step, "the picker");
  await s.pane.type("vanished");
  await s.pane.waitFor(
    (t) => t.includes("\n> vanished\n") && !t.includes("release notes"),
    TIMEOUTS.step,
    "the row",
  );
  await s.pane.keys("Enter");
};

const GONE_STEPS: ScriptStep[] = [
  { name: "start-up", act: async () => {}, ready: (t) => t.includes("(auto)") },
  { name: "question", act: pickVanished, ready: (t) => t.includes("Session cwd does not exist:") },
  { name: "continued", act: (s) => s.pane.keys("Enter"), ready: (t) => t.includes("Resumed session in ") },
  { name: "prompted", act: (s) => s.pane.command("go on"), ready: (t) => t.includes(" Answer one.") },
  { name: "asked again", act: pickVanished, ready: (t) => t.includes("Session cwd does not exist:") },
  { name: "cancelled", act: (s) => s.pane.keys("Escape"), ready: (t) => t.includes("Resume cancelled") },
  { name: "asked a third time", act: pickVanished, ready: (t) => t.includes("Session cwd does not exist:") },
  {
    name: "forked",
    act: (s) => s.pane.keys("Down", "Enter"),
    ready: (t) => t.includes("Forked into new session"),
  },
];

async function runGone(reference: boolean) {
  // 120 columns: "Forked into new session <id> in <folder>" fits on one row whatever the temp root's length.
  const s = await startInteractiveScenario([answer("Answer one.")], { reference, width: 120 });
  try {
    await writeSessions(s);
    // Stored in this folder's session folder, but started in a folder that no longer exists.
    const stored = await writeSession(s, { ...VANISHED, cwd: join(s.agent.root, "gone") }, Date.now());
    await Deno.rename(stored, join(s.agent.agentDir, "sessions", encodeCwd(s.agent.cwd), "vanished.jsonl"));
    await s.pane.command(`clear; ${s.piCommand()}`);
    const screens = await collectScreens(s, GONE_STEPS, TIMEOUTS);
    await s.pane.command("/quit");
    await s.pane.waitFor((t) => /\$ ?$/.test(t), TIMEOUTS.step, "the shell after exit");
    const vanished = await readSessionLines(
      join(s.agent.agentDir, "sessions", encodeCwd(s.agent.cwd), "vanished.jsonl"),
    );
    const bodies = s.server.requests.map((r) => r.body as { messages: unknown });
    return {
      screens,
      vanished: vanished.map(kindOf),
      vanishedCwd: vanished[0].cwd === join(s.agent.root, "gone"),
      files: (await s.agent.sessionFiles()).length,
      sent: bodies.map((b) => b.messages),
    };
  } finally {
    await s.close();
  }
}

Deno.test("INT-RESUME: /resume of a session whose folder is gone asks: continue here, fork here, or cancel; as pi 1.6.0 does", async () => {
  const ours = await runGone(false);
  const question = ours.screens[GONE_STEPS.findIndex((step) => step.name === "question")];
  assert(
    hasLines(question.split("\n").filter((l) => l !== "").join("\n"), [
      "─".repeat(120),
      " Session cwd does not exist: <root>/gone",
      " → Continue in <root>/project (asks again next time)",
      "   Fork into <root>/project (new session ID, original kept)",
      "   Cancel",
      " ↑↓ navigate  enter select  escape/ctrl+c cancel",
      "─".repeat(120),
    ]),
    question,
  );
  const continued = ours.screens[GONE_STEPS.findIndex((step) => step.name === "continued")];
  assert(
    hasLines(continued, [
      " from a vanished folder",
      "",
      "",
      " Still here.",
      "",
      " Resumed session in <root>/project",
    ]),
    continued,
  );
  const forked = ours.screens[GONE_STEPS.findIndex((step) => step.name === "forked")];
  assert(forked.includes(" Forked into new session <uuid> in <root>/project"), forked);
  // The header keeps the gone folder ("asks again next time"); the prompt was appended.
  assert(ours.vanishedCwd);
  assertEquals(ours.vanished.slice(-2), ["message user", "message assistant"]);
  assertEquals(ours.files, 6, "the five stored sessions and the fork (the one pi started had no message)");
  const sent = JSON.stringify(ours.sent[0]);
  assert(sent.includes("from a vanished folder") && sent.includes("go on"), sent);

  const reference = await runGone(true);
  assertSameScreens(GONE_STEPS, ours.screens, reference.screens);
  assertEquals(ours.vanished, reference.vanished);
  assertEquals(ours.sent, reference.sent);
  assertEquals(ours.files, reference.files);
});
