/**
 * Compaction and branch-summary behaviour beyond the captured scenarios: exact serialization
 * and file-list texts, refusal cases of prepareCompaction, and failure/abort results of the LLM
 * calls (LOOP-13, LOOP-14, SES-18).
 */
import { deepStrictEqual as assertEquals, ok as assert, rejects } from "node:assert/strict";
import { compact, generateSummary, prepareCompaction } from "../../src/compaction/compaction.ts";
import { generateBranchSummary } from "../../src/compaction/branch_summarization.ts";
import {
  computeFileLists,
  createFileOps,
  extractFileOpsFromMessage,
  formatFileOperations,
} from "../../src/compaction/file_tracking.ts";
import { serializeConversation, truncateForSummary } from "../../src/compaction/serialize.ts";
import { DEFAULT_COMPACTION_SETTINGS } from "../../src/compaction/token_estimate.ts";
import type { AssistantMessage } from "../../src/ai/types.ts";
import type { SessionEntry } from "../../src/session/entries.ts";
import { startFakeProvider } from "../support/fake_provider/mod.ts";
import { waitFor } from "../support/wait_for.ts";
import { API_KEY, loadSession, model } from "./support.ts";

function toolCalls(...calls: [string, Record<string, unknown>][]): AssistantMessage {
  return {
    role: "assistant",
    content: calls.map(([name, args], i) => ({ type: "toolCall", id: `c${i}`, name, arguments: args })),
    api: "anthropic-messages",
    provider: "anthropic",
    model: "m",
    usage: {
      input: 0,
      output: 0,
      cacheRead: 0,
      cacheWrite: 0,
      totalTokens: 0,
      cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
    },
    stopReason: "toolUse",
    timestamp: 0,
  };
}

Deno.test("LOOP-13 serializeConversation labels, tool-call args and 2000-char tool result cut", () => {
  const long = "x".repeat(2005);
  const text = serializeConversation([
    { role: "user", content: "", timestamp: 0 },
    { role: "user", content: [{ type: "text", text: "a" }, { type: "text", text: "b" }], timestamp: 0 },
    { ...toolCalls(["read", { path: "a.ts", limit: 5 }], ["bash", { command: "ls" }]) },
    {
      role: "toolResult",
      toolCallId: "c0",
      toolName: "read",
      content: [{ type: "text", text: long }],
      isError: false,
      timestamp: 0,
    },
  ]);
  assertEquals(
    text,
    `[User]: ab\n\n[Assistant tool calls]: read(path="a.ts", limit=5); bash(command="ls")\n\n[Tool result]: ${
      "x".repeat(2000)
    }\n\n[... 5 more characters truncated]`,
  );
  assertEquals(truncateForSummary("abc", 3), "abc");
});

Deno.test("LOOP-13 file lists: modified wins over read, sorted, formatted as XML blocks", () => {
  const ops = createFileOps();
  extractFileOpsFromMessage(
    toolCalls(["read", { path: "b.ts" }], ["read", { path: "a.ts" }], ["edit", { path: "b.ts" }], [
      "write",
      { path: "c.ts" },
    ], ["bash", { path: "ignored.ts" }]),
    ops,
  );
  const lists = computeFileLists(ops);
  assertEquals(lists, { readFiles: ["a.ts"], modifiedFiles: ["b.ts", "c.ts"] });
  assertEquals(
    formatFileOperations(lists.readFiles, lists.modifiedFiles),
    "\n\n<read-files>\na.ts\n</read-files>\n\n<modified-files>\nb.ts\nc.ts\n</modified-files>",
  );
  assertEquals(formatFileOperations([], ["x"]), "\n\n<modified-files>\nx\n</modified-files>");
  assertEquals(formatFileOperations([], []), "");
});

Deno.test("LOOP-14 prepareCompaction refuses a path ending in a compaction and an empty path", () => {
  const entries = loadSession("compacted");
  const compaction = entries.find((e) => e.type === "compaction")!;
  const upToCompaction = entries.slice(0, entries.indexOf(compaction) + 1);
  assertEquals(prepareCompaction(upToCompaction, DEFAULT_COMPACTION_SETTINGS), undefined);
  assertEquals(prepareCompaction([], DEFAULT_COMPACTION_SETTINGS), undefined);
});

Deno.test("LOOP-14 a failed summarization request rejects with 'Summarization failed: …'", async () => {
  const server = await startFakeProvider([{ fault: { kind: "http", status: 400, message: "bad prompt" } }]);
  try {
    await rejects(
      generateSummary(
        [{ role: "user", content: "hi", timestamp: 0 }],
        model(server.url),
        16384,
        API_KEY,
      ),
      (e: Error) => e.message.startsWith("Summarization failed: ") && e.message.includes("bad prompt"),
    );
  } finally {
    await server.close();
  }
});

Deno.test("LOOP-14 split turn: a failed turn-prefix request rejects with 'Turn prefix summarization failed: …'", async () => {
  const prep = prepareCompaction(loadSession("split"), {
    ...DEFAULT_COMPACTION_SETTINGS,
    keepRecentTokens: 2000,
  })!;
  assert(prep.isSplitTurn);
  const server2 = await startFakeProvider([{
    fault: { kind: "http", status: 400, message: "prefix broke" },
  }]);
  try {
    await rejects(
      compact({ ...prep, messagesToSummarize: [] }, model(server2.url), API_KEY),
      (e: Error) =>
        e.message.startsWith("Turn prefix summarization failed: ") && e.message.includes("prefix broke"),
    );
    // With nothing before the turn only the prefix request is sent.
    assertEquals(server2.requests.length, 1);
  } finally {
    await server2.close();
  }
});

Deno.test("SES-18 generateBranchSummary: nothing to summarize, provider error, abort", async () => {
  const signal = new AbortController().signal;
  const empty = await generateBranchSummary([], {
    model: model("http://127.0.0.1:9"),
    apiKey: API_KEY,
    signal,
  });
  assertEquals(empty, { summary: "No content to summarize" });

  const entries: SessionEntry[] = [
    {
      type: "message",
      id: "a",
      parentId: null,
      timestamp: "2025-01-01T00:00:00.000Z",
      message: { role: "user", content: "try X", timestamp: 0 },
    },
  ];
  const server = await startFakeProvider([
    { fault: { kind: "http", status: 400, message: "nope" } },
    { content: [{ type: "text", text: "slow" }], fault: { kind: "stall", afterChunks: 1 } },
  ]);
  try {
    const failed = await generateBranchSummary(entries, {
      model: model(server.url),
      apiKey: API_KEY,
      signal,
    });
    assertEquals(Object.keys(failed), ["error"]);
    assert(failed.error!.includes("nope"));

    const controller = new AbortController();
    const pending = generateBranchSummary(entries, {
      model: model(server.url),
      apiKey: API_KEY,
      signal: controller.signal,
    });
    await waitFor(() => server.requests.length >= 2, 10_000, "the summary request", 5);
    controller.abort();
    assertEquals(await pending, { aborted: true });
  } finally {
    await server.close();
  }
});

Deno.test("LOOP-07 LOOP-14 a transient summary failure is retried under the retry settings, with callbacks (1.6.0)", async () => {
  const turns = () => [
    { fault: { kind: "http" as const, status: 503, message: "Service temporarily overloaded" } },
    { content: [{ type: "text" as const, text: "## Goal\nRetried." }], usage: { input: 10, output: 2 } },
  ];
  const calls: unknown[][] = [];
  const callbacks = {
    onRetryScheduled: (...args: unknown[]) => void calls.push(["scheduled", ...args]),
    onRetryAttemptStart: () => void calls.push(["attempt_start"]),
    onRetryFinished: (...args: unknown[]) => void calls.push(["finished", ...args]),
  };
  const messages = [{ role: "user" as const, content: "hi", timestamp: 0 }];
  const retry = { enabled: true, maxRetries: 2, baseDelayMs: 5 };
  const summarizeWith = (url: string, policy: typeof retry, cb?: typeof callbacks) =>
    generateSummary(
      messages,
      model(url),
      16384,
      API_KEY,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      policy,
      cb,
    );
  let server = await startFakeProvider(turns());
  try {
    const text = await summarizeWith(server.url, retry, callbacks);
    assertEquals(text, "## Goal\nRetried.");
    assertEquals(server.requests.length, 2);
    const scheduled = calls[0] as [string, number, number, number, string];
    assertEquals(scheduled.slice(0, 4), ["scheduled", 1, 2, 5]);
    assert(scheduled[4].includes("Service temporarily overloaded"));
    assertEquals(calls.slice(1), [["attempt_start"], ["finished", true, 1]]);
  } finally {
    await server.close();
  }
  // Retrying off: the first failure is final.
  server = await startFakeProvider(turns());
  try {
    const off = { ...retry, enabled: false };
    await rejects(
      summarizeWith(server.url, off),
      (e: Error) => e.message.startsWith("Summarization failed: 503"),
    );
    assertEquals(server.requests.length, 1);
  } finally {
    await server.close();
  }
});

Deno.test("LOOP-14 a summary that is cut off or calls a tool is refused (1.6.0)", async () => {
  const messages = [{ role: "user" as const, content: "hi", timestamp: 0 }];
  const server = await startFakeProvider([
    { content: [{ type: "text", text: "## Goal\nCut" }], stopReason: "length" },
    { content: [{ type: "toolCall", id: "t1", name: "read", arguments: { path: "a" } }] },
  ]);
  try {
    await rejects(
      generateSummary(messages, model(server.url), 16384, API_KEY),
      { message: "Summarization failed: generation hit the token cap and the summary is incomplete" },
    );
    await rejects(
      generateSummary(messages, model(server.url), 16384, API_KEY),
      { message: "Summarization attempted to call a tool" },
    );
  } finally {
    await server.close();
  }
});
