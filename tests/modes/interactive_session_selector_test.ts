/**
 * The session picker's parts without a terminal: the ages it shows (with a fixed clock), the
 * search (words, "phrases", re:, tiers), the threaded order of forks, and the picker itself
 * rendered at 80 columns over in-memory sessions: scope, search, named filter, sort, deletion
 * (never of the open session) and renaming. Also: the picker and /resume load only when used.
 */
import { assert, assertEquals } from "../support/assert.ts";
import { moduleGraph, staticClosure } from "../support/module_graph.ts";
import type { SessionInfo } from "../../src/core/session_listing.ts";
import { stripTerminalSequences } from "../../src/tui/mod.ts";
import { formatSessionAge, threadSessions } from "../../src/modes/interactive/session_list.ts";
import { filterAndSortSessions, parseSessionQuery } from "../../src/modes/interactive/session_search.ts";
import { SessionSelector } from "../../src/modes/interactive/session_selector.ts";
import { loadTheme } from "../../src/modes/interactive/theme.ts";

const NOW = Date.parse("2026-06-15T12:00:00Z");
const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

function info(id: string, ago: number, firstMessage: string, extra: Partial<SessionInfo> = {}): SessionInfo {
  return {
    path: `/sessions/${id}.jsonl`,
    id,
    cwd: "/example/project",
    created: new Date(NOW - ago - MIN),
    modified: new Date(NOW - ago),
    messageCount: 2,
    firstMessage,
    allMessagesText: `${firstMessage} The answer.`,
    ...extra,
  };
}

Deno.test("INT-RESUME: a session's age reads now, minutes, hours, days, weeks, months, years (1.6.0's buckets)", () => {
  const age = (ms: number) => formatSessionAge(new Date(NOW - ms), NOW);
  assertEquals(
    [
      59_000,
      MIN,
      59 * MIN,
      HOUR,
      23 * HOUR + 59 * MIN,
      DAY,
      6 * DAY,
      7 * DAY,
      29 * DAY,
      30 * DAY,
      364 * DAY,
      365 * DAY,
    ]
      .map(age),
    ["now", "1m", "59m", "1h", "23h", "1d", "6d", "1w", "4w", "1mo", "12mo", "1y"],
  );
});

Deno.test("INT-RESUME: a query is words, quoted phrases or re:<pattern>; an unclosed quote makes plain words", () => {
  assertEquals(parseSessionQuery('fix "login bug" now').tokens, [
    { kind: "fuzzy", value: "fix" },
    { kind: "phrase", value: "login bug" },
    { kind: "fuzzy", value: "now" },
  ]);
  assertEquals(parseSessionQuery('fix "login bug').tokens.map((t) => t.value), ["fix", '"login', "bug"]);
  assertEquals(parseSessionQuery("re:^fix").regex?.source, "^fix");
  assertEquals(parseSessionQuery("re:(").mode, "regex");
  assert(parseSessionQuery("re:(").error);
  assertEquals(parseSessionQuery("re:").error, "Empty regex");
});

Deno.test("INT-RESUME: search puts name hits before text hits before scattered name/cwd hits; 'recent' keeps the order", () => {
  const sessions = [
    info("a", 1 * HOUR, "deploy the parser"),
    info("b", 2 * HOUR, "other work", { name: "parser notes" }),
    info("c", 3 * HOUR, "unrelated", { cwd: "/p/a/r/s/e/r" }),
    info("d", 4 * HOUR, "nothing here"),
  ];
  const ids = (list: SessionInfo[]) => list.map((s) => s.id);
  assertEquals(ids(filterAndSortSessions(sessions, "parser", "relevance")), ["b", "a", "c"]);
  assertEquals(ids(filterAndSortSessions(sessions, "parser", "recent")), ["a", "b", "c"]);
  // Every word must match; messages are matched only exactly.
  assertEquals(ids(filterAndSortSessions(sessions, "parser deploy", "relevance")), ["a"]);
  assertEquals(ids(filterAndSortSessions(sessions, "dplyprsr", "relevance")), []);
  assertEquals(ids(filterAndSortSessions(sessions, '"the   parser"', "relevance")), ["a"]);
  assertEquals(ids(filterAndSortSessions(sessions, "re:^noth", "relevance")), ["d"]);
  assertEquals(ids(filterAndSortSessions(sessions, "re:(", "relevance")), []);
});

Deno.test("INT-RESUME: threaded order nests forks under their parent, subtrees by their latest activity", () => {
  const root = info("root", 5 * DAY, "root");
  const old = info("old", 1 * DAY, "newer root");
  const fork1 = info("f1", 3 * DAY, "fork one", { parentSessionPath: root.path });
  const fork2 = info("f2", 1 * HOUR, "fork two", { parentSessionPath: root.path });
  const grand = info("g", 2 * DAY, "grandchild", { parentSessionPath: fork1.path });
  const orphan = info("o", 2 * HOUR, "orphan", { parentSessionPath: "/elsewhere/gone.jsonl" });
  const rows = threadSessions([old, root, fork1, fork2, grand, orphan]);
  assertEquals(rows.map((r) => `${r.depth} ${r.session.id} ${r.isLast}`), [
    "0 root false",
    "1 f2 false",
    "1 f1 true",
    "2 g true",
    "0 o false",
    "0 old true",
  ]);
});

async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 0));
}

/** A list row at 80 columns: the text on the left, count and age (and cwd) on the right. */
function row(left: string, right: string): string {
  return left + " ".repeat(80 - left.length - right.length) + right;
}

function screen(selector: SessionSelector): string[] {
  return selector.render(80).map((l) => stripTerminalSequences(l).trimEnd());
}

Deno.test("INT-RESUME: the picker lists, searches, filters named sessions, deletes (never the open one) and renames", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pi-picker-" });
  try {
    const current = info("cur", 10_000, "what I am doing now", { path: `${dir}/cur.jsonl` });
    const named = info("named", 3 * DAY, "write notes", {
      path: `${dir}/named.jsonl`,
      name: "release notes",
    });
    const plain = info("plain", 2 * HOUR, "fix the\nlogin bug", { path: `${dir}/plain.jsonl` });
    const elsewhere = info("far", 40 * DAY, "far away", { path: `${dir}/far.jsonl`, cwd: "/home/me/other" });
    for (const s of [current, named, plain]) await Deno.writeTextFile(s.path, "{}\n");
    let here = [current, plain, named];
    const renamed: string[] = [];
    const selected: string[] = [];
    let cancelled = 0;
    const selector = new SessionSelector(loadTheme(), {
      loaders: { current: () => Promise.resolve(here), all: () => Promise.resolve([...here, elsewhere]) },
      onSelect: (path) => selected.push(path),
      onCancel: () => cancelled++,
      requestRender: () => {},
      renameSession: (path, name) => {
        renamed.push(`${path} ${name}`);
        here = here.map((s) => (s.path === path ? { ...s, name } : s));
      },
      currentSessionPath: current.path,
      now: () => NOW,
      home: "/home/me",
    });
    await settle();
    const rule = "─".repeat(80);
    assertEquals(screen(selector), [
      "",
      rule,
      "",
      "Resume Session (Current Fold ◉ Current Folder | ○ All  Name: All  Sort: Threaded",
      'tab scope · re:<pattern> regex · "phrase" exact',
      "ctrl+s sort · ctrl+n named · ctrl+d delete · ctrl+p path (off) · ctrl+r rename",
      "",
      ">",
      "",
      row("› what I am doing now", "2 now"),
      row("  fix the login bug", "2 2h"),
      row("  release notes", "2 3d"),
      "",
      rule,
    ]);
    selector.handleInput("\t");
    await settle();
    assertEquals(screen(selector).slice(9, 13), [
      row("› what I am doing now", "/example/project 2 now"),
      row("  fix the login bug", "/example/project 2 2h"),
      row("  release notes", "/example/project 2 3d"),
      row("  far away", "~/other 2 1mo"),
    ]);
    for (const ch of "far") selector.handleInput(ch);
    assertEquals(screen(selector).slice(7, 11), [
      "> far",
      "",
      row("› far away", "~/other 2 1mo"),
      "",
    ]);
    for (let i = 0; i < 3; i++) selector.handleInput("\x7f");
    selector.handleInput("\t");
    selector.handleInput("\x0e"); // ctrl+n
    assertEquals(
      screen(selector)[3],
      "Resume Session (Current Fo ◉ Current Folder | ○ All  Name: Named  Sort: Threaded",
    );
    assertEquals(screen(selector).slice(9, 11), [
      row("› release notes", "2 3d"),
      "",
    ]);
    selector.handleInput("\x0e");
    selector.handleInput("\x13"); // ctrl+s: recent
    assert(screen(selector)[3].endsWith("Name: All  Sort: Recent"), screen(selector)[3]);

    // The open session cannot be deleted; another one is, after Enter confirms.
    selector.handleInput("\x04"); // ctrl+d
    assertEquals(screen(selector)[4], "Cannot delete the currently active session");
    selector.handleInput("\x1b[B"); // down
    selector.handleInput("\x04");
    assertEquals(screen(selector)[4], "Delete session? enter confirm · escape/ctrl+c cancel");
    here = [current, named];
    selector.handleInput("\r");
    await settle();
    assertEquals(screen(selector)[4], "Session deleted");
    assertEquals(await Deno.stat(plain.path).then(() => true, () => false), false);
    assert(!screen(selector).some((l) => l.includes("login")));

    // The selection stayed on the second row: now "release notes".
    selector.handleInput("\x12"); // ctrl+r
    assertEquals(screen(selector).slice(3, 8), [
      " Rename Session",
      "",
      "> release notes",
      "",
      " enter to save · escape/ctrl+c to cancel",
    ]);
    selector.handleInput("\x1b[F"); // end
    for (const ch of " v2") selector.handleInput(ch);
    selector.handleInput("\r");
    await settle();
    assertEquals(renamed, [`${named.path} release notes v2`]);
    assert(screen(selector).some((l) => l.startsWith("› release notes v2 ")), screen(selector).join("\n"));

    selector.handleInput("\r");
    assertEquals(selected, [named.path]);
    selector.handleInput("\x1b");
    assertEquals(cancelled, 1);
    selector.dispose();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("INT-LAZY: the session picker, /resume and /import load when first used, not with the interactive mode or the CLI", async () => {
  const graph = await moduleGraph();
  const repo = new URL("../../", import.meta.url);
  for (const file of ["session_selector.ts", "resume_command.ts", "import_command.ts", "session_picker.ts"]) {
    const url = new URL(`src/modes/interactive/${file}`, repo).href;
    assert(graph.has(url), `${file} is imported (dynamically) somewhere`);
    for (const root of ["src/modes/interactive/interactive_mode.ts", "src/cli/main_flow.ts"]) {
      assert(!staticClosure(graph, new URL(root, repo).href).has(url), `${root} reaches ${file} statically`);
    }
  }
});
