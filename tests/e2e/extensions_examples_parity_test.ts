/**
 * Parity with pi 1.6.0 for its single-file example extensions: each one listed below is loaded
 * with `-e` into a JSON-mode run of one standard script (a bash call, then an answer), and ours
 * must show the same JSON records, session lines, requests, exit code and stderr as 1.6.0 running
 * the same extension. Examples not listed differ for a reason given in NOT_COMPARED. The
 * behaviour each example documents is tested on its own in extensions_e2e_test.ts where it shows
 * outside the interactive mode.
 */
import { join } from "node:path";
import { assertEquals } from "../support/assert.ts";
import { useReferenceFixtures } from "../support/spawn_pi.ts";
import { requireReference } from "../../scripts/reference/locate.ts";
import { MODEL, runExtensionCase } from "./extensions_harness.ts";

/** Examples whose run matches 1.6.0 record for record. */
const SAME = [
  "auto-commit-on-exit.ts",
  "bookmark.ts",
  "border-status-editor.ts",
  "built-in-tool-renderer.ts",
  "claude-rules.ts",
  "commands.ts",
  "confirm-destructive.ts",
  "custom-compaction.ts",
  "custom-footer.ts",
  "custom-header.ts",
  "debug-provider.ts",
  "dirty-repo-guard.ts",
  "dynamic-tools.ts",
  "entry-renderer.ts",
  "event-bus.ts",
  "file-trigger.ts",
  "git-checkpoint.ts",
  "git-merge-and-resolve.ts",
  "github-issue-autocomplete.ts",
  "handoff.ts",
  "hello.ts",
  "hidden-thinking-label.ts",
  "inline-bash.ts",
  "input-transform-streaming.ts",
  "input-transform.ts",
  "interactive-shell.ts",
  "jev-router.ts",
  "mac-system-theme.ts",
  "message-renderer.ts",
  "minimal-mode.ts",
  "modal-editor.ts",
  "model-status.ts",
  "overlay-qa-tests.ts",
  "overlay-test.ts",
  "permission-gate.ts",
  "pirate.ts",
  "preset.ts",
  "prompt-customizer.ts",
  "project-trust.ts",
  "protected-paths.ts",
  "provider-payload.ts",
  "qna.ts",
  "question.ts",
  "questionnaire.ts",
  "rainbow-editor.ts",
  "reload-runtime.ts",
  "rpc-demo.ts",
  "send-user-message.ts",
  "session-name.ts",
  "shutdown-command.ts",
  "snake.ts",
  "space-invaders.ts",
  "status-line.ts",
  "structured-output.ts",
  "summarize.ts",
  "system-prompt-header.ts",
  "tic-tac-toe.ts",
  "timed-confirm.ts",
  "titlebar-spinner.ts",
  "todo.ts",
  "tool-override.ts",
  "tools.ts",
  "trigger-compact.ts",
  "truncated-tool.ts",
  "widget-placement.ts",
  "working-indicator.ts",
  "working-message-test.ts",
];

/** The other single-file examples, and why they are not compared here. */
export const NOT_COMPARED: Record<string, string> = {
  "bash-spawn-hook.ts":
    "whether bash's stderr line about a missing ~/.profile is captured varies run to run, in 1.6.0 too",
  "notify.ts":
    "writes a terminal notification to process.stdout, which 1.6.0 redirects to stderr in print/JSON mode",
  "ssh.ts": "spreads the built-in tools: ours carry their prompt guidelines, 1.6.0's createXTool do not",
};

Deno.test("EXT-PARITY every single-file example is either compared with 1.6.0 or listed with its reason", () => {
  const dir = join(requireReference().packageDir, "examples", "extensions");
  const files = [...Deno.readDirSync(dir)].filter((e) => e.isFile && e.name.endsWith(".ts")).map((e) =>
    e.name
  );
  assertEquals([...SAME, ...Object.keys(NOT_COMPARED)].sort(), files.sort());
});

for (const name of SAME) {
  Deno.test(`EXT-PARITY ${name}: the standard JSON-mode run matches 1.6.0`, async () => {
    assertEquals(useReferenceFixtures(), false, "these tests compare with the live reference 1.6.0");
    const path = join(requireReference().packageDir, "examples", "extensions", name);
    const c = {
      args: ["--mode", "json", "-ne", ...MODEL, "-e", path, "list the files"],
      turns: [
        {
          content: [{ type: "toolCall" as const, id: "c1", name: "bash", arguments: { command: "echo hi" } }],
        },
        { content: [{ type: "text" as const, text: "There is one." }] },
      ],
    };
    const ours = await runExtensionCase(c);
    const ref = await runExtensionCase(c, true);
    assertEquals(ours.code, ref.code, ours.stderr.join("\n"));
    assertEquals(ours.stderr, ref.stderr);
    assertEquals(ours.requests, ref.requests);
    assertEquals(ours.json, ref.json);
    assertEquals(ours.session, ref.session);
  });
}
