#!/usr/bin/env node
/**
 * Captures session-replacement and tree-navigation fixtures from the reference pi 1.6.0
 * (tests/fixtures/runtime/reference.json). The reference is found at $PI_REFERENCE_DIR (the
 * folder holding node_modules) or <repo>/.cache/reference; run this script with its Node.
 *
 *   node scripts/capture/runtime_reference.mjs
 *
 * Drives the reference's AgentSessionRuntime (built with createAgentSessionServices +
 * createAgentSessionFromServices, as its main.js does) and AgentSession.navigateTree /
 * exportToJsonl against our fake provider server (tests/support/fake_provider, started with
 * `deno eval`), one model "fake-anthropic/test-model". Every step records its result and the raw
 * lines of the session files it touched; the temp root is replaced by `<ROOT>` and the process cwd
 * by `<PROCESS_CWD>`, and in the stored requests the reference's package folder by `<PI_PACKAGE>`
 * and this checkout by `<REPO>`. Ids, timestamps
 * and file names stay raw: tests/core/session_runtime_test.ts normalises both sides the same way.
 */
import { spawn } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const REF = join(
  resolve(process.env.PI_REFERENCE_DIR ?? join(repo, ".cache/reference")),
  "node_modules/@earendil-works/pi-coding-agent",
);
const outFile = join(repo, "tests/fixtures/runtime/reference.json");

const root = realpathSync(mkdtempSync(join(tmpdir(), "pi-runtime-ref-")));
const home = join(root, "home");
const agentDir = join(root, "agent");
const cwd = join(root, "project");
for (const d of [home, agentDir, cwd]) mkdirSync(d, { recursive: true });
process.env.HOME = home;
process.env.PI_CODING_AGENT_DIR = agentDir;
writeFileSync(join(cwd, "notes.txt"), "remember the milk\n");

const {
  createAgentSessionRuntime,
  createAgentSessionServices,
  createAgentSessionFromServices,
  SessionManager,
} = await import(join(REF, "dist/index.js"));

const FAKE_SERVER = `
import { startFakeProvider } from ${JSON.stringify(join(repo, "tests/support/fake_provider/mod.ts"))};
const server = await startFakeProvider(JSON.parse(Deno.env.get("FAKE_TURNS") ?? "[]"));
console.log(server.url);
for await (const _ of Deno.stdin.readable) { /* wait until the capture script is done */ }
console.log(JSON.stringify(server.requests));
await server.close();
`;

/** Starts our fake server with `turns`, runs `fn(url)`, returns the JSON bodies it received. */
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
  let failure;
  try {
    await fn(url);
  } catch (error) {
    failure = error;
  }
  child.stdin.end();
  await exited;
  if (failure) throw failure;
  return JSON.parse(stdout.split("\n")[1]).map((r) => r.body);
}

function writeModels(url) {
  const providers = {
    "fake-anthropic": {
      baseUrl: url,
      api: "anthropic-messages",
      apiKey: "test-key",
      models: [{
        id: "test-model",
        name: "Test model (anthropic-messages)",
        reasoning: false,
        input: ["text", "image"],
        contextWindow: 200000,
        maxTokens: 8192,
        cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
      }],
    },
  };
  writeFileSync(join(agentDir, "models.json"), JSON.stringify({ providers }, null, 2));
}

const createRuntime = async ({ cwd, agentDir, sessionManager, sessionStartEvent }) => {
  const services = await createAgentSessionServices({ cwd, agentDir });
  const model = services.modelRuntime.getModel("fake-anthropic", "test-model");
  const created = await createAgentSessionFromServices({
    services,
    sessionManager,
    sessionStartEvent,
    model,
  });
  return { ...created, services, diagnostics: [] };
};

const sessionDir = join(agentDir, "sessions", "project");
// A fork before the first message reopens an unwritten file, whose cwd falls back to the process cwd.
const scrub = (text) => text.split(root).join("<ROOT>").split(process.cwd()).join("<PROCESS_CWD>");
const lines = (path) =>
  existsSync(path)
    ? readFileSync(path, "utf8").split("\n").filter((l) => l.trim()).map((l) => JSON.parse(scrub(l)))
    : null;
const roles = (session) => session.messages.map((m) => m.role);
const errorOf = async (fn) => {
  try {
    await fn();
    return null;
  } catch (e) {
    return { name: e.name, message: scrub(e.message) };
  }
};
const text = (t) => ({ content: [{ type: "text", text: t }] });
const userEntryId = (sm, t) =>
  sm.getEntries().find((e) =>
    e.type === "message" && e.message.role === "user" &&
    JSON.stringify(e.message.content).includes(t)
  ).id;
const assistantEntryId = (sm, t) =>
  sm.getEntries().find((e) =>
    e.type === "message" && e.message.role === "assistant" &&
    JSON.stringify(e.message.content).includes(t)
  ).id;

const fixture = {
  note: "Captured by scripts/capture/runtime_reference.mjs from pi 1.6.0",
  runtime: [],
  tree: [],
};

// ── runtime: fork, clone, new, switch, export, import ──────────────────────────────────────────
fixture.runtimeRequests = await withFake(
  [text("a1"), text("a2"), text("a3"), text("a4")],
  async (url) => {
    writeModels(url);
    const sm0 = SessionManager.create(cwd, sessionDir);
    const runtime = await createAgentSessionRuntime(createRuntime, { cwd, agentDir, sessionManager: sm0 });
    const steps = fixture.runtime;
    let s = runtime.session;
    await s.prompt("q1");
    await s.prompt("q2");
    const original = s.sessionFile;
    const a1 = assistantEntryId(s.sessionManager, "a1");
    s.sessionManager.appendLabelChange(a1, "checkpoint");
    steps.push({ step: "original", file: lines(original), roles: roles(s) });

    const q2 = userEntryId(s.sessionManager, "q2");
    let result = await runtime.fork(q2);
    s = runtime.session;
    steps.push({
      step: "fork-before-q2",
      result,
      sameSessionObject: false,
      file: lines(s.sessionFile),
      fileWritten: existsSync(s.sessionFile),
      roles: roles(s),
      leafType: s.sessionManager.getLeafEntry()?.type,
      originalUnchanged: JSON.stringify(lines(original)) === JSON.stringify(steps[0].file),
    });

    result = await runtime.switchSession(original);
    s = runtime.session;
    steps.push({ step: "switch-back", result, isOriginal: s.sessionFile === original, roles: roles(s) });

    result = await runtime.fork(a1, { position: "at" });
    s = runtime.session;
    steps.push({ step: "clone-at-a1", result, file: lines(s.sessionFile), roles: roles(s) });

    await runtime.switchSession(original);
    const q1 = userEntryId(runtime.session.sessionManager, "q1");
    result = await runtime.fork(q1);
    s = runtime.session;
    steps.push({
      step: "fork-before-q1",
      result,
      fileWritten: existsSync(s.sessionFile),
      header: JSON.parse(scrub(JSON.stringify(s.sessionManager.getHeader()))),
      entryTypes: s.sessionManager.getEntries().map((e) => e.type),
      roles: roles(s),
    });
    await s.prompt("q3");
    steps.push({ step: "fork-before-q1-then-prompt", file: lines(s.sessionFile) });

    result = await runtime.newSession({ parentSession: original });
    s = runtime.session;
    const pending = s.sessionFile;
    steps.push({ step: "new-with-parent", result, fileWritten: existsSync(pending), roles: roles(s) });
    await s.prompt("q4");
    steps.push({ step: "new-with-parent-then-prompt", file: lines(s.sessionFile) });

    result = await runtime.newSession({
      setup: (sm) => {
        sm.appendMessage({ role: "user", content: [{ type: "text", text: "seeded" }], timestamp: 1 });
        return Promise.resolve();
      },
    });
    s = runtime.session;
    steps.push({ step: "new-with-setup", result, roles: roles(s), fileWritten: existsSync(s.sessionFile) });

    await runtime.switchSession(original);
    s = runtime.session;
    // Export from a non-leaf position so the linearisation is visible.
    s.sessionManager.branch(a1);
    const exportPath = s.exportToJsonl(join(root, "export", "out.jsonl"));
    steps.push({ step: "export", path: scrub(exportPath), file: lines(exportPath) });

    result = await runtime.importFromJsonl(exportPath);
    s = runtime.session;
    steps.push({
      step: "import",
      result,
      sessionFile: scrub(s.sessionFile),
      file: lines(s.sessionFile),
      roles: roles(s),
    });

    steps.push({
      step: "errors",
      importMissing: await errorOf(() => runtime.importFromJsonl(join(root, "missing.jsonl"))),
      forkUnknown: await errorOf(() => runtime.fork("nope")),
      forkNonUser: await errorOf(() => runtime.fork(assistantEntryId(runtime.session.sessionManager, "a1"))),
    });

    const gone = join(root, "gone.jsonl");
    writeFileSync(
      gone,
      JSON.stringify({
        type: "session",
        version: 3,
        id: "x",
        timestamp: "2025-01-01T00:00:00.000Z",
        cwd: join(root, "nowhere"),
      }) + "\n",
    );
    steps.push({ step: "missing-cwd", error: await errorOf(() => runtime.switchSession(gone)) });
    await runtime.dispose();
  },
);

// ── tree navigation ───────────────────────────────────────────────────────────────────────────
fixture.treeRequests = await withFake(
  [
    { content: [{ type: "toolCall", id: "call_1", name: "read", arguments: { path: "notes.txt" } }] },
    text("a1"),
    text("a2"),
    text("a2b"),
    text("Summary of the side trip."),
    text("Only files."),
    { content: [{ type: "text", text: "never finished" }], fault: { kind: "stall", afterChunks: 1 } },
  ],
  async (url) => {
    writeModels(url);
    const sm0 = SessionManager.create(cwd, join(root, "tree-sessions"));
    const runtime = await createAgentSessionRuntime(createRuntime, { cwd, agentDir, sessionManager: sm0 });
    const s = runtime.session;
    const sm = s.sessionManager;
    const steps = fixture.tree;
    await s.prompt("q1");
    await s.prompt("q2");
    const a1 = assistantEntryId(sm, "a1");
    const a2 = assistantEntryId(sm, "a2");
    const q1 = userEntryId(sm, "q1");
    const q2 = userEntryId(sm, "q2");

    let result = await s.navigateTree(q2);
    steps.push({ step: "to-user-q2", result, leafIsA1: sm.getLeafId() === a1, roles: roles(s) });
    await s.prompt("q2b");
    const a2b = sm.getLeafId();

    result = await s.navigateTree(a2, {
      summarize: true,
      customInstructions: "Focus on files",
      label: "back",
    });
    steps.push({
      step: "to-a2-summarized",
      result,
      leafId: sm.getLeafId(),
      roles: roles(s),
      file: lines(s.sessionFile),
    });

    result = await s.navigateTree(q1, { label: "start" });
    steps.push({
      step: "to-q1-labelled",
      result,
      leafId: sm.getLeafId(),
      roles: roles(s),
      file: lines(s.sessionFile),
    });

    result = await s.navigateTree(sm.getLeafId());
    steps.push({ step: "noop", result });

    result = await s.navigateTree(a2b, { summarize: true });
    steps.push({ step: "to-a2b-nothing-to-summarize", result, leafId: sm.getLeafId(), roles: roles(s) });

    result = await s.navigateTree(a2, {
      summarize: true,
      customInstructions: "Only list files.",
      replaceInstructions: true,
    });
    steps.push({ step: "to-a2-replace-instructions", result, roles: roles(s), file: lines(s.sessionFile) });

    const before = sm.getLeafId();
    const pendingNav = s.navigateTree(a1, { summarize: true });
    await new Promise((r) => setTimeout(r, 300));
    s.abortBranchSummary();
    result = await pendingNav;
    steps.push({ step: "abort", result, leafUnchanged: sm.getLeafId() === before });

    steps.push({ step: "errors", unknown: await errorOf(() => s.navigateTree("nope")) });
    await runtime.dispose();
  },
);

// The requests' system prompts name the cwd and the reference's docs: no machine path is stored.
const stored = JSON.stringify(fixture, null, 1).replaceAll(REF, "<PI_PACKAGE>").replaceAll(root, "<ROOT>")
  .replaceAll(repo, "<REPO>");
writeFileSync(outFile, stored + "\n");
rmSync(root, { recursive: true, force: true });
console.log(`wrote ${outFile}`);
