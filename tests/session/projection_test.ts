/**
 * pi 1.6.0 session semantics: the system prompt as persisted system messages (full, then
 * patches), `context_edit` entries, `usage` entries, compaction checkpoints and retain-none
 * compaction, and the projection order path → compaction → context edits.
 */
import { deepStrictEqual as assertEquals, throws as assertThrows } from "node:assert/strict";
import { SessionManager } from "../../src/session/session_manager.ts";
import {
  diffSystemPromptSections,
  getCurrentSystemMessage,
  getCurrentSystemPrompt,
  getCurrentTools,
  type SystemMessage,
  systemMessageUpdate,
} from "../../src/session/system_message.ts";
import { convertToLlm } from "../../src/session/messages.ts";
import { computeSessionStats } from "../../src/session/session_stats.ts";
import { assistantMessage, userMessage } from "./support/sample_messages.ts";
import type { Tool, Usage } from "../../src/ai/types.ts";

const read: Tool = { name: "read", description: "Read", parameters: { type: "object" } };
const write: Tool = { name: "write", description: "Write", parameters: { type: "object" } };
const usage: Usage = {
  input: 0,
  output: 0,
  cacheRead: 500,
  cacheWrite: 0,
  totalTokens: 500,
  cost: { input: 0, output: 0, cacheRead: 0.01, cacheWrite: 0, total: 0.01 },
};

const first: SystemMessage = {
  role: "system",
  content: "",
  sections: { preamble: "You help.", tools: "<tools>\n- read\n</tools>", cwd: "<cwd>\n/p\n</cwd>" },
  timestamp: 1,
  toolsAdded: [read, write],
};

const texts = (sm: SessionManager) =>
  sm.buildSessionContext().messages.map((m) => {
    if (m.role === "system") return `system:${getCurrentSystemPrompt([m])}`;
    if (m.role === "compactionSummary") return `compactionSummary:${m.summary}`;
    const c = (m as { content: unknown }).content;
    return `${m.role}:${
      typeof c === "string"
        ? c
        : (c as { type: string; text?: string }[]).map((b) => b.text ?? `[${b.type}]`).join("")
    }`;
  });

Deno.test("SESS-1.6 system messages replay: later messages patch sections by name (null removes) and tools", () => {
  const patch: SystemMessage = {
    role: "system",
    content: "",
    sections: { tools: null, skills: "<skills>\nx\n</skills>", cwd: "<cwd>\n/q\n</cwd>" },
    timestamp: 2,
    toolsRemoved: [{ name: "write" }],
  };
  const messages = [first, userMessage("hi"), patch];
  assertEquals(getCurrentSystemPrompt(messages), "You help.\n\n<cwd>\n/q\n</cwd>\n\n<skills>\nx\n</skills>");
  assertEquals(getCurrentTools(messages).map((t) => t.name), ["read"]);
  assertEquals(getCurrentSystemMessage(messages), {
    role: "system",
    content: "",
    sections: { preamble: "You help.", cwd: "<cwd>\n/q\n</cwd>", skills: "<skills>\nx\n</skills>" },
    toolsAdded: [read],
    timestamp: 1,
  });
  assertEquals(getCurrentSystemMessage([userMessage("no prompt")]), undefined);
  // A forced prompt lives in content with no sections; later content is appended.
  assertEquals(
    getCurrentSystemPrompt([{ role: "system", content: "Forced.", timestamp: 1 } as SystemMessage, {
      role: "system",
      content: [{ type: "text", text: "More." }],
      timestamp: 2,
    } as SystemMessage]),
    "Forced.\n\nMore.",
  );
});

Deno.test("SESS-1.6 systemMessageUpdate: the whole prompt first, then only what changed, nothing when unchanged", () => {
  const sections = { preamble: "You help.", cwd: "<cwd>\n/p\n</cwd>" };
  const full = systemMessageUpdate([], sections, [read], 10)!;
  assertEquals(
    JSON.stringify(full),
    JSON.stringify({
      role: "system",
      content: "",
      sections,
      timestamp: 10,
      toolsAdded: [read],
    }),
  );
  assertEquals(systemMessageUpdate([full], sections, [read], 11), undefined);
  const changed = systemMessageUpdate([full], { preamble: "You help." }, [read, write], 12)!;
  assertEquals(changed, {
    role: "system",
    content: "",
    sections: { cwd: null },
    timestamp: 12,
    toolsAdded: [write],
  });
  assertEquals(diffSystemPromptSections({ a: "1" }, { a: "1" }), undefined);
  // A changed definition is a removal plus an addition.
  const changedRead = { ...read, description: "Read files" };
  assertEquals(systemMessageUpdate([full], sections, [changedRead], 13), {
    role: "system",
    content: "",
    timestamp: 13,
    toolsAdded: [changedRead],
    toolsRemoved: [{ name: "read" }],
  });
});

Deno.test("SESS-1.6 system messages are persisted entries, in context, and never sent as chat messages", () => {
  const sm = SessionManager.inMemory("/p");
  sm.appendMessage(first);
  sm.appendMessage(userMessage("q"));
  assertEquals(sm.buildSessionContext().messages.map((m) => m.role), ["system", "user"]);
  assertEquals(sm.getCurrentSystemMessage()?.sections?.preamble, "You help.");
  assertEquals(convertToLlm(sm.buildSessionContext().messages).map((m) => m.role), ["user"]);
});

Deno.test("SESS-1.6 context_edit: null omits the target, a replacement swaps content, the latest edit wins, per branch", () => {
  const sm = SessionManager.inMemory("/p");
  const u = sm.appendMessage(userMessage("q"));
  const failed = sm.appendMessage({
    ...assistantMessage("partial"),
    stopReason: "error",
    errorMessage: "boom",
  });
  const branchPoint = sm.getLeafId()!;
  const edit = sm.appendContextEdit(failed, null);
  sm.appendMessage(assistantMessage("retried"));
  assertEquals(texts(sm), ["user:q", "assistant:retried"]);
  assertEquals(sm.getEntry(edit), {
    ...sm.getEntry(edit)!,
    type: "context_edit",
    targetId: failed,
    replacement: null,
  });
  // The raw entry is untouched; projection lists the source entries.
  assertEquals(sm.getEntry(failed)!.type, "message");
  const projection = sm.buildSessionProjection();
  assertEquals(projection.entries.map((p) => [p.sourceEntry.type, p.messages.length]), [
    ["message", 1],
    ["message", 0],
    ["context_edit", 0],
    ["message", 1],
  ]);
  // A string replacement becomes one text block for assistant messages; a later edit wins.
  sm.appendContextEdit(failed, { content: "summarised" });
  sm.appendContextEdit(u, { content: "question" });
  assertEquals(texts(sm), ["user:question", "assistant:summarised", "assistant:retried"]);
  const lastEdit = sm.getEntries().filter((e) => e.type === "context_edit").at(-2)!;
  assertEquals((lastEdit as { replacement: unknown }).replacement, {
    content: [{ type: "text", text: "summarised" }],
  });
  // Going back before the edits shows the original again.
  sm.branch(branchPoint);
  assertEquals(texts(sm), ["user:q", "assistant:partial"]);
});

Deno.test("SESS-1.6 context_edit refuses targets it cannot edit, with the reference's messages", () => {
  const sm = SessionManager.inMemory("/p");
  const sys = sm.appendMessage(first);
  const u = sm.appendMessage(userMessage("q"));
  const other = sm.appendModelChange("a", "b");
  assertThrows(() => sm.appendContextEdit("nope", null), /^Error: Entry nope not found$/);
  assertThrows(
    () => sm.appendContextEdit(sys, null),
    new RegExp(`^Error: Entry ${sys} does not contribute editable model content$`),
  );
  assertThrows(() => sm.appendContextEdit(other, null), /does not contribute editable model content/);
  assertThrows(
    // deno-lint-ignore no-explicit-any
    () => sm.appendContextEdit(u, { text: "x" } as any),
    /^Error: Context edit replacement must be null or contain string\/array content$/,
  );
  sm.branch(sys);
  assertThrows(
    () => sm.appendContextEdit(u, null),
    new RegExp(`^Error: Entry ${u} is not on the active branch$`),
  );
});

Deno.test("SESS-1.6 usage entries: returned whole, out of context, note only when given", () => {
  const sm = SessionManager.inMemory("/p");
  sm.appendMessage(userMessage("q"));
  const entry = sm.appendUsage("cache_warm", "anthropic", "claude", usage);
  assertEquals(Object.keys(entry), [
    "type",
    "id",
    "parentId",
    "timestamp",
    "kind",
    "provider",
    "model",
    "usage",
  ]);
  const noted = sm.appendUsage("other", "p", "m", usage, "why");
  assertEquals(noted.note, "why");
  assertEquals(sm.buildSessionContext().messages.length, 1);
  assertEquals(sm.getEntryCount(), 3);
});

Deno.test("SESS-1.6 compaction stores the replayed system checkpoint; kept system messages give way to it", () => {
  const sm = SessionManager.inMemory("/p");
  sm.appendMessage(first);
  sm.appendMessage(userMessage("one"));
  sm.appendMessage(assistantMessage("one answer"));
  const kept = sm.appendMessage(userMessage("two"));
  sm.appendMessage({ role: "system", content: "", sections: { cwd: "<cwd>\n/q\n</cwd>" }, timestamp: 5 });
  sm.appendMessage(assistantMessage("two answer"));
  const id = sm.appendCompaction("sum", kept, 1000, { readFiles: [] }, undefined, usage);
  const entry = sm.getEntry(id) as unknown as Record<string, unknown>;
  assertEquals(Object.keys(entry), [
    "type",
    "id",
    "parentId",
    "timestamp",
    "summary",
    "firstKeptEntryId",
    "tokensBefore",
    "details",
    "usage",
    "fromHook",
    "systemMessage",
  ]);
  const checkpoint = entry.systemMessage as SystemMessage;
  assertEquals(checkpoint.sections!.cwd, "<cwd>\n/q\n</cwd>");
  assertEquals(checkpoint.timestamp, new Date(entry.timestamp as string).getTime());
  sm.appendMessage(userMessage("three"));
  assertEquals(texts(sm), [
    "system:You help.\n\n<tools>\n- read\n</tools>\n\n<cwd>\n/q\n</cwd>",
    "compactionSummary:sum",
    "user:two",
    "assistant:two answer",
    "user:three",
  ]);
});

Deno.test("SESS-1.6 retain-none compaction names itself as first kept entry and keeps nothing before it", () => {
  const sm = SessionManager.inMemory("/p");
  sm.appendMessage(userMessage("one"));
  sm.appendMessage(assistantMessage("one answer"));
  const id = sm.appendCompaction("all gone", undefined, 10);
  assertEquals((sm.getEntry(id) as { firstKeptEntryId: string }).firstKeptEntryId, id);
  // No system message on the path: no checkpoint field at all.
  assertEquals("systemMessage" in sm.getEntry(id)!, false);
  sm.appendMessage(userMessage("next"));
  assertEquals(sm.buildSessionContext().messages.map((m) => m.role), ["compactionSummary", "user"]);
});

Deno.test("SESS-1.6 session names lose line breaks; chosen session ids are validated", () => {
  const sm = SessionManager.inMemory("/p", { id: "my.session-1" });
  assertEquals(sm.getSessionId(), "my.session-1");
  sm.appendSessionInfo("  two\r\nlines \n");
  assertEquals(sm.getSessionName(), "two lines");
  for (const bad of ["", "-x", "x-", "a/b", "a b"]) {
    assertThrows(
      () => sm.newSession({ id: bad }),
      /^Error: Session id must be non-empty, contain only alphanumeric characters, '-', '_', and '\.', and start and end with an alphanumeric character$/,
    );
  }
});

Deno.test("SESS-1.6 createBranchedSession re-chains entries that hung off a dropped label", () => {
  const sm = SessionManager.inMemory("/p");
  const u = sm.appendMessage(userMessage("q"));
  sm.appendLabelChange(u, "mark");
  const a = sm.appendMessage(assistantMessage("a"));
  sm.createBranchedSession(a);
  const entries = sm.getEntries();
  assertEquals(entries.map((e) => e.type), ["message", "message", "label"]);
  assertEquals(entries[1].parentId, u);
  assertEquals(sm.buildSessionContext().messages.length, 2);
});

Deno.test("SESS-1.6 session stats count every entry: usage entries, summary usage, tool-result usage, system messages", () => {
  const sm = SessionManager.inMemory("/p");
  sm.appendMessage(first);
  sm.appendMessage(userMessage("q"));
  sm.appendMessage({
    ...assistantMessage(""),
    content: [{ type: "toolCall", id: "c1", name: "read", arguments: {} }],
    stopReason: "toolUse",
  });
  sm.appendMessage(
    {
      role: "toolResult",
      toolCallId: "c1",
      toolName: "read",
      content: [],
      isError: false,
      timestamp: 1,
      usage,
    } as Parameters<SessionManager["appendMessage"]>[0],
  );
  sm.appendUsage("cache_warm", "anthropic", "claude", usage);
  sm.appendCompaction("s", undefined, 1, undefined, undefined, usage);
  assertEquals(computeSessionStats(sm.getEntries()), {
    userMessages: 1,
    assistantMessages: 1,
    toolCalls: 1,
    toolResults: 1,
    totalMessages: 4,
    // One assistant message (10 in, 5 out) plus three times the cache read usage.
    tokens: { input: 10, output: 5, cacheRead: 1500, cacheWrite: 0, total: 1515 },
    cost: 0.03,
  });
});
