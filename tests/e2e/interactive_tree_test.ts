/**
 * `/tree` in the interactive mode beside pi 1.6.0 (SES-18): a branch is made through the real CLI
 * (back to an earlier user message, which returns to the editor, and a new question from
 * there); the navigator then shows both branches with their connectors and folds, the user-only
 * and all filters, a search, a label set with Shift+L, branch-segment jumps, Escape leaving
 * everything as it was; a double Escape on the empty editor opens it too. Enter on the other
 * branch asks "Summarize branch?" (Escape there returns to the navigator, the custom prompt's
 * editor is cancelled back to the question), the summary is written, the chat shows the new
 * branch with its `[branch]` box, and the next prompt sends only that branch's history. The same
 * keystrokes run in our `pi` and in the reference, in tmux panes of the same size: screens,
 * session entries and the requests to the model must be equal. Further scripts: the treeFilterMode
 * setting and a summary cancelled while written; Ctrl+X and branchSummary.skipPrompt; custom
 * summary instructions and a summary the provider refuses; a move while a reply streams.
 */
import { assert, assertEquals } from "../support/assert.ts";
import type { ScriptedTurn } from "../support/fake_provider/mod.ts";
import { type InteractiveScenario, startInteractiveScenario } from "../support/interactive_scenario.ts";
import { assertSameScreens, runScriptedSession, type ScriptStep } from "../support/interactive_script.ts";

const TIMEOUTS = { start: 90_000, step: 30_000 };

const TURNS: ScriptedTurn[] = [
  { content: [{ type: "text", text: "Answer one." }] },
  { content: [{ type: "text", text: "Answer two." }] },
  { content: [{ type: "text", text: "Answer three." }] },
  // The branch summary.
  { content: [{ type: "text", text: "The branch left asked one more thing." }] },
  { content: [{ type: "text", text: "Answer four." }] },
];

/** The navigator is open. */
const TREE = (t: string) => t.includes("Session Tree") && t.includes("Type to search:");
/** The summary question is open. */
const QUESTION = (t: string) => t.includes("Summarize branch?") && t.includes("→ ");

const STEPS: ScriptStep[] = [
  { name: "start-up", act: async () => {}, ready: (t) => t.includes("(auto)") },
  { name: "first", act: (s) => s.pane.command("first question"), ready: (t) => t.includes(" Answer one.") },
  { name: "second", act: (s) => s.pane.command("second question"), ready: (t) => t.includes(" Answer two.") },
  { name: "tree", act: (s) => s.pane.command("/tree"), ready: (t) => TREE(t) && t.includes("(5/5)") },
  { name: "up", act: (s) => s.pane.keys("Up"), ready: (t) => t.includes("› • user: second question") },
  { name: "question", act: (s) => s.pane.keys("Enter"), ready: QUESTION },
  {
    name: "no summary",
    act: (s) => s.pane.keys("Enter"),
    ready: (t) => t.includes("Navigated to selected point") && t.includes("\nsecond question"),
  },
  {
    name: "third",
    act: async (s) => {
      await s.pane.keys("C-c");
      await s.pane.waitFor((t) => !t.includes("\nsecond question"), TIMEOUTS.step, "the cleared editor");
      await s.pane.command("third question");
    },
    ready: (t) => t.includes(" Answer three."),
  },
  { name: "branches", act: (s) => s.pane.command("/tree"), ready: (t) => TREE(t) && t.includes("(5/7)") },
  {
    name: "already here",
    act: (s) => s.pane.keys("Enter"),
    ready: (t) => t.includes("Already at this point") && !t.includes("Session Tree"),
  },
  {
    name: "double escape",
    act: async (s) => {
      // Two presses, each its own input (one write of both reads as Alt+Escape), 100 ms apart: within
      // the 500 ms double-press window, past the escape-sequence timeout. On a loaded machine a press
      // can still land outside the window, so a pair that opened nothing within 10 s is sent again.
      for (let attempt = 0; attempt < 3; attempt++) {
        await s.pane.keys("Escape");
        await new Promise((resolve) => setTimeout(resolve, 100));
        await s.pane.keys("Escape");
        const opened = await s.pane.waitFor((t) => TREE(t), 10_000, "the tree").then(() => true, () => false);
        if (opened) return;
      }
    },
    ready: (t) => TREE(t) && t.includes("(5/7)"),
  },
  { name: "user only", act: (s) => s.pane.keys("C-u"), ready: (t) => t.includes("(2/3) [user]") },
  { name: "all", act: (s) => s.pane.keys("C-a"), ready: (t) => t.includes("[all]") },
  {
    name: "search",
    act: async (s) => {
      await s.pane.keys("C-d");
      await s.pane.type("answer");
    },
    ready: (t) => t.includes("Type to search: answer") && t.includes("(1/3)"),
  },
  { name: "search cleared", act: (s) => s.pane.keys("Escape"), ready: (t) => t.includes("(3/7)") },
  {
    name: "label input",
    act: async (s) => {
      await s.pane.keys("Up");
      await s.pane.keys("S-l");
    },
    ready: (t) => t.includes("Label (empty to remove):"),
  },
  {
    name: "labelled",
    act: async (s) => {
      await s.pane.type("start");
      await s.pane.keys("Enter");
    },
    ready: (t) => t.includes("› • [start] user: first question"),
  },
  { name: "segment up", act: (s) => s.pane.keys("C-Left"), ready: (t) => t.includes("› • [system]") },
  {
    name: "segment down",
    act: (s) => s.pane.keys("C-Right"),
    ready: (t) => t.includes("› ├⊟ • user: third"),
  },
  { name: "fold", act: (s) => s.pane.keys("C-Left"), ready: (t) => t.includes("├⊞ • user: third") },
  { name: "unfold", act: (s) => s.pane.keys("C-Right"), ready: (t) => t.includes("├⊟ • user: third") },
  { name: "escaped", act: (s) => s.pane.keys("Escape"), ready: (t) => !t.includes("Session Tree") },
  {
    name: "other branch",
    act: async (s) => {
      await s.pane.command("/tree");
      await s.pane.waitFor(TREE, TIMEOUTS.step, "the navigator");
      await s.pane.keys("Down", "Down");
    },
    ready: (t) => t.includes("›       assistant: Answer two.") && t.includes("(7/7)"),
  },
  { name: "question again", act: (s) => s.pane.keys("Enter"), ready: QUESTION },
  { name: "back to tree", act: (s) => s.pane.keys("Escape"), ready: (t) => TREE(t) && t.includes("(7/7)") },
  {
    name: "custom prompt",
    act: async (s) => {
      await s.pane.keys("Enter");
      await s.pane.waitFor(QUESTION, TIMEOUTS.step, "the question");
      await s.pane.keys("Down", "Down", "Enter");
    },
    ready: (t) => t.includes("Custom summarization instructions"),
  },
  {
    name: "custom cancelled",
    act: (s) => s.pane.keys("Escape"),
    ready: (t) => QUESTION(t) && t.includes("→ No summary"),
  },
  {
    name: "summarized",
    act: async (s) => {
      await s.pane.keys("Down");
      await s.pane.keys("Enter");
    },
    ready: (t) => t.includes("Navigated to selected point") && t.includes("Branch summary ("),
  },
  { name: "expanded", act: (s) => s.pane.keys("C-o"), ready: (t) => t.includes("Branch Summary") },
  {
    name: "fourth",
    act: (s) => s.pane.command("fourth question"),
    ready: (t) => t.includes(" Answer four."),
  },
];

/** A session file's entries with ids and times masked (the system prompt left out: it names the temp folder). */
function normalizeEntries(lines: Record<string, unknown>[]): unknown[] {
  const ids = new Map(lines.map((l, i) => [l.id, `<entry ${i}>`]));
  const masked = (id: unknown) => ids.get(id) ?? id;
  return lines.filter((l) => l.type !== "session").map((l) => {
    const message = l.message as { role?: string; content?: unknown } | undefined;
    return {
      type: l.type,
      id: masked(l.id),
      parentId: masked(l.parentId),
      ...(message
        ? { role: message.role, content: message.role === "system" ? "<system>" : message.content }
        : {}),
      ...(l.type === "label" ? { targetId: masked(l.targetId), label: l.label } : {}),
      ...(l.type === "branch_summary"
        ? { fromId: masked(l.fromId), summary: l.summary, details: l.details }
        : {}),
    };
  });
}

async function runScript(reference: boolean) {
  const s = await startInteractiveScenario(TURNS, { reference, height: 40 });
  try {
    const { screens, sessionLines } = await runScriptedSession(s, STEPS, TIMEOUTS);
    const requests = s.server.requests.map((r) => (r.body as { messages: unknown }).messages);
    return { screens, entries: normalizeEntries(sessionLines), requests };
  } finally {
    await s.close();
  }
}

Deno.test("INT-TREE: /tree draws the session's branches, filters, searches, labels and folds them, and moves to another branch with or without a summary, as pi 1.6.0 does (SES-18)", async () => {
  const ours = await runScript(false);
  const reference = await runScript(true);
  assertSameScreens(STEPS, ours.screens, reference.screens);
  assertEquals(ours.entries, reference.entries);
  assertEquals(ours.requests, reference.requests);

  // What the user sees and what reaches the model, spelled out.
  const branches = ours.screens[STEPS.findIndex((s) => s.name === "branches")];
  assert(
    branches.includes(
      [
        "  • [system]",
        "  • user: first question",
        "  • assistant: Answer one.",
        "  ├⊟ • user: third question",
        "› │     • assistant: Answer three.",
        "  └⊟ user: second question",
        "        assistant: Answer two.",
        "  (5/7)",
      ].join("\n"),
    ),
    branches,
  );
  const types = (ours.entries as { type: string }[]).map((e) => e.type);
  assertEquals(types.filter((t) => t === "label").length, 1, "one label entry (Shift+L)");
  assertEquals(types.filter((t) => t === "branch_summary").length, 1, "one summary (the second move)");
  const last = JSON.stringify(ours.requests[ours.requests.length - 1]);
  assert(last.includes("second question") && last.includes("Answer two."), "the new branch's history");
  assert(!last.includes("third question") && !last.includes("Answer three."), "not the branch left");
  assert(last.includes("The branch left asked one more thing."), "the summary of the branch left");
});

/** The user-only filter from the settings, and a summary cancelled with Escape while it is written. */
const CANCEL_TURNS: ScriptedTurn[] = [
  { content: [{ type: "text", text: "Answer one." }] },
  { content: [{ type: "text", text: "Answer two." }] },
  // The summary: slow enough to be cancelled.
  { content: [{ type: "text", text: "Never shown." }], chunkDelayMs: 4_000 },
  { content: [{ type: "text", text: "Answer three." }] },
];

const CANCEL_STEPS: ScriptStep[] = [
  { name: "start-up", act: async () => {}, ready: (t) => t.includes("(auto)") },
  { name: "first", act: (s) => s.pane.command("first question"), ready: (t) => t.includes(" Answer one.") },
  { name: "second", act: (s) => s.pane.command("second question"), ready: (t) => t.includes(" Answer two.") },
  {
    name: "user-only tree",
    act: (s) => s.pane.command("/tree"),
    ready: (t) => t.includes("› • user: second question") && t.includes("(2/2) [user]"),
  },
  {
    name: "summarizing",
    act: async (s) => {
      await s.pane.keys("Up", "Enter");
      await s.pane.waitFor(QUESTION, TIMEOUTS.step, "the question");
      await s.pane.keys("Down", "Enter");
    },
    ready: (t) => t.includes("Summarizing branch... (escape to cancel)"),
  },
  {
    name: "cancelled",
    act: (s) => s.pane.keys("Escape"),
    ready: (t) => t.includes("Branch summarization cancelled") && t.includes("› • user: first question"),
  },
  { name: "closed", act: (s) => s.pane.keys("Escape"), ready: (t) => !t.includes("Session Tree") },
  { name: "third", act: (s) => s.pane.command("third question"), ready: (t) => t.includes(" Answer three.") },
];

Deno.test("INT-TREE: the treeFilterMode setting opens the navigator filtered; Escape while the branch summary is written cancels it and nothing moves, as pi 1.6.0 does", async () => {
  const run = async (reference: boolean) => {
    const s = await startInteractiveScenario(CANCEL_TURNS, {
      reference,
      height: 40,
      settings: { treeFilterMode: "user-only" },
    });
    try {
      const { screens, sessionLines } = await runScriptedSession(s, CANCEL_STEPS, TIMEOUTS);
      const requests = s.server.requests.map((r) => (r.body as { messages: unknown }).messages);
      return { screens, entries: normalizeEntries(sessionLines), requests };
    } finally {
      await s.close();
    }
  };
  const ours = await run(false);
  const reference = await run(true);
  assertSameScreens(CANCEL_STEPS, ours.screens, reference.screens);
  assertEquals(ours.entries, reference.entries);
  assertEquals(ours.requests.length, 4, "two prompts, the cancelled summary, the third prompt");
  assertEquals(ours.requests, reference.requests);
  assert(
    !(ours.entries as { type: string }[]).some((e) => e.type === "branch_summary"),
    "no summary written",
  );
  const last = JSON.stringify(ours.requests[3]);
  assert(last.includes("second question") && last.includes("Answer two."), "the leaf did not move");
});

/** Ctrl+X copies the selected entry; with branchSummary.skipPrompt Enter moves at once, without the question. */
const SKIP_STEPS: ScriptStep[] = [
  { name: "start-up", act: async () => {}, ready: (t) => t.includes("(auto)") },
  { name: "first", act: (s) => s.pane.command("first question"), ready: (t) => t.includes(" Answer one.") },
  { name: "second", act: (s) => s.pane.command("second question"), ready: (t) => t.includes(" Answer two.") },
  { name: "tree", act: (s) => s.pane.command("/tree"), ready: (t) => TREE(t) && t.includes("(5/5)") },
  {
    name: "copied",
    act: (s) => s.pane.keys("C-x"),
    ready: (t) => t.includes("Copied selected message to clipboard") && TREE(t),
  },
  {
    name: "moved",
    act: (s) => s.pane.keys("Up", "Enter"),
    ready: (t) => t.includes("Navigated to selected point") && t.includes("\nsecond question"),
  },
  // The editor emptied, so that /quit is not appended to the message.
  { name: "cleared", act: (s) => s.pane.keys("C-c"), ready: (t) => !t.includes("\nsecond question") },
];

Deno.test("INT-TREE: Ctrl+X copies the selected entry; with branchSummary.skipPrompt Enter moves without asking, the message back in the editor, as pi 1.6.0 does", async () => {
  const run = async (reference: boolean) => {
    const s = await startInteractiveScenario(TURNS, {
      reference,
      height: 30,
      settings: { branchSummary: { skipPrompt: true } },
    });
    try {
      return (await runScriptedSession(s, SKIP_STEPS, TIMEOUTS)).screens;
    } finally {
      await s.close();
    }
  };
  const ours = await run(false);
  assertSameScreens(SKIP_STEPS, ours, await run(true));
  assert(!ours.some((screen) => screen.includes("Summarize branch?")), "no question");
});

/** Custom summary instructions, a summary the provider refuses, then one it writes. */
const CUSTOM_TURNS: ScriptedTurn[] = [
  { content: [{ type: "text", text: "Answer one." }] },
  { content: [{ type: "text", text: "Answer two." }] },
  { content: [], fault: { kind: "http", status: 400, message: "summary refused" } },
  { content: [{ type: "text", text: "Numbers were discussed." }] },
  { content: [{ type: "text", text: "Answer three." }] },
];

/** Opens /tree, selects the second question and asks for a summary with `instructions`. */
async function summarizeWith(s: InteractiveScenario, instructions: string): Promise<void> {
  await s.pane.command("/tree");
  await s.pane.waitFor(TREE, TIMEOUTS.step, "the navigator");
  await s.pane.keys("Up", "Enter");
  await s.pane.waitFor(QUESTION, TIMEOUTS.step, "the question");
  await s.pane.keys("Down", "Down", "Enter");
  await s.pane.waitFor((t) => t.includes("Custom summarization instructions"), TIMEOUTS.step, "the editor");
  await s.pane.type(instructions);
  await s.pane.keys("Enter");
}

const CUSTOM_STEPS: ScriptStep[] = [
  { name: "start-up", act: async () => {}, ready: (t) => t.includes("(auto)") },
  { name: "first", act: (s) => s.pane.command("first question"), ready: (t) => t.includes(" Answer one.") },
  { name: "second", act: (s) => s.pane.command("second question"), ready: (t) => t.includes(" Answer two.") },
  {
    name: "refused",
    act: (s) => summarizeWith(s, "Focus on numbers"),
    ready: (t) => t.includes("Error: ") && t.includes("summary refused"),
  },
  {
    name: "summarized",
    act: (s) => summarizeWith(s, "Keep it short"),
    ready: (t) => t.includes("Navigated to selected point") && t.includes("\nsecond question"),
  },
  {
    name: "third",
    act: async (s) => {
      await s.pane.keys("C-c");
      await s.pane.waitFor((t) => !t.includes("\nsecond question"), TIMEOUTS.step, "the cleared editor");
      await s.pane.command("third question");
    },
    ready: (t) => t.includes(" Answer three."),
  },
];

Deno.test("INT-TREE: custom summary instructions reach the model; a summary the provider refuses shows its error and moves nothing, as pi 1.6.0", async () => {
  const run = async (reference: boolean) => {
    const s = await startInteractiveScenario(CUSTOM_TURNS, { reference, height: 40 });
    try {
      const { screens, sessionLines } = await runScriptedSession(s, CUSTOM_STEPS, TIMEOUTS);
      const requests = s.server.requests.map((r) => (r.body as { messages: unknown }).messages);
      return { screens, entries: normalizeEntries(sessionLines), requests };
    } finally {
      await s.close();
    }
  };
  const ours = await run(false);
  const reference = await run(true);
  assertSameScreens(CUSTOM_STEPS, ours.screens, reference.screens);
  assertEquals(ours.entries, reference.entries);
  assertEquals(ours.requests, reference.requests);
  assertEquals(ours.requests.length, 5);
  assert(JSON.stringify(ours.requests[2]).includes("Focus on numbers"), "the first instructions");
  assert(JSON.stringify(ours.requests[3]).includes("Keep it short"), "the second instructions");
  const summaries = (ours.entries as { type: string }[]).filter((e) => e.type === "branch_summary");
  assertEquals(summaries.length, 1, "only the summary written");
});

/** /tree while a reply streams: moving stops the reply first. */
const STREAM_TURNS: ScriptedTurn[] = [
  { content: [{ type: "text", text: "Answer one." }] },
  // Slow enough that nothing of it has arrived when the move aborts it.
  { content: [{ type: "text", text: "Never shown." }], chunkDelayMs: 6_000 },
  { content: [{ type: "text", text: "Answer three." }] },
];

const STREAM_STEPS: ScriptStep[] = [
  { name: "start-up", act: async () => {}, ready: (t) => t.includes("(auto)") },
  { name: "first", act: (s) => s.pane.command("first question"), ready: (t) => t.includes(" Answer one.") },
  {
    name: "tree while streaming",
    act: async (s) => {
      await s.pane.command("second question");
      await s.pane.waitFor((t) => t.includes("Working"), TIMEOUTS.step, "the working indicator");
      await s.pane.command("/tree");
    },
    ready: (t) => TREE(t) && t.includes("› • user: second question"),
  },
  {
    name: "moved while streaming",
    act: async (s) => {
      await s.pane.keys("Up", "Enter");
      await s.pane.waitFor(QUESTION, TIMEOUTS.step, "the question");
      await s.pane.keys("Enter");
    },
    ready: (t) => t.includes("Navigated to selected point") && !t.includes("Working"),
  },
  { name: "third", act: (s) => s.pane.command("third question"), ready: (t) => t.includes(" Answer three.") },
];

Deno.test("INT-TREE: moving in /tree while a reply streams aborts the reply first, as pi 1.6.0", async () => {
  const run = async (reference: boolean) => {
    const s = await startInteractiveScenario(STREAM_TURNS, { reference, height: 40 });
    try {
      const { screens, sessionLines } = await runScriptedSession(s, STREAM_STEPS, TIMEOUTS);
      const requests = s.server.requests.map((r) => (r.body as { messages: unknown }).messages);
      return { screens, entries: normalizeEntries(sessionLines), requests };
    } finally {
      await s.close();
    }
  };
  const ours = await run(false);
  const reference = await run(true);
  assertSameScreens(STREAM_STEPS, ours.screens, reference.screens);
  assertEquals(ours.entries, reference.entries);
  assertEquals(ours.requests, reference.requests);
  const last = JSON.stringify(ours.requests[ours.requests.length - 1]);
  assert(last.includes("Answer one.") && !last.includes("second question"), "the branch moved to");
});
