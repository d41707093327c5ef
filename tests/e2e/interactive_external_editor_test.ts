/**
 * The external editor (Ctrl+G, `app.editor.external`) beside pi 1.6.0: `$VISUAL` (over `$EDITOR`)
 * edits the prompt in a temp file, the edited text replaces the prompt and is sent; an editor that
 * exits non-zero leaves the prompt as it was, and one that cannot be started says so. The "editors"
 * are small shell scripts in the test's folder. The same keys run in our `pi` and in the reference;
 * the screens and what the model receives must be equal.
 */
import { assert, assertEquals } from "../support/assert.ts";
import type { ScriptedTurn } from "../support/fake_provider/mod.ts";
import {
  type InteractiveScenario,
  shellQuote,
  startInteractiveScenario,
} from "../support/interactive_scenario.ts";
import { assertSameScreens, collectScreens, type ScriptStep } from "../support/interactive_script.ts";

const TIMEOUTS = { start: 90_000, step: 30_000 };

const TURNS: ScriptedTurn[] = [{ content: [{ type: "text", text: "Got the edited prompt." }] }];

/** Replaces `draft` by `edited`, adds a line, and records what it was given. */
const GOOD_EDITOR = `#!/bin/sh
cp "$1" "$(dirname "$0")/seen.txt"
sed -i 's/draft/edited/' "$1"
printf '\\nsecond line\\n' >> "$1"
`;

/** Reads one line from the terminal it was given and makes it the prompt. */
const TYPING_EDITOR = `#!/bin/sh
IFS= read -r line
printf '%s' "$line" > "$1"
`;

/** Edits, then fails: the prompt must stay as it was. */
const FAILING_EDITOR = `#!/bin/sh
printf 'lost\\n' > "$1"
exit 3
`;

/** Start, type `typed`, press Ctrl+G until `edited` holds, then `more` steps. */
function steps(typed: string, edited: (screen: string) => boolean, more: ScriptStep[] = []): ScriptStep[] {
  return [
    {
      name: "start-up",
      act: async () => {},
      ready: (t) => t.includes("ctrl+o more") && t.includes("(auto)"),
    },
    { name: "typed", act: (s) => s.pane.type(typed), ready: (t) => t.includes(typed) },
    { name: "ctrl+g", act: (s) => s.pane.keys("C-g"), ready: edited },
    ...more,
  ];
}

type Kind = "good" | "failing" | "missing" | "typing" | "dialog";

const SCRIPTS: Record<Kind, ScriptStep[]> = {
  dialog: [
    {
      name: "start-up",
      act: async () => {},
      ready: (t) => t.includes("ctrl+o more") && t.includes("(auto)"),
    },
    {
      name: "/bug",
      act: (s) => s.pane.command("/bug the draft report"),
      ready: (t) => t.includes("Report a bug") && t.includes("the draft report"),
    },
    {
      name: "ctrl+g",
      act: (s) => s.pane.keys("C-g"),
      ready: (t) =>
        t.includes("Report a bug") && t.includes("the edited report") && t.includes("second line"),
    },
  ],
  typing: steps(
    "replace me",
    (t) => t.includes("Pi will resume when the editor exits."),
    [{
      name: "typed",
      act: (s) => s.pane.command("every key reaches the editor"),
      ready: (t) => t.includes("every key reaches the editor") && !t.includes("Pi will resume"),
    }],
  ),
  good: steps(
    "the draft prompt",
    (t) => t.includes("the edited prompt") && t.includes("second line"),
    [{ name: "sent", act: (s) => s.pane.keys("Enter"), ready: (t) => t.includes("Got the edited prompt.") }],
  ),
  failing: steps(
    "keep this prompt",
    (t) => t.includes("External editor exited with code 3; prompt unchanged"),
  ),
  missing: steps("still here", (t) => t.includes("Failed to launch external editor:")),
};

async function writeEditor(s: InteractiveScenario, name: string, body: string): Promise<string> {
  const path = `${s.agent.root}/${name}`;
  await Deno.writeTextFile(path, body);
  await Deno.chmod(path, 0o755);
  return path;
}

async function run(reference: boolean, kind: Kind) {
  const s = await startInteractiveScenario(TURNS, { reference });
  try {
    const good = await writeEditor(s, "good-editor.sh", GOOD_EDITOR);
    const failing = await writeEditor(s, "failing-editor.sh", FAILING_EDITOR);
    const typing = await writeEditor(s, "typing-editor.sh", TYPING_EDITOR);
    // $VISUAL wins over $EDITOR (which would fail).
    const env = kind === "good" || kind === "dialog"
      ? `VISUAL=${shellQuote(good)} EDITOR=${shellQuote(failing)}`
      : kind === "failing"
      ? `VISUAL= EDITOR=${shellQuote(failing)}`
      : kind === "typing"
      ? `VISUAL= EDITOR=${shellQuote(typing)}`
      : `VISUAL=no-such-editor-xyz EDITOR=${shellQuote(good)}`;
    await s.pane.command(`clear; ${env} ${s.piCommand()}`);
    const script = SCRIPTS[kind];
    const screens = await collectScreens(s, script, TIMEOUTS);
    const seen = kind === "good" || kind === "dialog"
      ? await Deno.readTextFile(`${s.agent.root}/seen.txt`)
      : undefined;
    const bodies = s.server.requests.map((r) => JSON.stringify(r.body));
    return { screens, script, seen, bodies };
  } finally {
    await s.close();
  }
}

Deno.test("INT-EDITOR-EXTERNAL: Ctrl+G edits the prompt in $VISUAL and the edited text is sent, as pi 1.6.0", async () => {
  const ours = await run(false, "good");
  const reference = await run(true, "good");
  assertSameScreens(ours.script, ours.screens, reference.screens);
  assertEquals(ours.seen, "the draft prompt");
  assertEquals(ours.bodies.length, 1);
  assert(ours.bodies[0].includes("the edited prompt\\nsecond line"), ours.bodies[0]);
  assertEquals(
    ours.screens[2].split("\n").filter((l) => l === " the edited prompt" || l === " second line").length,
    0,
    "the edit is in the editor, not yet in the chat",
  );
});

Deno.test("INT-EDITOR-EXTERNAL: an editor exiting non-zero leaves the prompt unchanged with 1.6.0's notice", async () => {
  const ours = await run(false, "failing");
  const reference = await run(true, "failing");
  assertSameScreens(ours.script, ours.screens, reference.screens);
  assert(ours.screens[2].includes("keep this prompt"));
  assert(!ours.screens[2].includes("lost"));
  assertEquals(ours.bodies.length, 0);
});

Deno.test("INT-EDITOR-EXTERNAL: an editor that cannot start gives 1.6.0's 'Failed to launch' notice", async () => {
  const ours = await run(false, "missing");
  const reference = await run(true, "missing");
  assertSameScreens(ours.script, ours.screens, reference.screens);
  assert(ours.screens[2].includes("Failed to launch external editor: no-such-editor-xyz"));
  assert(ours.screens[2].includes("still here"));
});

Deno.test("INT-EDITOR-EXTERNAL: the editor gets every key typed while it runs (no read of pi's is left pending), as 1.6.0", async () => {
  const ours = await run(false, "typing");
  const reference = await run(true, "typing");
  assertSameScreens(ours.script, ours.screens, reference.screens);
  const last = ours.screens[ours.screens.length - 1].split("\n");
  assert(last.includes("every key reaches the editor"), "the typed line is the prompt now");
  assert(!last.includes("replace me"));
});

Deno.test("INT-EDITOR-EXTERNAL: Ctrl+G in an editor dialog (/bug's description) edits its text in $VISUAL, as 1.6.0", async () => {
  const ours = await run(false, "dialog");
  const reference = await run(true, "dialog");
  assertSameScreens(ours.script, ours.screens, reference.screens);
  assertEquals(ours.seen, "the draft report");
  assertEquals(ours.bodies.length, 0);
});
