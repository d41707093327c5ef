/**
 * Opens an existing session file with our SessionManager and appends one entry of each kind
 * (pi 1.6.0's system prompt patch, context edit and usage entry included).
 * Used by tests and by scripts/capture/sessions_reference.mjs (which then loads the result with
 * the reference to record its verdict). Usage: deno run -A append_fixture.ts <file>
 *
 * @module
 */
import { SessionManager } from "../../../src/session/session_manager.ts";
import { assistantMessage, bashMessage, sampleUsage, userMessage } from "./sample_messages.ts";

/** Appends the fixed set of entries to the session at `file`; returns the new entry ids. */
export function appendSampleEntries(file: string): string[] {
  const sm = SessionManager.open(file);
  const first = sm.getEntries()[0];
  const ids = [
    sm.appendMessage({
      role: "system",
      content: "",
      sections: { addendum: "<addendum>\nappended by deno\n</addendum>" },
      timestamp: 1_700_000_000_500,
    }),
    sm.appendMessage(userMessage("appended question")),
    sm.appendMessage(assistantMessage("appended answer")),
  ];
  ids.push(
    sm.appendContextEdit(ids[2], { content: "edited answer" }),
    sm.appendUsage("cache_warm", "anthropic", "claude-sonnet-4-5", sampleUsage()).id,
    sm.appendModelChange("openai", "gpt-5"),
    sm.appendThinkingLevelChange("high"),
    sm.appendMessage(bashMessage()),
    sm.appendCustomMessageEntry("deno-ext", "custom text", true, { n: 1 }),
    sm.appendSessionInfo("  appended by deno  "),
  );
  if (first) ids.push(sm.appendLabelChange(first.id, "deno-label"));
  return ids;
}

if (import.meta.main) {
  console.log(JSON.stringify(appendSampleEntries(Deno.args[0])));
}
