/**
 * The interactive mode end to end (issue 11): the real `pi` in a tmux pane against the fake
 * provider, typed at with send-keys and read with capture-pane. Start-up screen, a streamed reply
 * with thinking, a tool call collapsed and expanded, abort with Escape, steering and follow-up
 * while a reply streams, slash commands, and the terminal given back in cooked mode with the
 * cursor shown after /quit, Ctrl+C twice, Ctrl+D, SIGTERM and SIGHUP.
 */
import { assert, assertEquals, assertMatch } from "../support/assert.ts";
import type { ScriptedTurn } from "../support/fake_provider/mod.ts";
import {
  cursorVisible,
  type InteractiveScenario,
  startInteractiveScenario,
  sttyAfterExit,
} from "../support/interactive_scenario.ts";

const START_TIMEOUT = 60_000;
const STEP_TIMEOUT = 30_000;

const REPLY: ScriptedTurn = {
  content: [
    { type: "thinking", thinking: "Let me think about it." },
    { type: "text", text: "Hello **world**! Here is a list:\n\n- one\n- two\n" },
  ],
  usage: { input: 1200, output: 345 },
};
const TOOL_CALL: ScriptedTurn = {
  content: [{ type: "toolCall", name: "bash", arguments: { command: "echo hi-from-tool" } }],
  usage: { input: 10, output: 5 },
};
const DONE: ScriptedTurn = { content: [{ type: "text", text: "Done." }] };
/** A reply that stops after its first words and waits until the client goes away. */
const STALLED: ScriptedTurn = {
  content: [{ type: "text", text: "partial answer that never ends" }],
  deltaSize: 7,
  fault: { kind: "stall", afterChunkContaining: "partial" },
};

/** The start-up screen at 100×30 (fullscreen: the editor and footer at the bottom). */
const START_SCREEN = [
  "",
  " ▀▀█  v1.6.0",
  " █▀ █ escape interrupt · ctrl+c/ctrl+d clear/exit · / commands · ! bash · ctrl+o more",
  " Press ctrl+o to show full startup help and loaded resources.",
  "",
  " Pi can explain its own features and look up its docs. Ask it how to use or extend Pi.",
  ...Array(19).fill(""),
  "─".repeat(100),
  "",
  "─".repeat(100),
  "<root>/project",
  "0.0%/200k (auto)" + " ".repeat(57) + "(fake-anthropic) test-model",
].join("\n");

async function startPi(s: InteractiveScenario, args: string[] = []): Promise<string> {
  await s.pane.command(`clear; ${s.piCommand(args)}`);
  return await s.pane.waitFor(
    (t) => t.includes("ctrl+o more") && t.includes("(auto)"),
    START_TIMEOUT,
    "pi's editor",
  );
}

/** After pi exited: the shell prompt is back, the tty in cooked mode with echo, the cursor shown. */
async function assertTerminalRestored(s: InteractiveScenario, exitCode: number): Promise<void> {
  await s.pane.waitFor((t) => /\$ ?$/.test(t), STEP_TIMEOUT, "the shell prompt after pi exited");
  await s.pane.command("echo exit=$?");
  await s.pane.waitFor((t) => /exit=\d+/.test(t), STEP_TIMEOUT, "the exit code");
  assertMatch(await s.pane.screen(), new RegExp(`exit=${exitCode}\\b`));
  const stty = await sttyAfterExit(s.pane);
  const flags = stty.split("\n").filter((l) => /^-?(icanon|echo)$/.test(l));
  assertEquals(flags, ["icanon", "echo"], stty);
  assert(await cursorVisible(s.pane), "the cursor is visible");
}

Deno.test("INT-01..04: start-up screen, streamed reply with thinking, tool call (ctrl+o expands), Escape aborts, /quit restores the terminal", async () => {
  const s = await startInteractiveScenario([REPLY, TOOL_CALL, DONE, STALLED]);
  try {
    const start = await startPi(s);
    assertEquals(s.normalized(await s.pane.settle(400) || start), START_SCREEN);

    await s.pane.command("hello");
    let screen = await s.pane.waitFor(
      (t) => t.includes("- two") && t.includes("↑1.2k"),
      STEP_TIMEOUT,
      "the reply",
    );
    assert(screen.includes("\n hello\n"), screen);
    assert(
      screen.includes("\n Let me think about it.\n\n Hello world! Here is a list:\n\n - one\n - two\n"),
      screen,
    );
    assertMatch(screen, /↑1\.2k ↓345 \$0\.009 0\.8%\/200k \(auto\) +\(fake-anthropic\) test-model$/);

    await s.pane.command("run tool");
    screen = await s.pane.waitFor((t) => t.includes(" Done."), STEP_TIMEOUT, "the reply after the tool call");
    assert(
      s.normalized(screen).includes("\n $ echo hi-from-tool\n\n hi-from-tool\n\n Took <t>\n\n\n Done.\n"),
      screen,
    );

    await s.pane.keys("C-o");
    await s.pane.waitFor((t) => t.includes(" Tool output: expanded"), STEP_TIMEOUT, "the expanded notice");

    await s.pane.command("slow");
    await s.pane.waitFor(
      (t) => t.includes("partial") && t.includes("Working"),
      STEP_TIMEOUT,
      "the stalled reply",
    );
    await s.pane.keys("Escape");
    screen = await s.pane.waitFor(
      (t) => t.includes(" Operation aborted") && !t.includes("Working"),
      STEP_TIMEOUT,
      "the abort",
    );

    await s.pane.command("/quit");
    await assertTerminalRestored(s, 0);
    const [file] = await s.agent.sessionFiles();
    const lines = (await Deno.readTextFile(file)).trim().split("\n").map((l) => JSON.parse(l));
    const users = lines.filter((l) => l.type === "message" && l.message.role === "user");
    assertEquals(users.map((l) => l.message.content[0].text), ["hello", "run tool", "slow"]);
  } finally {
    await s.close();
  }
});

Deno.test("INT-05: Ctrl+C clears the editor, twice exits; Ctrl+D on an empty editor exits; both restore the terminal", async () => {
  const s = await startInteractiveScenario([]);
  try {
    await startPi(s);
    await s.pane.type("draft text");
    await s.pane.waitFor((t) => t.includes("\ndraft text"), STEP_TIMEOUT, "the typed text");
    await s.pane.keys("C-c");
    await s.pane.waitFor((t) => !t.includes("draft text"), STEP_TIMEOUT, "the cleared editor");
    await new Promise((r) => setTimeout(r, 700));
    await s.pane.keys("C-c", "C-c");
    await assertTerminalRestored(s, 0);

    await startPi(s);
    await s.pane.type("x");
    await s.pane.waitFor((t) => t.includes("\nx\n"), STEP_TIMEOUT, "the typed x");
    // Ctrl+D deletes nothing and does not exit while the editor has text.
    await s.pane.keys("BSpace", "C-d");
    await assertTerminalRestored(s, 0);
  } finally {
    await s.close();
  }
});

for (const [signal, code] of [["SIGTERM", 143], ["SIGHUP", 129]] as const) {
  Deno.test(`INT-06: ${signal} ends pi with ${code} and restores the terminal`, async () => {
    const s = await startInteractiveScenario([]);
    try {
      await startPi(s);
      const shell = await s.pane.panePid();
      const out = await new Deno.Command("pgrep", { args: ["-P", String(shell)], stdout: "piped" }).output();
      const pids = new TextDecoder().decode(out.stdout).trim().split("\n").filter(Boolean).map(Number);
      assertEquals(pids.length, 1, "one child of the shell: pi");
      Deno.kill(pids[0], signal);
      await assertTerminalRestored(s, code);
    } finally {
      await s.close();
    }
  });
}

Deno.test("INT-07: steering (Enter) and follow-up (Alt+Enter) while a reply streams are queued; Escape puts them back in the editor", async () => {
  const s = await startInteractiveScenario([STALLED]);
  try {
    await startPi(s);
    await s.pane.command("slow");
    await s.pane.waitFor((t) => t.includes("partial"), STEP_TIMEOUT, "the stalled reply");
    await s.pane.command("steer me");
    await s.pane.waitFor((t) => t.includes(" Steering: steer me"), STEP_TIMEOUT, "the steering message");
    await s.pane.type("later");
    await s.pane.keys("M-Enter");
    const screen = await s.pane.waitFor(
      (t) => t.includes(" Follow-up: later"),
      STEP_TIMEOUT,
      "the follow-up",
    );
    assert(screen.includes(" ↳ Alt+Up to edit all queued messages"), screen);
    await s.pane.keys("Escape");
    const after = await s.pane.waitFor((t) => t.includes(" Operation aborted"), STEP_TIMEOUT, "the abort");
    assert(!after.includes("Steering:"), after);
    assert(after.includes("\nsteer me\n\nlater\n"), after);
    await s.pane.keys("C-c", "C-c");
    await assertTerminalRestored(s, 0);
  } finally {
    await s.close();
  }
});

Deno.test("INT-08: slash commands: autocomplete, /name, /session, /hotkeys, /model selector with fuzzy search, /llama unconfigured, initial prompt argument", async () => {
  const s = await startInteractiveScenario([DONE]);
  try {
    await startPi(s, ["say done"]);
    await s.pane.waitFor((t) => t.includes(" Done."), STEP_TIMEOUT, "the reply to the initial prompt");

    await s.pane.type("/");
    let screen = await s.pane.waitFor((t) => t.includes("(1/26)"), STEP_TIMEOUT, "the command list");
    assert(screen.includes("→ settings       Open settings menu"), screen);
    await s.pane.keys("C-c");
    await s.pane.waitFor((t) => !t.includes("(1/26)"), STEP_TIMEOUT, "the closed list");

    await s.pane.command("/name my work");
    screen = await s.pane.waitFor((t) => t.includes(" Session name set: my work"), STEP_TIMEOUT, "/name");
    assertMatch(screen, /<root>\/project • my work|\/project • my work/);

    await s.pane.command("/session");
    screen = await s.pane.waitFor((t) => t.includes(" Status: Inactive"), STEP_TIMEOUT, "/session");
    assert(screen.includes(" Name: my work"), screen);
    assert(screen.includes(" User: 1"), screen);

    // The built-in llama.cpp extension's command, with no router configured (as 1.6.0 says).
    await s.pane.command("/llama");
    await s.pane.waitFor(
      (t) => t.includes("Configure llama.cpp with /login llama.cpp"),
      STEP_TIMEOUT,
      "the llama.cpp notice",
    );

    // `!cmd` runs bash from the editor: the command and its output in the chat, the editor empty
    // (interactive_bash_test.ts compares the whole feature with 1.6.0).
    await s.pane.command("!echo hi-from-bang");
    screen = await s.pane.waitFor((t) => t.includes("\n hi-from-bang\n"), STEP_TIMEOUT, "the ! output");
    assert(screen.includes("\n $ echo hi-from-bang\n"), screen);

    await s.pane.command("/model");
    screen = await s.pane.waitFor((t) => t.includes("[fake-google]"), STEP_TIMEOUT, "the model selector");
    assert(
      screen.includes("→ ✓ test-model (Test model (anthropic-messages)) [fake-anthropic] · default"),
      screen,
    );
    await s.pane.type("respon");
    screen = await s.pane.waitFor((t) => !t.includes("[fake-google]"), STEP_TIMEOUT, "the filtered list");
    assert(screen.includes("→   test-model (Test model (openai-responses)) [fake-responses]"), screen);
    await s.pane.keys("Enter");
    screen = await s.pane.waitFor((t) => t.includes(" Model: test-model"), STEP_TIMEOUT, "the model change");
    assertMatch(screen, /\(fake-responses\) test-model$/);

    await s.pane.command("/hotkeys");
    // The table is taller than the screen: its end shows above the editor.
    screen = await s.pane.waitFor(
      (t) => t.includes("Run bash command (excluded from context)"),
      STEP_TIMEOUT,
      "/hotkeys",
    );
    assert(screen.includes("│ Ctrl+O                │ Toggle tool output expansion "), screen);
    assertMatch(screen, /└─+┴─+┘\n\n─{100}\n\n─{100}\n\n─{100}\n/);
    await s.pane.command("/quit");
    await assertTerminalRestored(s, 0);
  } finally {
    await s.close();
  }
});

Deno.test("INT-09: an error thrown from an extension's timer is shown and pi goes on; an uncaught rejection ends pi (exit 1) with the terminal restored", async () => {
  const s = await startInteractiveScenario([]);
  try {
    const survivable = `${s.agent.root}/survivable.ts`;
    await Deno.writeTextFile(
      survivable,
      'export default function () { setTimeout(() => { throw new Error("boom from a timer"); }, 500); }\n',
    );
    await startPi(s, ["-e", survivable]);
    // Compared without whitespace: under a long temp folder the message wraps onto a second row.
    const shown = `Extension "${s.agent.root}/survivable.ts" error: boom from a timer`.replace(
      /\s+/g,
      "",
    );
    await s.pane.waitFor(
      (t) => t.replace(/\s+/g, "").includes(shown),
      STEP_TIMEOUT,
      "the extension error in the chat",
    );
    await s.pane.command("/quit");
    await assertTerminalRestored(s, 0);

    // A rejection with no stack cannot be blamed on an extension: it stays fatal.
    const fatal = `${s.agent.root}/fatal.ts`;
    await Deno.writeTextFile(
      fatal,
      // The timer starts from a command, so a slow start-up (a loaded machine) cannot see it fire
      // before the editor is up.
      'export default function (pi) { pi.registerCommand("die", { description: "die", handler: async () => {' +
        ' setTimeout(() => void Promise.reject("fatal boom"), 50); } }); }\n',
    );
    await startPi(s, ["-e", fatal]);
    await s.pane.command("/die");
    await s.pane.waitFor(
      (t) => t.includes('error: Uncaught (in promise) "fatal boom"'),
      STEP_TIMEOUT,
      "the crash",
    );
    await assertTerminalRestored(s, 1);
  } finally {
    await s.close();
  }
});
