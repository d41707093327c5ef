/**
 * `context_with_system` (pi 1.6.0): after the `context` handlers, which see the conversation
 * without `system` messages, these see the whole transcript and their result is sent as returned
 * (chained). Dropping the leading system message is reported and honoured. The real CLI in print
 * mode against the fake provider, compared with 1.6.0 run the same way.
 */
import { assertEquals } from "../support/assert.ts";
import { useReferenceFixtures } from "../support/spawn_pi.ts";
import { type ExtensionCase, fixture, MODEL, runExtensionCase } from "../e2e/extensions_harness.ts";

function scenario(dropSystem: boolean): ExtensionCase {
  return {
    args: ["-p", ...MODEL, "--no-session", "-e", fixture("ours/context-with-system.ts"), "hello"],
    turns: [{ content: [{ type: "text", text: "Answered." }] }],
    env: dropSystem ? { DROP_SYSTEM: "1" } : {},
  };
}

Deno.test("EXT-EVT-08 context_with_system sees the system message and rewrites what is sent, after context, chained, as 1.6.0", async () => {
  assertEquals(useReferenceFixtures(), false, "this test compares with the live reference 1.6.0");
  const ours = await runExtensionCase(scenario(false));
  assertEquals([ours.code, ours.stdout], [0, "Answered.\n"]);
  assertEquals(ours.stderr, [
    "context roles: user",
    "context_with_system roles: system,user",
    "second handler sees: rewritten with the system view",
  ]);
  assertEquals(ours.requests, [["user: rewritten with the system view"]]);
  const ref = await runExtensionCase(scenario(false), true);
  assertEquals([ours.stderr, ours.requests, ours.systemPrompts], [
    ref.stderr,
    ref.requests,
    ref.systemPrompts,
  ]);
});

Deno.test("EXT-EVT-09 a context_with_system handler that drops the leading system message is reported as 1.6.0 reports it; the request still carries the system prompt (1.6.0 sends none)", async () => {
  assertEquals(useReferenceFixtures(), false, "this test compares with the live reference 1.6.0");
  const ours = await runExtensionCase(scenario(true));
  const ref = await runExtensionCase(scenario(true), true);
  assertEquals(
    ours.stderr.at(-1),
    "Extension error ($PI_PACKAGE/tests/fixtures/extensions/ours/context-with-system.ts): Handler removed the leading system message; the request has no prompt or initial tool declarations. Keep it at index 0 or replace a dropped prefix with getCurrentSystemMessage().",
  );
  assertEquals([ours.code, ours.stdout, ours.stderr, ours.requests], [
    ref.code,
    ref.stdout,
    ref.stderr,
    ref.requests,
  ]);
  // The known difference (docs/extensions.md): our providers take the prompt from the session's
  // system prompt, not from the transcript's system message.
  assertEquals(ref.systemPrompts, [""]);
  assertEquals(ours.systemPrompts[0].startsWith("You are a coding assistant running inside pi"), true);
});
