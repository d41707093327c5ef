/**
 * The interactive mode's variants end to end in tmux (issue 11): the regular (main-screen) mode,
 * quietStartup, the tmux keyboard warning of pi 1.6.0, /new, resuming with -c, and thinking levels
 * of a reasoning model in the footer and the editor border.
 */
import { assert, assertEquals, assertMatch } from "../support/assert.ts";
import type { ScriptedTurn } from "../support/fake_provider/mod.ts";
import { spawnPi } from "../support/spawn_pi.ts";
import { summarizeSent } from "./interop.ts";
import {
  cursorVisible,
  type InteractiveScenario,
  shellQuote,
  startInteractiveScenario,
  sttyAfterExit,
} from "../support/interactive_scenario.ts";

const START_TIMEOUT = 60_000;
const STEP_TIMEOUT = 30_000;

const answer = (text: string): ScriptedTurn => ({ content: [{ type: "text", text }] });

async function startPi(s: InteractiveScenario, args: string[] = [], prefix = ""): Promise<string> {
  await s.pane.command(`clear; ${prefix}${s.piCommand(args)}`);
  return await s.pane.waitFor((t) => t.includes("(auto)"), START_TIMEOUT, "pi's footer");
}

async function quit(s: InteractiveScenario): Promise<void> {
  await s.pane.command("/quit");
  await s.pane.waitFor((t) => /\$ ?$/.test(t), STEP_TIMEOUT, "the shell prompt");
}

Deno.test("INT-10: --tui-mode regular draws on the main screen and leaves the transcript in the terminal after /quit", async () => {
  const s = await startInteractiveScenario([answer("Regular reply.")]);
  try {
    const start = await startPi(s, ["--tui-mode", "regular"]);
    // The main screen grows from the top: the editor follows the header, not the bottom row.
    const lines = start.split("\n");
    assertEquals(lines.slice(0, 2), ["", " ▀▀█  v1.6.0"]);
    assert(lines.length < 15, start);
    await s.pane.command("hello");
    await s.pane.waitFor((t) => t.includes(" Regular reply."), STEP_TIMEOUT, "the reply");
    await quit(s);
    const after = await s.pane.screen();
    assert(after.includes(" hello\n") && after.includes(" Regular reply."), after);
    const stty = await sttyAfterExit(s.pane);
    assertEquals(stty.split("\n").filter((l) => /^-?(icanon|echo)$/.test(l)), ["icanon", "echo"]);
    assert(await cursorVisible(s.pane));
  } finally {
    await s.close();
  }
});

Deno.test('INT-11: quietStartup true shows no header; "header" keeps it without the loaded-resources mention', async () => {
  for (
    const [quiet, expected] of [[true, undefined], [
      "header",
      " Press ctrl+o to show full startup help.",
    ]] as const
  ) {
    const s = await startInteractiveScenario([], { settings: { quietStartup: quiet } });
    try {
      const screen = await startPi(s);
      if (expected === undefined) {
        assert(!screen.includes("v1.6.0") && !screen.includes("ctrl+o more"), screen);
      } else {
        assert(screen.split("\n").includes(expected), screen);
      }
      await quit(s);
    } finally {
      await s.close();
    }
  }
});

Deno.test("INT-12: inside tmux with extended-keys off, pi warns as 1.6.0 does", async () => {
  const s = await startInteractiveScenario([], { extendedKeys: false });
  try {
    await startPi(s, [], `TMUX=${shellQuote(s.pane.tmuxVariable)} `);
    const screen = await s.pane.waitFor((t) => t.includes("Warning: tmux"), STEP_TIMEOUT, "the tmux warning");
    assert(
      screen.includes(
        " Warning: tmux extended-keys is off. Modified Enter keys may not work. Add `set -g extended-keys\n on` to ~/.tmux.conf and restart tmux.",
      ),
      screen,
    );
    await quit(s);
  } finally {
    await s.close();
  }
});

Deno.test("INT-13: /new starts an empty chat in a new session file; -c reopens the last session with its messages", async () => {
  const s = await startInteractiveScenario([answer("First answer."), answer("Second answer.")]);
  try {
    await startPi(s);
    await s.pane.command("first question");
    await s.pane.waitFor((t) => t.includes(" First answer."), STEP_TIMEOUT, "the first answer");
    await s.pane.command("/new");
    const screen = await s.pane.waitFor((t) => t.includes("✓ New session started"), STEP_TIMEOUT, "/new");
    assert(!screen.includes("First answer."), screen);
    await s.pane.command("second question");
    await s.pane.waitFor((t) => t.includes(" Second answer."), STEP_TIMEOUT, "the second answer");
    await quit(s);
    assertEquals((await s.agent.sessionFiles()).length, 2);

    await startPi(s, ["-c"]);
    const resumed = await s.pane.waitFor(
      (t) => t.includes(" Second answer."),
      STEP_TIMEOUT,
      "the resumed chat",
    );
    assert(resumed.includes(" second question\n"), resumed);
    assert(!resumed.includes("First answer."), resumed);
    await quit(s);
  } finally {
    await s.close();
  }
});

Deno.test("INT-14: a reasoning model shows its thinking level in the footer; /thinking high and shift+tab change it", async () => {
  const s = await startInteractiveScenario([], {
    reasoning: true,
    settings: { defaultThinkingLevel: "off" },
  });
  try {
    const start = await startPi(s);
    assertMatch(start, /\(fake-anthropic\) test-model • thinking off$/);
    // As in 1.6.0, the first Enter takes the completion the popup offers, the second submits.
    await s.pane.type("/thinking high");
    await s.pane.waitFor((t) => t.includes("→ high"), STEP_TIMEOUT, "the argument completion");
    await s.pane.keys("Enter");
    await s.pane.waitFor((t) => !t.includes("→ high"), STEP_TIMEOUT, "the completion taken");
    await s.pane.keys("Enter");
    let screen = await s.pane.waitFor(
      (t) => t.includes(" Thinking level: high"),
      STEP_TIMEOUT,
      "/thinking high",
    );
    assertMatch(screen, /test-model • high$/);
    await s.pane.keys("BTab");
    screen = await s.pane.waitFor((t) => !/Thinking level: high$/m.test(t), STEP_TIMEOUT, "the next level");
    // high is the last level the model has: the cycle starts over at off.
    assertMatch(screen, / Thinking level: off\n[\s\S]*test-model • thinking off$/);
    await quit(s);
  } finally {
    await s.close();
  }
});

Deno.test("INT-15: a session written in interactive mode (with a tool call) loads in pi 1.6.0, which sends its whole history", async () => {
  const s = await startInteractiveScenario([
    { content: [{ type: "toolCall", name: "bash", arguments: { command: "echo from-interactive" } }] },
    answer("Ran it."),
    answer("Continued by 1.6.0."),
  ], { settings: { defaultProvider: "fake-openai" } });
  try {
    await startPi(s);
    await s.pane.command("run the command");
    await s.pane.waitFor((t) => t.includes(" Ran it."), STEP_TIMEOUT, "the reply after the tool call");
    await quit(s);
    const ref = await spawnPi(["-c", "-p", "and now?"], {
      env: s.agent.env,
      cwd: s.agent.cwd,
      reference: true,
    });
    assertEquals([ref.code, ref.stdout], [0, "Continued by 1.6.0.\n"], ref.stderr);
    const sent = summarizeSent(s.server.requests[s.server.requests.length - 1].body);
    assertEquals(sent, [
      "user:run the command",
      "assistant:[bash]",
      "tool:from-interactive\n",
      "assistant:Ran it.",
      "user:and now?",
    ]);
  } finally {
    await s.close();
  }
});
