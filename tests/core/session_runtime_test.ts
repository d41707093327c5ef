/**
 * AgentSessionRuntime against the fake provider: fork, clone, new, resume, export and import
 * write the same session files as the reference (tests/fixtures/runtime/reference.json, captured
 * by scripts/capture/runtime_reference.mjs) once ids, timestamps and paths are normalised.
 * IDs: SES-14, SES-15, SES-17.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { assert, assertEquals, assertRejects } from "../support/assert.ts";
import { startFakeProvider } from "../support/fake_provider/mod.ts";
import type { ScriptedTurn } from "../support/fake_provider/mod.ts";
import { createAgentEnv, readSessionLines } from "../support/agent_env.ts";
import { normalizeCapture, scrubPaths } from "../fixtures/runtime/normalize.ts";
import { createRuntime } from "../fixtures/runtime/factory.ts";
import {
  type AgentSessionRuntime,
  createAgentSessionRuntime,
  SessionImportFileNotFoundError,
} from "../../src/core/session_runtime.ts";
import { MissingSessionCwdError } from "../../src/core/missing_cwd.ts";
import { exportToJsonl } from "../../src/core/session_export.ts";
import type { AgentSession } from "../../src/core/agent_session.ts";
import { SessionManager } from "../../src/session/session_manager.ts";

const FIXTURE = JSON.parse(
  await Deno.readTextFile(new URL("../fixtures/runtime/reference.json", import.meta.url)),
);

const text = (t: string): ScriptedTurn => ({ content: [{ type: "text", text: t }] });

function entryId(session: AgentSession, role: string, needle: string): string {
  const entry = session.sessionManager.getEntries().find((e) =>
    e.type === "message" && e.message.role === role && JSON.stringify(e.message).includes(needle)
  );
  assert(entry, `${role} entry with ${needle}`);
  return entry.id;
}

async function fileLines(path: string | undefined, root: string): Promise<unknown[] | null> {
  if (!path || !existsSync(path)) return null;
  return JSON.parse(scrubPaths(JSON.stringify(await readSessionLines(path)), root));
}

async function errorOf(fn: () => Promise<unknown>, root: string) {
  try {
    await fn();
    return null;
  } catch (e) {
    const err = e as Error;
    return { name: err.name, message: scrubPaths(err.message, root) };
  }
}

const roles = (s: AgentSession) => s.messages.map((m) => m.role);

/** The reference scenario, step for step (see the capture script). */
async function runScenario(runtime: AgentSessionRuntime, root: string, cwd: string) {
  const steps: Record<string, unknown>[] = [];
  let s = runtime.session;
  await s.prompt("q1");
  await s.prompt("q2");
  const original = s.sessionFile!;
  const a1 = entryId(s, "assistant", "a1");
  s.sessionManager.appendLabelChange(a1, "checkpoint");
  steps.push({ step: "original", file: await fileLines(original, root), roles: roles(s) });

  const q2 = entryId(s, "user", "q2");
  const before = s;
  let result: unknown = await runtime.fork(q2);
  s = runtime.session;
  steps.push({
    step: "fork-before-q2",
    result,
    sameSessionObject: s === before,
    file: await fileLines(s.sessionFile, root),
    fileWritten: existsSync(s.sessionFile!),
    roles: roles(s),
    leafType: s.sessionManager.getLeafEntry()?.type,
    originalUnchanged: JSON.stringify(await fileLines(original, root)) === JSON.stringify(steps[0].file),
  });

  result = await runtime.switchSession(original);
  s = runtime.session;
  steps.push({ step: "switch-back", result, isOriginal: s.sessionFile === original, roles: roles(s) });

  result = await runtime.fork(a1, { position: "at" });
  s = runtime.session;
  steps.push({ step: "clone-at-a1", result, file: await fileLines(s.sessionFile, root), roles: roles(s) });

  await runtime.switchSession(original);
  const q1 = entryId(runtime.session, "user", "q1");
  result = await runtime.fork(q1);
  s = runtime.session;
  steps.push({
    step: "fork-before-q1",
    result,
    fileWritten: existsSync(s.sessionFile!),
    header: JSON.parse(scrubPaths(JSON.stringify(s.sessionManager.getHeader()), root)),
    entryTypes: s.sessionManager.getEntries().map((e) => e.type),
    roles: roles(s),
  });
  await s.prompt("q3");
  steps.push({ step: "fork-before-q1-then-prompt", file: await fileLines(s.sessionFile, root) });

  result = await runtime.newSession({ parentSession: original });
  s = runtime.session;
  steps.push({ step: "new-with-parent", result, fileWritten: existsSync(s.sessionFile!), roles: roles(s) });
  await s.prompt("q4");
  steps.push({ step: "new-with-parent-then-prompt", file: await fileLines(s.sessionFile, root) });

  result = await runtime.newSession({
    setup: (sm) => {
      sm.appendMessage({ role: "user", content: [{ type: "text", text: "seeded" }], timestamp: 1 });
      return Promise.resolve();
    },
  });
  s = runtime.session;
  steps.push({ step: "new-with-setup", result, roles: roles(s), fileWritten: existsSync(s.sessionFile!) });

  await runtime.switchSession(original);
  s = runtime.session;
  s.sessionManager.branch(a1);
  const exportPath = exportToJsonl(s, join(root, "export", "out.jsonl"));
  steps.push({ step: "export", path: scrubPaths(exportPath, root), file: await fileLines(exportPath, root) });

  result = await runtime.importFromJsonl(exportPath);
  s = runtime.session;
  steps.push({
    step: "import",
    result,
    sessionFile: scrubPaths(s.sessionFile!, root),
    file: await fileLines(s.sessionFile, root),
    roles: roles(s),
  });

  steps.push({
    step: "errors",
    importMissing: await errorOf(() => runtime.importFromJsonl(join(root, "missing.jsonl")), root),
    forkUnknown: await errorOf(() => runtime.fork("nope"), root),
    forkNonUser: await errorOf(() => runtime.fork(entryId(runtime.session, "assistant", "a1")), root),
  });

  const gone = join(root, "gone.jsonl");
  await Deno.writeTextFile(
    gone,
    JSON.stringify({
      type: "session",
      version: 3,
      id: "x",
      timestamp: "2025-01-01T00:00:00.000Z",
      cwd: join(root, "nowhere"),
    }) + "\n",
  );
  steps.push({ step: "missing-cwd", error: await errorOf(() => runtime.switchSession(gone), root) });
  assertEquals(cwd.startsWith(root), true);
  return steps;
}

async function setup(turns: ScriptedTurn[]) {
  const server = await startFakeProvider(turns);
  const env = await createAgentEnv(server.url);
  const sessionDir = join(env.agentDir, "sessions", "project");
  const runtime = await createAgentSessionRuntime(createRuntime, {
    cwd: env.cwd,
    agentDir: env.agentDir,
    sessionManager: SessionManager.create(env.cwd, sessionDir),
  });
  return {
    server,
    env,
    runtime,
    sessionDir,
    async close() {
      await runtime.dispose();
      await server.close();
      await env.cleanup();
    },
  };
}

Deno.test("SES-14 SES-15 SES-17 runtime scenario matches the reference's session files step by step", async () => {
  const t = await setup([text("a1"), text("a2"), text("a3"), text("a4")]);
  try {
    const steps = await runScenario(t.runtime, t.env.root, t.env.cwd);
    // Through JSON like the fixture (undefined fields drop out).
    const ours = normalizeCapture(JSON.parse(JSON.stringify(steps))) as Record<string, unknown>[];
    const reference = normalizeCapture(FIXTURE.runtime) as Record<string, unknown>[];
    assertEquals(ours.map((s) => s.step), reference.map((s) => s.step));
    for (let i = 0; i < reference.length; i++) {
      assertEquals(ours[i], reference[i], `step ${reference[i].step}`);
    }
    // What the model was sent, system prompt (cwd, docs paths) included, once paths are placeholders.
    const requests = JSON.parse(scrubPaths(JSON.stringify(t.server.requests.map((r) => r.body)), t.env.root));
    assertEquals(normalizeCapture(requests), normalizeCapture(FIXTURE.runtimeRequests));
  } finally {
    await t.close();
  }
});

Deno.test("SES-14 fork writes root→parent path with parentSession header and re-created labels; source untouched", async () => {
  const t = await setup([text("a1"), text("a2")]);
  try {
    const s = t.runtime.session;
    await s.prompt("q1");
    await s.prompt("q2");
    const original = s.sessionFile!;
    const a1 = entryId(s, "assistant", "a1");
    s.sessionManager.appendLabelChange(a1, "checkpoint");
    const labelTime = s.sessionManager.getEntries().at(-1)!.timestamp;
    const originalText = await Deno.readTextFile(original);

    const result = await t.runtime.fork(entryId(s, "user", "q2"));
    assertEquals(result, { cancelled: false, selectedText: "q2" });
    const forked = t.runtime.session;
    assert(forked !== s);
    assert(forked.sessionFile !== original);
    assertEquals(forked.sessionFile!.startsWith(t.sessionDir), true);
    const lines = await readSessionLines(forked.sessionFile!);
    assertEquals(lines[0].parentSession, original);
    assert(lines[0].id !== s.sessionId);
    // model, thinking level, system prompt (1.6.0), q1, a1, then the re-created label.
    const copied = (await readSessionLines(original)).slice(1, 6);
    assertEquals(lines.slice(1, 6), copied);
    assertEquals(lines[6].type, "label");
    assertEquals(lines[6].parentId, a1);
    assertEquals(lines[6].targetId, a1);
    assertEquals(lines[6].timestamp, labelTime);
    assertEquals(forked.sessionManager.getLabel(a1), "checkpoint");
    assertEquals(await Deno.readTextFile(original), originalText);
    assertEquals(forked.messages.map((m) => m.role), ["system", "user", "assistant"]);
  } finally {
    await t.close();
  }
});

Deno.test("SES-15 forking before a root user message gives an empty session naming the old file as parent", async () => {
  const server = await startFakeProvider([]);
  const env = await createAgentEnv(server.url);
  try {
    const sessionDir = join(env.agentDir, "sessions", "project");
    await Deno.mkdir(sessionDir, { recursive: true });
    const file = join(sessionDir, "rooted.jsonl");
    const header = {
      type: "session",
      version: 3,
      id: "s1",
      timestamp: "2025-01-01T00:00:00.000Z",
      cwd: env.cwd,
    };
    const user = {
      type: "message",
      id: "aaaa0001",
      parentId: null,
      timestamp: "2025-01-01T00:00:01.000Z",
      message: { role: "user", content: [{ type: "text", text: "root question" }], timestamp: 1 },
    };
    await Deno.writeTextFile(file, [header, user].map((l) => JSON.stringify(l)).join("\n") + "\n");
    const runtime = await createAgentSessionRuntime(createRuntime, {
      cwd: env.cwd,
      agentDir: env.agentDir,
      sessionManager: SessionManager.open(file, sessionDir),
    });
    const result = await runtime.fork("aaaa0001");
    assertEquals(result, { cancelled: false, selectedText: "root question" });
    const manager = runtime.session.sessionManager;
    assertEquals(manager.getHeader()?.parentSession, file);
    assertEquals(manager.getEntries().map((e) => e.type), ["model_change", "thinking_level_change"]);
    assertEquals(runtime.session.messages.length, 0);
    assertEquals(existsSync(runtime.session.sessionFile!), false);
    await runtime.dispose();
  } finally {
    await server.close();
    await env.cleanup();
  }
});

Deno.test("SES-15 in-memory sessions fork inside the same manager", async () => {
  const t = await setup([text("a1"), text("a2")]);
  try {
    const memory = await createAgentSessionRuntime(createRuntime, {
      cwd: t.env.cwd,
      agentDir: t.env.agentDir,
      sessionManager: SessionManager.inMemory(t.env.cwd),
    });
    const s = memory.session;
    await s.prompt("q1");
    await s.prompt("q2");
    const manager = s.sessionManager;
    const oldId = manager.getSessionId();
    const result = await memory.fork(entryId(s, "user", "q2"));
    assertEquals(result, { cancelled: false, selectedText: "q2" });
    assert(memory.session !== s);
    assert(memory.session.sessionManager === manager);
    assert(manager.getSessionId() !== oldId);
    assertEquals(manager.getSessionFile(), undefined);
    assertEquals(memory.session.messages.map((m) => m.role), ["system", "user", "assistant"]);
    assertEquals(await t.env.sessionFiles(), []);
    await memory.dispose();
  } finally {
    await t.close();
  }
});

Deno.test("runtime hooks: cancel switch/fork, shutdown reasons, invalidate, rebind and withSession", async () => {
  const t = await setup([text("a1")]);
  try {
    const log: string[] = [];
    let cancel = true;
    t.runtime.setHooks({
      beforeSwitch: (e) => {
        log.push(`before_switch:${e.reason}`);
        return Promise.resolve({ cancel });
      },
      beforeFork: (e) => {
        log.push(`before_fork:${e.entryId}:${e.position}`);
        return Promise.resolve({ cancel });
      },
      shutdown: (e) => {
        log.push(`shutdown:${e.reason}`);
        return Promise.resolve();
      },
    });
    t.runtime.setBeforeSessionInvalidate(() => log.push("invalidate"));
    t.runtime.setRebindSession((session) => {
      log.push(`rebind:${session === t.runtime.session}`);
      return Promise.resolve();
    });
    const first = t.runtime.session;
    await first.prompt("q1");
    const q1 = entryId(first, "user", "q1");

    assertEquals(await t.runtime.newSession(), { cancelled: true });
    assertEquals(await t.runtime.fork(q1), { cancelled: true });
    assertEquals(await t.runtime.switchSession(first.sessionFile!), { cancelled: true });
    assert(t.runtime.session === first);
    assertEquals((await t.env.sessionFiles()).length, 1);

    cancel = false;
    let seen: AgentSession | undefined;
    await t.runtime.newSession({
      withSession: (session) => {
        seen = session;
        log.push("with");
        return Promise.resolve();
      },
    });
    assert(seen === t.runtime.session && seen !== first);
    await t.runtime.dispose();
    assertEquals(log, [
      "before_switch:new",
      `before_fork:${q1}:before`,
      "before_switch:resume",
      "before_switch:new",
      "shutdown:new",
      "invalidate",
      "rebind:true",
      "with",
      "shutdown:quit",
      "invalidate",
    ]);
  } finally {
    await t.server.close();
    await t.env.cleanup();
  }
});

Deno.test("SES-17 import: missing file, copy into the session dir, same-dir import, cwd override", async () => {
  const t = await setup([text("a1")]);
  try {
    const missing = await assertRejects(() => t.runtime.importFromJsonl(join(t.env.root, "nope.jsonl")));
    assert(missing instanceof SessionImportFileNotFoundError);
    assertEquals(missing.message, `File not found: ${join(t.env.root, "nope.jsonl")}`);
    assertEquals(missing.filePath, join(t.env.root, "nope.jsonl"));
    await t.runtime.session.prompt("q1");
    const exported = exportToJsonl(t.runtime.session, join(t.env.root, "out", "x.jsonl"));
    await t.runtime.importFromJsonl(exported);
    const copy = join(t.sessionDir, "x.jsonl");
    assertEquals(t.runtime.session.sessionFile, copy);
    assertEquals(await Deno.readTextFile(copy), await Deno.readTextFile(exported));
    assertEquals(t.runtime.session.messages.map((m) => m.role), ["system", "user", "assistant"]);

    // A file already in the session dir is resumed in place.
    await t.runtime.importFromJsonl(copy);
    assertEquals(t.runtime.session.sessionFile, copy);

    // A stored cwd that no longer exists needs an override.
    const lines = (await Deno.readTextFile(exported)).split("\n");
    const header = JSON.parse(lines[0]);
    header.cwd = join(t.env.root, "moved-away");
    lines[0] = JSON.stringify(header);
    const moved = join(t.env.root, "moved.jsonl");
    await Deno.writeTextFile(moved, lines.join("\n"));
    assert((await assertRejects(() => t.runtime.importFromJsonl(moved))) instanceof MissingSessionCwdError);
    await t.runtime.importFromJsonl(moved, t.env.cwd);
    assertEquals(t.runtime.cwd, t.env.cwd);
    assertEquals(t.runtime.session.sessionManager.getCwd(), t.env.cwd);
    await t.runtime.switchSession(moved, { cwdOverride: t.env.cwd });
    assertEquals(t.runtime.session.sessionFile, moved);
  } finally {
    await t.close();
  }
});

Deno.test("createAgentSessionRuntime refuses a session whose cwd is gone", async () => {
  const server = await startFakeProvider([]);
  const env = await createAgentEnv(server.url);
  try {
    const file = join(env.root, "gone.jsonl");
    const header = {
      type: "session",
      version: 3,
      id: "g",
      timestamp: "2025-01-01T00:00:00.000Z",
      cwd: "/no/such/dir",
    };
    await Deno.writeTextFile(file, JSON.stringify(header) + "\n");
    const error = await assertRejects(
      () =>
        createAgentSessionRuntime(createRuntime, {
          cwd: env.cwd,
          agentDir: env.agentDir,
          sessionManager: SessionManager.open(file),
        }),
    );
    assert(error instanceof MissingSessionCwdError);
    assertEquals(
      error.message,
      `Stored session working directory does not exist: /no/such/dir\nSession file: ${file}\nCurrent working directory: ${env.cwd}`,
    );
  } finally {
    await server.close();
    await env.cleanup();
  }
});
