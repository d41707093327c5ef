#!/usr/bin/env node
/**
 * Captures compaction and branch-summary fixtures from the reference pi 1.6.0
 * (tests/fixtures/compaction/).
 *
 *   <reference node> scripts/capture/compaction_reference.mjs
 *
 * The reference is found at $PI_REFERENCE_DIR (the folder holding node_modules) or
 * <repo>/.cache/reference.
 *
 * 1. Writes deterministic session files (sessions/*.jsonl): small, long (every entry kind),
 *    split (one huge final turn), compacted (earlier pi compaction), compacted_hook (earlier
 *    extension compaction) and tree (two branches).
 * 2. Runs the reference's pure functions on them (findCutPoint, findTurnStartIndex,
 *    prepareCompaction for several keepRecentTokens, serializeConversation, estimateTokens,
 *    collectEntriesForBranchSummary, prepareBranchEntries) and stores expected/pure.json.
 * 3. Runs the reference's compact() and generateBranchSummary() against our fake provider
 *    server (tests/support/fake_provider, started with `deno eval`), and stores the requests
 *    it received (method, path, JSON body) and the results in expected/requests.json.
 */
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const REF = join(
  resolve(process.env.PI_REFERENCE_DIR ?? join(repo, ".cache/reference")),
  "node_modules/@earendil-works/pi-coding-agent",
);
const C = await import(join(REF, "dist/core/compaction/index.js"));
const { convertToLlm } = await import(join(REF, "dist/core/messages.js"));
const { buildSessionContext } = await import(join(REF, "dist/core/session-manager.js"));

const out = join(repo, "tests/fixtures/compaction");
mkdirSync(join(out, "sessions"), { recursive: true });
mkdirSync(join(out, "expected"), { recursive: true });

// ---------------------------------------------------------------------------------------------
// Deterministic session builder
// ---------------------------------------------------------------------------------------------

const T0 = Date.parse("2025-03-01T10:00:00.000Z");
const WORDS = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho".split(
  " ",
);

/** `n` characters of word salad, varied by `seed`. */
function text(n, seed) {
  let s = "";
  let i = seed;
  while (s.length < n) {
    s += WORDS[(i * 7 + 3) % WORDS.length] + (i % 11 === 0 ? "\n" : " ");
    i++;
  }
  return s.slice(0, n);
}

function usage(input, output) {
  return {
    input,
    output,
    cacheRead: 0,
    cacheWrite: 0,
    totalTokens: input + output,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
  };
}

class Builder {
  constructor(name) {
    this.name = name;
    this.n = 0;
    this.entries = [];
    this.leaf = null;
    this.tokens = 1000;
  }
  ts() {
    return T0 + this.n * 1000;
  }
  add(type, fields) {
    this.n++;
    const entry = {
      type,
      id: (0x10000000 + this.n * 0x1111).toString(16).slice(-8),
      parentId: this.leaf,
      timestamp: new Date(this.ts()).toISOString(),
      ...fields,
    };
    this.entries.push(entry);
    this.leaf = entry.id;
    return entry.id;
  }
  msg(message) {
    return this.add("message", { message: { ...message, timestamp: T0 + (this.n + 1) * 1000 } });
  }
  user(t) {
    return this.msg({ role: "user", content: [{ type: "text", text: t }] });
  }
  assistant(content, stopReason = content.some((b) => b.type === "toolCall") ? "toolUse" : "stop") {
    this.tokens += 300;
    return this.msg({
      role: "assistant",
      content,
      api: "anthropic-messages",
      provider: "anthropic",
      model: "claude-sonnet-4-5",
      usage: stopReason === "aborted" ? usage(0, 0) : usage(this.tokens, 120),
      stopReason,
      ...(stopReason === "error" ? { errorMessage: "overloaded" } : {}),
    });
  }
  tool(id, name, args) {
    return { type: "toolCall", id, name, arguments: args };
  }
  result(id, name, content, isError = false) {
    return this.msg({ role: "toolResult", toolCallId: id, toolName: name, content, isError });
  }
  /** user → assistant(tool call) → result → assistant text. */
  toolTurn(k, name, args, resultText) {
    this.user(`Turn ${k}: ${text(120 + k * 13, k)}`);
    this.assistant([{ type: "thinking", thinking: text(60, k + 1) }, this.tool(`call_${k}`, name, args)]);
    this.result(`call_${k}`, name, [{ type: "text", text: resultText }]);
    this.assistant([{ type: "text", text: `Done with ${k}. ${text(80 + k * 5, k + 2)}` }]);
  }
  write() {
    const header = {
      type: "session",
      version: 3,
      id: `0195${this.name.padEnd(4, "x").slice(0, 4)}-0000-7000-8000-000000000000`,
      timestamp: new Date(T0).toISOString(),
      cwd: "/home/user/project",
    };
    const lines = [header, ...this.entries].map((e) => JSON.stringify(e)).join("\n") + "\n";
    writeFileSync(join(out, "sessions", `${this.name}.jsonl`), lines);
    return this.entries;
  }
}

function buildSmall() {
  const b = new Builder("small");
  b.add("model_change", { provider: "anthropic", modelId: "claude-sonnet-4-5" });
  b.add("thinking_level_change", { thinkingLevel: "off" });
  b.user("Hi, what does src/main.ts do?");
  b.assistant([{ type: "text", text: "It starts the CLI." }]);
  b.user("Thanks");
  b.assistant([{ type: "text", text: "You're welcome." }]);
  return b.write();
}

function buildLong() {
  const b = new Builder("long");
  b.add("model_change", { provider: "anthropic", modelId: "claude-sonnet-4-5" });
  b.add("thinking_level_change", { thinkingLevel: "medium" });
  b.add("session_info", { name: "long session" });
  b.toolTurn(1, "read", { path: "src/a.ts" }, text(3100, 5));
  b.toolTurn(
    2,
    "edit",
    { path: "src/a.ts", oldText: "x", newText: "y" },
    "Successfully replaced text in src/a.ts.",
  );
  b.msg({
    role: "bashExecution",
    command: "npm test",
    output: text(400, 9),
    exitCode: 1,
    cancelled: false,
    truncated: false,
  });
  b.toolTurn(3, "read", { path: "README.md", offset: 10, limit: 20 }, text(900, 3));
  b.add("custom", { customType: "ext-state", data: { n: 1 } });
  b.add("custom_message", {
    customType: "note",
    content: "Remember: keep the API stable.",
    display: true,
    details: { k: 1 },
  });
  b.toolTurn(
    4,
    "write",
    { path: "docs/new.md", content: text(300, 4) },
    "Successfully wrote 300 bytes to docs/new.md",
  );
  const labelTarget = b.leaf;
  b.add("label", { targetId: labelTarget, label: "checkpoint" });
  b.user("Look at this screenshot");
  b.assistant([b.tool("call_img", "read", { path: "shot.png" })]);
  b.result("call_img", "read", [
    { type: "text", text: "Read image file [image/png]" },
    { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" },
  ]);
  b.assistant([{ type: "text", text: "The screenshot shows an error dialog." }]);
  b.add("branch_summary", {
    fromId: labelTarget,
    summary: "Explored an alternative parser.",
    details: { readFiles: ["src/parser.ts"], modifiedFiles: ["src/alt.ts"] },
  });
  b.add("model_change", { provider: "openai", modelId: "gpt-5" });
  b.toolTurn(5, "bash", { command: "ls -la", timeout: 10 }, text(2500, 6));
  b.user("Try again");
  b.assistant([{ type: "text", text: "partial" }], "error");
  b.assistant([], "aborted");
  b.toolTurn(6, "grep", { pattern: "TODO", path: "src" }, "src/a.ts:3: TODO fix");
  for (let k = 7; k <= 10; k++) {
    b.toolTurn(k, k % 2 ? "read" : "edit", { path: `src/m${k}.ts` }, text(700 + k * 40, k));
  }
  b.msg({
    role: "custom",
    customType: "inline",
    content: [{ type: "text", text: "inline custom" }],
    display: false,
  });
  b.user("Summarize what we did.");
  b.assistant([{ type: "text", text: text(500, 12) }]);
  return b.write();
}

function buildSplit() {
  const b = new Builder("split");
  b.toolTurn(1, "read", { path: "package.json" }, text(600, 1));
  b.toolTurn(2, "read", { path: "src/index.ts" }, text(800, 2));
  b.user("Refactor every module in src/ to use the new logger.");
  for (let k = 0; k < 12; k++) {
    b.assistant([
      { type: "text", text: `Editing module ${k}.` },
      b.tool(`edit_${k}`, k % 3 === 0 ? "write" : "edit", { path: `src/mod${k}.ts`, oldText: text(50, k) }),
    ]);
    b.result(`edit_${k}`, "edit", [{ type: "text", text: text(1200, k + 20) }]);
  }
  b.assistant([{ type: "text", text: "All modules now use the logger." }]);
  return b.write();
}

function buildCompacted(name, fromHook) {
  const b = new Builder(name);
  b.toolTurn(1, "read", { path: "old/a.ts" }, text(500, 1));
  const kept = b.user("Now fix the tests.");
  b.assistant([b.tool("c_t", "edit", { path: "test/a_test.ts" })]);
  b.result("c_t", "edit", [{ type: "text", text: "ok" }]);
  b.assistant([{ type: "text", text: "Fixed." }]);
  b.add("compaction", {
    summary: "## Goal\nFix the parser.\n\n## Progress\n- [x] read old/a.ts",
    firstKeptEntryId: kept,
    tokensBefore: 54321,
    details: fromHook
      ? { artifacts: ["x"] }
      : { readFiles: ["old/a.ts", "x.ts"], modifiedFiles: ["old/b.ts"] },
    ...(fromHook ? { fromHook: true } : {}),
  });
  for (let k = 2; k <= 6; k++) {
    b.toolTurn(
      k,
      k % 2 ? "write" : "read",
      { path: k === 4 ? "x.ts" : `new/f${k}.ts` },
      text(600 + k * 50, k),
    );
  }
  return b.write();
}

function buildTree() {
  const b = new Builder("tree");
  b.user("Start: set up the project.");
  b.assistant([{ type: "text", text: "Project set up." }]);
  const fork = b.leaf;
  // Branch A (abandoned): tool work, a nested branch summary and a compaction.
  b.toolTurn(1, "read", { path: "a/one.ts" }, text(900, 1));
  b.add("branch_summary", {
    fromId: fork,
    summary: "Earlier exploration of a/two.ts.",
    details: { readFiles: ["a/two.ts"], modifiedFiles: ["a/three.ts"] },
  });
  b.toolTurn(2, "edit", { path: "a/one.ts" }, "Successfully replaced text in a/one.ts.");
  b.add("compaction", {
    summary: "Compacted branch A history.",
    firstKeptEntryId: b.entries[b.entries.length - 4].id,
    tokensBefore: 9000,
    details: { readFiles: [], modifiedFiles: [] },
  });
  b.toolTurn(3, "write", { path: "a/four.ts", content: "x" }, "Successfully wrote 1 bytes to a/four.ts");
  b.add("label", { targetId: b.leaf, label: "a-end" });
  const oldLeaf = b.leaf;
  // Branch B (target).
  b.leaf = fork;
  b.user("Different approach: use library B.");
  const target = b.assistant([{ type: "text", text: "Using library B." }]);
  return { entries: b.write(), oldLeaf, target, fork };
}

// ---------------------------------------------------------------------------------------------
// Pure functions
// ---------------------------------------------------------------------------------------------

const KEEP = [0, 1, 10, 50, 100, 200, 300, 350, 500, 800, 1000, 1500, 2000, 3000, 5000, 20000];

/** keepRecentTokens values whose preparations are stored in full (the others as fingerprints). */
const FULL_KEEP = [300, 1000, 2000];

/** A message reduced to role, timestamp and serialized length; enough to tell messages apart. */
function fingerprint(m) {
  return `${m.role}@${m.timestamp}#${JSON.stringify(m).length}`;
}

function plainPrep(prep, full) {
  if (!prep) return null;
  const shown = (list) => (full ? list : list.map(fingerprint));
  return JSON.parse(JSON.stringify({
    ...prep,
    messagesToSummarize: shown(prep.messagesToSummarize),
    turnPrefixMessages: shown(prep.turnPrefixMessages),
    fileOps: {
      read: [...prep.fileOps.read],
      written: [...prep.fileOps.written],
      edited: [...prep.fileOps.edited],
    },
  }));
}

/** A read-only session view over a plain entry list (what collectEntriesForBranchSummary needs). */
function sessionView(entries) {
  const byId = new Map(entries.map((e) => [e.id, e]));
  return {
    getEntry: (id) => byId.get(id),
    getBranch: (id) => {
      const path = [];
      let cur = byId.get(id);
      while (cur) {
        path.unshift(cur);
        cur = cur.parentId ? byId.get(cur.parentId) : undefined;
      }
      return path;
    },
  };
}

const linear = {
  small: buildSmall(),
  long: buildLong(),
  split: buildSplit(),
  compacted: buildCompacted("compacted", false),
  compacted_hook: buildCompacted("compacted_hook", true),
};
const tree = buildTree();

const pure = { keepRecentTokens: KEEP, linear: {}, tree: {} };
for (const [name, entries] of Object.entries(linear)) {
  const n = entries.length;
  const messages = buildSessionContext(entries).messages;
  pure.linear[name] = {
    estimateTokens: entries.map((e) => (e.type === "message" ? C.estimateTokens(e.message) : null)),
    estimateContextTokens: C.estimateContextTokens(messages),
    lastAssistantUsage: C.getLastAssistantUsage(entries) ?? null,
    turnStarts: entries.map((_, i) => C.findTurnStartIndex(entries, i, 0)),
    cutPoints: KEEP.map((k) => C.findCutPoint(entries, 0, n, k)),
    cutPointsFrom3: KEEP.map((k) => C.findCutPoint(entries, 3, n, k)),
    prepare: KEEP.map((k) =>
      plainPrep(
        C.prepareCompaction(entries, { enabled: true, reserveTokens: 16384, keepRecentTokens: k }),
        FULL_KEEP.includes(k),
      )
    ),
    serializedContext: C.serializeConversation(convertToLlm(messages)),
    serializedAll: C.serializeConversation(
      convertToLlm(entries.filter((e) => e.type === "message").map((e) => e.message)),
    ),
  };
}
{
  const view = sessionView(tree.entries);
  const collected = C.collectEntriesForBranchSummary(view, tree.oldLeaf, tree.target);
  const toFork = C.collectEntriesForBranchSummary(view, tree.oldLeaf, tree.fork);
  const sameLeaf = C.collectEntriesForBranchSummary(view, tree.oldLeaf, tree.oldLeaf);
  const none = C.collectEntriesForBranchSummary(view, null, tree.target);
  const budgets = [0, 50, 100, 200, 300, 400, 600, 1000];
  const plainBranchPrep = (p) =>
    JSON.parse(JSON.stringify({
      ...p,
      fileOps: { read: [...p.fileOps.read], written: [...p.fileOps.written], edited: [...p.fileOps.edited] },
    }));
  pure.tree = {
    oldLeaf: tree.oldLeaf,
    target: tree.target,
    fork: tree.fork,
    collected: { ids: collected.entries.map((e) => e.id), commonAncestorId: collected.commonAncestorId },
    toFork: { ids: toFork.entries.map((e) => e.id), commonAncestorId: toFork.commonAncestorId },
    sameLeaf: { ids: sameLeaf.entries.map((e) => e.id), commonAncestorId: sameLeaf.commonAncestorId },
    none: { ids: none.entries.map((e) => e.id), commonAncestorId: none.commonAncestorId },
    budgets,
    prepared: budgets.map((t) => plainBranchPrep(C.prepareBranchEntries(collected.entries, t))),
  };
}
writeFileSync(join(out, "expected/pure.json"), JSON.stringify(pure, null, 1) + "\n");

// ---------------------------------------------------------------------------------------------
// LLM requests against our fake provider server
// ---------------------------------------------------------------------------------------------

const FAKE_SERVER = `
import { startFakeProvider } from ${JSON.stringify(join(repo, "tests/support/fake_provider/mod.ts"))};
const server = await startFakeProvider(JSON.parse(Deno.env.get("FAKE_TURNS") ?? "[]"));
console.log(server.url);
for await (const _ of Deno.stdin.readable) { /* wait until the capture script is done */ }
console.log(JSON.stringify(server.requests));
await server.close();
`;

/** Starts our fake server with `turns`, runs `fn(url)`, returns the requests it recorded. */
async function withFake(turns, fn) {
  const child = spawn("deno", ["eval", "--ext=ts", FAKE_SERVER], {
    env: { ...process.env, FAKE_TURNS: JSON.stringify(turns) },
    stdio: ["pipe", "pipe", "inherit"],
  });
  let stdout = "";
  let gotUrl;
  const urlReady = new Promise((r) => (gotUrl = r));
  child.stdout.on("data", (d) => {
    stdout += d;
    if (stdout.includes("\n")) gotUrl(stdout.split("\n")[0]);
  });
  const exited = new Promise((r) => child.on("exit", r));
  const url = await urlReady;
  let result;
  let failure;
  try {
    result = await fn(url);
  } catch (error) {
    failure = error;
  }
  child.stdin.end();
  await exited;
  const requests = JSON.parse(stdout.split("\n")[1]).map((r) => ({
    method: r.method,
    path: r.path,
    // Only the caller-supplied header is compared; SDK and fetch headers differ by design.
    extraHeader: r.headers["x-extra"],
    body: r.body,
  }));
  if (failure) {
    console.error(
      requests.map((
        r,
      ) => [
        r.path,
        r.body?.max_tokens,
        JSON.stringify(r.body?.thinking),
        r.body?.messages?.[0]?.content?.[0]?.text?.length,
      ]),
    );
    throw failure;
  }
  return { requests, result };
}

function model(url, extra = {}) {
  return {
    id: "claude-sonnet-4-5",
    name: "Claude Sonnet 4.5",
    api: "anthropic-messages",
    provider: "anthropic",
    baseUrl: url,
    reasoning: false,
    input: ["text", "image"],
    cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
    contextWindow: 200000,
    maxTokens: 64000,
    ...extra,
  };
}

const answer = (t) => ({ content: [{ type: "text", text: t }], usage: { input: 100, output: 20 } });
const settings = (k) => ({ enabled: true, reserveTokens: 16384, keepRecentTokens: k });
const API_KEY = "sk-ant-api-test";

const scenarios = {};
scenarios.compact_small = await withFake([answer("## Goal\nNothing yet.")], (url) => {
  // With the default budget (20000) a small session has nothing to summarise (1.6.0: undefined).
  const prep = C.prepareCompaction(linear.small, settings(10));
  return C.compact(prep, model(url), API_KEY);
});
scenarios.compact_long_custom = await withFake([
  answer("## Goal\nLong summary."),
  answer("## Goal\nLong summary."),
], (url) => {
  const prep = C.prepareCompaction(linear.long, settings(1000));
  return C.compact(prep, model(url), API_KEY, undefined, "Focus on the parser changes.");
});
scenarios.compact_split_reasoning = await withFake(
  [answer("SUMMARY PART"), answer("SUMMARY PART")],
  (url) => {
    const prep = C.prepareCompaction(linear.split, settings(2000));
    if (!prep.isSplitTurn) throw new Error("split fixture did not split");
    return C.compact(
      prep,
      model(url, { reasoning: true }),
      API_KEY,
      undefined,
      undefined,
      undefined,
      "medium",
    );
  },
);
scenarios.compact_previous_summary = await withFake([answer("## Goal\nUpdated.")], (url) => {
  const prep = C.prepareCompaction(linear.compacted, settings(300));
  if (prep.isSplitTurn) throw new Error("compacted fixture should not split at 300");
  return C.compact(prep, model(url), API_KEY, { "x-extra": "1" }, undefined, undefined, "high");
});
scenarios.compact_hook_previous = await withFake(
  [answer("Updated again."), answer("Updated again.")],
  (url) => {
    const prep = C.prepareCompaction(linear.compacted_hook, settings(500));
    return C.compact(prep, model(url, { reasoning: true }), API_KEY, undefined, undefined, undefined, "off");
  },
);
scenarios.branch_custom = await withFake([answer("## Goal\nBranch A work.")], (url) => {
  const { entries } = C.collectEntriesForBranchSummary(sessionView(tree.entries), tree.oldLeaf, tree.target);
  return C.generateBranchSummary(entries, {
    model: model(url, { reasoning: true }),
    apiKey: API_KEY,
    signal: new AbortController().signal,
    customInstructions: "Mention file names.",
  });
});
scenarios.branch_replace_budget = await withFake([answer("Short.")], (url) => {
  const { entries } = C.collectEntriesForBranchSummary(sessionView(tree.entries), tree.oldLeaf, tree.target);
  return C.generateBranchSummary(entries, {
    model: model(url, { contextWindow: 2000 }),
    apiKey: API_KEY,
    signal: new AbortController().signal,
    customInstructions: "Only list the files.",
    replaceInstructions: true,
    reserveTokens: 1700,
  });
});
writeFileSync(join(out, "expected/requests.json"), JSON.stringify(scenarios, null, 1) + "\n");
console.log(
  `wrote ${Object.keys(linear).length + 1} sessions, pure.json and ${
    Object.keys(scenarios).length
  } request scenarios`,
);
void readFileSync;
