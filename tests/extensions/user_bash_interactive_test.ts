/**
 * `user_bash` in the interactive mode (issue 16): `!cmd` typed in the editor goes to the
 * extension's handlers first. An answered command shows the extension's output, a throwing handler
 * blocks the command (its error is shown, nothing runs), and an ignored one runs in the local
 * shell. Our `pi` and pi 1.6.0 run the same script in tmux panes of the same size; the screens up
 * to the blocked command and the session's bash entries must be equal. The blocked command's
 * screen is not compared: 1.6.0 prints the handler's stack (Node frames, absolute paths) under the
 * error, we print the error alone.
 */
import { assertEquals } from "../support/assert.ts";
import { readSessionLines } from "../support/agent_env.ts";
import { startInteractiveScenario } from "../support/interactive_scenario.ts";
import { assertSameScreens, collectScreens, type ScriptStep } from "../support/interactive_script.ts";
import { fixture } from "../e2e/extensions_harness.ts";

const TIMEOUTS = { start: 90_000, step: 30_000 };

const STEPS: ScriptStep[] = [
  { name: "start-up", act: async () => {}, ready: (t) => t.includes("ctrl+o more") && t.includes("(auto)") },
  {
    name: "answered by the extension",
    act: (s) => s.pane.command("!remote ls -la"),
    ready: (t) => t.includes("handled ls -la (excluded: false)"),
  },
  {
    name: "run locally",
    act: (s) => s.pane.command("!echo ran-$((40+2))"),
    ready: (t) => t.includes("ran-42"),
  },
  {
    name: "blocked by a throwing handler",
    act: (s) => s.pane.command("!explode"),
    // The error wraps at the pane width; 1.6.0 prints the handler's stack after it, which may push the
    // message off the screen. Its frames' paths (the reference's install folder) wrap anywhere, so the
    // stack is told by a file name with all whitespace taken out.
    ready: (t) =>
      t.replace(/\s+/g, " ").includes("user_bash handler exploded") ||
      /pi-tui\/dist\/[a-z-]+\.js:\d+/.test(t.replace(/\s+/g, "")),
  },
  { name: "prompt", act: (s) => s.pane.command("what ran?"), ready: (t) => t.includes(" Seen.") },
];

async function run(reference: boolean): Promise<{ screens: string[]; bash: unknown[]; context: unknown[] }> {
  const s = await startInteractiveScenario([{ content: [{ type: "text", text: "Seen." }] }], {
    reference,
  });
  try {
    await s.pane.command(`clear; ${s.piCommand(["-e", fixture("ours/user-bash.ts")])}`);
    const screens = await collectScreens(s, STEPS, TIMEOUTS);
    await s.pane.command("/quit");
    await s.pane.waitFor((t) => /\$ ?$/.test(t), TIMEOUTS.step, "the shell after exit");
    const files = await s.agent.sessionFiles();
    const lines = files.length === 1 ? await readSessionLines(files[0]) : [];
    const bash = lines.flatMap((l) => {
      const message = l.message as Record<string, unknown> | undefined;
      return message?.role === "bashExecution"
        ? [{ command: message.command, output: message.output, exitCode: message.exitCode }]
        : [];
    });
    // What the model was told: the commands that ran, then the prompt.
    const context = s.server.requests.map((r) =>
      (r.body as { messages: { role: string; content: unknown }[] }).messages.filter((m) => m.role === "user")
    );
    return { screens, bash, context };
  } finally {
    await s.close();
  }
}

Deno.test("EXT-EVT-06 user_bash in the interactive mode: !cmd answered, blocked by a throwing handler, run locally, as pi 1.6.0", async () => {
  const ours = await run(false);
  const reference = await run(true);
  // Up to the blocked command.
  const compared = STEPS.length - 2;
  assertSameScreens(
    STEPS.slice(0, compared),
    ours.screens.slice(0, compared),
    reference.screens.slice(0, compared),
  );
  const blocked = ours.screens[compared].replace(/\s+/g, " ");
  assertEquals(
    /Extension "[^"]*user-bash\.ts" error: user_bash handler exploded/.test(blocked),
    true,
    ours.screens[compared],
  );
  assertEquals(ours.bash, [
    { command: "remote ls -la", output: "handled ls -la (excluded: false)\n", exitCode: 0 },
    { command: "echo ran-$((40+2))", output: "ran-42\n", exitCode: 0 },
  ]);
  assertEquals(ours.bash, reference.bash);
  assertEquals(ours.context, reference.context);
});
