/** SessionManager behaviour on disk: paths, lazy writes, refusal of bad files, tree, forks. */
import { deepStrictEqual as assertEquals, ok as assert, throws as assertThrows } from "node:assert/strict";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { SessionManager } from "../../src/session/session_manager.ts";
import { encodeCwd, getDefaultSessionDir } from "../../src/session/paths.ts";
import { createSessionId } from "../../src/session/ids.ts";
import { InvalidSessionFileError } from "../../src/session/session_file.ts";
import { assistantMessage, userMessage } from "./support/sample_messages.ts";

async function withDir(fn: (dir: string) => Promise<void> | void): Promise<void> {
  const dir = await Deno.makeTempDir();
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const lines = (file: string) =>
  Deno.readTextFileSync(file).split("\n").filter(Boolean).map((l) => JSON.parse(l));

Deno.test("SES-01 session folder encodes the cwd", () =>
  withDir((agentDir) => {
    assertEquals(encodeCwd("/tmp/proj2"), "--tmp-proj2--");
    assertEquals(encodeCwd("/tmp/tmp.pcgcnvDRZT"), "--tmp-tmp.pcgcnvDRZT--");
    assertEquals(encodeCwd("C:\\work\\x"), "--C--work-x--");
    const dir = getDefaultSessionDir("/a/b", agentDir);
    assertEquals(dir, join(agentDir, "sessions", "--a-b--"));
    assert(existsSync(dir));
  }));

Deno.test("SES-02 SES-03 SES-07 file name, header, and nothing on disk before the first user message", () =>
  withDir((dir) => {
    const sm = SessionManager.create("/tmp/p", dir);
    const file = sm.getSessionFile()!;
    assert(/^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z_[0-9a-f-]{36}\.jsonl$/.test(file.slice(dir.length + 1)));
    assert(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(sm.getSessionId()));
    sm.appendModelChange("anthropic", "m");
    sm.appendThinkingLevelChange("off");
    sm.appendMessage({ role: "system", content: "", sections: { preamble: "p" }, timestamp: 1 });
    // Setup entries alone (model, thinking level, system prompt) leave no file behind.
    assertEquals(existsSync(file), false);
    sm.appendMessage(userMessage("q"));
    // pi 1.6.0 writes at the first user message, so a first turn that never completes is kept.
    assertEquals(lines(file).map((e) => e.message?.role ?? e.type), [
      "session",
      "model_change",
      "thinking_level_change",
      "system",
      "user",
    ]);
    sm.appendMessage(assistantMessage("a"));
    const l = lines(file).filter((e) => e.message?.role !== "system");
    assertEquals(l.map((e) => e.type), [
      "session",
      "model_change",
      "thinking_level_change",
      "message",
      "message",
    ]);
    assertEquals(Object.keys(l[0]), ["type", "version", "id", "timestamp", "cwd"]);
    assertEquals(l[0].version, 3);
    assert(/^[0-9a-f]{8}$/.test(l[1].id));
    assertEquals(l[1].parentId, null);
    assertEquals(l[2].parentId, l[1].id);
    sm.appendCustomEntry("x", { a: 1 });
    assertEquals(Object.keys(lines(file)[6]), ["type", "customType", "data", "id", "parentId", "timestamp"]);
  }));

Deno.test("SES-02 session ids are UUIDv7 and sort by creation", () => {
  const ids = Array.from({ length: 200 }, () => createSessionId());
  assertEquals([...ids].sort(), ids);
  assertEquals(new Set(ids).size, 200);
});

Deno.test("SES-08 a file whose header is unreadable is refused and left untouched", () =>
  withDir((dir) => {
    const file = join(dir, "bad.jsonl");
    const content = '{"type":"message","id":"x"}\nnot json\n';
    Deno.writeTextFileSync(file, content);
    assertThrows(() => SessionManager.open(file), InvalidSessionFileError);
    assertThrows(() => SessionManager.open(file), /Not a valid session file: .*bad\.jsonl/);
    assertEquals(Deno.readTextFileSync(file), content);
  }));

Deno.test("SES-08 an empty file gets a fresh header at the same path", () =>
  withDir((dir) => {
    const file = join(dir, "empty.jsonl");
    Deno.writeTextFileSync(file, "");
    const sm = SessionManager.open(file);
    assertEquals(sm.getSessionFile(), file);
    sm.appendMessage(userMessage("q"));
    sm.appendMessage(assistantMessage("a"));
    assertEquals(lines(file).map((e) => e.type), ["session", "message", "message"]);
  }));

Deno.test("SES-08 malformed middle lines are skipped with a warning and kept on disk", () =>
  withDir((dir) => {
    const sm = SessionManager.create("/tmp/p", dir);
    sm.appendMessage(userMessage("q"));
    sm.appendMessage(assistantMessage("a"));
    const file = sm.getSessionFile()!;
    Deno.writeTextFileSync(file, "{oops}\n", { append: true });
    const id = SessionManager.open(file).appendMessage(userMessage("next"));
    const again = SessionManager.open(file);
    assertEquals(again.getLeafId(), id);
    assertEquals(again.getLoadWarnings().length, 1);
    assert(Deno.readTextFileSync(file).includes("{oops}\n"));
  }));

Deno.test("SES-09 migrating a file with malformed lines keeps a backup of the original", () =>
  withDir((dir) => {
    const file = join(dir, "old.jsonl");
    const original = '{"type":"session","id":"s1","timestamp":"2024-01-01T00:00:00.000Z","cwd":"/x"}\n' +
      "garbage\n" +
      '{"type":"message","timestamp":"2024-01-01T00:00:01.000Z","message":{"role":"user","content":"hi","timestamp":1}}\n';
    Deno.writeTextFileSync(file, original);
    const sm = SessionManager.open(file);
    assertEquals(sm.getHeader()!.version, 3);
    assertEquals(lines(file).length, 2);
    assertEquals(Deno.readTextFileSync(`${file}.pre-v3.bak`), original);
  }));

Deno.test("SES-11 SES-12 SES-13 branch, resetLeaf, labels, tree with orphans", () => {
  const sm = SessionManager.inMemory("/tmp/p");
  const u = sm.appendMessage(userMessage("q"));
  const a = sm.appendMessage(assistantMessage("a"));
  sm.branch(u);
  const b = sm.appendMessage(assistantMessage("other", 1_700_000_005_000));
  assertEquals(sm.getChildren(u).map((e) => e.id), [a, b]);
  assertThrows(() => sm.branch("nope"), /^Error: Entry nope not found$/);
  assertThrows(() => sm.appendLabelChange("nope", "x"), /^Error: Entry nope not found$/);
  sm.appendLabelChange(a, "keep");
  assertEquals(sm.getLabel(a), "keep");
  sm.appendLabelChange(a, "");
  assertEquals(sm.getLabel(a), undefined);
  sm.resetLeaf();
  assertEquals(sm.buildSessionContext(), { messages: [], thinkingLevel: "off", model: null });
  const root2 = sm.appendMessage(userMessage("new root"));
  assertEquals(sm.getEntry(root2)!.parentId, null);
  const tree = sm.getTree();
  assertEquals(tree.map((n) => n.entry.id), [u, root2]);
  // fromId names the leaf being left (pi 1.6.0), "root" when there was none.
  const s = sm.branchWithSummary(null, "sum");
  assertEquals(sm.getEntry(s), { ...sm.getEntry(s)!, parentId: null, fromId: root2 });
  sm.resetLeaf();
  const s2 = sm.branchWithSummary(null, "sum again");
  assertEquals(sm.getEntry(s2), { ...sm.getEntry(s2)!, parentId: null, fromId: "root" });
});

Deno.test("SES-14 createBranchedSession writes root→leaf path with labels re-created", () =>
  withDir((dir) => {
    const sm = SessionManager.create("/tmp/p", dir);
    const u = sm.appendMessage(userMessage("q"));
    const a = sm.appendMessage(assistantMessage("a"));
    sm.appendMessage(userMessage("later"));
    sm.appendLabelChange(u, "start");
    const old = sm.getSessionFile()!;
    const file = sm.createBranchedSession(a)!;
    const l = lines(file);
    assertEquals(l.map((e) => e.type), ["session", "message", "message", "label"]);
    assertEquals(l[0].parentSession, old);
    assertEquals(l[3].targetId, u);
    assertEquals(l[3].parentId, a);
    assertEquals(sm.getSessionFile(), file);
    assertEquals(readdirSync(dir).length, 2);
  }));

Deno.test("SES-15 forkFrom copies entries into a new file for the target cwd", () =>
  withDir((dir) => {
    const src = SessionManager.create("/tmp/a", join(dir, "a"));
    src.appendMessage(userMessage("q"));
    src.appendMessage(assistantMessage("a"));
    const fork = SessionManager.forkFrom(src.getSessionFile()!, "/tmp/b", join(dir, "b"));
    assertEquals(fork.getCwd(), "/tmp/b");
    assertEquals(fork.getHeader()!.parentSession, src.getSessionFile());
    assertEquals(fork.getEntries(), src.getEntries());
    assertThrows(
      () => SessionManager.forkFrom(join(dir, "missing.jsonl"), "/x", dir),
      /Cannot fork: source session/,
    );
  }));

Deno.test("SES-16 continueRecent picks the newest session, list reports name and first message", () =>
  withDir(async (root) => {
    const dir = join(root, "--tmp-p--");
    const s1 = SessionManager.create("/tmp/p", dir);
    s1.appendMessage(userMessage("first"));
    s1.appendMessage(assistantMessage("a"));
    await new Promise((r) => setTimeout(r, 20));
    const s2 = SessionManager.create("/tmp/p", dir);
    s2.appendMessage(userMessage("second", 1_800_000_000_000));
    s2.appendMessage(assistantMessage("b", 1_800_000_001_000));
    s2.appendSessionInfo(" Named ");
    const other = SessionManager.create("/tmp/q", join(root, "--tmp-q--"));
    other.appendMessage(userMessage("elsewhere", 1_750_000_000_000));
    other.appendMessage(assistantMessage("c", 1_750_000_001_000));
    assertEquals(SessionManager.continueRecent("/tmp/p", dir).getSessionId(), s2.getSessionId());
    const list = await SessionManager.list("/tmp/p", dir);
    const rows = list.map((i) => [i.name, i.firstMessage, i.messageCount]);
    assertEquals(rows, [["Named", "second", 2], [undefined, "first", 2]]);
    assertEquals(list[0].modified.getTime(), 1_800_000_001_000);
    const all = await SessionManager.listAll(undefined, root);
    assertEquals(all.map((i) => i.firstMessage), ["second", "elsewhere", "first"]);
  }));

Deno.test("SES-06 reopening a session keeps appending to the same file without a second header", () =>
  withDir((dir) => {
    const sm = SessionManager.create("/tmp/p", dir);
    sm.appendMessage(userMessage("q"));
    sm.appendMessage(assistantMessage("a"));
    const file = sm.getSessionFile()!;
    const re = SessionManager.open(file);
    re.appendThinkingLevelChange("high");
    re.appendMessage(userMessage("only user"));
    const l = lines(file);
    assertEquals(l.filter((e) => e.type === "session").length, 1);
    assertEquals(l.length, 5);
    assertEquals(re.buildSessionContext().thinkingLevel, "high");
  }));

Deno.test("SES-16 a shared --session-dir lists and continues only the sessions of the current folder (1.6.0)", () =>
  withDir(async (dir) => {
    const mine = SessionManager.create("/tmp/mine", dir);
    mine.appendMessage(userMessage("mine", 1_700_000_000_000));
    await new Promise((r) => setTimeout(r, 20));
    const theirs = SessionManager.create("/tmp/theirs", dir);
    theirs.appendMessage(userMessage("theirs", 1_800_000_000_000));
    assertEquals((await SessionManager.list("/tmp/mine", dir)).map((i) => i.firstMessage), ["mine"]);
    assertEquals(SessionManager.continueRecent("/tmp/mine", dir).getSessionId(), mine.getSessionId());
    // listAll(dir) lists the folder itself, every project included.
    assertEquals((await SessionManager.listAll(dir)).map((i) => i.firstMessage), ["theirs", "mine"]);
  }));

Deno.test("SES-16 findById finds an exact session id from headers, only the cwd's in a shared folder", () =>
  withDir((dir) => {
    const a = SessionManager.create("/tmp/a", dir, { id: "exact-id" });
    a.appendMessage(userMessage("q"));
    const b = SessionManager.create("/tmp/b", dir, { id: "other-id" });
    b.appendMessage(userMessage("q"));
    assertEquals(SessionManager.findById("/tmp/a", "exact-id", dir), a.getSessionFile());
    assertEquals(SessionManager.findById("/tmp/a", "exact", dir), undefined);
    assertEquals(SessionManager.findById("/tmp/a", "other-id", dir), undefined);
    assertEquals(a.usesDefaultSessionDir(), false);
  }));

Deno.test("SES-11 the branch after appends, after branch() to an older entry and across a reset equals a walk from the leaf", () => {
  const sm = SessionManager.inMemory("/p");
  const walk = () => {
    const out: string[] = [];
    for (let e = sm.getLeafEntry(); e; e = e.parentId ? sm.getEntry(e.parentId) : undefined) {
      out.unshift(e.id);
    }
    return out;
  };
  const ids = (): string[] => sm.getBranch().map((e) => e.id);
  const first = sm.appendMessage(userMessage("one"));
  sm.appendMessage(assistantMessage("two"));
  assertEquals(ids(), walk());
  sm.appendMessage(userMessage("three"));
  sm.appendThinkingLevelChange("high");
  assertEquals(ids(), walk());
  sm.branch(first);
  assertEquals(ids(), [first]);
  sm.appendMessage(assistantMessage("other"));
  sm.appendMessage(userMessage("four"));
  assertEquals(ids(), walk());
  assertEquals(ids().length, 3);
  sm.resetLeaf();
  sm.appendMessage(userMessage("root again"));
  assertEquals(ids(), walk());
  assertEquals(ids().length, 1);
});
