/**
 * Token estimation and the compaction threshold (LOOP-11, LOOP-13 estimate rules).
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import type { AssistantMessage, Usage } from "../../src/ai/types.ts";
import {
  calculateContextTokens,
  DEFAULT_COMPACTION_SETTINGS,
  estimateContextTokens,
  estimateTokens,
  getLastAssistantUsage,
  shouldCompact,
} from "../../src/compaction/token_estimate.ts";
import type { SessionEntry } from "../../src/session/entries.ts";
import type { AgentMessage } from "../../src/session/messages.ts";

function usage(input: number, output: number, totalTokens: number, cacheRead = 0, cacheWrite = 0): Usage {
  return {
    input,
    output,
    cacheRead,
    cacheWrite,
    totalTokens,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
  };
}

function assistant(
  text: string,
  u: Usage,
  stopReason: AssistantMessage["stopReason"] = "stop",
): AssistantMessage {
  return {
    role: "assistant",
    content: [{ type: "text", text }],
    api: "anthropic-messages",
    provider: "anthropic",
    model: "m",
    usage: u,
    stopReason,
    timestamp: 1,
  };
}

Deno.test("LOOP-11 calculateContextTokens prefers totalTokens, else sums the parts", () => {
  assertEquals(calculateContextTokens(usage(10, 5, 100)), 100);
  assertEquals(calculateContextTokens(usage(10, 5, 0, 3, 2)), 20);
});

Deno.test("LOOP-13 estimateTokens: chars/4 rounded up; an image counts 4800 chars, in user messages too (1.6.0)", () => {
  assertEquals(estimateTokens({ role: "user", content: "abcde", timestamp: 0 }), 2);
  assertEquals(
    estimateTokens({
      role: "user",
      content: [{ type: "text", text: "abcd" }, { type: "image", data: "x", mimeType: "image/png" }],
      timestamp: 0,
    }),
    1201,
  );
  assertEquals(
    estimateTokens({
      role: "toolResult",
      toolCallId: "t",
      toolName: "read",
      content: [{ type: "text", text: "abcd" }, { type: "image", data: "x", mimeType: "image/png" }],
      isError: false,
      timestamp: 0,
    }),
    1201,
  );
  const a: AssistantMessage = {
    ...assistant("hi", usage(0, 0, 0)),
    content: [
      { type: "thinking", thinking: "hmm" },
      { type: "text", text: "ok" },
      { type: "toolCall", id: "c", name: "read", arguments: { path: "a.ts" } },
    ],
  };
  // 3 + 2 + 4 + len('{"path":"a.ts"}')=15 → 24 chars → 6
  assertEquals(estimateTokens(a), 6);
  assertEquals(
    estimateTokens({
      role: "bashExecution",
      command: "ls",
      output: "a\nb",
      exitCode: 0,
      cancelled: false,
      truncated: false,
      timestamp: 0,
    }),
    2,
  );
  assertEquals(
    estimateTokens({ role: "compactionSummary", summary: "x".repeat(9), tokensBefore: 1, timestamp: 0 }),
    3,
  );
});

Deno.test("LOOP-11 estimateContextTokens uses the last valid usage plus trailing estimates", () => {
  const msgs: AgentMessage[] = [
    { role: "user", content: "aaaa", timestamp: 0 },
    assistant("x", usage(100, 20, 120)),
    { role: "user", content: "a".repeat(40), timestamp: 0 },
    assistant("y", usage(999, 0, 999), "error"),
  ];
  assertEquals(estimateContextTokens(msgs), {
    tokens: 120 + 10 + 1,
    usageTokens: 120,
    trailingTokens: 11,
    lastUsageIndex: 1,
  });
  assertEquals(estimateContextTokens(msgs.slice(0, 1)), {
    tokens: 1,
    usageTokens: 0,
    trailingTokens: 1,
    lastUsageIndex: null,
  });
});

Deno.test("LOOP-11 getLastAssistantUsage skips aborted/error replies; shouldCompact threshold", () => {
  const entries: SessionEntry[] = [
    { type: "message", id: "a", parentId: null, timestamp: "", message: assistant("x", usage(1, 1, 7)) },
    {
      type: "message",
      id: "b",
      parentId: "a",
      timestamp: "",
      message: assistant("x", usage(1, 1, 9), "aborted"),
    },
    { type: "label", id: "c", parentId: "b", timestamp: "", targetId: "a", label: "l" },
  ];
  assertEquals(getLastAssistantUsage(entries)?.totalTokens, 7);
  assertEquals(getLastAssistantUsage([]), undefined);
  assertEquals(shouldCompact(200000 - 16384, 200000, DEFAULT_COMPACTION_SETTINGS), false);
  assertEquals(shouldCompact(200000 - 16383, 200000, DEFAULT_COMPACTION_SETTINGS), true);
  assertEquals(shouldCompact(10 ** 9, 200000, { ...DEFAULT_COMPACTION_SETTINGS, enabled: false }), false);
});
