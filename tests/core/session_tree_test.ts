/**
 * navigateTree against the fake provider: leaf moves, editor text, labels, branch summaries (entry
 * placement, request body, abort) match the reference (tests/fixtures/runtime/reference.json,
 * captured by scripts/capture/runtime_reference.mjs). IDs: SES-18, SES-12, SES-17.
 */
import { join } from "node:path";
import { assert, assertEquals, assertRejects } from "../support/assert.ts";
import { startFakeProvider } from "../support/fake_provider/mod.ts";
import { waitFor } from "../support/wait_for.ts";
import type { ScriptedTurn } from "../support/fake_provider/mod.ts";
import { createAgentEnv, readSessionLines } from "../support/agent_env.ts";
import { normalizeCapture, scrubPaths } from "../fixtures/runtime/normalize.ts";
import { createRuntime } from "../fixtures/runtime/factory.ts";
import { type AgentSessionRuntime, createAgentSessionRuntime } from "../../src/core/session_runtime.ts";
import { defaultJsonlExportName, exportToJsonl } from "../../src/core/session_export.ts";
import type { AgentSession } from "../../src/core/agent_session.ts";
import { SessionManager } from "../../src/session/session_manager.ts";

const FIXTURE = JSON.parse(
  await Deno.readTextFile(new URL("../fixtures/runtime/reference.json", import.meta.url)),
);

const text = (t: string): ScriptedTurn => ({ content: [{ type: "text", text: t }] });

const TREE_TURNS: ScriptedTurn[] = [
  { content: [{ type: "toolCall", id: "call_1", name: "read", arguments: { path: "notes.txt" } }] },
  text("a1"),
  text("a2"),
  text("a2b"),
  text("Summary of the side trip."),
  text("Only files."),
  { content: [{ type: "text", text: "never finished" }], fault: { kind: "stall", afterChunks: 1 } },
];

function entryId(session: AgentSession, role: string, needle: string): string {
  const entry = session.sessionManager.getEntries().find((e) =>
    e.type === "message" && e.message.role === role && JSON.stringify(e.message).includes(needle)
  );
  assert(entry, `${role} entry with ${needle}`);
  return entry.id;
}

const roles = (s: AgentSession) => s.messages.map((m) => m.role);

async function setup(turns: ScriptedTurn[], sessionManager?: (cwd: string, root: string) => SessionManager) {
  const server = await startFakeProvider(turns);
  const env = await createAgentEnv(server.url);
  await Deno.writeTextFile(join(env.cwd, "notes.txt"), "remember the milk\n");
  const runtime: AgentSessionRuntime = await createAgentSessionRuntime(createRuntime, {
    cwd: env.cwd,
    agentDir: env.agentDir,
    sessionManager: sessionManager?.(env.cwd, env.root) ??
      SessionManager.create(env.cwd, join(env.root, "tree-sessions")),
  });
  return {
    server,
    env,
    runtime,
    async close() {
      await runtime.dispose();
      await server.close();
      await env.cleanup();
    },
  };
}

Deno.test("SES-18 SES-12 tree scenario matches the reference: leaves, labels, summaries, abort, errors", async () => {
  const t = await setup(structuredClone(TREE_TURNS));
  try {
    const s = t.runtime.session;
    const sm = s.sessionManager;
    const root = t.env.root;
    const lines = async () =>
      JSON.parse(scrubPaths(JSON.stringify(await readSessionLines(s.sessionFile!)), root));
    const steps: Record<string, unknown>[] = [];
    await s.prompt("q1");
    await s.prompt("q2");
    const a1 = entryId(s, "assistant", "a1");
    const a2 = entryId(s, "assistant", "a2");
    const q1 = entryId(s, "user", "q1");
    const q2 = entryId(s, "user", "q2");

    let result: unknown = await s.navigateTree(q2);
    steps.push({ step: "to-user-q2", result, leafIsA1: sm.getLeafId() === a1, roles: roles(s) });
    await s.prompt("q2b");
    const a2b = sm.getLeafId()!;

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
      file: await lines(),
    });

    result = await s.navigateTree(q1, { label: "start" });
    steps.push({
      step: "to-q1-labelled",
      result,
      leafId: sm.getLeafId(),
      roles: roles(s),
      file: await lines(),
    });

    result = await s.navigateTree(sm.getLeafId()!);
    steps.push({ step: "noop", result });

    result = await s.navigateTree(a2b, { summarize: true });
    steps.push({ step: "to-a2b-nothing-to-summarize", result, leafId: sm.getLeafId(), roles: roles(s) });

    result = await s.navigateTree(a2, {
      summarize: true,
      customInstructions: "Only list files.",
      replaceInstructions: true,
    });
    steps.push({ step: "to-a2-replace-instructions", result, roles: roles(s), file: await lines() });

    const before = sm.getLeafId();
    const pending = s.navigateTree(a1, { summarize: true });
    assert(s.isCompacting, "a navigation counts as compacting from its start");
    await waitFor(() => t.server.requests.length >= 7, 10_000, "the branch summary request", 10);
    assert(s.isCompacting, "a branch summary counts as compacting");
    s.abortBranchSummary();
    result = await pending;
    assert(!s.isCompacting);
    steps.push({ step: "abort", result, leafUnchanged: sm.getLeafId() === before });

    const unknown = await assertRejects(() => s.navigateTree("nope"));
    steps.push({ step: "errors", unknown: { name: unknown.name, message: unknown.message } });

    const ours = normalizeCapture(JSON.parse(JSON.stringify(steps))) as Record<string, unknown>[];
    const reference = normalizeCapture(FIXTURE.tree) as Record<string, unknown>[];
    assertEquals(ours.map((x) => x.step), reference.map((x) => x.step));
    for (let i = 0; i < reference.length; i++) {
      assertEquals(ours[i], reference[i], `step ${reference[i].step}`);
    }

    // The summarization requests (system prompt, serialized branch, instructions, max_tokens 2048).
    assertEquals(t.server.requests.length, FIXTURE.treeRequests.length);
    for (const i of [4, 5, 6]) {
      assertEquals(t.server.requests[i].body, FIXTURE.treeRequests[i], `request ${i}`);
    }
  } finally {
    await t.close();
  }
});

Deno.test("SES-18 summary lands at the target with preamble and file lists; context shows it", async () => {
  const t = await setup([
    text("a1"),
    { content: [{ type: "toolCall", id: "c1", name: "read", arguments: { path: "notes.txt" } }] },
    {
      content: [{ type: "toolCall", id: "c2", name: "write", arguments: { path: "out.txt", content: "x" } }],
    },
    text("done"),
    text("Branch went fine."),
  ]);
  try {
    const s = t.runtime.session;
    await s.prompt("q1");
    const a1 = entryId(s, "assistant", "a1");
    await s.prompt("read and write");
    const oldLeaf = s.sessionManager.getLeafId();
    const result = await s.navigateTree(a1, { summarize: true });
    assertEquals(result.cancelled, false);
    const entry = result.summaryEntry!;
    assertEquals(entry.type, "branch_summary");
    assertEquals(entry.parentId, a1);
    // 1.6.0: fromId is the leaf that was left (the end of the summarised path).
    assertEquals(entry.fromId, oldLeaf);
    assertEquals(
      entry.summary,
      "The user explored a different conversation branch before returning here.\nSummary of that exploration:\n\n" +
        "Branch went fine.\n\n<read-files>\nnotes.txt\n</read-files>\n\n<modified-files>\nout.txt\n</modified-files>",
    );
    assertEquals(entry.details, { readFiles: ["notes.txt"], modifiedFiles: ["out.txt"] });
    assertEquals(s.sessionManager.getLeafId(), entry.id);
    assertEquals(roles(s), ["system", "user", "assistant", "branchSummary"]);
    const body = t.server.requests[4].body as {
      max_tokens: number;
      messages: { content: { text: string }[] }[];
    };
    // 1.6.0: the model's own output limit, not a fixed 2048.
    assertEquals(body.max_tokens, 8192);
    const prompt = body.messages[0].content[0].text;
    assert(prompt.startsWith("<conversation>\n[User]: read and write\n\n[Assistant tool calls]: read(path="));
    // On disk: the summary is a child of the target.
    const onDisk = (await readSessionLines(s.sessionFile!)).at(-1)!;
    assertEquals(onDisk.type, "branch_summary");
    assertEquals(onDisk.parentId, a1);
  } finally {
    await t.close();
  }
});

Deno.test("SES-18 summarize needs a model; summarization errors propagate and leave the leaf", async () => {
  const t = await setup([text("a1"), text("a2"), {
    fault: { kind: "http", status: 400, message: "bad summary" },
  }], (
    cwd,
    root,
  ) => SessionManager.create(cwd, join(root, "s")));
  try {
    const s = t.runtime.session;
    await s.prompt("q1");
    const a1 = entryId(s, "assistant", "a1");
    await s.prompt("q2");
    const leaf = s.sessionManager.getLeafId();
    const error = await assertRejects(() => s.navigateTree(a1, { summarize: true }));
    assert(error.message.includes("bad summary"), error.message);
    assertEquals(s.sessionManager.getLeafId(), leaf);

    s.agent.state.model = { ...s.agent.state.model, id: "unknown", provider: "unknown" };
    await assertRejects(
      () => s.navigateTree(a1, { summarize: true }),
      "No model available for summarization",
    );
  } finally {
    await t.close();
  }
});

Deno.test("SES-18 hooks: cancel, supplied summary (fromHook), label override, onTree event", async () => {
  const t = await setup([text("a1"), text("a2")]);
  try {
    const s = t.runtime.session;
    await s.prompt("q1");
    const a1 = entryId(s, "assistant", "a1");
    await s.prompt("q2");
    const a2 = entryId(s, "assistant", "a2");

    const cancelled = await s.navigateTree(a1, {
      hooks: { onBeforeTree: () => Promise.resolve({ cancel: true }) },
    });
    assertEquals(cancelled, { cancelled: true });
    assertEquals(s.sessionManager.getLeafId(), a2);

    const events: unknown[] = [];
    let seenEntries = 0;
    const result = await s.navigateTree(a1, {
      summarize: true,
      hooks: {
        onBeforeTree: (prep) => {
          seenEntries = prep.entriesToSummarize.length;
          assertEquals(prep.commonAncestorId, a1);
          return Promise.resolve({ summary: { summary: "from hook", details: { n: 1 } }, label: "hooked" });
        },
        onTree: (e) => void events.push(e),
      },
    });
    assertEquals(seenEntries, 2);
    assertEquals(t.server.requests.length, 2, "no summarization request");
    const entry = result.summaryEntry!;
    assertEquals([entry.summary, entry.details, entry.fromHook], ["from hook", { n: 1 }, true]);
    assertEquals(s.sessionManager.getLabel(entry.id), "hooked");
    assertEquals(events, [{
      newLeafId: s.sessionManager.getLeafId(),
      oldLeafId: a2,
      summaryEntry: entry,
      fromExtension: true,
    }]);
  } finally {
    await t.close();
  }
});

Deno.test("SES-17 exportToJsonl linearises the current branch with a fresh header (same id, no parentSession)", async () => {
  const t = await setup([text("a1"), text("a2"), text("a2b")]);
  try {
    const s = t.runtime.session;
    await s.prompt("q1");
    await s.prompt("q2");
    await s.navigateTree(entryId(s, "user", "q2"));
    await s.prompt("q2b");
    const path = s.exportToJsonl(join(t.env.root, "deep", "dir", "b.jsonl"));
    assertEquals(exportToJsonl(s, join(t.env.root, "again.jsonl")), join(t.env.root, "again.jsonl"));
    assertEquals(path, join(t.env.root, "deep", "dir", "b.jsonl"));
    const lines = await readSessionLines(path);
    assertEquals(Object.keys(lines[0]), ["type", "version", "id", "timestamp", "cwd"]);
    assertEquals([lines[0].id, lines[0].cwd, lines[0].version], [s.sessionId, t.env.cwd, 3]);
    const branch = s.sessionManager.getBranch();
    assertEquals(lines.length, branch.length + 1);
    for (let i = 1; i < lines.length; i++) {
      assertEquals(lines[i], { ...branch[i - 1], parentId: i === 1 ? null : branch[i - 2].id });
    }
    assert(!JSON.stringify(lines).includes('"a2"'));
    assertEquals(
      defaultJsonlExportName(new Date("2025-03-01T10:20:30.456Z")),
      "session-2025-03-01T10-20-30-456Z.jsonl",
    );
  } finally {
    await t.close();
  }
});
