/**
 * The compaction helpers mod.ts exports under pi 1.6.0's SDK names, used as an SDK user would
 * (imported from mod.ts). Expected values were checked against 1.6.0's own functions
 * (dist/core/compaction/compaction.js) on the same inputs.
 */
import { assertEquals } from "../support/assert.ts";
import {
  type AssistantMessage,
  estimateProjectedContextTokens,
  getSummarizationFailure,
  SessionManager,
} from "../../mod.ts";
import { assistantMessage, userMessage } from "../session/support/sample_messages.ts";

const reply = (extra: Partial<AssistantMessage>): AssistantMessage => ({
  ...assistantMessage("s"),
  ...extra,
});

Deno.test("LOOP-14 SDK-1.6 getSummarizationFailure: cut-off and failed replies are refused with 1.6.0's texts", () => {
  assertEquals(
    getSummarizationFailure(reply({ stopReason: "length" }), "Summarization"),
    "Summarization failed: generation hit the token cap and the summary is incomplete",
  );
  assertEquals(
    getSummarizationFailure(reply({ stopReason: "error", errorMessage: "boom" }), "Branch summarization"),
    "Branch summarization failed: boom",
  );
  assertEquals(
    getSummarizationFailure(reply({ stopReason: "error" }), "Summarization"),
    "Summarization failed: Unknown error",
  );
  for (const stopReason of ["stop", "aborted", "toolUse"] as const) {
    assertEquals(getSummarizationFailure(reply({ stopReason }), "Summarization"), undefined);
  }
});

Deno.test("LOOP-11 SDK-1.6 estimateProjectedContextTokens trusts usage only when reported after the latest compaction", () => {
  const sm = SessionManager.inMemory("/p");
  const questionId = sm.appendMessage(userMessage("a question of some length"));
  sm.appendMessage(assistantMessage("an answer"));
  const estimate = () => estimateProjectedContextTokens(sm.buildSessionProjection(), sm.getBranch());
  // The reply's usage (10 in, 5 out) is the context size.
  assertEquals(estimate(), { tokens: 15, usageTokens: 15, trailingTokens: 0, lastUsageIndex: 1 });

  sm.appendCompaction("## Goal\nAnswer the question.", questionId, 15);
  // That usage described the context before the compaction: everything is estimated (chars/4).
  // chars/4 rounded up: the summary (28 chars: 7), the kept question (25: 7) and answer (9: 3).
  assertEquals(estimate(), { tokens: 17, usageTokens: 0, trailingTokens: 17, lastUsageIndex: null });

  sm.appendMessage(userMessage("next"));
  sm.appendMessage(assistantMessage("next answer", 1_700_000_009_000));
  assertEquals(estimate(), { tokens: 15, usageTokens: 15, trailingTokens: 0, lastUsageIndex: 4 });
});
