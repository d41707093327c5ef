/** LOOP-15: how coding-agent message kinds reach the LLM. */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { bashExecutionToText, convertToLlm } from "../../src/session/messages.ts";

Deno.test("LOOP-15 bash runs, summaries and custom messages become user text; !! runs are dropped", () => {
  const base = {
    role: "bashExecution" as const,
    command: "make",
    cancelled: false,
    truncated: false,
    timestamp: 5,
  };
  assertEquals(bashExecutionToText({ ...base, output: "", exitCode: 0 }), "Ran `make`\n(no output)");
  assertEquals(
    bashExecutionToText({ ...base, output: "err", exitCode: 2, truncated: true, fullOutputPath: "/t/o" }),
    "Ran `make`\n```\nerr\n```\n\nCommand exited with code 2\n\n[Output truncated. Full output: /t/o]",
  );
  assertEquals(
    bashExecutionToText({ ...base, output: "x", exitCode: undefined, cancelled: true }),
    "Ran `make`\n```\nx\n```\n\n(command cancelled)",
  );
  const out = convertToLlm([
    { ...base, output: "", exitCode: 0, excludeFromContext: true },
    { role: "custom", customType: "t", content: "hi", display: true, timestamp: 1 },
    { role: "branchSummary", summary: "B", fromId: "x", timestamp: 2 },
    { role: "compactionSummary", summary: "C", tokensBefore: 9, timestamp: 3 },
  ]);
  assertEquals(out, [
    { role: "user", content: [{ type: "text", text: "hi" }], timestamp: 1 },
    {
      role: "user",
      content: [{
        type: "text",
        text:
          "The following is a summary of a branch that this conversation came back from:\n\n<summary>\nB</summary>",
      }],
      timestamp: 2,
    },
    {
      role: "user",
      content: [{
        type: "text",
        text:
          "The conversation history before this point was compacted into the following summary:\n\n<summary>\nC\n</summary>",
      }],
      timestamp: 3,
    },
  ]);
});
