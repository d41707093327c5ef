/**
 * Writes a new session from scratch with our SessionManager: system prompt messages, branches, a
 * branch summary, labels, compaction (one keeping nothing), a context edit, a usage entry, custom
 * entries and a bash run. Usage: deno run -A write_session.ts <dir>
 * (prints the file path).
 *
 * @module
 */
import { SessionManager } from "../../../src/session/session_manager.ts";
import { assistantMessage, bashMessage, sampleUsage, userMessage } from "./sample_messages.ts";

/** Builds the sample session in `dir` and returns its file path. */
export function writeSampleSession(dir: string, cwd = "/home/user/deno-project"): string {
  const sm = SessionManager.create(cwd, dir);
  sm.appendModelChange("anthropic", "claude-sonnet-4-5");
  sm.appendThinkingLevelChange("medium");
  sm.appendMessage({
    role: "system",
    content: "",
    sections: { preamble: "You help.", cwd: `<cwd>\n${cwd}\n</cwd>` },
    timestamp: 1_699_999_999_000,
    toolsAdded: [{ name: "read", description: "Read a file", parameters: { type: "object" } }],
  });
  const u1 = sm.appendMessage(userMessage("first question"));
  const a1 = sm.appendMessage(assistantMessage("first answer"));
  sm.appendMessage(userMessage("abandoned question"));
  sm.appendMessage(assistantMessage("abandoned answer"));
  sm.branchWithSummary(a1, "tried something else", { files: [] });
  sm.appendMessage(bashMessage());
  sm.appendMessage(bashMessage(true));
  sm.appendCustomEntry("state", { counter: 2 });
  sm.appendCustomMessageEntry("note", [{ type: "text", text: "extension note" }], false);
  const u2 = sm.appendMessage(userMessage("second question"));
  sm.appendMessage(assistantMessage("second answer"));
  sm.appendLabelChange(u1, "start");
  sm.appendLabelChange(u2, "later");
  sm.appendLabelChange(u2, undefined);
  sm.appendCompaction("summary of early work", u2, 1234, { readFiles: ["a.ts"] }, undefined, sampleUsage());
  sm.appendMessage({ role: "system", content: "", sections: { cwd: null }, timestamp: 1_700_000_003_000 });
  sm.appendMessage(userMessage("after compaction"));
  const failed = sm.appendMessage({
    ...assistantMessage("failed"),
    stopReason: "error",
    errorMessage: "boom",
  });
  sm.appendContextEdit(failed, null);
  sm.appendMessage(assistantMessage("after compaction answer"));
  sm.appendUsage("cache_warm", "anthropic", "claude-sonnet-4-5", sampleUsage(), "idle keep-alive");
  sm.appendCompaction("nothing kept", undefined, 99);
  sm.appendMessage(userMessage("after retain-none"));
  sm.appendSessionInfo("deno written");
  return sm.getSessionFile()!;
}

if (import.meta.main) {
  console.log(writeSampleSession(Deno.args[0]));
}
