/**
 * The editor hooks of `ctx.ui` in the interactive mode (EXT-07, issue 16): 1.6.0's modal-editor
 * example (a `CustomEditor` subclass from `ctx.ui.setEditorComponent`) in insert and normal mode;
 * an extension that swaps in its own editor and back (`getEditorComponent`, app keys and
 * completions kept), stacks `#` completions on the built-in ones (`addAutocompleteProvider`) and
 * renames hidden thinking (`setHiddenThinkingLabel`). The same keys run in our `pi` and in pi 1.6.0
 * in tmux panes of the same size, and the normalised screens must be equal.
 */
import { assert, assertEquals } from "../support/assert.ts";
import type { ScriptedTurn } from "../support/fake_provider/mod.ts";
import { type InteractiveScenario, startInteractiveScenario } from "../support/interactive_scenario.ts";
import { screenDifferences, type ScriptStep } from "../support/interactive_script.ts";
import { requireReference } from "../../scripts/reference/locate.ts";
import { join } from "node:path";

const TIMEOUTS = { start: 90_000, step: 30_000 };
const SIZE = { width: 80, height: 30 };

/** Presses `keys`. */
const press = (...keys: string[]) => (s: InteractiveScenario) => s.pane.keys(...keys);
/** Types `text` (no Enter). */
const type = (text: string) => (s: InteractiveScenario) => s.pane.type(text);
/** Types `line` and Enter. */
const send = (line: string) => (s: InteractiveScenario) => s.pane.command(line);

/**
 * The screen without what this build does not show yet: 1.6.0 lists loaded extensions under the
 * header (`[Extensions]` and one row per extension); those rows go and as many blank rows come in
 * above the editor.
 */
function withoutResourceList(screen: string): string {
  const lines = screen.split("\n");
  const at = lines.indexOf("[Extensions]");
  if (at === -1) return screen;
  let end = at + 1;
  while (lines[end] !== undefined && lines[end] !== "") end++;
  if (lines[end] === "") end++;
  lines.splice(at, end - at);
  const editorTop = lines.findIndex((line, i) => i >= at && /^─+/.test(line));
  lines.splice(editorTop === -1 ? lines.length : editorTop, 0, ...Array<string>(end - at).fill(""));
  return lines.join("\n");
}

async function runScript(
  steps: readonly ScriptStep[],
  extensionArgs: (s: InteractiveScenario) => Promise<string[]>,
  options: {
    reference: boolean;
    turns: ScriptedTurn[];
    settings?: Record<string, unknown>;
    /** Run after the compared steps, on our pi only; its screen is appended. */
    oursOnly?: ScriptStep;
  },
): Promise<string[]> {
  const s = await startInteractiveScenario(options.turns, {
    reference: options.reference,
    settings: options.settings,
    ...SIZE,
  });
  try {
    await s.pane.command(`clear; ${s.piCommand(await extensionArgs(s))}`);
    const screens: string[] = [];
    for (const [i, step] of steps.entries()) {
      await step.act(s);
      await s.pane.waitFor(step.ready, i === 0 ? TIMEOUTS.start : TIMEOUTS.step, step.name);
      // A path cut to fit a border row ends mid-id, which the normaliser masks only when whole.
      const screen = withoutResourceList(s.normalized(await s.pane.settle(500, 5_000)));
      screens.push(screen.replace(/ · (?:<root>|\/tmp\/pi-env-)[^ ]*─$/m, " · <cwd>─"));
    }
    const extra = options.reference ? undefined : options.oursOnly;
    if (extra) {
      await extra.act(s);
      screens.push(await s.pane.waitFor(extra.ready, TIMEOUTS.step, extra.name));
    }
    await s.pane.keys("C-c");
    await s.pane.command("/quit");
    await s.pane.waitFor((t) => /\$ ?$/.test(t), TIMEOUTS.step, "the shell after exit");
    return screens;
  } finally {
    await s.close();
  }
}

const MODAL_STEPS: ScriptStep[] = [
  { name: "start-up", act: async () => {}, ready: (t) => t.includes("─ INSERT") },
  { name: "typed", act: type("hello world"), ready: (t) => t.includes("hello world") },
  { name: "normal mode", act: press("Escape"), ready: (t) => t.includes("─ NORMAL") },
  {
    name: "edited in normal mode",
    act: async (s) => {
      await s.pane.type("0");
      await s.pane.type("x");
      await s.pane.type("q");
    },
    ready: (t) => t.includes("\nello world") && !t.includes("q"),
  },
  {
    name: "insert again",
    act: async (s) => {
      await s.pane.type("i");
      await s.pane.waitFor((t) => t.includes("─ INSERT"), TIMEOUTS.step, "insert mode");
      await s.pane.type("H");
    },
    ready: (t) => t.includes("Hello world"),
  },
  { name: "submitted", act: press("Enter"), ready: (t) => t.includes("Hi there.") },
];

Deno.test("EXT-07: 1.6.0's modal-editor example replaces the editor (insert and normal mode, Enter still submits), as in pi 1.6.0", async () => {
  const path = join(requireReference().packageDir, "examples", "extensions", "modal-editor.ts");
  const run = (reference: boolean) =>
    runScript(MODAL_STEPS, () => Promise.resolve(["-e", path]), {
      reference,
      turns: [{ content: [{ type: "text", text: "Hi there." }] }],
    });
  const ours = await run(false);
  const byName = (name: string) => ours[MODAL_STEPS.findIndex((s) => s.name === name)];
  assert(/\n─+ NORMAL\n/.test(byName("normal mode")), byName("normal mode"));
  assert(byName("submitted").includes(" Hello world"), "the prompt sent from the extension's editor");
  const reference = await run(true);
  const differences = MODAL_STEPS.flatMap((step, i) => screenDifferences(step.name, ours[i], reference[i]));
  if (differences.length > 0) console.log(ours.join("\n=====\n"), "\n#####\n", reference.join("\n=====\n"));
  assertEquals(differences, [], "screens differ from pi 1.6.0's");
});

/** An extension using the three hooks. */
const HOOKS_EXTENSION = `
import { CustomEditor } from "@earendil-works/pi-coding-agent";

class LoudEditor extends CustomEditor {
  handleInput(data) {
    super.handleInput(data === "a" ? "A" : data);
  }
}

export default function (pi) {
  pi.on("session_start", (_event, ctx) => {
    ctx.ui.setHiddenThinkingLabel("Pondering quietly...");
    ctx.ui.addAutocompleteProvider((current) => ({
      triggerCharacters: ["#"],
      async getSuggestions(lines, line, col, options) {
        const match = (lines[line] ?? "").slice(0, col).match(/#(\\w*)$/);
        if (!match) return current.getSuggestions(lines, line, col, options);
        const items = [
          { value: "#42", label: "#42", description: "the answer" },
          { value: "#7", label: "#7", description: "lucky" },
        ].filter((item) => item.value.startsWith("#" + match[1]));
        return items.length > 0 ? { items, prefix: "#" + match[1] } : null;
      },
      applyCompletion: (lines, line, col, item, prefix) => current.applyCompletion(lines, line, col, item, prefix),
    }));
  });
  pi.registerCommand("loud", {
    handler: (_args, ctx) => {
      if (ctx.ui.getEditorComponent()) {
        ctx.ui.setEditorComponent(undefined);
        ctx.ui.notify("built-in editor", "info");
        return;
      }
      ctx.ui.setEditorComponent((tui, theme, kb) => new LoudEditor(tui, theme, kb));
      ctx.ui.notify("loud editor", "info");
    },
  });
  pi.registerCommand("odd", {
    handler: (_args, ctx) => {
      try {
        ctx.ui.setEditorComponent(() => ({ render: () => [], invalidate() {}, getText: () => "", setText() {}, handleInput() {} }));
        ctx.ui.notify("odd editor shown", "info");
      } catch (error) {
        ctx.ui.notify(error.message, "error");
      }
    },
  });
  pi.registerCommand("plain", {
    handler: (_args, ctx) => {
      ctx.ui.setHiddenThinkingLabel();
      ctx.ui.notify("label reset", "info");
    },
  });
}
`;

const HOOKS_STEPS: ScriptStep[] = [
  { name: "start-up", act: async () => {}, ready: (t) => t.includes("(fake-anthropic) test-model") },
  { name: "loud", act: send("/loud"), ready: (t) => t.includes("loud editor") },
  { name: "loud typed", act: type("banana"), ready: (t) => t.includes("bAnAnA") },
  // The app's keys still work in the extension's editor: Ctrl+C clears it.
  { name: "cleared", act: press("C-c"), ready: (t) => !t.includes("bAnAnA") },
  {
    name: "back to built-in",
    act: send("/loud"),
    ready: (t) => t.includes("built-in editor"),
  },
  { name: "plain typed", act: type("banana #"), ready: (t) => t.includes("banana #") && t.includes("#42") },
  {
    name: "completion narrowed",
    act: type("4"),
    ready: (t) => t.includes("the answer") && !t.includes("lucky"),
  },
  {
    name: "completed",
    act: press("Tab"),
    ready: (t) => t.includes("banana #42") && !t.includes("the answer"),
  },
  {
    name: "hidden thinking",
    act: press("Enter"),
    ready: (t) => t.includes("The reply.") && t.includes("Pondering quietly..."),
  },
  {
    name: "label reset",
    act: send("/plain"),
    ready: (t) => t.includes("label reset") && t.includes("Thinking..."),
  },
  // A new session gives the built-in editor back (1.6.0's resetExtensionUI).
  { name: "loud again", act: send("/loud"), ready: (t) => t.includes("loud editor") },
  {
    name: "new session",
    act: async (s) => {
      await s.pane.command("/new");
      await s.pane.waitFor((t) => !t.includes("loud editor"), TIMEOUTS.step, "the new session");
      await s.pane.type("banana");
    },
    ready: (t) => t.includes("\nbanana"),
  },
];

Deno.test("EXT-07: setEditorComponent (and back), addAutocompleteProvider and setHiddenThinkingLabel in the TUI, as in pi 1.6.0", async () => {
  const turns: ScriptedTurn[] = [
    {
      content: [{ type: "thinking", thinking: "Secret deliberation." }, { type: "text", text: "The reply." }],
    },
  ];
  const run = (reference: boolean) =>
    runScript(HOOKS_STEPS, async (s) => {
      const path = `${s.agent.root}/editor_hooks.ts`;
      await Deno.writeTextFile(path, HOOKS_EXTENSION);
      return ["-e", path];
    }, {
      reference,
      turns,
      settings: { hideThinkingBlock: true },
      // 1.6.0 takes any object with the editor's methods; this build only CustomEditor subclasses.
      oursOnly: {
        name: "another kind of editor",
        act: async (s) => {
          await s.pane.keys("C-c");
          await s.pane.command("/odd");
        },
        ready: (t) => t.includes("must return a CustomEditor"),
      },
    });
  const ours = await run(false);
  const byName = (name: string) => ours[HOOKS_STEPS.findIndex((s) => s.name === name)];
  assert(
    ours[HOOKS_STEPS.length].includes(
      "\n Error: ctx.ui.setEditorComponent: the factory must return a CustomEditor (from\n" +
        " @earendil-works/pi-coding-agent); other editor components are not available in\n this build yet\n",
    ),
    ours[HOOKS_STEPS.length],
  );
  assert(byName("hidden thinking").includes("\n Pondering quietly...\n"), "the renamed thinking row");
  assert(!byName("hidden thinking").includes("Secret deliberation"), "thinking stays hidden");
  assert(byName("hidden thinking").includes(" banana #42"), "the completed prompt was sent");
  const reference = await run(true);
  assertEquals(reference.length, HOOKS_STEPS.length);
  const differences = HOOKS_STEPS.flatMap((step, i) => screenDifferences(step.name, ours[i], reference[i]));
  if (differences.length > 0) console.log(ours.join("\n=====\n"), "\n#####\n", reference.join("\n=====\n"));
  assertEquals(differences, [], "screens differ from pi 1.6.0's");
});

/** 1.6.0 examples that replace the editor or use the exported theme helpers, loaded together. */
const EXAMPLES = ["hidden-thinking-label.ts", "tools.ts", "border-status-editor.ts"];

const EXAMPLE_STEPS: ScriptStep[] = [
  { name: "start-up", act: async () => {}, ready: (t) => t.includes("fake-anthropic/test-model") },
  {
    name: "reply with hidden thinking",
    act: send("hello"),
    ready: (t) => t.includes("The reply.") && t.includes("Pondering..."),
  },
  {
    name: "relabelled",
    act: send("/thinking-label Mulling"),
    ready: (t) => t.includes("label set to: Mulling"),
  },
  { name: "tools", act: send("/tools"), ready: (t) => t.includes("bash") && t.includes("read") },
  { name: "tool toggled", act: press("Enter"), ready: (t) => /disabled/.test(t) },
  { name: "tools closed", act: press("Escape"), ready: (t) => t.includes("fake-anthropic/test-model") },
];

Deno.test("EXT-07: 1.6.0's border-status-editor, hidden-thinking-label and tools examples in the TUI show what 1.6.0 shows", async () => {
  const turns: ScriptedTurn[] = [
    {
      content: [{ type: "thinking", thinking: "Secret deliberation." }, { type: "text", text: "The reply." }],
    },
  ];
  const dir = join(requireReference().packageDir, "examples", "extensions");
  const run = (reference: boolean) =>
    runScript(EXAMPLE_STEPS, () => Promise.resolve(EXAMPLES.flatMap((name) => ["-e", join(dir, name)])), {
      reference,
      turns,
      settings: { hideThinkingBlock: true },
    });
  const ours = await run(false);
  const byName = (name: string) => ours[EXAMPLE_STEPS.findIndex((s) => s.name === name)];
  assert(byName("relabelled").includes("\n Mulling\n"), "the thinking row renamed by /thinking-label");
  // The tool list is pi.getAllTools(): 1.6.0 also has powershell, codemode and tool_search, which
  // this build does not, so those screens are checked here rather than compared.
  assert(byName("tools").includes("\nTool Configuration\n\n→ read   enabled\n  bash   enabled\n"));
  assert(byName("tool toggled").includes("\n→ read   disabled\n"));
  assert(byName("tool toggled").includes("\n  ls     disabled\n\n  Enter/Space to change · Esc to cancel\n"));
  const reference = await run(true);
  const checkedAbove = new Set(["tools", "tool toggled"]);
  const differences = EXAMPLE_STEPS.flatMap((step, i) =>
    checkedAbove.has(step.name) ? [] : screenDifferences(step.name, ours[i], reference[i])
  );
  if (differences.length > 0) console.log(ours.join("\n=====\n"), "\n#####\n", reference.join("\n=====\n"));
  assertEquals(differences, [], "screens differ from pi 1.6.0's");
});

const RAINBOW_STEPS: ScriptStep[] = [
  { name: "start-up", act: async () => {}, ready: (t) => t.includes("(fake-anthropic) test-model") },
  { name: "typed", act: type("please ultrathink now"), ready: (t) => t.includes("please ultrathink now") },
  { name: "submitted", act: press("Enter"), ready: (t) => t.includes("Hi there.") },
];

Deno.test("EXT-07: 1.6.0's rainbow-editor example replaces the editor (text, submit), as in pi 1.6.0", async () => {
  const path = join(requireReference().packageDir, "examples", "extensions", "rainbow-editor.ts");
  const run = (reference: boolean) =>
    runScript(RAINBOW_STEPS, () => Promise.resolve(["-e", path]), {
      reference,
      turns: [{ content: [{ type: "text", text: "Hi there." }] }],
    });
  const ours = await run(false);
  assert(ours[2].includes(" please ultrathink now"), "the prompt sent from the extension's editor");
  const reference = await run(true);
  const differences = RAINBOW_STEPS.flatMap((step, i) => screenDifferences(step.name, ours[i], reference[i]));
  if (differences.length > 0) console.log(ours.join("\n=====\n"), "\n#####\n", reference.join("\n=====\n"));
  assertEquals(differences, [], "screens differ from pi 1.6.0's");
});
